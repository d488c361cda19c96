// Checking a rule's `reads` text: each hole shows a value the notation can print, and every
// parameter of the rule appears in it (else two of its moves may read alike: W006).
#include <fmt/format.h>

#include "check/checker_impl.hpp"

namespace keli::check {

namespace {
bool mentions(const ast::Expr* e, int slot) {
  if (!e) return false;
  if (e->kind == ExprKind::Name && e->is_local && e->sym == slot) return true;
  for (const auto& k : e->kids)
    if (mentions(k.get(), slot)) return true;
  return false;
}
}  // namespace

void Checker::check_reads(ast::Move& m) {
  for (auto& part : m.reads) {
    if (part.cond) want_type(*part.cond, Type::Bool, "the test of '{if ...}' in a 'reads' text");
    if (!part.value) continue;
    size_t mark = scope_.size();
    if (!part.var.empty()) {
      Type elem = domain(*part.domain);
      part.slot = declare(part.var, elem, -1, part.var_span);
      if (part.filter) want_type(*part.filter, Type::Bool, "a 'where' filter");
    }
    Type t = expr(*part.value);
    // A `T or none` shows its T, and none as nothing (runtime::Game::value_text).
    if (t != Type::Error && !is_number(lang::without_none(t)) && t != Type::Bool)
      diags_.report(Code::type_mismatch, part.value->span,
                    fmt::format("a 'reads' text shows numbers, sites, players, pieces or truth values, not {}",
                                ast::type_name(t)),
                    "write a value between the braces, e.g. {pc} or {die[d]}");
    scope_.resize(mark);
  }
  if (!warn_in(m.span.file)) return;
  for (const auto& p : m.params) {
    bool seen = false;
    for (const auto& part : m.reads)
      seen = seen || mentions(part.value.get(), p.slot) || mentions(part.domain.get(), p.slot) ||
             mentions(part.filter.get(), p.slot) || mentions(part.cond.get(), p.slot);
    if (!seen)
      diags_.report(Code::ambiguous_reads, m.reads_span,
                    fmt::format("the 'reads' text of '{}' never shows its parameter '{}'", m.name, p.name),
                    fmt::format("moves that differ only in '{}' read alike; show it, or what it stands for (e.g. "
                                "{{die[{}]}})",
                                p.name, p.name));
  }
}

}  // namespace keli::check
