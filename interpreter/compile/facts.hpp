// Facts the engine keeps (Program::facts): counts over a state table kept in hidden slots after
// the variables, updated on every write of the table, so rules read them instead of scanning.
// The optimizer finds them (compile/facts.cpp); both engines keep them with these functions (the
// native engine's generated code does what update_facts does). They are never part of traces,
// equality or invariants: refresh_facts recomputes them from the variables wherever a state is
// made from outside (a scenario's position, a trace), and check_facts is the debug mode's test.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compile/program.hpp"
#include "lang/arith.hpp"

namespace keli::compile {

// Whether a cell value counts toward the fact (`cell op k`, a comparison: it cannot fail).
inline bool fact_holds(const Fact& f, int64_t cell) { return lang::apply(f.op, cell, f.k).value != 0; }

// The cell at offset `rel` of its table: its position along the fact's index and the other's.
inline void fact_positions(const Fact& f, const VarInfo& t, int64_t rel, int64_t& along, int64_t& other) {
  if (t.dims.size() == 1) {
    along = rel;
    other = 0;
    return;
  }
  const int64_t i0 = rel / t.dims[1], i1 = rel % t.dims[1];
  along = f.along == 0 ? i0 : i1;
  other = f.along == 0 ? i1 : i0;
}

// After the cell at state offset `off` of variable `var` went from `before` to `now`.
inline void update_facts(const Program& p, int var, int64_t off, int64_t before, int64_t now, int32_t* s) {
  for (int id : p.facts_of_var[var]) {
    const Fact& f = p.facts[id];
    int64_t along, other;
    fact_positions(f, p.vars[var], off - p.vars[var].base, along, other);
    if (along < f.lo || along > f.hi) continue;
    s[f.base + other] += static_cast<int32_t>(fact_holds(f, now)) - static_cast<int32_t>(fact_holds(f, before));
  }
}

// Every fact recomputed from the variables of s (s has p.state_size slots).
void refresh_facts(const Program& p, std::vector<int32_t>& s);
// The first fact of s that differs from its recomputation, described; empty when all agree.
std::string check_facts(const Program& p, const std::vector<int32_t>& s);
// After optimizing: each variable's facts, the hidden slots' initial values.
void finish_facts(Program& p);

}  // namespace keli::compile
