// Parse tree to AST, statements: one builder function per kind of statement node.
#include "ast/parse_builder.hpp"

namespace keli::ast::parse_detail {

Block Builder::block(const Node& n) {
  Block out;
  for (auto& k : n.children) {
    if (k->is_type<g::pass_turn_stmt>())
      pass_turn(*k, out);  // two statements
    else
      out.push_back(stmt(*k));
  }
  return out;
}

StmtPtr Builder::mk(StmtKind k, const Node& n) {
  auto s = std::make_unique<Stmt>();
  s->kind = k;
  s->span = span_of(n);
  return s;
}

StmtPtr Builder::stmt(const Node& n) {
  if (n.is_type<g::let_stmt>()) return let_statement(n);
  if (n.is_type<g::assign_stmt>()) return assign_statement(n);
  if (n.is_type<g::if_stmt>()) return if_statement(n);
  if (n.is_type<g::while_stmt>()) return while_statement(n);
  if (n.is_type<g::for_stmt>()) return for_statement(n);
  if (n.is_type<g::return_stmt>()) return return_statement(n);
  if (n.is_type<g::emit_stmt>()) return call_statement(n, StmtKind::Emit);
  if (n.is_type<g::call_stmt>()) return call_statement(n, StmtKind::Call);
  if (n.is_type<g::note_stmt>()) return note_statement(n);
  if (n.is_type<g::add_stmt>()) return add_statement(n);
  if (n.is_type<g::remove_stmt>()) return remove_statement(n);
  if (n.is_type<g::clear_stmt>()) return clear_statement(n);
  if (n.is_type<g::suppose_stmt>()) return suppose_statement(n);
  if (n.is_type<g::finish_stmt>()) return finish_statement(n);
  if (n.is_type<g::end_stmt>()) return end_statement(n);
  if (n.is_type<g::end_turn_stmt>()) return end_turn(n);
  if (n.is_type<g::extra_turn_stmt>()) return extra_turn(n);
  throw std::logic_error(fmt::format("unexpected statement node {}", n.type));
}

StmtPtr Builder::let_statement(const Node& n) {
  auto s = mk(StmtKind::Let, n);
  const Node& name_node = child<g::ident>(n);
  s->name = word(name_node);
  s->name_span = span_of(name_node);
  if (const Node* type = optional_child<g::coll_type>(n)) {  // `let q: list of site`: no value
    s->coll = optional_child<g::kw_set>(*type) ? lang::CollKind::Set : lang::CollKind::List;
    const Node& elem = *type->children.back();
    s->elem.span = span_of(elem);
    if (elem.is_type<g::range>()) {
      s->elem.lo = expr(expression(elem, 0));
      s->elem.hi = expr(expression(elem, 1));
    } else {
      s->elem.type = word(elem);
    }
    return s;
  }
  s->exprs.push_back(expr(expression(n)));
  return s;
}

// TARGET OP VALUE: exprs are the target (a name indexed left to right), then the value.
StmtPtr Builder::assign_statement(const Node& n) {
  auto s = mk(StmtKind::Assign, n);
  const Node& t = child<g::target>(n);
  ExprPtr cur = expr(child<g::ident>(t));
  for (const Node* suffix : children<g::index_suffix>(t)) {
    auto e = std::make_unique<Expr>();
    e->kind = ExprKind::Index;
    e->span = cur->span;
    e->kids.push_back(std::move(cur));
    e->kids.push_back(expr(expression(*suffix)));
    cur = finish(std::move(e));
  }
  const Node& assign_op = child<g::assign_op>(n);
  s->assign = known(lang::find_assign(op(assign_op)), assign_op);
  s->exprs.push_back(std::move(cur));
  s->exprs.push_back(expr(expression(n)));
  return s;
}

// exprs are the conditions of `if` and each `elif`; blocks are theirs, then the else block.
StmtPtr Builder::if_statement(const Node& n) {
  auto s = mk(StmtKind::If, n);
  s->exprs.push_back(expr(expression(n)));
  s->blocks.push_back(block(child<g::block>(n)));
  for (const Node* elif : children<g::elif_part>(n)) {
    s->exprs.push_back(expr(expression(*elif)));
    s->blocks.push_back(block(child<g::block>(*elif)));
  }
  if (const Node* e = optional_child<g::else_part>(n)) {
    s->blocks.push_back(block(child<g::block>(*e)));
    s->has_else = true;
  }
  return s;
}

StmtPtr Builder::while_statement(const Node& n) {
  auto s = mk(StmtKind::While, n);
  s->exprs.push_back(expr(expression(n)));
  s->blocks.push_back(block(child<g::block>(n)));
  return s;
}

// for NAME in DOMAIN while W where FILTER { ... }: exprs are the domain, then the filter and the
// `while` condition, each if there is one.
StmtPtr Builder::for_statement(const Node& n) {
  auto s = mk(StmtKind::For, n);
  const Node& name_node = child<g::ident>(n);
  s->name = word(name_node);
  s->name_span = span_of(name_node);
  s->exprs.push_back(expr(expression(n)));
  if (const Node* f = optional_child<g::for_filter>(n)) s->exprs.push_back(expr(expression(*f)));
  if (const Node* w = optional_child<g::loop_while>(n)) {
    s->exprs.push_back(expr(expression(*w)));
    s->stops = true;
  }
  s->blocks.push_back(block(child<g::block>(n)));
  return s;
}

StmtPtr Builder::return_statement(const Node& n) {
  auto s = mk(StmtKind::Return, n);
  if (!n.children.empty()) s->exprs.push_back(expr(expression(n)));
  return s;
}

// `emit E(ARGS)` and `f(ARGS)`: the call is the one expression, its callee also the name.
StmtPtr Builder::call_statement(const Node& n, StmtKind kind) {
  auto s = mk(kind, n);
  const Node& callee = child<g::ident>(n);
  s->name = word(callee);
  s->name_span = span_of(callee);
  s->exprs.push_back(call(callee, child<g::call_suffix>(n), span_of(callee)));
  return s;
}

StmtPtr Builder::note_statement(const Node& n) {
  auto s = mk(StmtKind::Note, n);
  s->text = string_value(child<g::string_lit>(n));
  return s;
}

StmtPtr Builder::add_statement(const Node& n) {  // add PIECE to PLACE
  auto s = mk(StmtKind::Add, n);
  s->exprs.push_back(expr(expression(n, 0)));
  s->exprs.push_back(expr(expression(n, 1)));
  return s;
}

StmtPtr Builder::remove_statement(const Node& n) {  // remove VALUE from COLLECTION
  auto s = mk(StmtKind::Remove, n);
  s->exprs.push_back(expr(expression(n, 0)));
  s->exprs.push_back(expr(expression(n, 1)));
  return s;
}

StmtPtr Builder::clear_statement(const Node& n) {  // clear COLLECTION
  auto s = mk(StmtKind::Clear, n);
  s->exprs.push_back(expr(child<g::ident>(n)));
  return s;
}

StmtPtr Builder::suppose_statement(const Node& n) {  // suppose { BODY }
  auto s = mk(StmtKind::Suppose, n);
  s->blocks.push_back(block(child<g::block>(n)));
  return s;
}

StmtPtr Builder::finish_statement(const Node& n) {
  auto s = mk(StmtKind::Finish, n);
  for (const Node* k : expressions(n)) s->exprs.push_back(expr(*k));
  return s;
}

StmtPtr Builder::end_statement(const Node& n) {  // end_game [by NAME] [points NAME]
  auto s = mk(StmtKind::EndGame, n);
  if (const Node* by = optional_child<g::end_by>(n)) {
    const Node& name_node = child<g::ident>(*by);
    s->name = word(name_node);
    s->name_span = span_of(name_node);
  }
  if (const Node* pts = optional_child<g::end_points>(n)) {
    const Node& name_node = child<g::ident>(*pts);
    s->points = word(name_node);
    s->points_span = span_of(name_node);
  }
  return s;
}

}  // namespace keli::ast::parse_detail
