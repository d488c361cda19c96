// Declared facts (`fact NAME(KEYS): int = count(x in D where ...)` or `sum(...)`): values the engine
// keeps up to date. A fact must have the one shape the engine can keep cheaply: each element x of
// D adds to at most one entry, the one whose parameters equal x's keys (`KEY == param`), and what
// x adds depends on x's own cells only (tables whose first index is x), so a write to one cell
// changes one element's part. This file checks that shape and records it (Checked::facts).
#include <fmt/format.h>

#include "check/checker_impl.hpp"

namespace keli::check {
namespace {

const char* kFactHint =
    "a fact counts (or sums) elements by keys: 'count(pc in pieces where ...: KEY == p)' (docs/language.md)";

// The element kind a type domain ranges over, if the expression is one (`pieces`, `sites`, `seats`).
std::optional<lang::DimKind> type_domain(const Expr& d) {
  if (d.kind != ExprKind::Name || d.is_local || d.sym >= 0 || d.ref < 0) return std::nullopt;
  switch (static_cast<BuiltinVar>(d.ref)) {
    case BuiltinVar::pieces: return lang::DimKind::Piece;
    case BuiltinVar::sites: return lang::DimKind::Site;
    case BuiltinVar::seats: return lang::DimKind::Player;
    default: return std::nullopt;
  }
}

const char* kind_word(lang::DimKind k) {
  return k == lang::DimKind::Piece ? "piece" : k == lang::DimKind::Site ? "site" : "player";
}

// The parameter slot (0 .. n-1) an expression names, or -1.
int param_named(const Expr& e, size_t n) {
  return e.kind == ExprKind::Name && e.is_local && e.sym >= 0 && e.sym < static_cast<int>(n) ? e.sym : -1;
}

bool names_param(const Expr& e, size_t n) {
  if (param_named(e, n) >= 0) return true;
  for (const auto& k : e.kids)
    if (k && names_param(*k, n)) return true;
  return false;
}

void conjuncts(const Expr& e, std::vector<const Expr*>& out) {
  if (e.kind == ExprKind::Binary && e.op == lang::Operator::And) {
    conjuncts(*e.kids[0], out);
    conjuncts(*e.kids[1], out);
    return;
  }
  out.push_back(&e);
}

// Whether element expressions read only the element's own cells, through any calls: the first
// problem found (its span and what it is), and the tables read (`feeds`).
class OwnCells {
 public:
  OwnCells(const Checked& c, lang::DimKind element) : c_(c), element_(element) {}
  // The first problem: where it is in the fact (a call, when it is in a function the fact
  // calls), what it reads, and, in a function, the function and where there.
  struct Problem {
    Span at;
    std::string what;
    std::string via;
    Span inner;
  };
  std::optional<Problem> problem;
  std::set<int> feeds;

  void expr(const Expr& e, const std::set<int>& bound) {
    if (problem) return;
    switch (e.kind) {
      case ExprKind::Name: return name(e);
      case ExprKind::Index: return index(e, bound);
      case ExprKind::Call: return call(e, bound);
      default:
        for (const auto& k : e.kids)
          if (k) expr(*k, bound);
    }
  }

 private:
  const Checked& c_;
  lang::DimKind element_;
  std::set<std::pair<const ast::Decl*, unsigned>> seen_;
  const Expr* top_call_ = nullptr;  // the call in the fact itself being followed, if any

  void fail(Span at, std::string what) {
    if (problem) return;
    if (!top_call_) {
      problem = Problem{at, std::move(what), {}, {}};
      return;
    }
    problem = Problem{top_call_->span, std::move(what), c_.syms[top_call_->sym].name, at};
  }

