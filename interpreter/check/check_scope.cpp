// The checker's context for a body: its local scopes and slots, and where each construct may
// appear (while building the board, or during play).
#include <fmt/format.h>

#include <algorithm>

#include "check/checker_impl.hpp"

namespace keli::check {

std::string count_of(size_t n, const char* noun) {
  std::string w = noun;
  if (n != 1) w += w.back() == 'x' ? "es" : "s";
  if (w == "indexs") w = "indices";
  if (w == "indexes") w = "indices";
  return fmt::format("{} {}", n, w);
}
std::string count_is(size_t n) { return fmt::format("{} {}", n, n == 1 ? "is" : "are"); }

void Checker::begin(ast::Decl* owner, Where where) {
  owner_ = owner;
  where_ = where;
  scope_.clear();
  marks_.clear();
  next_slot_ = max_slot_ = 0;
  narrowed_.clear();
  assigned_.clear();
}

int Checker::end() {
  int n = max_slot_;
  scope_.clear();
  owner_ = nullptr;
  return n;
}

int Checker::declare(const std::string& nm, Type t, int enum_id, Span span) {
  int g = c_.lookup(nm);
  const Local* outer = find_local(nm);
  // Only the game's own file is warned about: libraries name their parameters generally.
  if (outer && outer->slot >= formals_ && span.file == c_.modules[c_.main].file)
    diags_.report(Code::shadowed, span, fmt::format("local '{}' hides an outer local of the same name", nm),
                  fmt::format("the outer '{}' is declared at {}; rename one of them", nm, src_.where(outer->span)));
  else if (g >= 0 && c_.syms[g].kind != SymKind::Seat && c_.syms[g].kind != SymKind::Direction &&
           span.file == c_.modules[c_.main].file)
    diags_.report(Code::shadowed, span,
                  fmt::format("local '{}' hides {} of the same name", nm, sym_kind_name(c_.syms[g].kind)),
                  "rename the local to keep both usable");
  if (span.file == c_.modules[c_.main].file && (find_builtin_var(nm) >= 0 || find_builtin(nm) >= 0) && builtin_here(nm))
    diags_.report(Code::shadowed, span, fmt::format("local '{}' hides the built-in '{}'", nm, nm),
                  find_builtin_var(nm) >= 0 ? fmt::format("assigning to this local does not change the game's '{}'", nm)
                                            : "rename the local");
  scope_.push_back({nm, t, enum_id, next_slot_, span});
  max_slot_ = std::max(max_slot_, next_slot_ + 1);
  return next_slot_++;
}

const Checker::Local* Checker::find_local(const std::string& nm) const {
  for (auto it = scope_.rbegin(); it != scope_.rend(); ++it)
    if (it->name == nm) return &*it;
  return nullptr;
}

// A bare name that some enumeration lists as a choice: typed after the other side of a comparison.
bool Checker::could_be_choice(const Expr& e) const {
  if (e.kind != ExprKind::Name || find_local(e.text)) return false;
  for (const auto& en : c_.enums)
    if (std::find(en.choices.begin(), en.choices.end(), e.text) != en.choices.end()) return true;
  return false;
}

bool Checker::resolvable(const Expr& e) const {
  if (e.kind != ExprKind::Name) return true;
  return find_local(e.text) || c_.lookup(e.text) >= 0 || find_builtin_var(e.text) >= 0;
}

// A play-only construct: an error while building the board; inside a function, remembered so
// that calls of the function from the board or a shape can be rejected (check_build_calls).
void Checker::needs_play(Span span, const std::string& what) {
  if (where_ == Where::Build) {
    misplaced(span, what, Where::Play);
  } else if (where_ == Where::Any && owner_ && owner_->kind == DeclKind::Def && !play_use_.count(owner_)) {
    play_use_[owner_] = {span, what};
  }
}

void Checker::misplaced(Span span, const std::string& what, Where needed) {
  if (needed == Where::Build)
    diags_.report(Code::misplaced, span, fmt::format("{} can only be used while building the board", what),
                  "use it inside 'board { ... }' or a 'shape'");
  else
    diags_.report(Code::misplaced, span, fmt::format("{} cannot be used while building the board", what),
                  "the board is built before play: only parameters, constants and regions exist then");
}

}  // namespace keli::check
