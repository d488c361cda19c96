// Variants: how a variant's declarations replace, extend or fail to match its base's.
// `override KIND NAME` replaces the base's declaration of that name and kind (E106 when the base
// has none); a plain declaration that replaces one is accepted with a warning asking for
// `override` (W005); `extend phase NAME { ... }` adds rules to a base's phase or, with
// `override move`, replaces one rule in its place, so the order of the legal moves is kept, and
// with `remove move` drops one. Handlers and invariants have no symbol: `override on EVENT(...)`
// replaces every base handler of the event (the new one runs where the first did), `override
// invariant NAME` the base's invariant of that name (or text); `remove on EVENT` and `remove
// invariant NAME` drop them.
#include <fmt/format.h>

#include <algorithm>

#include "check/checker_impl.hpp"

namespace keli::check {

std::vector<std::string> Checker::names_of_kind(SymKind k) const {
  std::vector<std::string> out;
  for (const auto& s : c_.syms)
    if (s.kind == k) out.push_back(s.name);
  return out;
}

// A plain declaration of a variant that replaces its base's (the caller swaps them).
void Checker::replace_decl(ast::Decl& d, Symbol& old) {
  if (d.is_override) return;
  diags_.report(Code::missing_override, d.name_span,
                fmt::format("'{}' replaces {} of the same name in the base game", d.name, sym_kind_name(old.kind)),
                fmt::format("write 'override {} {}' to say so (the base's is at {})", ast::decl_kind_name(d.kind),
                            d.name, src_.where(old.decl->name_span)));
}

// `override` of something the base does not have.
void Checker::override_missing(ast::Decl& d, bool from_variant) {
  const char* kind = ast::decl_kind_name(d.kind);
  d.broken = true;  // reported: no warnings about it being unused on top
  Span at = d.name_span.valid() ? d.name_span : d.span;
  if (!from_variant) {
    diags_.report(Code::unknown_override, at,
                  fmt::format("'override {}' replaces a declaration of a base game, and this file extends none", kind),
                  "drop 'override', or name the base: game \"NAME\" extends \"BASE.keli\"");
    return;
  }
  const bool single = d.kind == DeclKind::Players || d.kind == DeclKind::Pieces || d.kind == DeclKind::Board ||
                      d.kind == DeclKind::Repetitions;  // declared once, by no name of its own
  std::string what = single ? fmt::format("the base game has no '{}' to override", kind)
                            : fmt::format("the base game has no {} '{}' to override", kind, d.name);
  std::string hint;
  if (!single) {
    SymKind k = SymKind::Phase;
    switch (d.kind) {
      case DeclKind::Param: k = SymKind::Param; break;
      case DeclKind::Const: k = SymKind::Const; break;
      case DeclKind::Var: k = SymKind::Var; break;
      case DeclKind::Region: k = SymKind::Region; break;
      case DeclKind::Track: k = SymKind::Track; break;
      case DeclKind::Dice: k = SymKind::Dice; break;
      case DeclKind::Def: k = SymKind::Def; break;
      case DeclKind::Shape: k = SymKind::Shape; break;
      case DeclKind::Event: k = SymKind::Event; break;
      default: break;
    }
    hint = diag::suggest(d.name, names_of_kind(k));
  }
  diags_.report(Code::unknown_override, at, what, hint_or(hint, fmt::format("to add a new {}, drop 'override'", kind)));
}

// The names of the base's handlers (their events) or invariants (their names or texts).
std::vector<std::string> Checker::base_names(const std::vector<ast::Decl*>& list, int file) const {
  std::vector<std::string> out;
  for (const ast::Decl* x : list)
    if (x->file != file) out.push_back(x->name);
  return out;
}

namespace {
const char* what_of(DeclKind k) { return k == DeclKind::On ? "handler of event" : "invariant"; }
}  // namespace

// A handler or invariant: added; with `override`, put in the place of the base's of that name.
void Checker::add_replacing(std::vector<ast::Decl*>& list, ast::Decl& d, bool from_variant) {
  if (!d.is_override) {
    list.push_back(&d);
    return;
  }
  auto from_base = [&](const ast::Decl* x) { return x->file != d.file && x->name == d.name; };
  auto first = std::find_if(list.begin(), list.end(), from_base);
  if (!from_variant || first == list.end()) {
    if (!from_variant) {
      override_missing(d, false);
    } else {
      d.broken = true;
      diags_.report(Code::unknown_override, d.name_span,
                    fmt::format("the base game has no {} '{}' to override", what_of(d.kind), d.name),
                    hint_or(diag::suggest(d.name, base_names(list, d.file)),
                            fmt::format("to add a new {}, drop 'override'", ast::decl_kind_name(d.kind))));
    }
    list.push_back(&d);
    return;
  }
  *first = &d;
  list.erase(std::remove_if(std::next(first), list.end(), from_base), list.end());
}

// `remove on EVENT`, `remove invariant NAME`: the base's are dropped; naming none is E106.
void Checker::remove_decl(ast::Decl& d, bool from_variant) {
  auto& list = d.removes == DeclKind::On ? c_.handlers : c_.invariants;
  if (!from_variant) {
    diags_.report(Code::unknown_override, d.span,
                  "'remove' drops a declaration of a base game, and this file extends none",
                  "name the base: game \"NAME\" extends \"BASE.keli\"");
    return;
  }
  auto from_base = [&](const ast::Decl* x) { return x->file != d.file && x->name == d.name; };
  size_t before = list.size();
  list.erase(std::remove_if(list.begin(), list.end(), from_base), list.end());
  if (list.size() == before)
    diags_.report(Code::unknown_override, d.name_span,
                  fmt::format("the base game has no {} '{}' to remove", what_of(d.removes), d.name),
                  hint_or(diag::suggest(d.name, base_names(list, d.file)),
                          d.removes == DeclKind::On ? "name an event the base handles with 'on EVENT(...)'"
                                                    : "name an invariant of the base by its name or its text"));
}

// `extend phase NAME { [override] move ... }`: the base's phase keeps its other rules, in order;
// a replaced rule keeps its place, a new one goes last.
void Checker::extend_phase(ast::Decl& d, bool from_variant) {
  int s = c_.lookup(d.name);
  bool is_phase = s >= 0 && c_.syms[s].kind == SymKind::Phase;
  if (!from_variant || !is_phase || c_.syms[s].decl->file == d.file) {
    std::string hint = !from_variant ? "name the base game: game \"NAME\" extends \"BASE.keli\""
                       : is_phase    ? fmt::format("phase '{}' is declared in this file: add the rules to it", d.name)
                                     : hint_or(diag::suggest(d.name, names_of_kind(SymKind::Phase)),
                                               "declare a new phase with 'phase NAME { ... }'");
    diags_.report(Code::unknown_override, d.name_span,
                  !from_variant
                      ? std::string("'extend phase' adds rules to a phase of a base game, and this file extends none")
                      : fmt::format("the base game has no phase '{}' to extend", d.name),
                  hint);
    return;
  }
  ast::Decl& base = *c_.syms[s].decl;
  if (base.value) {
    diags_.report(Code::unknown_override, d.name_span,
                  fmt::format("phase '{}' throws dice: it has no rules to extend", d.name),
                  fmt::format("replace it whole with 'override phase {} chance ...'", d.name));
    return;
  }
  std::vector<std::string> seen;
  for (auto& m : d.moves) {
    if (std::find(seen.begin(), seen.end(), m.name) != seen.end()) {
      diags_.report(Code::duplicate_name, m.span,
                    fmt::format("this 'extend phase {}' already has a rule named '{}'", d.name, m.name));
      continue;
    }
    seen.push_back(m.name);
    auto it = std::find_if(base.moves.begin(), base.moves.end(), [&](const ast::Move& b) { return b.name == m.name; });
    if (m.is_removal) {
      if (it != base.moves.end()) {
        base.moves.erase(it);
      } else {
        std::vector<std::string> rules;
        for (const auto& b : base.moves) rules.push_back(b.name);
        diags_.report(Code::unknown_override, m.span,
                      fmt::format("phase '{}' of the base game has no rule '{}' to remove", d.name, m.name),
                      hint_or(diag::suggest(m.name, rules), "name one of the base phase's rules"));
      }
      continue;
    }
    if (it != base.moves.end()) {
      if (!m.is_override)
        diags_.report(Code::missing_override, m.span,
                      fmt::format("rule '{}' replaces the base phase's rule of the same name", m.name),
                      fmt::format("write 'override {} {}' to say so (the base's is at {})",
                                  m.is_otherwise ? "otherwise" : "move", m.name, src_.where(it->span)));
      *it = std::move(m);
      continue;
    }
    if (m.is_override) {
      std::vector<std::string> rules;
      for (const auto& b : base.moves) rules.push_back(b.name);
      diags_.report(Code::unknown_override, m.span,
                    fmt::format("phase '{}' of the base game has no rule '{}' to override", d.name, m.name),
                    hint_or(diag::suggest(m.name, rules), "to add a new rule, drop 'override'"));
    }
    base.moves.push_back(std::move(m));  // a new rule (checked even when its 'override' was wrong)
  }
}

}  // namespace keli::check
