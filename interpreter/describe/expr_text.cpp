// Expressions printed back as Keli source for keli describe (move parameters, handler guards,
// parameter values). The parser drops parentheses, so they are put back by precedence.
#include <fmt/format.h>

#include <numeric>

#include "describe/describe.hpp"

namespace keli::describe {
using ast::ExprKind;

namespace {

// Binding strength as in docs/language.md (higher binds tighter); operands weaker than their
// operator get parentheses.
int precedence(const ast::Expr& e) {
  switch (e.kind) {
    case ExprKind::Cond: return 0;
    case ExprKind::Binary: {
      const std::string& o = e.text;
      if (o == "or") return 1;
      if (o == "and") return 2;
      if (o == "+" || o == "-") return 6;
      if (o == "*" || o == "/" || o == "%") return 7;
      return 5;  // comparisons and `in`
    }
    case ExprKind::Not: return 3;
    case ExprKind::Neg: return 8;
    default: return 10;
  }
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
    case ExprKind::Call: return operand(*e.kids[0], 9) + "(" + joined(e.kids, 1) + ")";
    case ExprKind::Index: return operand(*e.kids[0], 9) + "[" + joined(e.kids, 1) + "]";
    case ExprKind::Neg: return "-" + operand(*e.kids[0], 8);
    case ExprKind::Not: return "not " + operand(*e.kids[0], 3);
    case ExprKind::Binary: {
      int p = precedence(e);
      // Operators are left-associative; comparisons do not chain, so both sides need more.
      int right = p + 1, left = p == 5 ? p + 1 : p;
      return operand(*e.kids[0], left) + " " + e.text + " " + operand(*e.kids[1], right);
    }
    case ExprKind::Cond:
      return "if " + expr_text(*e.kids[0]) + " then " + expr_text(*e.kids[1]) + " else " + expr_text(*e.kids[2]);
    case ExprKind::Aggregate: {
      std::string filter = e.kids.size() > 2 ? " where " + expr_text(*e.kids[2]) : "";
      return fmt::format("{}({} in {}{}: {})", e.text, e.var, expr_text(*e.kids[0]), filter, expr_text(*e.kids[1]));
    }
    case ExprKind::List: return "[" + joined(e.kids, 0) + "]";
    case ExprKind::Range: return operand(*e.kids[0], 6) + ".." + operand(*e.kids[1], 6);
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
