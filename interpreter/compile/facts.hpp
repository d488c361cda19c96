// Facts the engine keeps (Program::facts): counts over a state table (or over a declared fact's
// entries) kept in hidden slots after the variables, updated on every write of what they count,
// so rules read them instead of scanning.
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

// What a cell of this value adds to the fact: 1 if it passes `cell op k` (a comparison: it cannot
// fail), else 0; the value itself in a sum.
inline int64_t fact_part(const Fact& f, int64_t cell) {
  return f.sums ? cell : lang::apply(f.op, cell, f.k).value != 0;
}
// What the fact is where every cell counted holds 0: a declared fact's entries outside its keys.
inline int64_t fact_of_zeros(const Fact& f) { return fact_part(f, 0) * (f.hi - f.lo + 1); }

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

// The table whose cells a Cells fact counts: a state variable, or a declared fact's entries.
inline const VarInfo& counted_table(const Program& p, const Fact& f) {
  return f.tally < 0 ? p.vars[f.var] : p.facts[f.tally].entries;
}

// After the cell at state offset `off` of table t went from `before` to `now`: each Cells fact
// of `ids` (those counting t's cells) moves by whether the cell counted before and counts now.
// `log`, when given, gets each slot written with its value before (a guard's undo log).
using UndoLog = std::vector<std::pair<int32_t, int32_t>>;
inline void update_cells(const Program& p, const std::vector<int>& ids, const VarInfo& t, int64_t off, int64_t before,
                         int64_t now, int32_t* s, UndoLog* log) {
  for (int id : ids) {
    const Fact& f = p.facts[id];
    int64_t along, other;
    fact_positions(f, t, off - t.base, along, other);
    if (along < f.lo || along > f.hi) continue;
    if (log) log->emplace_back(static_cast<int32_t>(f.base + other), s[f.base + other]);
    s[f.base + other] += static_cast<int32_t>(fact_part(f, now) - fact_part(f, before));
  }
}

// After the cell at state offset `off` of variable `var` went from `before` to `now`.
inline void update_facts(const Program& p, int var, int64_t off, int64_t before, int64_t now, int32_t* s,
                         UndoLog* log = nullptr) {
  update_cells(p, p.facts_of_var[var], p.vars[var], off, before, now, s, log);
}

// After the entry at state offset `off` of the declared fact `tally` went from `before` to `now`.
inline void update_facts_of_tally(const Program& p, int tally, int64_t off, int64_t before, int64_t now, int32_t* s,
                                  UndoLog* log = nullptr) {
  update_cells(p, p.facts_of_tally[tally], p.facts[tally].entries, off, before, now, s, log);
}

// Every Cells fact recomputed from the variables of s (s has p.state_size slots) and from the
// declared facts' entries as s holds them.
void refresh_facts(const Program& p, std::vector<int32_t>& s);
// The Cells facts over declared facts' entries recomputed, after those entries were counted anew.
void refresh_facts_of_tallies(const Program& p, int32_t* s);
// The first fact of s that differs from its recomputation, described; empty when all agree.
std::string check_facts(const Program& p, const std::vector<int32_t>& s);
// After optimizing: each variable's facts, the hidden slots' initial values.
void finish_facts(Program& p);

}  // namespace keli::compile
