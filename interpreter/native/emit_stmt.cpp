// The emitter's statements: assignments with the 32-bit store check, structured control flow
// (a `return` returns from the body's C++ function), loops with their bounds, events with their
// handlers written out where they are raised, notes, places and the end of the game.
#include <fmt/format.h>

#include "lang/limits.hpp"
#include "native/emitter.hpp"

namespace keli::native {

// The undo log's helpers, pasted after the others (emit.cpp): what a guard that writes and a
// `suppose` block write is logged, slot and value before, and given back newest first.
const char* const kUndoHelpers = R"(
// A guard's undo log, as runtime::Machine's: the slot and its value, before it is written.
inline void note(keli_ctx* c, const int32_t* s, int64_t o) {
  if (!c->logging) return;
  if (c->undo.size >= c->undo.cap) c->grow(c, &c->undo);
  int32_t* u = static_cast<int32_t*>(c->undo.data) + 2 * static_cast<int64_t>(c->undo.size++);
  u[0] = static_cast<int32_t>(o);
  u[1] = s[o];
}
inline void rewind(keli_ctx* c, int32_t* s, int32_t mark = 0) {
  const int32_t* u = static_cast<const int32_t*>(c->undo.data);
  while (c->undo.size > mark) {
    --c->undo.size;
    s[u[2 * static_cast<int64_t>(c->undo.size)]] = u[2 * static_cast<int64_t>(c->undo.size) + 1];
  }
}
// `suppose { ... }`: while one lives every write is logged; when it goes (the block's end, a
// return, a fault) its writes are undone, newest first, and the notes it raised dropped.
struct Suppose {
  keli_ctx* c;
  int32_t* s;
  int32_t mark, notes, was;
  Suppose(keli_ctx* cc, int32_t* ss) : c(cc), s(ss), mark(cc->undo.size), notes(cc->notes.size), was(cc->logging) {
    c->logging = 1;
  }
  ~Suppose() {
    rewind(c, s, mark);
    c->notes.size = notes;
    c->logging = was;
  }
  Suppose(const Suppose&) = delete;
  Suppose& operator=(const Suppose&) = delete;
};
)";
using compile::Node;
using compile::Op;

void Emitter::stmts(int first) {
  for (int idx = first; idx >= 0; idx = p_.code[idx].next) stmt(idx);
}

// `+=` and `-=` use the vocabulary's + and -; plain `=` has no operator.
static bool compound(uint8_t aux) { return static_cast<lang::Assign>(aux) != lang::Assign::Set; }
static const char* combine_op(uint8_t aux) {
  return static_cast<lang::Assign>(aux) == lang::Assign::AddTo ? "Add" : "Sub";
}

// As the interpreter: the target's indices, then (for += and -=) its old value, then the value.
void Emitter::state_set(const Node& n, int idx) {
  std::string off = tmp();
  line(fmt::format("const int64_t {} = {};", off, table_offset(p_.vars[n.a], n, idx)));
  const bool kept = !p_.facts.empty() && (!p_.facts_of_var[n.a].empty() || !p_.tallies_of_var[n.a].empty());
  std::string old;
  if (compound(n.aux) || kept) {
    old = tmp();
    line(fmt::format("const int64_t {} = s[{}];", old, off));
  }
  std::string v = expr(n.d);
  std::string w = v;
  if (compound(n.aux)) {
    w = tmp();
    line(fmt::format("const int64_t {} = ar<Operator::{}>(c, {}, {}, {});", w, combine_op(n.aux), idx, old, v));
  }
  const bool compared = p_.history.key >= 0 && p_.var_compared[n.a];
  note_write(off);
  if (compared) {  // from the cell as it is now: the value's own calls may have written it since `old`
    const std::string prev = tmp();
    line(fmt::format("const int32_t {} = s[{}];", prev, off));
    line(fmt::format("s[{}] = store(c, {}, {});", off, idx, w));
    toggle_key(off, prev, fmt::format("s[{}]", off));
  } else {
    line(fmt::format("s[{}] = store(c, {}, {});", off, idx, w));
  }
  if (kept) {
    update_cells(p_.facts_of_var[n.a], p_.vars[n.a], off, old, w);
    update_tallies(n.a, off, old, w, idx);
  }
}

