// Parse tree to AST, turn order: `end turn`, `pass turn` and `extra turn` become the statements
// they stand for over stdlib/turn_order.keli's `turns_due` and `next_turn`, and `turn order ...`
// the two definitions that library reads. Both engines therefore run the same compiled code.
#include "ast/parse_builder.hpp"
#include "ast/turn_order.hpp"

namespace keli::ast::parse_detail {
namespace to = turn_order;

namespace {

ExprPtr leaf(ExprKind k, Span at, std::string text = {}, int64_t value = 0) {
  auto e = std::make_unique<Expr>();
  e->kind = k;
  e->span = at;
  e->text = std::move(text);
  e->value = value;
  return e;
}

ExprPtr number(int64_t v, Span at) { return leaf(ExprKind::Int, at, std::to_string(v), v); }

ExprPtr with_kids(ExprKind k, Span at, ExprPtr a, ExprPtr b) {
  auto e = leaf(k, at);
  e->kids.push_back(std::move(a));
  e->kids.push_back(std::move(b));
  for (const auto& kid : e->kids) e->depth = std::max(e->depth, kid->depth + 1);
  return e;
}

StmtPtr assignment(Span at, const char* target, lang::Assign how, ExprPtr value) {
  auto s = std::make_unique<Stmt>();
  s->kind = StmtKind::Assign;
  s->span = at;
  s->assign = how;
  s->exprs.push_back(leaf(ExprKind::Name, at, target));
  s->exprs.push_back(std::move(value));
  return s;
}

// mover = next_turn(mover)
StmtPtr to_next_seat(Span at) {
  return assignment(
      at, to::kMover, lang::Assign::Set,
      with_kids(ExprKind::Call, at, leaf(ExprKind::Name, at, to::kNextTurn), leaf(ExprKind::Name, at, to::kMover)));
}

}  // namespace

// `end turn`: if turns_due > 0 { turns_due -= 1 } else { mover = next_turn(mover) }
StmtPtr Builder::end_turn(const Node& n) {
  uses_turns_ = true;
  auto s = mk(StmtKind::If, n);
  auto due = with_kids(ExprKind::Binary, s->span, leaf(ExprKind::Name, s->span, to::kTurnsDue), number(0, s->span));
  due->op = lang::Operator::Gt;
  s->exprs.push_back(std::move(due));
  s->blocks.emplace_back();
  s->blocks.back().push_back(assignment(s->span, to::kTurnsDue, lang::Assign::SubtractFrom, number(1, s->span)));
  s->blocks.emplace_back();
  s->blocks.back().push_back(to_next_seat(s->span));
  s->has_else = true;
  s->turn_part = TurnPart::EndTurnIf;
  return s;
}

// `pass turn`: turns_due = 0, then mover = next_turn(mover) (extra turns due are lost).
void Builder::pass_turn(const Node& n, Block& out) {
  uses_turns_ = true;
  Span at = span_of(n);
  out.push_back(assignment(at, to::kTurnsDue, lang::Assign::Set, number(0, at)));
  out.back()->turn_part = TurnPart::DueReset;
  out.push_back(to_next_seat(at));
}

// `extra turn`: turns_due += 1
StmtPtr Builder::extra_turn(const Node& n) {
  uses_turns_ = true;
  uses_extra_turns_ = true;
  Span at = span_of(n);
  return assignment(at, to::kTurnsDue, lang::Assign::AddTo, number(1, at));
}

// `turn order [backwards when COND] [skips NAME when COND]`: the definitions
// `turn_backwards(): bool = COND` and `skips_turn(NAME: player): bool = COND` (false when absent).
void Builder::turn_order_decl(const Node& n, Module& mod, bool is_override, Span whole) {
  declares_turn_order_ = true;
  auto open = [&](const char* name) {
    Decl d;
    d.kind = DeclKind::Def;
    d.file = file_;
    for (size_t b : error_bytes_) d.broken = d.broken || (b >= n.begin().byte && b < n.end().byte);
    d.is_override = is_override;
    d.span = whole;
    d.name = name;
    d.name_span = span_of(n);
    d.type = "bool";
    d.type_span = d.name_span;
    return d;
  };
  Decl back = open(to::kBackwards);
  const Node* b = optional_child<g::turn_backwards>(n);
  back.value = b ? expr(expression(*b)) : leaf(ExprKind::Bool, back.name_span);
  mod.decls.push_back(std::move(back));
  Decl skips = open(to::kSkips);
  Formal seat{"p", skips.name_span, "player", skips.name_span, nullptr};
  if (const Node* s = optional_child<g::turn_skips>(n)) {
    const Node& name_node = child<g::ident>(*s);
    seat = Formal{word(name_node), span_of(name_node), "player", span_of(name_node), nullptr};
    skips.value = expr(expression(*s));
  } else {
    skips.value = leaf(ExprKind::Bool, skips.name_span);
  }
  skips.formals.push_back(seat);
  mod.decls.push_back(std::move(skips));
}

}  // namespace keli::ast::parse_detail
