// The evaluator: runs compiled nodes against a flat state. One Machine per thread; it owns the
// local slots, so evaluating a move allocates nothing. While building the board it also grows
// the program's sites and regions. Each entry (call, exec; reset_work for move generation)
// starts a new step's work budget (docs/language.md, "limit work").
#pragma once

#include <cstdint>
#include <vector>

#include "compile/program.hpp"
#include "lang/collections.hpp"
#include "diag/diagnostics.hpp"
#include "lang/arith.hpp"
#include "lang/limits.hpp"

namespace keli::runtime {

class Machine {
 public:
  // `building` is the program under construction when the board is being built, else null.
  Machine(const compile::Program& p, compile::Program* building = nullptr);

  void bind(int32_t* state) { state_ = state; }
  // The positions before the bound state's, which `repetitions` compares with (runtime/past.hpp).
  void see_past(const lang::PastView* past) { past_ = past; }
  // Guards, filters and domains that write the state (Game::legal, why_not) run on the position
  // itself with every write logged: undo_writes() brings it back, newest write first, whatever
  // the writes were (variables, the facts and key kept with them, mover, phase, places).
  void log_writes(bool on) {
    logging_ = on;
    undo_.clear();
  }
  void undo_writes();
  void set_roll(const int32_t* values, int n) {
    roll_ = values;
    nroll_ = n;
  }
  int64_t eval(int n);
  void exec(int first);                                        // a statement list, with a fresh budget
  int64_t call(int callable, const int64_t* args, int nargs);  // with a fresh budget
  void set_local(int slot, int64_t v) { locals_[slot] = v; }
  int64_t local(int slot) const { return locals_[slot]; }

  // While moves are generated the state is frozen: calls of callables marked `memo` remember their
  // values until memo_off() (each memo_on() forgets everything remembered before).
  void memo_on() {
    if (!memo_made_) make_memo_table();
    memo_ = true;
    ++generation_;
  }
  void memo_off() { memo_ = false; }

  // The work budget: units a step may do (`while` rounds; the elements of each domain a `for`, an
  // aggregate or a move parameter opens, charged whole when it opens; calls and event handlers run). Starts as the
  // program's `limit work`.
  void set_budget(int64_t units) { budget_ = units; }
  int64_t budget() const { return budget_; }
  void reset_work() {  // a new step: the whole budget, no call open
    work_left_ = budget_;
    depth_ = 0;
  }
  void spend(int node, int64_t units = 1) {  // units at node; past the budget an error there
    if ((work_left_ -= units) < 0) out_of_work(node);
  }

  // The declared facts of the bound state (runtime/tallies.cpp): recounted from the variables
  // (a state made from outside, the initial one), or the first that differs from its recount.
  void refresh_tallies();
  std::string check_tallies();

  // Notes raised by `note` since the last clear (ids into Program::notes).
  const std::vector<int>& notes() const { return notes_; }
  void clear_notes() { notes_.clear(); }

  // Domain iteration, shared with move generation. A domain is evaluated once when a loop
  // starts (its bounds or region), then read by position.
  struct Domain {
    int64_t lo = 0;
    const std::vector<int32_t>* sites = nullptr;  // region or track; null for a range of numbers
    int size = 0;
    const int64_t* coll = nullptr;  // a local collection's storage (then `kind` and `lo` the capacity)
    lang::CollKind kind = lang::CollKind::None;
  };
  Domain open_domain(int dom);
  Domain search(const compile::Node& n, int dom);  // group(T, s), border(T, s)
  int64_t domain_value(const Domain& d, int i) const {
    return d.sites ? (*d.sites)[i] : d.coll ? lang::coll_value(d.coll, d.kind, d.lo, i) : d.lo + i;
  }

