// The checker on local collections (docs/language.md, "Local collections"): `let q: list of T`,
// `add`, `remove`, `clear`, the functions on one (size, first, take_first, ...), `x in q`, `q[i]`
// and loops over one. A collection is only ever named: never a value, copied, passed or assigned,
// and it does not change while a loop runs over it (so a loop's domain is what it held at the start).
#include <fmt/format.h>

#include <algorithm>

#include "check/checker_impl.hpp"

namespace keli::check {

namespace {
const char* const kCollectionHint = "a list or set is used by name: add, remove, clear, in, for, size(...), first(...)";
}  // namespace

int find_coll_function(const std::string& name) {
  for (int i = 0; i < static_cast<int>(lang::CollFunction::count_); ++i)
    if (name == lang::coll_function_name(static_cast<lang::CollFunction>(i))) return i;
  return -1;
}

// `let NAME: list of T` or `set of T`: T a site, player or piece, or a range of numbers known
// before play (its size is the collection's capacity, worked out by the compiler).
void Checker::let_collection(Stmt& s) {
  Type elem = Type::Int;
  if (s.elem.lo) {
    for (Expr* bound : {s.elem.lo.get(), s.elem.hi.get()}) {
      Type t = expr(*bound, Type::Int);
      if (!compatible(Type::Int, t))
        mismatch(*bound, Type::Int, t,
                 fmt::format("a bound of what a collection holds must be a number, but this is {}", ast::type_name(t)));
      else if (!is_constant(*bound))
        diags_.report(Code::not_constant, bound->span, "a bound of what a collection holds must be known before play",
                      "use numbers and parameters only: the range is the collection's capacity");
    }
  } else {
    elem = type_from_name(s.elem.type);
    if (elem != Type::Site && elem != Type::Player && elem != Type::Piece) {
      diags_.report(
          Code::unknown_type, s.elem.span,
          fmt::format("a collection holds sites, players, pieces or numbers of a range, not '{}'", s.elem.type),
          "write 'list of site', 'set of player', 'list of piece' or 'set of 0..9'");
      elem = Type::Error;
    }
  }
  s.slot = declare(s.name, s.coll == lang::CollKind::List ? Type::List : Type::Set, -1, s.name_span);
  scope_.back().elem = elem;
}

// The local list or set `e` names, or null; nothing is checked or reported.
const Checker::Local* Checker::local_collection(const Expr& e) const {
  const Local* l = e.kind == ExprKind::Name ? find_local(e.text) : nullptr;
  return l && lang::is_collection(l->type) ? l : nullptr;
}

// The local collection `e` names, annotated as its name; null (after saying why) for anything else.
const Checker::Local* Checker::collection(Expr& e, const char* what) {
  const Local* l = local_collection(e);
  if (!l) {
    Type t = expr(e);
    if (t != Type::Error)
      diags_.report(Code::type_mismatch, e.span,
                    fmt::format("{} must be a local list or set, but this is {}", what, ast::type_name(t)),
                    "declare one in this body: let seen: set of site");
    return nullptr;
  }
  e.is_local = true;
  e.sym = l->slot;
  e.type = l->type;
  l->read = true;
  return l;
}

// A change of a collection (add, remove, clear, take_first, take_last): never while a loop runs over it.
void Checker::changes_collection(const Local& l, Span span) {
  if (std::find(iterating_.begin(), iterating_.end(), l.slot) == iterating_.end()) return;
  diags_.report(Code::not_assignable, span,
                fmt::format("'{}' cannot change while a loop or aggregate runs over it", l.name),
                "gather the changes in another collection, or loop with 'while size(...) > 0' and take_first");
}

// Local pointers into scope_ last only until the next declaration: an aggregate in a checked
// expression declares its variable, which may move the vector.

// `add X to C` on a collection; `add SITE to REGION` (building the board) otherwise.
void Checker::add_statement(Stmt& s) {
  Expr& target = *s.exprs[1];
  if (const Local* found = local_collection(target)) {
    const Local l = *found;  // a copy: checking the value may declare locals (an aggregate's), moving scope_
    want_type(*s.exprs[0], l.elem, "what 'add' adds");
    collection(target, "what 'add' adds to");
    changes_collection(l, s.span);
    return;
  }
  if (where_ != Where::Build) misplaced(s.span, "'add'", Where::Build);
  want_type(*s.exprs[0], Type::Site, "what 'add' adds");
  Type t = expr(target);
  if (t != Type::Region && t != Type::Error)
    diags_.report(
        Code::type_mismatch, target.span,
        fmt::format("'add' adds to a region, a track or a local list or set, but this is {}", ast::type_name(t)));
  else if (target.kind != ExprKind::Name && target.kind != ExprKind::Index)
    diags_.report(Code::type_mismatch, target.span, "'add' needs a declared region or track");
}

void Checker::remove_statement(Stmt& s) {
  const Local* found = collection(*s.exprs[1], "what 'remove' removes from");
  if (!found) return (void)expr(*s.exprs[0]);
  const Local l = *found;  // a copy, as in add_statement
  want_type(*s.exprs[0], l.elem, "what 'remove' removes");
  changes_collection(l, s.span);
}

void Checker::clear_statement(Stmt& s) {
  if (const Local* l = collection(*s.exprs[0], "what 'clear' empties")) changes_collection(*l, s.span);
}

// size(C), first(C), last(C), take_first(C), take_last(C): true when `e` is one (then checked).
bool Checker::collection_call(Expr& e, Type& result) {
  const int f = find_coll_function(e.kids[0]->text);
  const Local* l = f >= 0 && e.kids.size() == 2 ? local_collection(*e.kids[1]) : nullptr;
  if (!l) return false;
  collection(*e.kids[1], "the argument");
  e.coll_fn = f;
  const auto fn = static_cast<lang::CollFunction>(f);
  if (lang::coll_takes(fn)) changes_collection(*l, e.span);
  result = fn == lang::CollFunction::size ? Type::Int : l->elem;
  return true;
}

// The element type of `C` when `e` names a local collection (x in C, C[i], for x in C); else Void.
Type Checker::collection_element(Expr& e) {
  const Local* l = local_collection(e);
  if (!l) return Type::Void;
  collection(e, "");
  return l->elem;
}

// C[i], the value at a position of a list or set (of type `elem`): one index, a number.
Type Checker::collection_index(Expr& e, const Expr& root, const std::vector<Expr*>& idx, Type elem) {
  if (idx.size() != 1) {
    diags_.report(Code::bad_index, e.span, fmt::format("'{}' takes one index, a position", root.text));
    for (auto* i : idx) expr(*i);
    return Type::Error;
  }
  want_type(*idx[0], Type::Int, "a position in a list or set");
  return elem;
}

// A loop over a collection: while its body and filter are checked, the collection cannot change.
void Checker::iterate(const Expr& domain, bool begin) {
  if (domain.kind != ExprKind::Name || !domain.is_local || !lang::is_collection(domain.type)) return;
  if (begin)
    iterating_.push_back(domain.sym);
  else
    iterating_.pop_back();
}

const char* Checker::collection_hint() { return kCollectionHint; }

}  // namespace keli::check
