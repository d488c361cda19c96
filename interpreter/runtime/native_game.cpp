// The native engine's host side (runtime/native_game.hpp) and the engine setting.
#include "runtime/native_game.hpp"

#include <fmt/format.h>

#include <cstddef>
#include <mutex>
#include <set>

#include "compile/facts.hpp"
#include "diag/diagnostics.hpp"
#include "lang/arith.hpp"
#include "lang/builtins.hpp"
#include "runtime/engine.hpp"
#include "runtime/game.hpp"
#include "runtime/messages.hpp"

namespace keli::runtime {

static_assert(sizeof(keli_move) == sizeof(Move) && offsetof(keli_move, rule) == offsetof(Move, rule) &&
                  offsetof(keli_move, nargs) == offsetof(Move, nargs) &&
                  offsetof(keli_move, args) == offsetof(Move, args),
              "keli_move must be laid out as runtime::Move");

namespace {
std::mutex g_engine_mu;
EngineOptions g_engine;
}  // namespace

void set_default_engine(const EngineOptions& o) {
  std::lock_guard<std::mutex> lock(g_engine_mu);
  g_engine = o;
}
EngineOptions default_engine() {
  std::lock_guard<std::mutex> lock(g_engine_mu);
  return g_engine;
}
std::optional<Engine> parse_engine(std::string_view name) {
  if (name == "interp") return Engine::Interp;
  if (name == "native") return Engine::Native;
  if (name == "auto") return Engine::Auto;
  return std::nullopt;
}
const char* engine_name(Engine e) { return e == Engine::Interp ? "interp" : e == Engine::Native ? "native" : "auto"; }

NativeGame::NativeGame(const compile::Program& p, std::shared_ptr<const native::Module> m)
    : p_(p), module_(std::move(m)), t_(module_->table()), locals_(std::max(1, t_.locals), 0), budget_(p.work_budget) {
  ctx_.locals = locals_.data();
  ctx_.grow = &NativeGame::grow;
  ctx_.host = this;
}

void NativeGame::grow(keli_ctx* ctx, keli_buffer* b) {
  auto* self = static_cast<NativeGame*>(ctx->host);
  const size_t cap = std::max<size_t>(16, static_cast<size_t>(b->cap) * 2);
  if (b == &ctx->moves) {
    self->move_buf_.resize(cap);
    b->data = self->move_buf_.data();
  } else if (b == &ctx->undo) {
    self->undo_buf_.resize(2 * cap);  // a slot and its value before, per entry
    b->data = self->undo_buf_.data();
  } else {
    self->note_buf_.resize(cap);
    b->data = self->note_buf_.data();
  }
  b->cap = static_cast<int32_t>(cap);
}

// Every entry is a step with the whole budget. The notes buffer starts after the notes already
// raised (the caller clears them per step). Invariant: the buffer begins with notes_ (end_notes
// copies what generated code appended, which only appends; grow keeps the contents), so nothing
// is copied into it here.
void NativeGame::begin() {
  ctx_.work_left = budget_;
  if (note_buf_.size() < notes_.size() + 16) note_buf_.resize(notes_.size() + 16);
  ctx_.notes = {note_buf_.data(), static_cast<int32_t>(notes_.size()), static_cast<int32_t>(note_buf_.size())};
}
void NativeGame::end_notes() {
  if (static_cast<size_t>(ctx_.notes.size) == notes_.size()) return;  // none raised
  const int32_t* n = note_buf_.data();
  notes_.assign(n, n + ctx_.notes.size);
}

int64_t NativeGame::call(int32_t* state, int callable, const int64_t* args, int nargs) {
  int64_t out = 0;
  begin();
  int rc = t_.call(&ctx_, state, callable, args, nargs, &out);
  end_notes();
  if (rc) fail();
  return out;
}

void NativeGame::legal(int32_t* state, std::vector<Move>& out) {
  if (move_buf_.size() < 64) move_buf_.resize(64);
  ctx_.moves = {move_buf_.data(), 0, static_cast<int32_t>(move_buf_.size())};
  begin();
  int rc = t_.legal(&ctx_, state);
  end_notes();
  if (rc) fail();
  out.assign(move_buf_.data(), move_buf_.data() + ctx_.moves.size);
}

void NativeGame::apply(int32_t* state, const Move& m) {
  begin();
  int rc = t_.apply(&ctx_, state, reinterpret_cast<const keli_move*>(&m));
  end_notes();
  if (rc) fail();
}

void NativeGame::apply_roll(int32_t* state, const int32_t* roll, int n) {
  ctx_.roll = roll;
  ctx_.nroll = n;
  begin();
  int rc = t_.apply_roll(&ctx_, state);
  end_notes();
  ctx_.roll = nullptr;
  ctx_.nroll = 0;
  if (rc) fail();
}

// The interpreter's error for the fault generated code reported.
void NativeGame::fail() const {
  const keli_fault& f = ctx_.fault;
  const int node = f.node;
  Span span = node >= 0 && node < static_cast<int>(p_.spans.size()) ? p_.spans[node] : Span{};
  const compile::Node* n = node >= 0 && node < static_cast<int>(p_.code.size()) ? &p_.code[node] : nullptr;
  using compile::Op;
  std::string m;
  switch (f.kind) {
    case KELI_FAULT_INDEX: {
      const compile::VarInfo& t = n->op == Op::ConstGet    ? p_.const_tables[n->a]
                                  : n->op == Op::RegionId  ? p_.region_tables[n->a]
                                  : n->op == Op::FactGet   ? compile::counted_table(p_, p_.facts[n->a])
                                  : n->op == Op::DomSearch ? p_.vars[n->b]  // the cell of the site searched from
                                                           : p_.vars[n->a];
      m = msg::bad_index(t.name, f.b + t.lows[f.a], t.lows[f.a], t.dims[f.a]);
      break;
    }
    case KELI_FAULT_REGION: m = msg::no_region(f.b); break;
    case KELI_FAULT_POSITION: m = msg::position_outside(f.b, static_cast<size_t>(f.c)); break;
    case KELI_FAULT_NOT_ON_TRACK: m = msg::not_on_track(f.b); break;
    case KELI_FAULT_ROLL: m = msg::no_roll(f.b, static_cast<int>(f.c)); break;
    case KELI_FAULT_ARITH: m = lang::fault_message(static_cast<lang::Fault>(f.a)); break;
    case KELI_FAULT_TOO_LARGE: m = msg::too_large(f.b); break;
    case KELI_FAULT_POINTS: m = msg::points_outside(f.b, p_.points_limit); break;
    case KELI_FAULT_COLLECTION:
      if (n) m = msg::collection_fault(static_cast<lang::CollFault>(f.a), *n, f.b, f.c);
      break;
    case KELI_FAULT_SEAT: m = msg::no_seat(f.b); break;
    case KELI_FAULT_EMPTY: m = msg::empty_aggregate(n && n->op == Op::AggMin); break;
    case KELI_FAULT_RANGE: m = msg::range_too_long(f.b, f.c); break;
    case KELI_FAULT_LOOP: m = msg::loop_too_long(); break;
    case KELI_FAULT_HISTORY:
      throw diag::Error{diag::Code::runtime, span, msg::history_full(p_.history.capacity), msg::kHistoryFullHint};
    case KELI_FAULT_BUDGET:
      throw diag::Error{diag::Code::runtime, span, msg::out_of_work(n ? n->op : Op::Imm, budget_), msg::kOutOfWorkHint};
    case KELI_FAULT_CALL_DEPTH: m = msg::kCallsTooDeep; break;
    case KELI_FAULT_EVENT_DEPTH: m = msg::kEventsTooDeep; break;
    case KELI_FAULT_NOTE: m = p_.notes[n->a]; break;
    case KELI_FAULT_MOVE_TRIES: m = msg::too_many_tries(p_.rules.at(static_cast<size_t>(f.a)).name); break;
    case KELI_FAULT_DISTINCT: m = msg::too_many_keys(p_.rules.at(static_cast<size_t>(f.a)).name); break;
    case KELI_FAULT_BUILD_ONLY:
      m = n->op == Op::ConstSet  ? msg::kConstOnlyBuilding
          : n->op == Op::AddSite ? msg::kAddOnlyBuilding
                                 : msg::kSiteOnlyBuilding;
      break;
    default: m = fmt::format("native engine fault {}", f.kind); break;
  }
  throw diag::Error{diag::Code::runtime, span, m, {}};
}

std::shared_ptr<NativeGame> make_native(const compile::Program& p, const EngineOptions& o) {
  if (o.engine == Engine::Interp) return nullptr;
  try {
    return std::make_shared<NativeGame>(p, native::load(p, {o.cache_dir}));
  } catch (const std::exception& e) {
    if (o.engine == Engine::Native) throw NativeUnavailable(e.what());
    static std::mutex mu;
    static std::set<std::string> told;
    std::lock_guard<std::mutex> lock(mu);
    if (told.insert(p.file).second)  // once a file, however many games or threads ask
      fmt::print(stderr, "keli: using the interpreter for {}: the native engine is unavailable ({})\n", p.file,
                 e.what());
    return nullptr;
  }
}

}  // namespace keli::runtime
