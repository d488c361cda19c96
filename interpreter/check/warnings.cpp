// Warnings about the game's own file: definitions nothing uses (W001), parameters nothing reads
// (W003) and rules, phases or handlers that can never apply (W004). Each check is exact: it warns
// only when the text proves it, never on a guess. Libraries and a variant's base are not warned
// about (a library offers more than one game uses), nor is a file with syntax errors (the text
// that did not parse may be what uses a definition).
#include <fmt/format.h>

#include "check/checker_impl.hpp"
#include "lang/arith.hpp"

namespace keli::check {

bool Checker::warn_in(int file) const { return syntax_files_.empty() && file == c_.modules[c_.main].file; }

// The value of an expression made of literals (and choices, once resolved) only, computed by the
// vocabulary's arithmetic; `false and x` and `true or x` are known whatever x is. A fault (a
// division by zero) leaves it unknown: play reports it where it happens.
std::optional<int64_t> Checker::fold(const Expr& e) const {
  switch (e.kind) {
    case ExprKind::Int:
    case ExprKind::Bool: return e.value;
    case ExprKind::Neg:
    case ExprKind::Not: {
      auto v = fold(*e.kids[0]);
      if (!v) return std::nullopt;
      lang::Result r = lang::apply(e.op, *v);
      return r.ok() ? std::optional<int64_t>(r.value) : std::nullopt;
    }
    case ExprKind::Cond: {
      auto c = fold(*e.kids[0]);
      if (!c) return std::nullopt;
      return fold(*e.kids[*c ? 1 : 2]);
    }
    case ExprKind::Binary: {
      auto a = fold(*e.kids[0]), b = fold(*e.kids[1]);
      if (e.op == lang::Operator::And && ((a && *a == 0) || (b && *b == 0))) return 0;
      if (e.op == lang::Operator::Or && ((a && *a != 0) || (b && *b != 0))) return 1;
      if (!a || !b || e.op == lang::Operator::In) return std::nullopt;
      lang::Result r = lang::apply(e.op, *a, *b);
      return r.ok() ? std::optional<int64_t>(r.value) : std::nullopt;
    }
    default: return std::nullopt;
  }
}

// A move whose guard or parameter filter is always false never has a legal instance.
void Checker::warn_never(const Expr* cond, const char* what, const std::string& rule) {
  if (!cond || !warn_in(cond->span.file)) return;
  auto v = fold(*cond);
  if (v && *v == 0)
    diags_.report(Code::never_applies, cond->span,
                  fmt::format("rule '{}' can never apply: {} is always false", rule, what),
                  "fix the condition, or remove the rule");
}

void Checker::warn_unused() {
  // W003, W004 and events never emitted wait until the game has no errors: a misspelt name
  // (`emit scord`) would otherwise leave what it meant to use looking unused.
  bool quiet = diags_.has_errors();
  for (auto& s : c_.syms) {
    if (s.used || !s.decl || s.decl->broken || !warn_in(s.decl->file)) continue;
    if (s.kind == SymKind::Phase) continue;  // phases: below
    if (quiet && (s.kind == SymKind::Param || s.kind == SymKind::Event)) continue;
    if (s.kind == SymKind::Param) {
      diags_.report(Code::unused_param, s.decl->name_span, fmt::format("parameter '{}' is never read", s.name),
                    "remove it, or use it in the rules: setting it changes nothing");
    } else if (s.kind == SymKind::Event) {
      diags_.report(Code::unused, s.decl->name_span, fmt::format("'{}' (an event) is never emitted", s.name),
                    "remove it and its handlers, or raise it with 'emit'");
    } else {
      diags_.report(Code::unused, s.decl->name_span,
                    fmt::format("'{}' ({}) is never used", s.name, sym_kind_name(s.kind)), "remove it, or use it");
    }
  }
  if (quiet) return;
  for (auto& [cond, what, rule] : never_) warn_never(cond, what, rule);
  for (auto& [d, i] : unread_)
    diags_.report(Code::unused_param, d->formals[i].span,
                  fmt::format("parameter '{}' of '{}' is never read", d->formals[i].name, d->name),
                  "remove it (and the argument at every call), or use it");
  for (auto* h : c_.handlers)
    if (h->sym >= 0 && !c_.syms[h->sym].used && warn_in(h->file))
      diags_.report(Code::never_applies, h->name_span,
                    fmt::format("this handler never runs: nothing emits '{}'", h->name),
                    "emit the event where it happens, or remove the handler");
  // Play starts in the first phase; any other must be named somewhere (`phase = NAME`) to be entered.
  for (size_t i = 1; i < c_.phases.size(); ++i) {
    const ast::Decl* d = c_.phases[i];
    if (!entered_.count(d->sym) && warn_in(d->file))
      diags_.report(Code::never_applies, d->name_span,
                    fmt::format("phase '{}' is never entered: no statement names it", d->name),
                    fmt::format("play starts in the first phase, '{}'; enter this one with 'phase = {}'",
                                c_.phases[0]->name, d->name));
  }
}

}  // namespace keli::check