  void name(const Expr& e) {
    if (e.is_local) return;
    if (e.sym < 0) {
      if (e.ref < 0) return;
      auto v = static_cast<BuiltinVar>(e.ref);
      if (v == BuiltinVar::mover || v == BuiltinVar::phase || v == BuiltinVar::ply || v == BuiltinVar::roll ||
          v == BuiltinVar::repetitions)
        fail(e.span, fmt::format("'{}', which belongs to the whole position", e.text));
      return;
    }
    if (c_.syms[e.sym].kind == SymKind::Var)
      fail(e.span, fmt::format("'{}', a variable that is not one {}'s own cell", e.text, kind_word(element_)));
  }

  void index(const Expr& e, const std::set<int>& bound) {
    const Expr* first = &e;
    while (first->kids[0]->kind == ExprKind::Index) first = first->kids[0].get();
    const Expr& root = *first->kids[0];
    for (const Expr* i = &e; i->kind == ExprKind::Index; i = i->kids[0].get()) expr(*i->kids[1], bound);
    if (root.is_local) return;
    if (root.sym < 0) return name(root);  // roll[i]
    const Symbol& s = c_.syms[root.sym];
    if (s.kind != SymKind::Var) return;
    const Expr& at = *first->kids[1];
    bool own = s.decl && !s.decl->dims.empty() && s.decl->dims[0].type == kind_word(element_);
    bool of_element = at.kind == ExprKind::Name && at.is_local && bound.count(at.sym);
    if (!own || !of_element)
      return fail(e.span,
                  fmt::format("'{}[...]', which is not the counted {}'s own cell ({})", root.text, kind_word(element_),
                              own ? "its first index is another value"
                                  : "its first index is not a " + std::string(kind_word(element_))));
    feeds.insert(root.sym);
  }

  void call(const Expr& e, const std::set<int>& bound) {
    for (size_t i = 1; i < e.kids.size(); ++i) expr(*e.kids[i], bound);
    if (e.sym < 0) return;  // a built-in function: it reads no state
    const Symbol& s = c_.syms[e.sym];
    if (s.kind != SymKind::Def || !s.decl) return;
    unsigned mask = 0;
    for (size_t i = 1; i < e.kids.size() && i <= 32; ++i) {
      const Expr& a = *e.kids[i];
      if (a.kind == ExprKind::Name && a.is_local && bound.count(a.sym)) mask |= 1u << (i - 1);
    }
    if (!seen_.insert({s.decl, mask}).second) return;
    std::set<int> inner;
    for (size_t i = 0; i < s.decl->formals.size() && i < 32; ++i)
      if (mask & (1u << i)) inner.insert(static_cast<int>(i));
    const bool top = !top_call_;
    if (top) top_call_ = &e;
    if (s.decl->value)
      expr(*s.decl->value, inner);
    else
      block(s.decl->body, inner);
    if (top) top_call_ = nullptr;
  }

  void block(const ast::Block& b, const std::set<int>& bound) {
    for (const auto& st : b) stmt(*st, bound);
  }

