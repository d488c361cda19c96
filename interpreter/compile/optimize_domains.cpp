// The optimizer's domain rewrites, for loops whose body and filter write nothing (aggregates, and
// move parameters when no guard writes the state):
//   - `x in D where T[x] == E and rest` (T a one-dimensional constant table, E free of x) runs over
//     a list precomputed per value of T (DomIndex), the filter keeping the rest;
//   - `x in D where x < E and rest` over an ascending D runs over D's elements below E only
//     (DomBelow), the filter keeping the rest.
// Elements keep D's order, so moves keep theirs, and every error the original would report is
// reported the same, at the same node.
#include <algorithm>

#include "compile/optimize_tools.hpp"

namespace keli::compile {
namespace {

// A filter's top-level `and`s: the conjuncts of a left-leaning chain, leftmost first, with the
// `and` that holds each (-1 for a filter that is the conjunct itself).
struct Conjunct {
  int node, parent;
};

class DomainRewriter : NodeTools {
 public:
  using NodeTools::NodeTools;

  void run(int& dom, int& filter, int slot) {
    index(dom, filter, slot);
    below(dom, filter, slot);
  }

 private:
  std::vector<Conjunct> conjuncts(int filter) const {
    std::vector<Conjunct> out;
    int parent = -1, at = filter;
    while (p_.code[at].op == Op::And) {
      out.push_back({p_.code[at].k[1], at});
      parent = at;
      at = p_.code[at].k[0];
    }
    out.push_back({at, parent});
    std::reverse(out.begin(), out.end());
    return out;
  }

  // Drops conjunct c from the filter: the other side of its `and` takes the `and`'s place,
  // keeping `and`'s 0/1 result.
  void drop(int& filter, const Conjunct& c) {
    if (c.parent < 0) {
      filter = -1;
      return;
    }
    Node& pa = p_.code[c.parent];
    int other = pa.k[0] == c.node ? pa.k[1] : pa.k[0];
    int keep = truth(c.parent, other);
    if (keep != c.parent) p_.code[c.parent] = p_.code[keep];
  }

  // The elements of a domain known at compile time, or false.
  bool elements(int dom, std::vector<int32_t>& out) const {
    const Node& n = p_.code[dom];
    out.clear();
    switch (n.op) {
      case Op::DomCount: {
        const int size = p_.count_of(static_cast<lang::DomainOf>(n.aux));
        for (int i = 0; i < size; ++i) out.push_back(i);
        return true;
      }
      case Op::DomRange:
        if (!imm(n.k[0]) || !imm(n.k[1]) || val(n.k[1]) - val(n.k[0]) > 100000) return false;
        for (int64_t i = val(n.k[0]); i <= val(n.k[1]); ++i) out.push_back(static_cast<int32_t>(i));
        return true;
      case Op::DomRegion:
        if (!imm(n.k[0]) || val(n.k[0]) < 0 || val(n.k[0]) >= static_cast<int64_t>(p_.regions.size())) return false;
        out = p_.regions[val(n.k[0])];
        return true;
      default: return false;
    }
  }

  // The index test `T[x] == E`: which side is the table read, or -1. E may fail (a table read
  // out of range) only when the test is the filter's first conjunct over a domain with
  // elements: the original evaluates it first, at the first element, as DomIndex does.
  int index_side(int idx, int slot, bool first) const {
    const Node& n = p_.code[idx];
    if (n.op != Op::Eq) return -1;
    for (int side = 0; side < 2; ++side) {
      const Node& t = p_.code[n.k[side]];
      if (t.op != Op::ConstGet || p_.const_tables[t.a].dims.size() != 1) continue;
      const Node& ix = p_.code[t.k[0]];
      if (ix.op != Op::Local || ix.a != slot) continue;
      int other = n.k[1 - side];
      if (reads_local(other, slot)) continue;
      if (cheap(other) || (first && plain(other))) return side;
    }
    return -1;
  }

  void index(int& dom, int& filter, int slot) {
    if (filter < 0) return;
    std::vector<int32_t> elems;
    if (!elements(dom, elems) || elems.empty()) return;
    std::vector<Conjunct> cs = conjuncts(filter);
    for (size_t i = 0; i < cs.size(); ++i) {
      int side = index_side(cs[i].node, slot, i == 0);
      if (side < 0) continue;
      const Node& eq = p_.code[cs[i].node];
      if (!make_index(dom, elems, eq.k[side], eq.k[1 - side])) return;
      drop(filter, cs[i]);
      return;
    }
  }

  bool make_index(int& dom, const std::vector<int32_t>& elems, int table_node, int value) {
    const VarInfo& t = p_.const_tables[p_.code[table_node].a];
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (int32_t e : elems) {
      int64_t i = e - t.lows[0];
      if (i < 0 || i >= t.dims[0]) return false;  // the runtime would report it: leave it alone
      lo = std::min(lo, p_.consts[t.base + i]);
      hi = std::max(hi, p_.consts[t.base + i]);
    }
    if (hi - lo > 100000) return false;
    DomainIndex ix;
    ix.low = lo;
    ix.lists.resize(hi - lo + 1);
    for (int32_t e : elems) ix.lists[p_.consts[t.base + e - t.lows[0]] - lo].push_back(e);
    ix.ascending = std::is_sorted(elems.begin(), elems.end());
    p_.domain_indexes.push_back(std::move(ix));
    int d = new_node(Op::DomIndex, dom);
    p_.code[d].a = static_cast<int32_t>(p_.domain_indexes.size()) - 1;
    p_.code[d].k[0] = value;
    dom = d;
    return true;
  }

  bool ascending(int dom) const {
    const Node& n = p_.code[dom];
    switch (n.op) {
      case Op::DomCount:
      case Op::DomRange: return true;
      case Op::DomIndex: return p_.domain_indexes[n.a].ascending;
      default: return false;
    }
  }

  // The first conjunct `x < E`, `x <= E`, `E > x` or `E >= x` (E cheap, free of x) over an
  // ascending domain: once false it stays false, so the loop ends there instead.
  void below(int& dom, int& filter, int slot) {
    if (filter < 0 || !ascending(dom)) return;
    Conjunct first = conjuncts(filter).front();
    const Node& n = p_.code[first.node];
    bool strict = n.op == Op::Lt || n.op == Op::Gt;
    if (!strict && n.op != Op::Le && n.op != Op::Ge) return;
    const int var_side = n.op == Op::Lt || n.op == Op::Le ? 0 : 1;
    const Node& x = p_.code[n.k[var_side]];
    int bound = n.k[1 - var_side];
    if (x.op != Op::Local || x.a != slot || reads_local(bound, slot) || !cheap(bound)) return;
    int d = new_node(Op::DomBelow, dom);
    p_.code[d].k[0] = dom;
    p_.code[d].k[1] = bound;
    p_.code[d].aux = strict ? 0 : 1;
    dom = d;
    drop(filter, first);
  }
};

}  // namespace

void rewrite_domain(Program& p, int& dom, int& filter, int slot) { DomainRewriter(p).run(dom, filter, slot); }

}  // namespace keli::compile
