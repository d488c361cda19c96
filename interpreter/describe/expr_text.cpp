// Expressions printed back as Keli source for keli describe (move parameters, handler guards,
// parameter values). The parser drops parentheses, so they are put back by precedence.
#include <fmt/format.h>

#include <numeric>

#include "describe/describe.hpp"

namespace keli::describe {
using ast::ExprKind;

namespace {

// Binding strength from the vocabulary's operator table (higher binds tighter); operands weaker
// than their operator get parentheses. Calls and indexing bind tighter than any operator.
constexpr int kPostfixPrecedence = 9;
int precedence(const ast::Expr& e) {
  switch (e.kind) {
    case ExprKind::Cond: return 0;
    case ExprKind::Binary:
    case ExprKind::Not:
    case ExprKind::Neg: return lang::operator_info(e.op).precedence;
    default: return kPostfixPrecedence + 1;
  }
}

bool is_comparison(const ast::Expr& e) {
  lang::OpClass c = lang::operator_info(e.op).cls;
  return c == lang::OpClass::Equality || c == lang::OpClass::Ordering || c == lang::OpClass::Membership;
}

std::string operand(const ast::Expr& e, int need) {
  std::string t = expr_text(e);
  return precedence(e) < need ? "(" + t + ")" : t;
}

std::string joined(const std::vector<ast::ExprPtr>& kids, size_t from) {
  std::string out;
  for (size_t i = from; i < kids.size(); ++i) out += (i > from ? ", " : "") + expr_text(*kids[i]);
  return out;
}

}  // namespace

std::string expr_text(const ast::Expr& e) {
  switch (e.kind) {
    case ExprKind::Int: return e.text.empty() ? std::to_string(e.value) : e.text;
    case ExprKind::Bool: return e.value ? "true" : "false";
    case ExprKind::Str: return fmt::format("\"{}\"", e.text);
    case ExprKind::Name: return e.text;
    case ExprKind::Call: return operand(*e.kids[0], kPostfixPrecedence) + "(" + joined(e.kids, 1) + ")";
    case ExprKind::Index: return operand(*e.kids[0], kPostfixPrecedence) + "[" + joined(e.kids, 1) + "]";
    case ExprKind::Neg: return "-" + operand(*e.kids[0], precedence(e));
    case ExprKind::Not: return "not " + operand(*e.kids[0], precedence(e));
    case ExprKind::Binary: {
      int p = precedence(e);
      // Operators are left-associative; comparisons do not chain, so both sides need more.
      int right = p + 1, left = is_comparison(e) ? p + 1 : p;
      return operand(*e.kids[0], left) + " " + lang::operator_info(e.op).spelling + " " + operand(*e.kids[1], right);
    }
    case ExprKind::Cond:
      return "if " + expr_text(*e.kids[0]) + " then " + expr_text(*e.kids[1]) + " else " + expr_text(*e.kids[2]);
    case ExprKind::Aggregate: {
      const ast::Expr* stop = ast::loop_while(e);
      const ast::Expr* filter = ast::loop_filter(e);
      return fmt::format("{}({} in {}{}{}: {})", lang::aggregate_word(e.agg), e.var, expr_text(*e.kids[0]),
                         stop ? " while " + expr_text(*stop) : "", filter ? " where " + expr_text(*filter) : "",
                         expr_text(*e.kids[1]));
    }
    case ExprKind::List: return "[" + joined(e.kids, 0) + "]";
    case ExprKind::Range: {
      int additive = lang::operator_info(lang::Operator::Add).precedence;  // `a + 1..b` needs none
      return operand(*e.kids[0], additive) + ".." + operand(*e.kids[1], additive);
    }
  }
  return "?";
}

std::string fraction(int64_t weight, int64_t total) {
  if (total <= 0) return "?";
  int64_t g = std::gcd(weight, total);
  if (g == 0) g = 1;
  return fmt::format("{}/{}", weight / g, total / g);
}

}  // namespace keli::describe
