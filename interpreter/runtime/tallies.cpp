// What the interpreter keeps beside a write of the state: the guards' undo log and the position's
// key, and the declared facts (compile::FactKind::Tally): after a write to a cell of an
// element's row, that element's part is taken out of the entry it added to with the cell's old
// value and put into the entry of the new one. The native emitter writes the same steps out
// (native/emit_facts.cpp); both evaluate an element's conditions in written order, stopping at
// the first false one, and count nothing for a key outside its parameter's values.
#include <fmt/format.h>

#include "compile/facts.hpp"
#include "lang/arith.hpp"
#include "runtime/machine.hpp"
#include "runtime/messages.hpp"

namespace keli::runtime {

Machine::TallyPart Machine::tally_part(const compile::Fact& f, int64_t x) {
  TallyPart part;
  int64_t keys[lang::kMaxTableDims] = {0, 0, 0, 0};
  for (const compile::TallyStep& st : f.steps) {
    const int64_t v = invoke(st.callable, &x, 1);
    if (st.key < 0) {
      if (v == 0) return part;
      continue;
    }
    if (v < 0 || v >= f.key_sizes[st.key]) return part;
    keys[st.key] = v;
  }
  part.slot = 0;
  for (size_t i = 0; i < f.key_sizes.size(); ++i) part.slot = part.slot * f.key_sizes[i] + keys[i];
  part.weight = f.weight < 0 ? 1 : invoke(f.weight, &x, 1);
  return part;
}

// The cell at `off` of `var` went from `before` to `now` (already stored).
void Machine::update_tallies(int var, int64_t off, int64_t before, int64_t now, int node) {
  const compile::VarInfo& t = p_.vars[var];
  const int64_t x = (off - t.base) / (t.size() / t.dims[0]);
  for (int id : p_.tallies_of_var[var]) {
    const compile::Fact& f = p_.facts[id];
    state_[off] = static_cast<int32_t>(before);
    const TallyPart was = tally_part(f, x);
    state_[off] = static_cast<int32_t>(now);
    const TallyPart is = tally_part(f, x);
    for (const auto& [part, sign] : {std::pair{was, -1}, std::pair{is, 1}}) {
      if (part.slot < 0) continue;
      const int64_t old = state_[f.base + part.slot];
      const int64_t v = old + sign * part.weight;
      if (!lang::fits_state(v)) fail(node, msg::too_large(v));
      put(f.base + part.slot, static_cast<int32_t>(v));
      compile::update_facts_of_tally(p_, id, f.base + part.slot, old, v, state_, logging_ ? &undo_ : nullptr);
    }
  }
}

// A fact read as its definition would answer: arguments left to right; out of range, nothing
// matches them (0).
int64_t Machine::read_tally(const compile::Node& n) {
  const compile::Fact& f = p_.facts[n.a];
  int64_t slot = 0;
  bool inside = true;
  for (size_t i = 0; i < f.key_sizes.size(); ++i) {
    const int64_t v = eval(n.k[i]);
    inside = inside && v >= 0 && v < f.key_sizes[i];
    slot = slot * f.key_sizes[i] + (inside ? v : 0);
  }
  return inside ? state_[f.base + slot] : 0;
}

// What every entry of f should hold in the bound state: each element's part, added up.
void Machine::recount_tally(const compile::Fact& f, std::vector<int64_t>& out) {
  out.assign(f.slots, 0);
  reset_work();
  for (int64_t x = 0; x < f.elements; ++x) {
    const TallyPart part = tally_part(f, x);
    if (part.slot >= 0) out[part.slot] += part.weight;
  }
}

void Machine::refresh_tallies() {
  std::vector<int64_t> counts;
  for (const compile::Fact& f : p_.facts) {
    if (f.kind != compile::FactKind::Tally) continue;
    recount_tally(f, counts);
    for (int slot = 0; slot < f.slots; ++slot) state_[f.base + slot] = static_cast<int32_t>(counts[slot]);
  }
  compile::refresh_facts_of_tallies(p_, state_);  // the counts over the entries follow them
}

// Each entry against a recount from the elements (what refresh_tallies computes). That the
// elements' parts add up to the definition is what the optimizer lockstep test shows, playing
// every game with facts called (unoptimized) against facts kept; calling the definition for
// every entry after every step would cost entries x elements.
std::string Machine::check_tallies() {
  std::vector<int64_t> want;
  for (const compile::Fact& f : p_.facts) {
    if (f.kind != compile::FactKind::Tally) continue;
    recount_tally(f, want);
    for (int slot = 0; slot < f.slots; ++slot) {
      if (want[slot] == state_[f.base + slot]) continue;
      std::vector<int64_t> args(f.key_sizes.size());
      int64_t rest = slot;
      for (size_t i = f.key_sizes.size(); i-- > 0;) {
        args[i] = rest % f.key_sizes[i];
        rest /= f.key_sizes[i];
      }
      return fmt::format("the fact '{}' kept for ({}) is {}, its elements give {}", p_.callables[f.def].name,
                         fmt::join(args, ", "), state_[f.base + slot], want[slot]);
    }
  }
  return {};
}

// The undo log of guards (runtime/machine.hpp): each slot written, with its value before.
void Machine::note_slots(int64_t first, int64_t n) {
  if (!logging_) return;
  for (int64_t i = first; i < first + n; ++i) undo_.emplace_back(static_cast<int32_t>(i), state_[i]);
}

void Machine::undo_writes() { undo_to(0); }

void Machine::undo_to(size_t mark) {
  while (undo_.size() > mark) {
    state_[undo_.back().first] = undo_.back().second;
    undo_.pop_back();
  }
}

// `suppose { ... }`: the body runs with its writes logged; they are undone at its end, after a
// `return` or an error too, and the notes it raised are dropped. Locals keep what it gave them.
bool Machine::suppose(int body) {
  struct Back {
    Machine& m;
    bool was;
    size_t mark, notes;
    ~Back() {
      m.undo_to(mark);
      m.notes_.resize(notes);
      m.logging_ = was;
    }
  } back{*this, logging_, undo_.size(), notes_.size()};
  logging_ = true;
  return run(body);
}

void Machine::toggle_key(int64_t slot, int32_t before, int32_t now) {
  note_slots(p_.history.key, 2);
  lang::toggle(state_, p_.history, slot, before, now);
}

}  // namespace keli::runtime
