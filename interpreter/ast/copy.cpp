// A deep copy of a parsed module with its spans moved to another file index. Every field of every
// node is copied, annotations included (a parsed tree has none yet); tests/unit/ast_copy_test.cpp
// checks that each game checks and compiles from a copy exactly as from its own parse.
#include "ast/copy.hpp"

namespace keli::ast {

namespace {

class Copier {
 public:
  explicit Copier(int file) : file_(file) {}

  Span span(Span s) const {
    if (s.valid()) s.file = file_;
    return s;
  }

  std::vector<Span> spans(const std::vector<Span>& v) const {
    std::vector<Span> out;
    out.reserve(v.size());
    for (const Span& s : v) out.push_back(span(s));
    return out;
  }

  ExprPtr expr(const ExprPtr& e) const { return expr(e.get()); }

  ExprPtr expr(const Expr* e) const {
    if (!e) return nullptr;
    auto out = std::make_unique<Expr>();
    out->kind = e->kind;
    out->span = span(e->span);
    out->text = e->text;
    out->value = e->value;
    out->op = e->op;
    out->agg = e->agg;
    out->kids = exprs(e->kids);
    out->var = e->var;
    out->var_span = span(e->var_span);
    out->stops = e->stops;
    out->depth = e->depth;
    out->type = e->type;
    out->enum_id = e->enum_id;
    out->sym = e->sym;
    out->is_local = e->is_local;
    out->ref = e->ref;
    out->coll_fn = e->coll_fn;
    return out;
  }

  std::vector<ExprPtr> exprs(const std::vector<ExprPtr>& v) const {
    std::vector<ExprPtr> out;
    out.reserve(v.size());
    for (const auto& e : v) out.push_back(expr(e));
    return out;
  }

  StmtPtr stmt(const StmtPtr& s) const {
    if (!s) return nullptr;
    auto out = std::make_unique<Stmt>();
    out->kind = s->kind;
    out->turn_part = s->turn_part;
    out->span = span(s->span);
    out->name = s->name;
    out->assign = s->assign;
    out->name_span = span(s->name_span);
    out->exprs = exprs(s->exprs);
    out->blocks.reserve(s->blocks.size());
    for (const auto& b : s->blocks) out->blocks.push_back(block(b));
    out->has_else = s->has_else;
    out->stops = s->stops;
    out->text = s->text;
    out->slot = s->slot;
    out->sym = s->sym;
    out->points = s->points;
    out->points_span = span(s->points_span);
    out->points_sym = s->points_sym;
    out->coll = s->coll;
    out->elem = dim(s->elem);
    return out;
  }

  Block block(const Block& b) const {
    Block out;
    out.reserve(b.size());
    for (const auto& s : b) out.push_back(stmt(s));
    return out;
  }

  Formal formal(const Formal& f) const {
    Formal out = f;  // names and spans, and the fallback copied below: the checker annotates it
    out.span = span(f.span);
    out.type_span = span(f.type_span);
    out.fallback = expr(f.fallback.get());
    return out;
  }

  Dim dim(const Dim& d) const { return Dim{span(d.span), d.type, expr(d.lo), expr(d.hi)}; }

  MoveParam move_param(const MoveParam& p) const {
    return MoveParam{p.name, span(p.span), expr(p.domain), expr(p.filter), expr(p.distinct), p.slot};
  }

  ReadPart read_part(const ReadPart& r) const {
    return ReadPart{r.text, expr(r.value), r.var, span(r.var_span), expr(r.domain), expr(r.filter),
                    r.slot, expr(r.cond),  r.skip};
  }

  Move move(const Move& m) const {
    Move out;
    out.name = m.name;
    out.span = span(m.span);
    for (const auto& p : m.params) out.params.push_back(move_param(p));
    for (const auto& r : m.reads) out.reads.push_back(read_part(r));
    out.has_reads = m.has_reads;
    out.reads_span = span(m.reads_span);
    out.guard = expr(m.guard);
    out.body = block(m.body);
    out.is_otherwise = m.is_otherwise;
    out.is_override = m.is_override;
    out.is_removal = m.is_removal;
    out.frame = m.frame;
    return out;
  }

  Decl decl(const Decl& d) const {
    Decl out;
    out.kind = d.kind;
    out.span = span(d.span);
    out.name = d.name;
    out.name_span = span(d.name_span);
    out.file = file_;
    out.is_override = d.is_override;
    out.broken = d.broken;
    out.removes = d.removes;
    out.for_ai = d.for_ai;
    out.ai_setting = d.ai_setting;
    out.for_safety = d.for_safety;
    out.is_fact = d.is_fact;
    out.ptype = d.ptype;
    out.override_only = d.override_only;
    out.choices = d.choices;
    out.choice_spans = spans(d.choice_spans);
    out.lo = expr(d.lo);
    out.hi = expr(d.hi);
    out.allowed = exprs(d.allowed);
    out.doc = d.doc;
    out.value = expr(d.value);
    out.names = d.names;
    out.name_spans = spans(d.name_spans);
    out.part_when = exprs(d.part_when);
    out.type = d.type;
    out.type_span = span(d.type_span);
    for (const auto& x : d.dims) out.dims.push_back(dim(x));
    out.entries = d.entries;
    for (const auto& f : d.faces) out.faces.push_back(exprs(f));
    out.copies = expr(d.copies);
    out.ordered = d.ordered;
    for (const auto& f : d.formals) out.formals.push_back(formal(f));
    out.guard = expr(d.guard);
    out.body = block(d.body);
    out.has_body_block = d.has_body_block;
    for (const auto& m : d.moves) out.moves.push_back(move(m));
    out.frame = d.frame;
    out.sym = d.sym;
    return out;
  }

 private:
  int file_;
};

}  // namespace

Module copy_module(const Module& m, int file) {
  Copier c(file);
  Module out;
  out.file = file;
  out.game_name = m.game_name;
  out.game_span = c.span(m.game_span);
  out.extends = m.extends;
  out.extends_span = c.span(m.extends_span);
  out.decls.reserve(m.decls.size());
  for (const auto& d : m.decls) out.decls.push_back(c.decl(d));
  out.syntax_errors = m.syntax_errors;
  out.broken_names = m.broken_names;
  out.uses_turns = m.uses_turns;
  out.declares_turn_order = m.declares_turn_order;
  out.uses_extra_turns = m.uses_extra_turns;
  return out;
}

}  // namespace keli::ast