// compile/facts.hpp's update_cells written out for one table (a variable, or a declared fact's
// entries): each Cells fact of `ids` moves by whether the cell counted before and counts now.
void Emitter::update_cells(const std::vector<int>& ids, const compile::VarInfo& t, const std::string& off,
                           const std::string& before, const std::string& now) {
  for (int id : ids) {
    const compile::Fact& f = p_.facts[id];
    const char* op = lang::node_kind_info(lang::operator_node(f.op)).name;
    open("{");
    std::string rel = fmt::format("({} - {})", off, t.base);
    std::string along = t.dims.size() == 1 ? rel : fmt::format("{} {} {}", rel, f.along == 0 ? "/" : "%", t.dims[1]);
    std::string other = t.dims.size() == 1 ? "0" : fmt::format("{} {} {}", rel, f.along == 0 ? "%" : "/", t.dims[1]);
    line(fmt::format("const int64_t a = {}, o = {};", along, other));
    open(fmt::format("if (a >= {} && a <= {}) {{", f.lo, f.hi));
    note_write(fmt::format("{} + o", f.base));
    if (f.sums)
      line(fmt::format("s[{} + o] += static_cast<int32_t>({} - {});", f.base, now, before));
    else
      line(
          fmt::format("s[{} + o] += static_cast<int32_t>(ar<Operator::{}>(c, 0, {}, {}) != 0) - "
                      "static_cast<int32_t>(ar<Operator::{}>(c, 0, {}, {}) != 0);",
                      f.base, op, now, f.k, op, before, f.k));
    close();
    close();
  }
}

void Emitter::set_local(const Node& n, int idx) {
  if (!compound(n.aux)) {
    line(fmt::format("{} = {};", slot(n.a), expr(n.k[0])));
    return;
  }
  open("{");
  std::string old = tmp();
  line(fmt::format("const int64_t {} = {};", old, slot(n.a)));
  std::string v = expr(n.k[0]);
  line(fmt::format("{} = ar<Operator::{}>(c, {}, {}, {});", slot(n.a), combine_op(n.aux), idx, old, v));
  close();
}

void Emitter::emit_event(const Node& n, int idx) {
  std::vector<std::string> args;
  for (int i = 0; i < n.c && i < lang::kMaxArgs; ++i) args.push_back(expr(p_.args[n.b + i]));
  for (const compile::Handler& h : p_.handlers[n.a]) {
    const compile::Callable& cl = p_.callables[h.callable];
    open("{");
    for (size_t i = 0; i < args.size() && i < cl.params.size(); ++i)
      line(fmt::format("L[{}] = {};", cl.params[i], args[i]));
    std::string run = "true";
    if (h.guard >= 0) {
      run = tmp();
      line(fmt::format("const bool {} = {};", run, expr(h.guard)));
    }
    open(fmt::format("if ({}) {{", run));
    line(fmt::format("spend(c, {});", idx));
    if (counts_depth())
      line(fmt::format("if (++c->depth > {}) {};", lang::kMaxCallDepth, fault(cl.body, "KELI_FAULT_EVENT_DEPTH")));
    line(fmt::format("b{}(c, s, L);", h.callable));
    if (counts_depth()) line("--c->depth;");
    close();
    close();
  }
}

void Emitter::finish(const Node& n, int idx) {
  std::string place = tmp(), placed = tmp();
  open("{");
  line(fmt::format("const int32_t {} = s[{}];", place, static_cast<int>(compile::kNextPlace)));
  line(fmt::format("int32_t {} = 0;", placed));
  for (int i = 0; i < n.c; ++i) {
    std::string pl = expr(p_.args[n.b + i]);
    line(fmt::format("if ({} < 0 || {} >= {}) {};", pl, pl, p_.num_players, fault(idx, "KELI_FAULT_SEAT", "0", pl)));
    note_write(fmt::format("{} + {}", static_cast<int>(compile::kPlaces), pl));
    line(fmt::format("if (s[{} + {}] == 0) {{ s[{} + {}] = {}; ++{}; }}", static_cast<int>(compile::kPlaces), pl,
                     static_cast<int>(compile::kPlaces), pl, place, placed));
  }
  note_write(std::to_string(static_cast<int>(compile::kNextPlace)));
  line(fmt::format("s[{}] = {} + {};", static_cast<int>(compile::kNextPlace), place, placed));
  close();
}

