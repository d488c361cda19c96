// The checker's first pass: every declaration becomes a symbol, with variants replacing,
// overriding or extending their base's declarations.
#include <fmt/format.h>

#include <algorithm>

#include "check/checker_impl.hpp"

namespace keli::check {

// ---- collection ---------------------------------------------------------------------------------

void Checker::collect() {
  std::vector<bool> is_variant(src_.size(), false);
  for (auto& m : c_.modules) {
    if (!m.extends.empty()) is_variant[m.file] = true;
    if (m.syntax_errors > 0) syntax_files_.insert(m.file);
    broken_.insert(m.broken_names.begin(), m.broken_names.end());
  }
  const ast::Module& main = c_.modules.at(c_.main);
  c_.game_name = main.game_name;
  c_.base_file = main.extends;
  for (auto& m : c_.modules) {
    if (c_.game_name.empty() && !m.game_name.empty() && &m == &main) c_.game_name = m.game_name;
    for (auto& d : m.decls) collect_decl(d, is_variant[m.file]);
  }
  if (c_.game_name.empty()) c_.game_name = src_.file(main.file).path;
  if (c_.players) {
    for (size_t i = 0; i < c_.players->names.size(); ++i) {
      const std::string& n = c_.players->names[i];
      if (c_.by_name.count(n)) {
        diags_.report(Code::duplicate_name, c_.players->name_spans[i],
                      fmt::format("seat name '{}' is already declared", n));
        continue;
      }
      Symbol s{n, SymKind::Seat, nullptr, Type::Player, -1, static_cast<int>(i)};
      s.used = true;
      c_.by_name[n] = static_cast<int>(c_.syms.size());
      c_.syms.push_back(s);
    }
  }
  collect_directions();
}

static std::vector<ast::Decl*>* list_for(Checked& c, DeclKind k) {
  switch (k) {
    case DeclKind::Param: return &c.params;
    case DeclKind::Const: return &c.consts;
    case DeclKind::Var: return &c.vars;
    case DeclKind::Region: return &c.regions;
    case DeclKind::Track: return &c.tracks;
    case DeclKind::Dice: return &c.dice;
    case DeclKind::Def: return &c.defs;
    case DeclKind::Shape: return &c.shapes;
    case DeclKind::Event: return &c.events;
    case DeclKind::Phase: return &c.phases;
    default: return nullptr;
  }
}

static SymKind sym_kind_for(DeclKind k) {
  switch (k) {
    case DeclKind::Param: return SymKind::Param;
    case DeclKind::Const: return SymKind::Const;
    case DeclKind::Var: return SymKind::Var;
    case DeclKind::Region: return SymKind::Region;
    case DeclKind::Track: return SymKind::Track;
    case DeclKind::Dice: return SymKind::Dice;
    case DeclKind::Def: return SymKind::Def;
    case DeclKind::Shape: return SymKind::Shape;
    case DeclKind::Event: return SymKind::Event;
    default: return SymKind::Phase;
  }
}

// `players`, `pieces` and `board` are declared once; a variant may replace its base's.
void Checker::set_once(ast::Decl*& slot, ast::Decl& d, bool from_variant) {
  bool replaces = slot && from_variant && slot->file != d.file;
  if (slot && !replaces) {
    diags_.report(Code::duplicate_name, d.span, fmt::format("'{}' is already declared", d.name),
                  fmt::format("first declared at {}", src_.where(slot->span)));
    return;
  }
  if (replaces && !d.is_override)
    diags_.report(Code::missing_override, d.span, fmt::format("this '{}' replaces the base game's", d.name),
                  fmt::format("write 'override {}' to say so (the base's is at {})", d.name, src_.where(slot->span)));
  if (!slot && d.is_override) override_missing(d, from_variant);
  slot = &d;
}

void Checker::collect_decl(ast::Decl& d, bool from_variant) {
  switch (d.kind) {
    case DeclKind::Import: return;
    case DeclKind::About:
      for (auto& e : d.entries) c_.about.push_back(e);
      return;
    case DeclKind::Players: set_once(c_.players, d, from_variant); return;
    case DeclKind::Pieces: set_once(c_.pieces, d, from_variant); return;
    case DeclKind::Board: set_once(c_.board, d, from_variant); return;
    case DeclKind::Display: c_.displays.push_back(&d); return;
    case DeclKind::Repetitions: set_once(c_.compared, d, from_variant); return;
    case DeclKind::Directions: set_once(c_.directions_decl, d, from_variant); return;
    case DeclKind::Coordinates: set_once(c_.coordinates, d, from_variant); return;
    case DeclKind::Setup: c_.setups.push_back(&d); return;
    case DeclKind::On: return add_replacing(c_.handlers, d, from_variant);
    case DeclKind::Invariant: return add_replacing(c_.invariants, d, from_variant);
    case DeclKind::Remove: return remove_decl(d, from_variant);
    case DeclKind::Limit: c_.limits.push_back(&d); return;
    case DeclKind::Extend: extend_phase(d, from_variant); return;
    default: break;
  }
  if (d.kind == DeclKind::Phase)
    for (auto& m : d.moves)
      if (m.is_override)
        diags_.report(
            Code::unknown_override, m.span,
            fmt::format("'override' replaces a rule of a base game's phase, and '{}' is this file's own", d.name),
            fmt::format("to change one rule of a base's phase, write 'extend phase {} {{ override move ... }}'; here "
                        "drop 'override'",
                        d.name));
  // The board's geometry names are the game's own to define (lang::is_geometry_name).
  if ((find_builtin(d.name) >= 0 || find_builtin_var(d.name) >= 0) && !lang::is_geometry_name(d.name)) {
    diags_.report(Code::duplicate_name, d.name_span, fmt::format("'{}' is a built-in name", d.name),
                  "choose another name");
    return;
  }
  auto* list = list_for(c_, d.kind);
  auto it = c_.by_name.find(d.name);
  if (d.kind == DeclKind::Param && d.override_only) {
    // A variant's `param NAME = VALUE`: the base's declaration keeps its type and allowed values.
    if (it == c_.by_name.end() || c_.syms[it->second].kind != SymKind::Param) {
      std::vector<std::string> names;
      for (auto* x : c_.params) names.push_back(x->name);
      diags_.report(Code::unknown_override, d.name_span, fmt::format("there is no parameter '{}' to set", d.name),
                    from_variant ? hint_or(diag::suggest(d.name, names), "a variant sets only its base's parameters")
                                 : "declare it with a type: param NAME: TYPE = DEFAULT");
      return;
    }
    ast::Decl* base = c_.syms[it->second].decl;
    base->value = std::move(d.value);
    if (!d.doc.empty()) base->doc = d.doc;
    return;
  }
  if (it != c_.by_name.end()) {
    Symbol& old = c_.syms[it->second];
    if (from_variant && old.decl && old.decl->file != d.file && old.kind == sym_kind_for(d.kind)) {
      replace_decl(d, old);  // a variant replaces its base's definition of the same name and kind
      std::replace(list->begin(), list->end(), old.decl, &d);
      old.decl = &d;
      d.sym = it->second;
      return;
    }
    std::string first = old.decl ? src_.where(old.decl->name_span) : "a seat name";
    diags_.report(Code::duplicate_name, d.name_span, fmt::format("'{}' is already declared", d.name),
                  fmt::format("first declared at {} as {}", first, sym_kind_name(old.kind)));
    return;
  }
  if (d.is_override) override_missing(d, from_variant);  // reported, then declared as written
  Symbol s{d.name, sym_kind_for(d.kind), &d};
  if (d.kind == DeclKind::Param && d.ptype == ast::ParamType::Enum) {
    s.enum_id = static_cast<int>(c_.enums.size());
    c_.enums.push_back({d.name, d.choices});
    std::set<std::string> seen;
    for (size_t i = 0; i < d.choices.size(); ++i)
      if (!seen.insert(d.choices[i]).second)
        diags_.report(Code::bad_param_decl, d.choice_spans[i],
                      fmt::format("choice '{}' is listed twice", d.choices[i]));
  }
  d.sym = static_cast<int>(c_.syms.size());
  c_.by_name[d.name] = d.sym;
  c_.syms.push_back(std::move(s));
  list->push_back(&d);
}

}  // namespace keli::check