  void stmt(const Stmt& st, const std::set<int>& bound) {
    if (problem) return;
    switch (st.kind) {
      case StmtKind::Emit:
      case StmtKind::Finish:
      case StmtKind::EndGame: return fail(st.span, "a statement that changes the game");
      case StmtKind::Add:  // to a local list or set: no change of the game
        if (!st.exprs[1]->is_local) return fail(st.span, "a statement that changes the game");
        break;
      case StmtKind::Assign:
        if (!st.exprs[0]->is_local) return fail(st.span, "an assignment to the state");
        return expr(*st.exprs[1], bound);
      default: break;
    }
    for (const auto& e : st.exprs)
      if (e) expr(*e, bound);
    for (const auto& b : st.blocks) block(b, bound);
  }
};

}  // namespace

void Checker::check_facts() {
  for (auto* d : c_.defs) {
    if (!d->is_fact || !d->value) continue;
    FactShape f;
    f.decl = d;
    if (fact_shape(*d, f)) c_.facts.push_back(std::move(f));
  }
}

bool Checker::fact_shape(ast::Decl& d, FactShape& f) {
  auto bad = [&](Span at, std::string what) {
    diags_.report(Code::bad_fact, at, fmt::format("the fact '{}' cannot be kept: {}", d.name, what), kFactHint);
    return false;
  };
  if (d.type.empty()) return false;  // E201 says it: a value with no result type
  if (d.type != "int") return bad(d.type_span, "a fact is a number, write ': int'");
  if (d.formals.size() > static_cast<size_t>(lang::kMaxTableDims))
    return bad(d.name_span, fmt::format("it has more than {} parameters", lang::kMaxTableDims));
  for (const auto& p : d.formals) {
    if (p.type != "site" && p.type != "player" && p.type != "piece")
      return bad(p.type_span, fmt::format("its parameter '{}' is {}, not a site, player or piece", p.name, p.type));
    if (p.fallback)
      return bad(p.fallback->span,
                 fmt::format("its parameter '{}' has a default: a fact is read with every key", p.name));
  }
  const Expr& agg = *d.value;
  if (agg.kind != ExprKind::Aggregate || (agg.agg != lang::Aggregate::Count && agg.agg != lang::Aggregate::Sum))
    return bad(agg.span, "its value must be a count(...) or a sum(...)");
  auto element = type_domain(*agg.kids[0]);
  if (!element)
    return bad(agg.kids[0]->span, "it must range over all 'pieces', 'sites' or 'seats' (filter with 'where')");
  if (agg.stops) return bad(ast::loop_while(agg)->span, "it counts every key: it may not stop early with 'while'");
  f.aggregate = &agg;
  f.element = *element;
  std::vector<const Expr*> parts;
  if (const Expr* filter = ast::loop_filter(agg)) conjuncts(*filter, parts);
  if (agg.agg == lang::Aggregate::Count)
    conjuncts(*agg.kids[1], parts);
  else
    f.weight = agg.kids[1].get();
  const size_t n = d.formals.size();
  if (f.weight && names_param(*f.weight, n)) return bad(f.weight->span, "the summed value names a parameter");
  std::vector<const Expr*> keys(n, nullptr);
  for (const Expr* c : parts) {
    if (!names_param(*c, n)) {
      f.parts.emplace_back(c, -1);
      continue;
    }
    int side = -1;
    if (c->kind == ExprKind::Binary && c->op == lang::Operator::Eq)
      for (int s = 0; s < 2 && side < 0; ++s)
        if (param_named(*c->kids[s], n) >= 0 && !names_param(*c->kids[1 - s], n)) side = s;
    if (side < 0)
      return bad(c->span, "a condition that names a parameter must be 'KEY == parameter', the key naming none");
    int p = param_named(*c->kids[side], n);
    if (keys[p]) return bad(c->span, fmt::format("'{}' is matched twice", d.formals[p].name));
    keys[p] = c->kids[1 - side].get();
    f.parts.emplace_back(keys[p], p);
  }
  for (size_t i = 0; i < n; ++i)
    if (!keys[i])
      return bad(d.formals[i].span, fmt::format("nothing matches '{}': add 'KEY == {}' to the conditions",
                                                d.formals[i].name, d.formals[i].name));
  OwnCells own(c_, f.element);
  const std::set<int> bound{agg.sym};
  for (const auto& part : f.parts) own.expr(*part.first, bound);
  if (f.weight) own.expr(*f.weight, bound);
  if (own.problem) {
    const auto& pr = *own.problem;
    std::string in = pr.via.empty() ? "" : fmt::format(" (in '{}', at {})", pr.via, src_.where(pr.inner));
    return bad(pr.at, fmt::format("what a {} adds may depend only on its own cells, and this reads {}{}",
                                  kind_word(f.element), pr.what, in));
  }
  f.feeds.assign(own.feeds.begin(), own.feeds.end());
  return true;
}

}  // namespace keli::check
