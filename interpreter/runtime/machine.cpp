// The evaluator: a switch over compact nodes. Locals live in one preallocated array (functions
// cannot recurse, so every function owns fixed slots); values are 64-bit while computing and are
// stored into the 32-bit state. Every failure names the node's source position.
#include "runtime/machine.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "lang/arith.hpp"
#include "compile/facts.hpp"
#include "lang/builtins.hpp"
#include "lang/places.hpp"
#include "runtime/engine.hpp"
#include "runtime/messages.hpp"

namespace keli::runtime {
using compile::Node;
using compile::Op;
using lang::kMaxCallDepth;
using lang::kMaxLoopIterations;
using lang::kMaxSites;
using lang::kMemoSlots;

Machine::Machine(const compile::Program& p, compile::Program* building)
    : p_(p), building_(building), locals_(std::max(1, p.locals), 0), budget_(p.work_budget), work_left_(budget_) {}

void Machine::make_memo_table() {
  memo_made_ = true;
  if (building_) return;
  memo_row_.assign(p_.callables.size(), -1);
  int32_t rows = 0;
  for (size_t i = 0; i < p_.callables.size(); ++i)
    if (p_.callables[i].memo) memo_row_[i] = rows++;
  memo_table_.resize(static_cast<size_t>(rows) * kMemoSlots);
}

void Machine::fail(int node, const std::string& message) const {
  Span span = node >= 0 && node < static_cast<int>(p_.spans.size()) ? p_.spans[node] : Span{};
  throw diag::Error{building_ ? diag::Code::eval_error : diag::Code::runtime, span, message, {}};
}

void Machine::out_of_work(int node) const {
  Span span = node >= 0 && node < static_cast<int>(p_.spans.size()) ? p_.spans[node] : Span{};
  throw diag::Error{building_ ? diag::Code::eval_error : diag::Code::runtime, span,
                    msg::out_of_work(p_.code[node].op, budget_), msg::kOutOfWorkHint};
}

// Play-time state does not exist while the board is built; the checker rejects such calls, and
// this keeps the evaluator safe if one slips through.
void Machine::need_state(int node) const {
  if (!state_) fail(node, "the game's state does not exist while the board is being built");
}

int64_t Machine::table_offset(const compile::VarInfo& t, const Node& n, int node) {
  int64_t off = 0;
  for (size_t d = 0; d < t.dims.size(); ++d) {
    int64_t i = eval(n.k[d]) - t.lows[d];
    int64_t limit = t.dims[d];
    if (building_ && t.dim_kinds[d] == lang::DimKind::Site) limit = static_cast<int64_t>(building_->sites.size());
    if (i < 0 || i >= limit) fail(node, msg::bad_index(t.name, i + t.lows[d], t.lows[d], limit));
    off = off * t.dims[d] + i;
  }
  return t.base + off;
}

// The play-time path of table_offset: the flat layout, each index checked against its dimension.
int64_t Machine::flat_offset(const compile::Access& t, const compile::VarInfo& info, const Node& n, int node) {
  if (t.ndims == 0) return t.base;
  int64_t i = eval(n.k[0]) - t.low[0];
  if (static_cast<uint64_t>(i) >= static_cast<uint64_t>(t.dim[0])) bad_index(info, 0, i, node);
  if (t.ndims == 1) return t.base + i;
  int64_t j = eval(n.k[1]) - t.low[1];
  if (static_cast<uint64_t>(j) >= static_cast<uint64_t>(t.dim[1])) bad_index(info, 1, j, node);
  if (t.ndims == 2) return t.base + i * t.dim[1] + j;
  return deep_offset(t, info, n, node, i * t.dim[1] + j);
}

// The rest of flat_offset for three and more dimensions, kept apart so that one and two stay short.
int64_t Machine::deep_offset(const compile::Access& t, const compile::VarInfo& info, const Node& n, int node,
                             int64_t off) {
  for (int d = 2; d < t.ndims; ++d) {
    int64_t i = eval(n.k[d]) - t.low[d];
    if (static_cast<uint64_t>(i) >= static_cast<uint64_t>(t.dim[d])) bad_index(info, d, i, node);
    off = off * t.dim[d] + i;
  }
  return t.base + off;
}

void Machine::bad_index(const compile::VarInfo& t, int d, int64_t i, int node) const {
  fail(node, msg::bad_index(t.name, i + t.lows[d], t.lows[d], t.dims[d]));
}

int Machine::region_of(int64_t id, int node) const {
  if (id < 0 || id >= static_cast<int64_t>(p_.regions.size())) fail(node, msg::no_region(id));
  return static_cast<int>(id);
}

int64_t Machine::call(int callable, const int64_t* args, int nargs) {
  reset_work();
  return invoke(callable, args, nargs);
}

// Remembered values are used only when the budget left covers what computing them took; else
// the body runs again and runs out where the native engine (which remembers nothing) does.
int64_t Machine::invoke(int callable, const int64_t* args, int nargs) {
  const compile::Callable& c = p_.callables[callable];
  MemoEntry* memo = nullptr;
  if (memo_ && c.memo) {
    uint64_t h = static_cast<uint64_t>(callable) * 0x9e3779b97f4a7c15ULL;
    for (int i = 0; i < nargs; ++i) h = (h ^ static_cast<uint64_t>(args[i])) * 0xff51afd7ed558ccdULL;
    memo = &memo_table_[static_cast<size_t>(memo_row_[callable]) * kMemoSlots + (h >> 56) % kMemoSlots];
    bool hit = memo->generation == generation_;
    for (int i = 0; i < nargs && hit; ++i) hit = memo->args[i] == args[i];
    if (hit && memo->cost <= work_left_) {
      work_left_ -= memo->cost;
      return memo->value;
    }
  }
  const int64_t work_before = work_left_;
  if (++depth_ > kMaxCallDepth) fail(c.body, msg::kCallsTooDeep);
  for (int i = 0; i < nargs; ++i) locals_[c.params[i]] = args[i];
  int64_t v = 0;
  if (c.is_expr) {
    v = eval(c.body);
  } else {
    result_ = 0;
    run(c.body);
    v = result_;
  }
  --depth_;
  if (memo) {
    memo->generation = generation_;
    for (int i = 0; i < nargs; ++i) memo->args[i] = static_cast<int32_t>(args[i]);
    memo->value = v;
    memo->cost = work_before - work_left_;
  }
  return v;
}

// A binary operator: its operands left to right, then the vocabulary's arithmetic.
template <lang::Operator op>
int64_t Machine::binary(const Node& n, int node) {
  int64_t x = eval(n.k[0]);
  int64_t y = eval(n.k[1]);
  return checked(node, lang::apply<op>(x, y));
}

#ifdef KELI_PROFILE
std::vector<uint64_t> g_node_counts;
#endif
int64_t Machine::eval(int idx) {
  const Node& n = p_.code[idx];
#ifdef KELI_PROFILE
  if (g_node_counts.size() < p_.code.size()) g_node_counts.resize(p_.code.size());
  ++g_node_counts[idx];
#endif
  switch (n.op) {
    case Op::Imm: return n.a;
    case Op::Local: return locals_[n.a];
    case Op::StateGet: need_state(idx); return state_[flat_offset(p_.var_access[n.a], p_.vars[n.a], n, idx)];
    case Op::FactGet: return read_fact(n, idx);
    case Op::CollHas:
    case Op::CollCall:
    case Op::CollGet: return collection_value(n, idx);
    case Op::ConstGet:
      if (building_) return p_.consts[table_offset(p_.const_tables[n.a], n, idx)];
      return p_.consts[flat_offset(p_.const_access[n.a], p_.const_tables[n.a], n, idx)];
    case Op::Mover: need_state(idx); return state_[compile::kMover];
    case Op::Phase: need_state(idx); return state_[compile::kPhase];
    case Op::Ply: need_state(idx); return state_[compile::kPly];
    case Op::Repetitions: {
      need_state(idx);
      const int64_t r = lang::repetitions(state_, p_.history, past_);
      if (r < 0)
        throw diag::Error{diag::Code::runtime, p_.spans[idx], msg::history_full(p_.history.capacity),
                          msg::kHistoryFullHint};
      return r;
    }
    case Op::Roll: {
      int64_t i = eval(n.k[0]);
      if (i < 0 || i >= nroll_) fail(idx, msg::no_roll(i, nroll_));
      return roll_[i];
    }
    case Op::RegionId: {
      const compile::VarInfo& t = p_.region_tables[n.a];
      return table_offset(t, n, idx);
    }
    case Op::RegionSite: {
      const auto& r = p_.regions[region_of(eval(n.k[0]), idx)];
      int64_t i = eval(n.k[1]);
      if (i < 0 || i >= static_cast<int64_t>(r.size())) fail(idx, msg::position_outside(i, r.size()));
      return r[i];
    }
    // Operators: the vocabulary's arithmetic (lang/arith.hpp), operands left to right.
    case Op::Neg: return checked(idx, lang::apply<lang::Operator::Neg>(eval(n.k[0])));
    case Op::Not: return checked(idx, lang::apply<lang::Operator::Not>(eval(n.k[0])));
    case Op::Add: return binary<lang::Operator::Add>(n, idx);
    case Op::Sub: return binary<lang::Operator::Sub>(n, idx);
    case Op::Mul: return binary<lang::Operator::Mul>(n, idx);
    case Op::Div: return binary<lang::Operator::Div>(n, idx);
    case Op::Mod: return binary<lang::Operator::Mod>(n, idx);
    case Op::Eq: return binary<lang::Operator::Eq>(n, idx);
    case Op::Ne: return binary<lang::Operator::Ne>(n, idx);
    case Op::Lt: return binary<lang::Operator::Lt>(n, idx);
    case Op::Le: return binary<lang::Operator::Le>(n, idx);
    case Op::Gt: return binary<lang::Operator::Gt>(n, idx);
    case Op::Ge: return binary<lang::Operator::Ge>(n, idx);
    case Op::And: return eval(n.k[0]) && eval(n.k[1]);  // the right side only when needed
    case Op::Or: return eval(n.k[0]) || eval(n.k[1]);
    case Op::In: {
      int64_t s = eval(n.k[0]);
      int r = region_of(eval(n.k[1]), idx);
      if (building_) return std::find(p_.regions[r].begin(), p_.regions[r].end(), s) != p_.regions[r].end();
      return p_.region_position(r, s) >= 0;
    }
    case Op::Cond: return eval(n.k[0]) ? eval(n.k[1]) : eval(n.k[2]);
    case Op::Call:
    case Op::CallStmt: {
      int64_t args[lang::kMaxArgs];
      int na = std::min(n.c, lang::kMaxArgs);
      for (int i = 0; i < na; ++i) args[i] = eval(p_.args[n.b + i]);
      spend(idx);
      return invoke(n.a, args, na);
    }
    case Op::Builtin: {
      using lang::Builtin;
      switch (static_cast<Builtin>(n.a)) {
        case Builtin::size: return static_cast<int64_t>(p_.regions[region_of(eval(n.k[0]), idx)].size());
        case Builtin::index: {
          int r = region_of(eval(n.k[0]), idx);
          int64_t s = eval(n.k[1]);
          const auto& list = p_.regions[r];
          auto it = std::find(list.begin(), list.end(), s);
          return it == list.end() ? -1 : it - list.begin();
        }
        case Builtin::next: {
          int r = region_of(eval(n.k[0]), idx);
          int64_t s = eval(n.k[1]);
          const auto& list = p_.regions[r];
          int64_t pos = building_ ? -1 : p_.region_position(r, s);
          if (building_) {
            auto it = std::find(list.begin(), list.end(), s);
            pos = it == list.end() ? -1 : it - list.begin();
          }
          if (pos < 0) fail(idx, msg::not_on_track(s));
          return list[(pos + 1) % list.size()];
        }
        case Builtin::next_seat: return (eval(n.k[0]) + 1) % p_.num_players;
        case Builtin::abs: return checked(idx, lang::absolute(eval(n.k[0])));
        case Builtin::min: {
          int64_t x = eval(n.k[0]);
          return std::min(x, eval(n.k[1]));
        }
        case Builtin::max: {
          int64_t x = eval(n.k[0]);
          return std::max(x, eval(n.k[1]));
        }
        case Builtin::new_site: {
          if (!building_) fail(idx, msg::kSiteOnlyBuilding);
          if (building_->sites.size() >= static_cast<size_t>(kMaxSites))
            fail(idx, fmt::format("more than {} sites", kMaxSites));
          int64_t x = eval(n.k[0]), y = eval(n.k[1]);
          int id = static_cast<int>(building_->sites.size());
          building_->sites.push_back({static_cast<int>(x), static_cast<int>(y), std::to_string(id), "", 0});
          return id;
        }
        default: fail(idx, "unknown built-in");
      }
    }
    case Op::AggSum:
    case Op::AggCount:
    case Op::AggAny:
    case Op::AggAll:
    case Op::AggMin:
    case Op::AggMax: return aggregate(n, idx);
    default: fail(idx, "a statement used as a value");
  }
}

void Machine::exec(int first) {
  reset_work();
  run(first);
}

// `=`, `+=` and `-=`: the compound forms use the vocabulary's + and -.
int64_t Machine::combine(int node, uint8_t op, int64_t old, int64_t v) const {
  switch (static_cast<lang::Assign>(op)) {
    case lang::Assign::Set: return v;
    case lang::Assign::AddTo: return checked(node, lang::apply<lang::Operator::Add>(old, v));
    case lang::Assign::SubtractFrom: return checked(node, lang::apply<lang::Operator::Sub>(old, v));
  }
  return v;
}

int64_t Machine::checked(int node, lang::Result r) const {
  if (!r.ok()) fail(node, lang::fault_message(r.fault));
  return r.value;
}

// Assignments, left to right: the target's indices, then (for += and -=) its old value, then
// the value. Stored values must fit the 32-bit slot.
void Machine::set_state(const Node& n, int idx) {
  need_state(idx);
  int64_t off = flat_offset(p_.var_access[n.a], p_.vars[n.a], n, idx);
  int64_t old = state_[off];
  int64_t value = eval(n.d);
  int64_t v = combine(idx, n.aux, old, value);
  if (!lang::fits_state(v)) fail(idx, msg::too_large(v));
  // The key follows the cell as it is now: the value's own calls may have written it since `old`.
  if (p_.history.key >= 0 && p_.var_compared[n.a]) toggle_key(off, state_[off], static_cast<int32_t>(v));
  put(off, static_cast<int32_t>(v));
  if (!p_.facts.empty()) {
    compile::update_facts(p_, n.a, off, old, v, state_, logging_ ? &undo_ : nullptr);
    if (!p_.tallies_of_var[n.a].empty()) update_tallies(n.a, off, old, v, idx);
  }
}

void Machine::set_const(const Node& n, int idx) {
  if (!building_) fail(idx, msg::kConstOnlyBuilding);
  int64_t off = table_offset(p_.const_tables[n.a], n, idx);
  int64_t old = building_->consts[off];
  int64_t value = eval(n.d);
  int64_t v = combine(idx, n.aux, old, value);
  if (!lang::fits_state(v)) fail(idx, msg::too_large(v));
  building_->consts[off] = v;
}

void Machine::set_mover(const Node& n, int idx) {
  need_state(idx);
  int64_t v = eval(n.k[0]);
  if (v < 0 || v >= p_.num_players) fail(idx, msg::no_seat(v));
  if (p_.history.key >= 0 && p_.mover_compared)
    toggle_key(compile::kMover, state_[compile::kMover], static_cast<int32_t>(v));
  put(compile::kMover, static_cast<int32_t>(v));
}

void Machine::add_site(const Node& n, int idx) {
  if (!building_) fail(idx, msg::kAddOnlyBuilding);
  int64_t s = eval(n.k[0]);
  int r = region_of(eval(n.k[1]), idx);
  if (s < 0 || s >= static_cast<int64_t>(building_->sites.size())) fail(idx, fmt::format("site {} does not exist", s));
  building_->regions[r].push_back(static_cast<int32_t>(s));
}

// `finish P, ...`: the listed seats not yet placed share the next place.
void Machine::finish(const Node& n, int idx) {
  need_state(idx);
  int32_t place = state_[compile::kNextPlace];
  int placed = 0;
  for (int i = 0; i < n.c; ++i) {
    int64_t pl = eval(p_.args[n.b + i]);
    if (pl < 0 || pl >= p_.num_players) fail(idx, msg::no_seat(pl));
    if (state_[compile::kPlaces + pl] == 0) {
      put(compile::kPlaces + pl, place);
      ++placed;
    }
  }
  put(compile::kNextPlace, place + placed);
}

bool Machine::run(int idx) {
  while (idx >= 0) {
    const Node& n = p_.code[idx];
    switch (n.op) {
      case Op::SetLocal: {  // left to right, as set_state
        int64_t old = locals_[n.a];
        int64_t v = eval(n.k[0]);
        locals_[n.a] = combine(idx, n.aux, old, v);
        break;
      }
      case Op::StateSet: set_state(n, idx); break;
      case Op::ConstSet: set_const(n, idx); break;
      case Op::SetMover: set_mover(n, idx); break;
      case Op::SetPhase: {
        need_state(idx);
        const auto v = static_cast<int32_t>(eval(n.k[0]));
        if (p_.history.key >= 0 && p_.phase_compared) toggle_key(compile::kPhase, state_[compile::kPhase], v);
        put(compile::kPhase, v);
        break;
      }
      case Op::If:
        if (eval(n.k[0])) {
          if (run(n.k[1])) return true;
        } else if (n.k[2] >= 0) {
          if (run(n.k[2])) return true;
        }
        break;
      case Op::While: {
        int64_t guard = 0;
        while (eval(n.k[0])) {
          if (++guard > kMaxLoopIterations) fail(idx, msg::loop_too_long());
          spend(idx);
          if (run(n.k[1])) return true;
        }
        break;
      }
      case Op::For: {
        Domain d = open_domain(n.k[0]);
        spend(idx, d.size);  // the whole domain when the loop opens, as an aggregate's
        for (int i = 0; i < d.size; ++i) {
          locals_[n.a] = domain_value(d, i);
          if (n.k[compile::kLoopWhile] >= 0 && !eval(n.k[compile::kLoopWhile])) break;
          if (n.k[2] >= 0 && !eval(n.k[2])) continue;
          if (run(n.k[1])) return true;
        }
        break;
      }
      case Op::Suppose:
        if (suppose(n.k[1])) return true;
        break;
      case Op::Return: result_ = n.k[0] >= 0 ? eval(n.k[0]) : 0; return true;
      case Op::Emit:
        need_state(idx);
        emit(idx, n.a, &p_.args[n.b], n.c);
        break;
      case Op::Note: notes_.push_back(n.a); break;
      case Op::AddSite: add_site(n, idx); break;
      case Op::CollClear:
      case Op::CollAdd:
      case Op::CollRemove: change_collection(n, idx); break;
      case Op::Finish: finish(n, idx); break;
      case Op::EndGame:
        need_state(idx);
        end_game(n, idx);
        break;
      case Op::Fail: fail(idx, p_.notes[n.a]);
      default: eval(idx); break;  // a call whose value is not needed
    }
    idx = n.next;
  }
  return false;
}

void Machine::emit(int node, int event, const int32_t* arg_nodes, int nargs) {
  int64_t args[lang::kMaxArgs];
  int na = std::min(nargs, lang::kMaxArgs);
  for (int i = 0; i < na; ++i) args[i] = eval(arg_nodes[i]);
  for (const compile::Handler& h : p_.handlers[event]) {
    const compile::Callable& c = p_.callables[h.callable];
    for (int i = 0; i < na && i < static_cast<int>(c.params.size()); ++i) locals_[c.params[i]] = args[i];
    if (h.guard >= 0 && !eval(h.guard)) continue;
    spend(node);
    if (++depth_ > kMaxCallDepth) fail(c.body, msg::kEventsTooDeep);
    run(c.body);
    --depth_;
  }
}

static_assert(lang::kMaxPlayers <= 64, "lang::place_unplaced keeps one bit a seat");

// Ends the game: players not yet placed share the next places, ordered by a score if given (else
// by the points, if given); with points, each seat's are kept in the state.
void Machine::end_game(const Node& n, int idx) {
  int P = p_.num_players;
  int32_t next = state_[compile::kNextPlace];
  std::vector<int64_t>& score = end_scores_;  // kept between games: no allocation per game
  std::vector<int64_t>& points = end_points_;
  per_player(static_cast<lang::EndBy>(n.c), n.b, points);
  if (static_cast<lang::EndBy>(n.aux) == lang::EndBy::Plain && static_cast<lang::EndBy>(n.c) != lang::EndBy::Plain)
    score = points;
  else
    per_player(static_cast<lang::EndBy>(n.aux), n.a, score);
  note_slots(compile::kPlaces, P);
  lang::place_unplaced(&state_[compile::kPlaces], P, next, score.data());
  if (p_.points_base >= 0)
    for (int pl = 0; pl < P; ++pl) {
      if (points[pl] < -p_.points_limit || points[pl] > p_.points_limit)
        fail(idx, msg::points_outside(points[pl], p_.points_limit));
      put(p_.points_base + pl, static_cast<int32_t>(points[pl]));
    }
  put(compile::kOver, compile::kEnded);
}

// A number per seat from a table per player or a function of a player (all 0 for Plain).
void Machine::per_player(lang::EndBy from, int index, std::vector<int64_t>& out) {
  int P = p_.num_players;
  out.assign(P, 0);
  for (int pl = 0; pl < P; ++pl) {
    if (from == lang::EndBy::Table) {
      out[pl] = state_[p_.vars[index].base + pl];
    } else if (from == lang::EndBy::Callable) {
      int64_t a = pl;
      out[pl] = invoke(index, &a, 1);
    }
  }
}

void run_board(compile::Program& building, int entry) {
  Machine m(building, &building);
  if (int64_t budget = default_engine().budget; budget > 0) m.set_budget(budget);  // --budget
  m.call(entry, nullptr, 0);
}

}  // namespace keli::runtime
