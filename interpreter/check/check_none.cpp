// The checker's handling of `none` (docs/language.md, "`none`: absent values"): the literal, the
// report of a `T or none` used where a T is needed, and narrowing, which lets a local or
// parameter that a condition has tested be used as its T where the test holds.
#include <fmt/format.h>

#include <algorithm>

#include "check/checker_impl.hpp"

namespace keli::check {

// `none` is no keyword (first-edition files name enumeration choices so): it is the literal where
// no declared name, and no choice of the enumeration in context, has that name.
bool Checker::none_literal(Expr& e, Type want) {
  if (e.text != "none") return false;
  if (!lang::is_or_none(want)) {
    for (auto& en : c_.enums)
      if (std::find(en.choices.begin(), en.choices.end(), e.text) != en.choices.end()) return false;
  }
  e.kind = ExprKind::Int;
  e.value = lang::kNoneValue;
  e.type = Type::None;
  return true;
}

// A type mismatch, or (when only the check against `none` is missing) the report that says so.
void Checker::mismatch(const Expr& e, Type want, Type got, const std::string& message) {
  if ((lang::is_or_none(got) && compatible(want, lang::without_none(got))) || got == Type::None) {
    std::string what = e.kind == ExprKind::Name ? fmt::format("'{}'", e.text) : "this value";
    if (got == Type::None) {
      diags_.report(Code::unchecked_none, e.span,
                    fmt::format("'none' is not {}: {} is needed here", ast::type_name(want), ast::type_name(want)));
      return;
    }
    std::string hint =
        e.kind == ExprKind::Name ? fmt::format("check it first: if {} != none {{ ... }}", e.text)
        : e.kind == ExprKind::Index
            ? "a table's entry is not narrowed by a check: copy it to a local first, let x = ..., then check "
              "it: if x != none { ... }"
            : "keep it in a local and check that: let x = ...; if x != none { ... }";
    diags_.report(Code::unchecked_none, e.span,
                  fmt::format("{} is {}, and may be none here, where {} is needed", what, ast::type_name(got),
                              ast::type_name(want)),
                  hint);
    return;
  }
  diags_.report(Code::type_mismatch, e.span, message);
}

// The locals a condition proves are not none when it is `when`: `x != none`, `x == none` (false),
// `not`, `and` (true) and `or` (false).
void Checker::none_facts(const Expr& c, bool when, std::vector<int>& out) const {
  if (c.kind == ExprKind::Not) return none_facts(*c.kids[0], !when, out);
  if (c.kind != ExprKind::Binary) return;
  if ((c.op == lang::Operator::And && when) || (c.op == lang::Operator::Or && !when)) {
    none_facts(*c.kids[0], when, out);
    none_facts(*c.kids[1], when, out);
    return;
  }
  bool ne = c.op == lang::Operator::Ne;
  if (!ne && c.op != lang::Operator::Eq) return;
  if (ne != when) return;  // `x != none` proves it when true, `x == none` when false
  for (int side = 0; side < 2; ++side) {
    const Expr& x = *c.kids[side];
    const Expr& other = *c.kids[1 - side];
    if (x.kind == ExprKind::Name && x.is_local && other.type == Type::None) out.push_back(x.sym);
  }
}

// Narrows the locals `c` proves when it is `when`; returns what to hand to restore().
std::set<int> Checker::narrow(const Expr& c, bool when) {
  std::set<int> saved = narrowed_;
  std::vector<int> slots;
  none_facts(c, when, slots);
  narrowed_.insert(slots.begin(), slots.end());
  return saved;
}

// Ends a narrowed region: the locals narrowed before it stay so, unless assigned inside it.
void Checker::restore(std::set<int> saved, size_t assigned_mark) {
  for (size_t i = assigned_mark; i < assigned_.size(); ++i) saved.erase(assigned_[i]);
  narrowed_ = std::move(saved);
}

// A local written: it may be none again from here on.
void Checker::assigned(int slot) {
  narrowed_.erase(slot);
  assigned_.push_back(slot);
}

// A loop's body runs again after its end: a local assigned in it is not narrowed anywhere in it.
void Checker::unnarrow_assigned(const ast::Block& b) {
  for (auto& s : b) {
    if (s->kind == StmtKind::Assign && s->exprs[0]->kind == ExprKind::Name)
      if (const Local* l = find_local(s->exprs[0]->text)) narrowed_.erase(l->slot);
    for (auto& inner : s->blocks) unnarrow_assigned(inner);
  }
}

// if / elif / else: each branch sees its own condition true and the earlier ones false; after a
// statement whose conditional branches all return, the rest of the block sees what reaching it
// proves (`if x == none { return }`).
void Checker::if_statement(Stmt& s) {
  std::set<int> outer = narrowed_;
  size_t mark = assigned_.size();
  std::vector<int> after;  // proved for the rest of the block when the branches taken return
  bool taken_return = true;
  for (size_t i = 0; i < s.blocks.size(); ++i) {
    bool has_cond = i < s.exprs.size();
    if (has_cond) want_type(*s.exprs[i], Type::Bool, "the condition of 'if'");
    std::set<int> before = narrowed_;
    if (has_cond) narrow(*s.exprs[i], true);
    block(s.blocks[i]);
    bool returns = always_returns(s.blocks[i]);
    narrowed_ = before;
    if (has_cond) {
      none_facts(*s.exprs[i], false, after);
      if (!returns) taken_return = false;
      narrow(*s.exprs[i], false);  // the next branch runs only when this condition is false
    }
  }
  restore(outer, mark);
  if (taken_return)
    for (int slot : after)
      if (std::find(assigned_.begin() + static_cast<std::ptrdiff_t>(mark), assigned_.end(), slot) == assigned_.end())
        narrowed_.insert(slot);
}

}  // namespace keli::check
