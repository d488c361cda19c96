// Parse tree to AST, expressions: one builder function per kind of expression node.
#include "ast/parse_builder.hpp"

#include <algorithm>

#include "lang/limits.hpp"

namespace keli::ast::parse_detail {

ExprPtr Builder::make(ExprKind k, const Node& n) {
  auto e = std::make_unique<Expr>();
  e->kind = k;
  e->span = span_of(n);
  return e;
}

ExprPtr Builder::finish(ExprPtr e) {
  for (const auto& k : e->kids) e->depth = std::max(e->depth, k->depth + 1);
  if (e->depth > lang::kMaxNesting) throw TooDeep{e->span, e->depth};
  return e;
}

ExprPtr Builder::expr(const Node& n) { return finish(expr_node(n)); }

ExprPtr Builder::expr_node(const Node& n) {
  if (n.is_type<g::integer>()) return int_literal(n);
  if (n.is_type<g::kw_true>() || n.is_type<g::kw_false>()) return bool_literal(n);
  if (n.is_type<g::string_lit>()) return string_literal(n);
  if (n.is_type<g::variable>() || n.is_type<g::ident>()) return name(n);
  if (n.is_type<g::list_lit>()) return list_literal(n);
  if (n.is_type<g::range>()) return range(n);
  if (n.is_type<g::conditional>()) return conditional(n);
  if (n.is_type<g::aggregate>()) return aggregate(n);
  if (n.is_type<g::postfix>()) return postfix(n);
  if (n.is_type<g::unary>()) return negate(n);
  if (n.is_type<g::negation>()) return logical_not(n);
  if (n.is_type<g::multiplicative>() || n.is_type<g::additive>() || n.is_type<g::comparison>() ||
      n.is_type<g::conjunction>() || n.is_type<g::disjunction>())
    return binary_chain(n);
  // Anything else with one child (a folded level that kept a node) is transparent.
  if (n.children.size() == 1) return expr_node(*n.children[0]);
  throw std::logic_error(fmt::format("unexpected expression node {}", n.type));
}

ExprPtr Builder::int_literal(const Node& n) {
  auto e = make(ExprKind::Int, n);
  std::string w = word(n);
  e->value = w.size() > 15 ? 999999999999999 : std::stoll(w);
  e->text = w;
  return e;
}

ExprPtr Builder::bool_literal(const Node& n) {
  auto e = make(ExprKind::Bool, n);
  e->value = n.is_type<g::kw_true>();
  e->span.len = e->value ? 4 : 5;
  return e;
}

ExprPtr Builder::string_literal(const Node& n) {
  auto e = make(ExprKind::Str, n);
  e->text = string_value(n);
  return e;
}

ExprPtr Builder::name(const Node& n) {
  auto e = make(ExprKind::Name, n);
  e->text = word(n);
  return e;
}

ExprPtr Builder::list_literal(const Node& n) {
  auto e = make(ExprKind::List, n);
  for (const Node* k : expressions(n)) e->kids.push_back(expr(*k));
  return e;
}

ExprPtr Builder::range(const Node& n) {
  auto e = make(ExprKind::Range, n);
  e->kids.push_back(expr(expression(n, 0)));
  e->kids.push_back(expr(expression(n, 1)));
  return e;
}

ExprPtr Builder::conditional(const Node& n) {  // if C then A else B: kids C, A, B
  auto e = make(ExprKind::Cond, n);
  for (const Node* k : expressions(n)) e->kids.push_back(expr(*k));
  return e;
}

// sum(x in D while W where F: B): kids are the domain, the body, then the filter and the `while`
// condition, each if there is one.
ExprPtr Builder::aggregate(const Node& n) {
  auto e = make(ExprKind::Aggregate, n);
  e->agg = known(lang::find_aggregate(word(child<g::agg_kind>(n))), n);
  const Node& var = child<g::ident>(n);
  e->var = word(var);
  e->var_span = span_of(var);
  e->kids.push_back(expr(expression(n, 0)));  // domain
  e->kids.push_back(expr(expression(n, 1)));  // body
  if (const Node* f = optional_child<g::agg_filter>(n)) e->kids.push_back(expr(expression(*f)));
  if (const Node* w = optional_child<g::loop_while>(n)) {
    e->kids.push_back(expr(expression(*w)));
    e->stops = true;
  }
  return e;
}

ExprPtr Builder::postfix(const Node& n) {  // primary followed by calls and indexing, left to right
  ExprPtr cur = expr(*n.children.at(0));
  for (size_t i = 1; i < n.children.size(); ++i) {
    const Node& suf = *n.children[i];
    auto e = std::make_unique<Expr>();
    e->kind = suf.is_type<g::call_suffix>() ? ExprKind::Call : ExprKind::Index;
    e->span = cur->span;
    Span end = span_of(suf);
    if (end.line == e->span.line) e->span.len = end.col + end.len - e->span.col;
    e->kids.push_back(std::move(cur));
    for (const Node* k : expressions(suf)) e->kids.push_back(expr(*k));
    cur = finish(std::move(e));
  }
  return cur;
}

ExprPtr Builder::negate(const Node& n) {
  auto e = make(ExprKind::Neg, n);
  e->op = lang::Operator::Neg;
  e->kids.push_back(expr(expression(n)));
  return e;
}

ExprPtr Builder::logical_not(const Node& n) {
  auto e = make(ExprKind::Not, n);
  e->op = lang::Operator::Not;
  e->kids.push_back(expr(expression(n)));
  return e;
}

// A level of binary operators: operand (op operand)*, folded to the left.
ExprPtr Builder::binary_chain(const Node& n) {
  ExprPtr cur = expr(*n.children.at(0));
  for (size_t i = 1; i + 1 < n.children.size(); i += 2) {
    auto e = std::make_unique<Expr>();
    e->kind = ExprKind::Binary;
    e->op = known(lang::find_operator(op(*n.children[i]), 2), *n.children[i]);
    e->span = cur->span;
    e->kids.push_back(std::move(cur));
    e->kids.push_back(expr(*n.children[i + 1]));
    const Span& r = e->kids[1]->span;
    if (r.line == e->span.line && r.col + r.len > e->span.col) e->span.len = r.col + r.len - e->span.col;
    cur = finish(std::move(e));
  }
  return cur;
}

// NAME(ARGS) in a statement or a board declaration: kids are the callee, then the arguments.
ExprPtr Builder::call(const Node& callee, const Node& suffix, Span span) {
  auto e = std::make_unique<Expr>();
  e->kind = ExprKind::Call;
  e->span = span;
  e->kids.push_back(expr(callee));
  for (const Node* a : expressions(suffix)) e->kids.push_back(expr(*a));
  return finish(std::move(e));
}

}  // namespace keli::ast::parse_detail
