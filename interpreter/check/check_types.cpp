// The checker's small judgements on types and constants, used by declarations and bodies alike.
#include <fmt/format.h>

#include <algorithm>

#include "check/checker_impl.hpp"

namespace keli::check {

// ---- helpers ------------------------------------------------------------------------------------

bool Checker::compatible(Type want, Type got) {
  if (want == Type::Error || got == Type::Error) return true;
  if (want == got) return true;
  if (ast::is_number(want) && got == Type::Int) return true;
  if (want == Type::Int && ast::is_number(got)) return true;
  return false;
}

void Checker::want_type(Expr& e, Type want, const char* what) {
  Type got = expr(e, want);
  if (!compatible(want, got))
    diags_.report(Code::type_mismatch, e.span,
                  fmt::format("{} must be {}, but this is {}", what, ast::type_name(want), ast::type_name(got)));
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
      if (e.is_local || e.sym < 0) return e.type == Type::Enum || e.type == Type::Error;
      auto k = c_.syms[e.sym].kind;
      return k == SymKind::Param || k == SymKind::Seat || k == SymKind::Dice;
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
    if (s->kind == StmtKind::If && s->has_else &&
        std::all_of(s->blocks.begin(), s->blocks.end(), [&](const ast::Block& x) { return always_returns(x); }))
      return true;
  }
  return false;
}

}  // namespace keli::check
