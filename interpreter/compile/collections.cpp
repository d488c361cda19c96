// Code generation for local collections (lang/collections.hpp): each `let q: list of T` takes
// storage after every frame laid out so far, and each use of q becomes a Coll* node that carries
// the collection's storage, kind, lowest value and capacity (lang/nodes.hpp: a b c aux).
#include <fmt/format.h>

#include "compile/codegen.hpp"
#include "compile/compiler_impl.hpp"

namespace keli::compile {
using ast::ExprKind;
using diag::Code;

// The storage follows the frames: definitions never call themselves, so no body is running twice
// and one block per `let` serves every run of it (the `let` empties it each time).
int CodeGen::let_collection(const ast::Stmt& s, int base) {
  const auto [low, cap] = collection_domain ? collection_domain(s) : std::pair<int64_t, int64_t>{0, 1};
  Collection c{s.coll, out_.locals, low, cap};
  out_.collection_storage.push_back(out_.locals);
  out_.locals += static_cast<int>(lang::coll_slots(s.coll, cap));
  collections_[base + s.slot] = c;
  return collection_node(Op::CollClear, base + s.slot, s.span);
}

// A node naming the collection of the local in `slot`.
int CodeGen::collection_node(Op op, int slot, Span span) {
  auto it = collections_.find(slot);
  const Collection c = it != collections_.end() ? it->second : Collection{};
  int n = node(op, span);
  out_.code[n].a = c.storage;
  out_.code[n].aux = static_cast<uint8_t>(c.kind);
  out_.code[n].b = static_cast<int32_t>(c.low);
  out_.code[n].c = static_cast<int32_t>(c.cap);
  return n;
}

// add / remove VALUE to / from C, clear C: the value first, as operands go left to right.
int CodeGen::change_collection(const ast::Stmt& s, int base) {
  if (s.kind == ast::StmtKind::Clear) return collection_node(Op::CollClear, base + s.exprs[0]->sym, s.span);
  int v = expr(*s.exprs[0], base);
  int n = collection_node(s.kind == ast::StmtKind::Add ? Op::CollAdd : Op::CollRemove, base + s.exprs[1]->sym, s.span);
  out_.code[n].k[0] = v;
  return n;
}

// size(C), first(C), ..., take_last(C).
int CodeGen::collection_call(const ast::Expr& e, int base) {
  int n = collection_node(Op::CollCall, base + e.kids[1]->sym, e.span);
  out_.code[n].d = e.coll_fn;
  return n;
}

// C[i] (`index` the position's expression) and `x in C` (`value` the left side's).
int CodeGen::collection_read(Op op, const ast::Expr& coll, int operand, Span span, int base) {
  int n = collection_node(op, base + coll.sym, span);
  out_.code[n].k[0] = operand;
  return n;
}

bool CodeGen::names_collection(const ast::Expr& e) {
  return e.kind == ExprKind::Name && e.is_local && lang::is_collection(e.type);
}

// What a `let NAME: list of T` holds, as the lowest value and how many: every site, seat or
// piece (while the board is built, as many sites as a board may make), or a range known before play.
std::pair<int64_t, int64_t> Compiler::collection_domain(const ast::Stmt& s, const Program& out, bool building) {
  auto [low, cap] = collection_range(s, out, building);
  if (reserve_slots(lang::coll_slots(s.coll, cap), s.name_span, fmt::format("'{}'", s.name))) return {low, cap};
  return {low, 1};  // over the bound: each takes one slot, and the game does not compile
}

bool Compiler::reserve_slots(int64_t slots, Span at, const std::string& what) {
  const int64_t before = collection_slots;
  collection_slots += slots;
  if (collection_slots <= lang::kMaxCollectionSlots) return true;
  if (before <= lang::kMaxCollectionSlots)  // the first over the bound is reported
    diags.report(Code::too_large, at,
                 fmt::format("the game's lists, sets and searches take more than {} local slots with {}",
                             lang::kMaxCollectionSlots, what),
                 "each takes a slot per value it may hold (a set or a search two, a border four): declare fewer, "
                 "or narrow their ranges");
  return false;
}

std::pair<int64_t, int64_t> Compiler::collection_range(const ast::Stmt& s, const Program& out, bool building) {
  const Span at = s.elem.span;
  if (!s.elem.lo) {
    const std::string& t = s.elem.type;
    if (t == "site") return {0, building ? lang::kMaxSites : out.num_sites};
    return {0, t == "player" ? out.num_players : out.num_pieces};
  }
  const int64_t lo = stored_constant(*s.elem.lo, "the start of the range");
  const int64_t hi = stored_constant(*s.elem.hi, "the end of the range");
  if (hi < lo) {
    diags.report(Code::bad_domain, at, fmt::format("the range {}..{} holds no value", lo, hi),
                 "a collection's range is what it may hold: write the smallest value first");
    return {lo, 1};
  }
  if (hi - lo + 1 > lang::kMaxCollectionValues) {
    diags.report(Code::too_large, at,
                 fmt::format("the range {}..{} holds {} values, more than a collection may ({})", lo, hi, hi - lo + 1,
                             lang::kMaxCollectionValues),
                 "a list or set takes a slot per value of its range (two for a set): narrow the range");
    return {lo, 1};
  }
  return {lo, hi - lo + 1};
}

}  // namespace keli::compile