// As runtime::Machine::end_game: the ranking (aux, a), else the points (c, b), orders the seats not
// yet placed; a game with points stores each seat's, checked to fit a slot.
void Emitter::end_game(const Node& n, int idx) {
  const int P = p_.num_players;
  const auto by = static_cast<lang::EndBy>(n.aux), points = static_cast<lang::EndBy>(n.c);
  open("{");
  line(fmt::format("const int32_t next = s[{}];", static_cast<int>(compile::kNextPlace)));
  line(fmt::format("int64_t score[{}] = {{}};", P));
  if (points != lang::EndBy::Plain) {  // first, as the interpreter: a function may fail
    line(fmt::format("int64_t points[{}] = {{}};", P));
    per_player(points, n.b, "points");
  }
  if (by != lang::EndBy::Plain)
    per_player(by, n.a, "score");
  else if (points != lang::EndBy::Plain)
    line(fmt::format("for (int i = 0; i < {}; ++i) score[i] = points[i];", P));
  for (int pl = 0; pl < P; ++pl) note_write(std::to_string(static_cast<int>(compile::kPlaces) + pl));
  line(fmt::format("keli::lang::place_unplaced(s + KELI_PLACES, {}, next, score);", P));
  if (p_.points_base >= 0)
    for (int pl = 0; pl < P; ++pl) note_write(std::to_string(p_.points_base + pl));
  if (p_.points_base >= 0)
    for (int pl = 0; pl < P; ++pl)
      line(points == lang::EndBy::Plain
               ? fmt::format("s[{}] = 0;", p_.points_base + pl)
               : fmt::format(
                     "if (points[{0}] < -{1} || points[{0}] > {1}) fault(c, {2}, KELI_FAULT_POINTS, 0, points[{0}], 0);"
                     " s[{3}] = static_cast<int32_t>(points[{0}]);",
                     pl, p_.points_limit, idx, p_.points_base + pl));
  note_write("KELI_OVER");
  line("s[KELI_OVER] = KELI_ENDED;");
  close();
}

// Fills the C array `into` with a number per seat from a table or a function of a player.
void Emitter::per_player(lang::EndBy from, int index, const char* into) {
  for (int pl = 0; pl < p_.num_players; ++pl) {
    if (from == lang::EndBy::Table) {
      line(fmt::format("{}[{}] = s[{}];", into, pl, p_.vars[index].base + pl));
    } else if (from == lang::EndBy::Callable) {
      const compile::Callable& cl = p_.callables[index];
      if (!cl.params.empty() && !passes_args(index)) line(fmt::format("L[{}] = {};", cl.params[0], pl));
      line(
          fmt::format("{}[{}] = f{}(c, s, L{});", into, pl, index, call_args(index, {fmt::format("int64_t({})", pl)})));
    }
  }
}

// `while`: bounded by kMaxLoopIterations, as in the interpreter; each round a unit of work.
void Emitter::while_loop(const Node& n, int idx) {
  std::string guard = tmp();
  open("{");
  line(fmt::format("int64_t {} = 0;", guard));
  open("for (;;) {");
  std::string cond = expr(n.k[0]);
  line(fmt::format("if (!{}) break;", cond));
  line(fmt::format("if (++{} > {}) {};", guard, lang::kMaxLoopIterations, fault(idx, "KELI_FAULT_LOOP")));
  line(fmt::format("spend(c, {});", idx));
  stmts(n.k[1]);
  close();
  close();
}

// `for x in D where F`: the domain opened once, its elements in order.
void Emitter::for_loop(const Node& n, int idx) {
  open_domain_loop(n, idx, tmp());
  stmts(n.k[1]);
  close();
  close();
}

