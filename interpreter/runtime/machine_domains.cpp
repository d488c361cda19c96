// The evaluator's domains: opening a loop's domain (ranges, regions, indexed lists, a leading
// part below a bound, a local collection), aggregates over one, the counts the engine keeps
// (compile/facts.hpp), and the local collections' operations (lang/collections.hpp).
#include <algorithm>

#include "compile/facts.hpp"
#include "runtime/machine.hpp"
#include "runtime/messages.hpp"

namespace keli::runtime {
using compile::Node;
using compile::Op;
using lang::kMaxLoopIterations;

Machine::Domain Machine::open_domain(int dom) {
  const Node& n = p_.code[dom];
  Domain d;
  switch (n.op) {
    case Op::DomRange: {
      d.lo = eval(n.k[0]);
      int64_t hi = eval(n.k[1]);
      if (hi - d.lo + 1 > kMaxLoopIterations) fail(dom, msg::range_too_long(d.lo, hi));
      d.size = hi < d.lo ? 0 : static_cast<int>(hi - d.lo + 1);
      return d;
    }
    case Op::DomRegion:
      d.sites = &p_.regions[region_of(eval(n.k[0]), dom)];
      d.size = static_cast<int>(d.sites->size());
      return d;
    case Op::DomIndex: {
      const compile::DomainIndex& ix = p_.domain_indexes[n.a];
      int64_t i = eval(n.k[0]) - ix.low;
      d.sites = i >= 0 && i < static_cast<int64_t>(ix.lists.size()) ? &ix.lists[i] : &ix.none;
      d.size = static_cast<int>(d.sites->size());
      return d;
    }
    case Op::DomCount:
      switch (static_cast<lang::DomainOf>(n.aux)) {
        case lang::DomainOf::Sites:
          d.size = building_ ? static_cast<int>(building_->sites.size()) : p_.num_sites;
          break;
        case lang::DomainOf::Seats: d.size = p_.num_players; break;
        case lang::DomainOf::Pieces: d.size = p_.num_pieces; break;
      }
      return d;
    case Op::DomBelow: {
      d = open_domain(n.k[0]);
      d.size = leading_below(d, eval(n.k[1]), n.aux != 0);
      return d;
    }
    case Op::DomSearch: return search(n, dom);
    case Op::DomColl:  // what it holds now: the checker lets nothing change it inside the loop
      d.coll = &locals_[n.a];
      d.kind = static_cast<lang::CollKind>(n.aux);
      d.lo = n.c;
      d.size = static_cast<int>(lang::coll_size(d.coll, d.kind));
      return d;
    default: fail(dom, "not a domain");
  }
}

// `group(T, s)` or `border(T, s)` (lang/collections.hpp's coll_flood): the set it fills in its
// storage, opened as a local set's domain is.
Machine::Domain Machine::search(const Node& n, int dom) {
  need_state(dom);
  const compile::VarInfo& t = p_.vars[n.b];
  const int64_t from = eval(n.k[0]);
  if (from < 0 || from >= p_.num_sites) fail(dom, msg::bad_index(t.name, from, 0, p_.num_sites));
  const int nb = p_.region_tables[p_.neighbour_table].base;
  int64_t* out = &locals_[n.a];
  const int64_t cap = n.c;
  const int64_t work = lang::coll_flood(out, out + lang::coll_slots(lang::CollKind::Set, cap), cap, state_ + t.base,
                                        from, n.aux != 0, [&](int64_t site, int* count) {
                                          const std::vector<int32_t>& list = p_.regions[nb + site];
                                          *count = static_cast<int>(list.size());
                                          return list.data();
                                        });
  spend(dom, work);  // the neighbours the search read; the loop then charges the sites it gives
  Domain d;
  d.coll = out;
  d.kind = lang::CollKind::Set;
  d.lo = cap;
  d.size = static_cast<int>(lang::coll_size(out, d.kind));
  return d;
}

int64_t Machine::aggregate(const Node& n, int node) {
  Domain d = open_domain(n.k[0]);
  spend(node, d.size);  // every element, charged when the domain opens (`any` may stop early)
  int64_t acc = n.op == Op::AggAll ? 1 : 0;
  bool any = false;
  for (int i = 0; i < d.size; ++i) {
    locals_[n.a] = domain_value(d, i);
    if (n.k[compile::kLoopWhile] >= 0 && !eval(n.k[compile::kLoopWhile])) break;
    if (n.k[2] >= 0 && !eval(n.k[2])) continue;
    int64_t v = eval(n.k[1]);
    switch (n.op) {
      case Op::AggSum: acc = checked(node, lang::apply<lang::Operator::Add>(acc, v)); break;
      case Op::AggCount: acc += v ? 1 : 0; break;
      case Op::AggAny:
        if (v) return 1;
        break;
      case Op::AggAll:
        if (!v) return 0;
        break;
      case Op::AggMin: acc = any ? std::min(acc, v) : v; break;
      case Op::AggMax: acc = any ? std::max(acc, v) : v; break;
      default: break;
    }
    any = true;
  }
  if ((n.op == Op::AggMin || n.op == Op::AggMax) && !any) fail(node, msg::empty_aggregate(n.op == Op::AggMin));
  return acc;
}

// How many of an ascending domain's first elements are below `bound` (or equal, inclusive).
int Machine::leading_below(const Domain& d, int64_t bound, bool inclusive) const {
  if (d.sites) {
    auto end = d.sites->begin() + d.size;
    auto cut =
        inclusive ? std::upper_bound(d.sites->begin(), end, bound) : std::lower_bound(d.sites->begin(), end, bound);
    return static_cast<int>(cut - d.sites->begin());
  }
  if (bound < d.lo || (!inclusive && bound == d.lo)) return 0;
  const uint64_t n = static_cast<uint64_t>(bound) - static_cast<uint64_t>(d.lo) + (inclusive ? 1u : 0u);
  return n < static_cast<uint64_t>(d.size) ? static_cast<int>(n) : d.size;
}

// A fact's count at the other index's position, read as the aggregate it replaces would answer;
// the position is checked as the cell read would check it.
int64_t Machine::read_fact(const Node& n, int idx) {
  need_state(idx);
  const compile::Fact& f = p_.facts[n.a];
  if (f.kind == compile::FactKind::Tally) return read_tally(n);
  const compile::VarInfo& t = compile::counted_table(p_, f);
  int64_t at = 0;
  bool outside = false;  // a declared fact's entries outside its keys: all 0
  if (t.dims.size() == 2) {
    const int other = 1 - f.along;
    at = eval(n.k[0]) - t.lows[other];
    outside = static_cast<uint64_t>(at) >= static_cast<uint64_t>(t.dims[other]);
    if (outside && f.tally < 0) bad_index(t, other, at, idx);
  }
  const int64_t count = !outside ? state_[f.base + at] : compile::fact_of_zeros(f);
  switch (static_cast<compile::FactRead>(n.aux)) {
    case compile::FactRead::Count: return count;
    case compile::FactRead::Any: return count > 0;
    case compile::FactRead::All: return count == f.hi - f.lo + 1;
    case compile::FactRead::Tally: break;
  }
  return count;
}

void Machine::collection_fault(int node, lang::CollFault f, int64_t value) const {
  const Node& n = p_.code[node];
  fail(node, msg::collection_fault(f, n, value, lang::coll_size(&locals_[n.a], static_cast<lang::CollKind>(n.aux))));
}

int64_t Machine::collection_value(const Node& n, int node) {
  int64_t* c = &locals_[n.a];
  const auto kind = static_cast<lang::CollKind>(n.aux);
  int64_t out = 0;
  lang::CollFault f = lang::CollFault::None;
  int64_t operand = 0;
  switch (n.op) {
    case Op::CollHas: {
      const int64_t v = eval(n.k[0]);
      spend(node, lang::coll_work(c, kind, true, false));
      return lang::coll_has(c, kind, n.b, n.c, v) ? 1 : 0;
    }
    case Op::CollGet:
      operand = eval(n.k[0]);
      f = lang::coll_get(c, kind, n.c, operand, &out);
      break;
    default: {
      const auto fn = static_cast<lang::CollFunction>(n.d);
      spend(node, lang::coll_work(c, kind, false, lang::coll_takes(fn) && !lang::coll_turns(kind, fn)));
      f = lang::coll_call(c, kind, n.b, n.c, fn, &out);
      break;
    }
  }
  if (f != lang::CollFault::None) collection_fault(node, f, operand);
  return out;
}

void Machine::change_collection(const Node& n, int node) {
  int64_t* c = &locals_[n.a];
  const auto kind = static_cast<lang::CollKind>(n.aux);
  if (n.op == Op::CollClear) return lang::coll_clear(c, kind);
  const int64_t v = eval(n.k[0]);
  if (n.op == Op::CollRemove) spend(node, lang::coll_work(c, kind, true, true));
  const lang::CollFault f =
      n.op == Op::CollAdd ? lang::coll_add(c, kind, n.b, n.c, v) : lang::coll_remove(c, kind, n.b, n.c, v);
  if (f != lang::CollFault::None) collection_fault(node, f, v);
}

}  // namespace keli::runtime