 private:
  [[noreturn]] void fail(int node, const std::string& message) const;
  // Local collections (machine_domains.cpp, lang/collections.hpp).
  int64_t collection_value(const compile::Node& n, int node);
  void change_collection(const compile::Node& n, int node);
  void collection_fault(int node, lang::CollFault f, int64_t value) const;
  [[noreturn]] void out_of_work(int node) const;
  int64_t invoke(int callable, const int64_t* args, int nargs);  // call, within the step's budget
  int64_t checked(int node, lang::Result r) const;
  template <lang::Operator op>
  int64_t binary(const compile::Node& n, int node);  // r's value, or its fault reported at node
  int64_t combine(int node, uint8_t assign, int64_t old, int64_t v) const;
  void need_state(int node) const;
  int64_t table_offset(const compile::VarInfo& t, const compile::Node& n, int node);  // any time
  int64_t flat_offset(const compile::Access& t, const compile::VarInfo& info, const compile::Node& n, int node);
  int64_t deep_offset(const compile::Access& t, const compile::VarInfo& info, const compile::Node& n, int node,
                      int64_t off);
  [[noreturn]] void bad_index(const compile::VarInfo& t, int dim, int64_t i, int node) const;
  int region_of(int64_t id, int node) const;
  bool run(int first);
  void set_state(const compile::Node& n, int idx);
  void set_const(const compile::Node& n, int idx);
  void set_mover(const compile::Node& n, int idx);
  void add_site(const compile::Node& n, int idx);
  void finish(const compile::Node& n, int idx);  // statements; true when a `return` ended the body
  void emit(int node, int event, const int32_t* arg_nodes, int nargs);
  void end_game(const compile::Node& n, int idx);
  void per_player(lang::EndBy from, int index, std::vector<int64_t>& out);
  int64_t aggregate(const compile::Node& n, int node);
  int leading_below(const Domain& d, int64_t bound, bool inclusive) const;
  int64_t read_fact(const compile::Node& n, int idx);
  // Declared facts (runtime/tallies.cpp): the entry an element adds to (-1: none) and what it adds.
  struct TallyPart {
    int64_t slot = -1, weight = 0;
  };
  TallyPart tally_part(const compile::Fact& f, int64_t x);
  void recount_tally(const compile::Fact& f, std::vector<int64_t>& out);
  void update_tallies(int var, int64_t off, int64_t before, int64_t now, int node);
  int64_t read_tally(const compile::Node& n);

  const compile::Program& p_;
  compile::Program* building_;
  int32_t* state_ = nullptr;
  const lang::PastView* past_ = nullptr;
  bool logging_ = false;
  std::vector<std::pair<int32_t, int32_t>> undo_;  // (slot, value before), oldest first
  void put(int64_t off, int32_t v) {
    if (logging_) undo_.emplace_back(static_cast<int32_t>(off), state_[off]);
    state_[off] = v;
  }
  void note_slots(int64_t first, int64_t n);  // logs n slots from `first` before they are written
  void undo_to(size_t mark);                  // undoes the logged writes after the first `mark`
  bool suppose(int body);                     // runs a `suppose` block: true if it returned
  void toggle_key(int64_t slot, int32_t before, int32_t now);
  std::vector<int64_t> locals_;
  const int32_t* roll_ = nullptr;
  int nroll_ = 0;
  int64_t result_ = 0;
  std::vector<int> notes_;
  int depth_ = 0;
  int64_t budget_ = 0, work_left_ = 0;
  struct MemoEntry {
    uint32_t generation = 0;
    int32_t args[lang::kMaxMemoArgs] = {};
    int64_t value = 0;
    int64_t cost = 0;  // the work computing it took: a hit spends as much (or, short of it, recomputes)
  };
  bool memo_ = false;
  uint32_t generation_ = 0;
  // kMemoSlots entries for each callable marked `memo`, from row memo_row_[callable] on, made by
  // the first memo_on(): a Machine that never lists moves (a board drawn, a scenario that only
  // checks a position) never zeroes it, and the others zero only the rows that are used.
  std::vector<MemoEntry> memo_table_;
  std::vector<int32_t> memo_row_;
  bool memo_made_ = false;
  void make_memo_table();
  std::vector<int64_t> end_scores_, end_points_;  // end_game's scratch
};

// Builds a board: runs callable `entry` of the board-building program `building` (the compiler's
// BoardRunner). Throws diag::Error with the failing node's position.
void run_board(compile::Program& building, int entry);

}  // namespace keli::runtime