// What `repetitions` compares (lang/history.hpp), as the program lays it out.
void Emitter::history_layout() {
  if (p_.history.key < 0) return;
  const lang::HistoryLayout& h = p_.history;
  std::string ranges;
  for (int i = 0; i < 2 * h.nranges; ++i) ranges += fmt::format("{}{}", i ? ", " : "", h.ranges[i]);
  out_ += fmt::format("constexpr keli::lang::HistoryLayout kHistory{{{}, {}, {}, {}, {{{}}}}};\n", h.key, h.capacity,
                      h.nranges, h.parts, ranges);
}

// Before a write of the state: logged when it may have to be undone (a guard that writes, move
// listing's undo log; a `suppose` block's).
void Emitter::note_write(const std::string& off) {
  if (p_.logs_writes()) line(fmt::format("note(c, s, {});", off));
}

// The key of the position follows a compared slot's change from `before` to `now`.
void Emitter::toggle_key(const std::string& slot, const std::string& before, const std::string& now) {
  note_write(std::to_string(p_.history.key));
  note_write(std::to_string(p_.history.key + 1));
  line(fmt::format("keli::lang::toggle(s, kHistory, {}, {}, {});", slot, before, now));
}

// The mover's or the phase's slot set to v, the key following when repetitions compare it.
void Emitter::fixed_slot_set(int slot, bool compared, const std::string& v) {
  note_write(std::to_string(slot));
  if (p_.history.key < 0 || !compared) return line(fmt::format("s[{}] = static_cast<int32_t>({});", slot, v));
  const std::string t = tmp();
  line(fmt::format("const int32_t {} = static_cast<int32_t>({});", t, v));
  toggle_key(std::to_string(slot), fmt::format("s[{}]", slot), t);
  line(fmt::format("s[{}] = {};", slot, t));
}

void Emitter::stmt(int idx) {
  const Node& n = p_.code[idx];
  switch (n.op) {
    case Op::SetLocal: set_local(n, idx); return;
    case Op::StateSet:
      open("{");
      state_set(n, idx);
      close();
      return;
    case Op::SetMover: {
      open("{");
      std::string v = expr(n.k[0]);
      line(fmt::format("if ({} < 0 || {} >= {}) {};", v, v, p_.num_players, fault(idx, "KELI_FAULT_SEAT", "0", v)));
      fixed_slot_set(compile::kMover, p_.mover_compared, v);
      close();
      return;
    }
    case Op::SetPhase: {
      open("{");
      fixed_slot_set(compile::kPhase, p_.phase_compared, expr(n.k[0]));
      close();
      return;
    }
    case Op::If: {
      open("{");
      std::string cond = expr(n.k[0]);
      open(fmt::format("if ({}) {{", cond));
      stmts(n.k[1]);
      if (n.k[2] >= 0) {
        close("} else {");
        ++indent_;
        stmts(n.k[2]);
      }
      close();
      close();
      return;
    }
    case Op::While: while_loop(n, idx); return;
    case Op::Suppose:  // undone when `sp` goes: at the block's end, a return or a fault
      open("{");
      line("const Suppose sp(c, s);");
      stmts(n.k[1]);
      close();
      return;
    case Op::For: for_loop(n, idx); return;
    case Op::Return:
      if (n.k[0] < 0) {
        line(void_body_ ? "return;" : "return 0;");  // a move, a throw or a handler ends early
      } else {
        open("{");
        line(fmt::format("return {};", expr(n.k[0])));
        close();
      }
      return;
    case Op::Emit:
      open("{");
      emit_event(n, idx);
      close();
      return;
    case Op::Note: line(fmt::format("note(c, {});", n.a)); return;
    case Op::Finish: finish(n, idx); return;
    case Op::EndGame: end_game(n, idx); return;
    case Op::Fail: line(fault(idx, "KELI_FAULT_NOTE") + ";"); return;
    case Op::ConstSet:
    case Op::AddSite: line(fault(idx, "KELI_FAULT_BUILD_ONLY") + ";"); return;
    case Op::CollClear:
    case Op::CollAdd:
    case Op::CollRemove: collection_stmt(n, idx); return;
    default:  // a call whose value is not needed
      open("{");
      line(fmt::format("(void){};", expr(idx)));
      close();
      return;
  }
}

}  // namespace keli::native
