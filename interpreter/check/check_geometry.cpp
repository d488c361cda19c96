// The checker on the board's geometry: `directions` (named sets expanded, each direction a
// symbol of type direction) and `coordinates`, and where the geometry built-ins exist.
#include <fmt/format.h>

#include <array>

#include "check/checker_impl.hpp"
#include "lang/builtins.hpp"

namespace keli::check {
namespace {

// The named sets of directions a game may list, each direction with its step (dx, dy) between
// the points where sites are drawn (x to the right, y downwards: row 0 is the top one).
struct NamedDirection {
  const char* name;
  int dx, dy;
};
struct DirectionSet {
  const char* name;
  std::vector<NamedDirection> members;
};
const std::array<DirectionSet, 4>& direction_sets() {
  static const std::array<DirectionSet, 4> sets = {{
      {"orthogonal", {{"N", 0, -1}, {"E", 1, 0}, {"S", 0, 1}, {"W", -1, 0}}},
      {"diagonal", {{"NE", 1, -1}, {"SE", 1, 1}, {"SW", -1, 1}, {"NW", -1, -1}}},
      {"compass",
       {{"N", 0, -1},
        {"NE", 1, -1},
        {"E", 1, 0},
        {"SE", 1, 1},
        {"S", 0, 1},
        {"SW", -1, 1},
        {"W", -1, 0},
        {"NW", -1, -1}}},
      // A hex grid of rows drawn one half-cell further right each (a rhombus, as Hex's board):
      // site (x, y) touches (x±1, y), (x, y±1), (x+1, y-1) and (x-1, y+1).
      {"hex", {{"E", 1, 0}, {"NE", 1, -1}, {"NW", 0, -1}, {"W", -1, 0}, {"SW", -1, 1}, {"SE", 0, 1}}},
  }};
  return sets;
}

const DirectionSet* find_set(const std::string& name) {
  for (const auto& s : direction_sets())
    if (name == s.name) return &s;
  return nullptr;
}

}  // namespace

// `what` is used in a game without directions: E103 for the type, E101 for a built-in.
void Checker::needs_directions(Span span, const std::string& what) {
  diags_.report(what.starts_with("the type") ? Code::unknown_type : Code::unknown_name, span,
                fmt::format("{} needs the board's directions, and this game declares none", what),
                "declare them: 'directions compass', 'directions orthogonal' or 'directions up(0, -1), ...'");
}

bool Checker::builtin_here(const std::string& name) const {
  return !lang::is_geometry_name(name) || c_.directions_decl != nullptr;
}

// Whether e is the bare name of a table (a `var` or `const` with dimensions), marked used: what a
// search's first argument must be, and never checked as a value (it is not indexed).
bool Checker::names_table(const Expr& e) {
  const int g = e.kind == ExprKind::Name ? c_.lookup(e.text) : -1;
  if (g < 0 || (c_.syms[g].kind != SymKind::Var && c_.syms[g].kind != SymKind::Const) || !c_.syms[g].decl ||
      c_.syms[g].decl->dims.empty())
    return false;
  c_.syms[g].used = true;
  return true;
}

// `group(T, s)` or `border(T, s)`: T names a table of the state with a cell per site (read whole by
// the search, so never indexed here), s is a site; the result is a domain of sites.
Type Checker::search_call(Expr& e) {
  const std::string& name = e.kids[0]->text;
  needs_play(e.kids[0]->span, fmt::format("'{}(...)'", name));
  if (e.kids.size() != 3) {
    diags_.report(Code::wrong_arity, e.span,
                  fmt::format("'{}' takes 2 arguments, but {} given", name, count_is(e.kids.size() - 1)),
                  fmt::format("'{}(stone, s)': a table with a cell per site, and the site to search from", name));
    for (size_t i = 1; i < e.kids.size(); ++i)
      if (!names_table(*e.kids[i])) expr(*e.kids[i]);
    return Type::Error;
  }
  Expr& table = *e.kids[1];
  const int g = names_table(table) ? c_.lookup(table.text) : -1;
  const Symbol* sym = g >= 0 ? &c_.syms[g] : nullptr;
  if (!sym && expr(table) == Type::Error) {
    // an unknown name: reported as such
  } else if (!sym || sym->kind != SymKind::Var || sym->decl->dims.size() != 1 || sym->decl->dims[0].type != "site") {
    diags_.report(Code::type_mismatch, table.span,
                  fmt::format("the first argument of '{}' must name a table of the state with a cell per site", name),
                  "declare it 'var stone: player or none per site'; the search joins sites whose cells are equal");
  } else {
    table.sym = g;
    table.type = sym->type;
  }
  want_type(*e.kids[2], Type::Site, fmt::format("the site '{}' searches from", name).c_str());
  e.enum_id = static_cast<int>(Type::Site);
  return Type::Domain;
}

// Expands the `directions` declaration into c_.directions and declares each as a symbol.
void Checker::collect_directions() {
  ast::Decl* d = c_.directions_decl;
  if (!d) return;
  for (size_t i = 0; i < d->names.size(); ++i) {
    const std::string& name = d->names[i];
    const auto& step = d->faces[i];
    if (step.empty()) {
      const DirectionSet* set = find_set(name);
      if (!set) {
        diags_.report(Code::unknown_name, d->name_spans[i], fmt::format("'{}' is no set of directions", name),
                      hint_or(diag::suggest(name, {"orthogonal", "diagonal", "compass", "hex"}),
                              fmt::format("a direction of its own gives its step: '{}(1, 0)'", name)));
        continue;
      }
      c_.hex_directions = c_.hex_directions || name == "hex";
      for (const auto& m : set->members)
        c_.directions.push_back({m.name, d->name_spans[i], nullptr, nullptr, m.dx, m.dy});
      continue;
    }
    c_.directions.push_back({name, d->name_spans[i], step[0].get(), step.size() > 1 ? step[1].get() : nullptr, 0, 0});
  }
  if (c_.directions.size() > static_cast<size_t>(lang::kMaxDirections))
    diags_.report(
        Code::too_large, d->span,
        fmt::format("a game has at most {} directions, and this lists {}", lang::kMaxDirections, c_.directions.size()),
        "kMaxDirections");
  for (size_t i = 0; i < c_.directions.size(); ++i) {
    const auto& dir = c_.directions[i];
    if (dir.name == "none" || find_builtin(dir.name) >= 0 || find_builtin_var(dir.name) >= 0) {
      diags_.report(Code::duplicate_name, dir.span, fmt::format("'{}' is a built-in name", dir.name),
                    "name the direction otherwise");
      continue;
    }
    if (int g = c_.lookup(dir.name); g >= 0) {
      std::string first = c_.syms[g].decl ? src_.where(c_.syms[g].decl->name_span) : "a seat name";
      diags_.report(Code::duplicate_name, dir.span, fmt::format("direction '{}' is already declared", dir.name),
                    c_.syms[g].kind == SymKind::Direction ? "each direction is listed once"
                                                          : fmt::format("first declared at {}", first));
      continue;
    }
    Symbol s{dir.name, SymKind::Direction, nullptr, Type::Direction, -1, static_cast<int>(i)};
    s.used = true;
    c_.by_name[dir.name] = static_cast<int>(c_.syms.size());
    c_.syms.push_back(s);
  }
}

// A direction's step is two numbers (the grammar's) known before the board is built; the coordinates' edge is
// `bottom` or `top`, the letter left out one letter.
void Checker::check_geometry() {
  for (const auto& dir : c_.directions)
    for (ast::Expr* e : {dir.dx, dir.dy})
      if (e) constant_int(*e, "a direction's step");
  const ast::Decl* k = c_.coordinates;
  if (!k) return;
  if (k->names[0] != "bottom" && k->names[0] != "top")
    diags_.report(Code::unknown_name, k->name_spans[0],
                  fmt::format("coordinates count rows from 'bottom' or 'top', not '{}'", k->names[0]),
                  "'from bottom': a1 is the bottom-left site (chess, draughts, Go); 'from top': the top-left (Hex)");
  if (k->names.size() > 1 && (k->names[1].size() != 1 || k->names[1][0] < 'a' || k->names[1][0] > 'z'))
    diags_.report(Code::unknown_name, k->name_spans[1],
                  fmt::format("'without' leaves out one small letter, not '{}'", k->names[1]),
                  "'without i', as a go board's columns");
}

}  // namespace keli::check
