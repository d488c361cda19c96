// The checker's small judgements on types and constants, used by declarations and bodies alike.
#include <fmt/format.h>

#include <algorithm>

#include "check/checker_impl.hpp"
#include "lang/history.hpp"

namespace keli::check {

// ---- helpers ------------------------------------------------------------------------------------

bool Checker::compatible(Type want, Type got) {
  if (want == Type::Error || got == Type::Error) return true;
  if (want == got) return true;
  if (lang::is_or_none(want))  // a `T or none` holds none, a T, or a number as a T does
    return got == Type::None || got == Type::Int || compatible(lang::without_none(want), got);
  if (ast::is_number(want) && got == Type::Int) return true;
  if (want == Type::Int && ast::is_number(got)) return true;
  return false;
}

void Checker::want_type(Expr& e, Type want, const char* what) {
  Type got = expr(e, want);
  if (!compatible(want, got))
    mismatch(e, want, got,
             fmt::format("{} must be {}, but this is {}", what, ast::type_name(want), ast::type_name(got)));
}

// `distinct by KEY` compares one value per parameter value: a number, truth value, site, seat,
// piece or choice (absent values compare too).
void Checker::distinct_key(Expr& e) {
  Type t = expr(e, Type::Error);
  if (t == Type::Error || is_number(t) || is_or_none(t) || t == Type::Bool || t == Type::Enum) return;
  diags_.report(Code::type_mismatch, e.span,
                fmt::format("'distinct by' compares one value for each choice, but this is {}", ast::type_name(t)),
                "name a number, a truth value, a site, a seat, a piece or a choice");
}

std::optional<int64_t> Checker::literal_int(const Expr& e) {
  if (e.kind == ExprKind::Int) return e.value;
  if (e.kind == ExprKind::Neg && e.kids[0]->kind == ExprKind::Int) return -e.kids[0]->value;
  return std::nullopt;
}

// Constant: built from literals, parameters, seat names, enum choices and pure operators only.
bool Checker::is_constant(const Expr& e) {
  switch (e.kind) {
    case ExprKind::Int:
    case ExprKind::Bool: return true;
    case ExprKind::Name: {
      if (is_most_dice(e)) return true;  // known once the dice are: before the board and the state
      if (e.is_local || e.sym < 0) return e.type == Type::Enum || e.type == Type::Error;
      auto k = c_.syms[e.sym].kind;
      return k == SymKind::Param || k == SymKind::Seat || k == SymKind::Direction || k == SymKind::Dice;
    }
    case ExprKind::Neg:
    case ExprKind::Not:
    case ExprKind::Binary:
    case ExprKind::Cond:
      return std::all_of(e.kids.begin(), e.kids.end(), [&](const ast::ExprPtr& k) { return is_constant(*k); });
    default: return false;
  }
}

void Checker::constant_int(Expr& e, const char* what) {
  begin(nullptr, Where::Any);
  Type t = expr(e, Type::Int);
  if (!compatible(Type::Int, t))
    diags_.report(Code::type_mismatch, e.span,
                  fmt::format("{} must be a number, but this is {}", what, ast::type_name(t)));
  else if (!is_constant(e))
    diags_.report(Code::not_constant, e.span, fmt::format("{} must be known before play", what),
                  "use numbers and parameters only");
  end();
}

std::vector<std::string> Checker::global_names() const {
  std::vector<std::string> out;
  for (auto& s : c_.syms) out.push_back(s.name);
  return out;
}

bool Checker::always_returns(const ast::Block& b) {
  for (auto& s : b) {
    if (s->kind == StmtKind::Return) return true;
    if (s->kind == StmtKind::Suppose && always_returns(s->blocks[0])) return true;
    if (s->kind == StmtKind::If && s->has_else &&
        std::all_of(s->blocks.begin(), s->blocks.end(), [&](const ast::Block& x) { return always_returns(x); }))
      return true;
  }
  return false;
}

// A table's initial values written out, `[1, 0, -1, 0]` or a list of rows `[[1, 2], [3, 4]]`: one
// level of brackets per dimension, each innermost entry a constant of the table's type. The
// lengths are checked when the table is laid out (compile/table_literals.cpp), where the number of
// sites and the parameters' values are known.
void Checker::table_literal(ast::Decl& d, Expr& e, size_t depth, bool is_const) {
  size_t dims = d.dims.size();
  if (e.kind == ExprKind::List && depth < dims) {
    e.type = c_.syms[d.sym].type;
    for (auto& k : e.kids) table_literal(d, *k, depth + 1, is_const);
  } else if (e.kind == ExprKind::List) {
    diags_.report(Code::type_mismatch, e.span,
                  dims == 0 ? fmt::format("'{}' is a single value, not a table: it takes no list", d.name)
                            : fmt::format("'{}' has {} dimension{}: this list is one level of brackets too deep",
                                          d.name, dims, dims == 1 ? "" : "s"),
                  dims == 0 ? "give it one value, or index it with 'per'" : "write one level of '[...]' per dimension");
  } else if (depth < dims) {
    diags_.report(Code::type_mismatch, e.span,
                  fmt::format("'{}' has {} dimensions: each entry of this list must be a list '[...]' too{}", d.name,
                              dims, dims > 2 ? fmt::format(" (dimension {})", depth + 1) : ""),
                  "write one level of '[...]' per dimension, a row per entry of the first");
  } else {
    initial_value(d, e, is_const);
  }
}

// ---- type names ---------------------------------------------------------------------------------

Type type_from_name(const std::string& n) {
  if (n == "int") return Type::Int;
  if (n == "bool") return Type::Bool;
  if (n == "site") return Type::Site;
  if (n == "player") return Type::Player;
  if (n == "piece") return Type::Piece;
  if (n == "direction") return Type::Direction;
  if (n == "site or none") return Type::SiteOrNone;
  if (n == "player or none") return Type::PlayerOrNone;
  if (n == "piece or none") return Type::PieceOrNone;
  return Type::Error;
}

Type Checker::declared_type(const std::string& name, Span span) {
  Type t = type_from_name(name);
  if (t == Type::Direction && !c_.directions_decl) needs_directions(span, "the type 'direction'");
  if (t == Type::Error && name.ends_with(" or none"))
    diags_.report(
        Code::unknown_type, span,
        fmt::format("'{}' cannot be none: only a site, player or piece may be", name.substr(0, name.size() - 8)),
        "write 'site or none', 'player or none' or 'piece or none'");
  else if (t == Type::Error)
    diags_.report(
        Code::unknown_type, span, fmt::format("unknown type '{}'", name),
        hint_or(diag::suggest(name, {"int", "bool", "site", "player", "piece", "direction"}),
                "types are int, bool, site, player and piece, and 'site or none', 'player or none', 'piece or none'"));
  return t;
}

// `repetitions compare PART [when COND], ...`: each part a variable, `mover` or `phase`, named
// once; each condition a truth value known before play.
void Checker::check_compared(ast::Decl& d) {
  if (d.names.size() > static_cast<size_t>(lang::kMaxComparedParts))
    diags_.report(
        Code::too_large, d.name_spans[lang::kMaxComparedParts],
        fmt::format("'repetitions compare' names at most {} parts (kMaxComparedParts)", lang::kMaxComparedParts));
  for (size_t i = 0; i < d.names.size(); ++i) {
    const std::string& part = d.names[i];
    for (size_t j = 0; j < i; ++j)
      if (d.names[j] == part)
        diags_.report(Code::duplicate_name, d.name_spans[i], fmt::format("'{}' is compared twice", part));
    const int s = c_.lookup(part);
    const bool fixed = part == "mover" || part == "phase";
    if (s >= 0) c_.syms[s].used = true;
    if (!fixed && (s < 0 || c_.syms[s].kind != SymKind::Var))
      diags_.report(s < 0 ? Code::unknown_name : Code::type_mismatch, d.name_spans[i],
                    s < 0 ? fmt::format("unknown name '{}'", part)
                          : fmt::format("a repetition compares variables, 'mover' and 'phase', and '{}' is none", part),
                    s < 0 ? diag::suggest(part, global_names()) : "name a 'var', or 'mover' or 'phase'");
    if (!d.part_when[i]) continue;
    begin(nullptr, Where::Any);
    want_type(*d.part_when[i], Type::Bool, "a compared part's 'when'");
    if (!is_constant(*d.part_when[i]))
      diags_.report(Code::not_constant, d.part_when[i]->span, "a compared part's 'when' must be known before play",
                    "use parameters and constants only");
    end();
  }
}

}  // namespace keli::check
