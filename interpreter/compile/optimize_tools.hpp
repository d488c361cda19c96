// What the optimizer's passes share (compile/optimize.cpp, optimize_domains.cpp, facts.cpp):
// reading immediates, making nodes, and the one test of which expressions may be evaluated
// anywhere, however often, without anyone seeing a difference.
#pragma once

#include <cstdint>
#include <limits>

#include "compile/program.hpp"

namespace keli::compile {

class NodeTools {
 public:
  explicit NodeTools(Program& p) : p_(p) {}

 protected:
  bool imm(int idx) const { return idx >= 0 && p_.code[idx].op == Op::Imm; }
  int64_t val(int idx) const { return p_.code[idx].a; }

  // Turns node idx into an immediate when v fits; returns idx.
  int make_imm(int idx, int64_t v) {
    if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max()) return idx;
    Node n;
    n.op = Op::Imm;
    n.a = static_cast<int32_t>(v);
    p_.code[idx] = n;
    return idx;
  }

  // `x` as a truth value (0 or 1): x itself when it already is one, else `x != 0` in node idx.
  int truth(int idx, int x);

  // A new node of kind op, reported (if it ever fails) at the source position of node `like`.
  int new_node(Op op, int like) {
    Node n;
    n.op = op;
    p_.code.push_back(n);
    p_.spans.push_back(p_.spans[like]);
    return static_cast<int>(p_.code.size()) - 1;
  }

  // An expression that may be evaluated wherever (and however often) with no change anyone can
  // observe: it writes nothing and can never fail. So no calls, aggregates, dice reads or region
  // look-ups, no arithmetic that may overflow or divide by zero, and table reads only at fixed
  // indices inside the table.
  bool cheap(int idx, int depth = 0) const;
  // An expression that writes nothing and calls nothing, though it may fail (a table read out
  // of range, an overflow): evaluated once instead of several times, it gives the same value
  // and, evaluated first where the original evaluated it first, the same error.
  bool plain(int idx, int depth = 0) const;
  bool fixed_index(const VarInfo& t, const Node& n) const;
  bool reads_local(int idx, int slot) const;
  // An expression that takes a value out of a local collection (take_first, take_last): a change
  // no state-write test sees, which a loop must make for every element it visits.
  bool takes_from_collection(int idx) const;

  Program& p_;
};

// `x in D where filter` over a domain known before play: index it on a constant table and stop
// it early where the filter says so (compile/optimize_domains.cpp). `pure` says the loop's body
// and filter write nothing (so values read before it stay as they are while it runs).
void rewrite_domain(Program& p, int& dom, int& filter, int slot);

// A count over a state table the engine can keep up to date instead of scanning
// (compile/facts.cpp): the node to use in place of aggregate idx, or idx itself.
int keep_fact(Program& p, int idx);

}  // namespace keli::compile
