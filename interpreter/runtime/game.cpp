// The runtime: move generation by walking each rule's parameter domains and testing its guard,
// moves and throws applied by running their bodies, and the bookkeeping after every step.
#include "runtime/game.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "compile/facts.hpp"
#include "lang/limits.hpp"
#include "runtime/messages.hpp"
#include "runtime/native_game.hpp"

namespace keli::runtime {
using compile::Program;

Game::Game(std::shared_ptr<const compile::Program> p) : Game(std::move(p), default_engine()) {}

Game::Game(std::shared_ptr<const compile::Program> p, const EngineOptions& engine)
    : p_(std::move(p)), m_(*p_), native_(make_native(*p_, engine)) {
  if (engine.budget > 0) m_.set_budget(engine.budget);
  if (native_) native_->set_budget(m_.budget());
  scratch_.resize(p_->state_size);
  const char* env = std::getenv("KELI_CHECK_FACTS");
  check_facts_ = !p_->facts.empty() && (engine.check_facts || (env && *env && std::string(env) != "0"));
  roll_.reserve(p_->max_roll);
}

const std::vector<int>& Game::notes() const { return native_ ? native_->notes() : m_.notes(); }

State Game::initial() {
  // The state before setup with its declared facts counted is the same for every game: made at
  // the first (a fact's condition that fails still fails here, where initial() is called).
  if (before_setup_.empty()) {
    State counted = p_->initial;
    m_.bind(counted.data());
    m_.refresh_tallies();
    before_setup_ = std::move(counted);
  }
  State s = before_setup_;
  if (native_) {
    native_->clear_notes();
    see(s);
    for (int c : p_->setups) native_->call(s.data(), c, nullptr, 0);
  } else {
    see(s);
    m_.bind(s.data());
    m_.clear_notes();
    for (int c : p_->setups) m_.call(c, nullptr, 0);
  }
  if (check_facts_) verify_facts(s);
  remember(s);
  return s;
}

void Game::legal(const State& s, std::vector<Move>& out) {
  out.clear();
  if (over(s) || chance(s)) return;
  see(s);
  if (native_) {  // the generated code undoes its guards' writes itself
    native_->legal(const_cast<int32_t*>(s.data()), out);
    return otherwise(p_->phases[s[compile::kPhase]], out);
  }
  // Guards that may write the state (the optimizer tells) run on the position itself with their
  // writes logged, each guard, filter and domain starting from the position (restore undoes the
  // writes before it), so none sees another's writes and the position comes back whole; others
  // read it in place, and the interpreter may remember values while the moves are listed.
  const bool writes = p_->guards_write_state;
  auto restore = [&] { rewind(); };
  OnPosition on(*this, s);
  if (!writes) m_.memo_on();  // the state cannot change until the moves are listed
  m_.reset_work();            // one budget for the whole listing
  struct MemoOff {
    Machine& m;
    ~MemoOff() { m.memo_off(); }
  } memo_off{m_};
  const compile::PhaseInfo& ph = p_->phases[s[compile::kPhase]];
  for (int rid : ph.rules) {
    const compile::Rule& r = p_->rules[rid];
    const int np = static_cast<int>(r.params.size());
    Machine::Domain dom[4];
    int at[4] = {0, 0, 0, 0};
    Move mv;
    mv.rule = static_cast<int16_t>(rid);
    mv.nargs = static_cast<uint8_t>(np);
    // Odometer over the parameters; inner domains are sized after outer values are bound.
    int k = 0;
    if (np == 0) {
      if (r.guard >= 0) restore();
      if (r.guard < 0 || m_.eval(r.guard)) out.push_back(mv);
      continue;
    }
    // Each domain opened is charged whole, when it opens: its values against kMaxMoveTries and
    // the work budget, as the native engine charges them (every value counts, before its where).
    int64_t tries = 0;
    auto open = [&](int level) {
      distinct_seen_[level].clear();
      restore();
      dom[level] = m_.open_domain(r.params[level].domain);
      if ((tries += dom[level].size) > lang::kMaxMoveTries)
        throw diag::Error{diag::Code::runtime, p_->spans[r.params[0].domain], msg::too_many_tries(r.name), {}};
      m_.spend(r.params[level].domain, dom[level].size);
    };
    open(0);
    while (k >= 0) {
      if (at[k] >= dom[k].size) {
        --k;
        if (k >= 0) ++at[k];
        continue;
      }
      int64_t v = m_.domain_value(dom[k], at[k]);
      m_.set_local(r.params[k].slot, v);
      mv.args[k] = static_cast<int32_t>(v);
      if (!kept(r, k)) {  // the filter and `distinct by` prune before inner parameters
        ++at[k];
        continue;
      }
      if (k + 1 < np) {
        ++k;
        at[k] = 0;
        open(k);
        continue;
      }
      if (r.guard >= 0) restore();
      if (r.guard < 0 || m_.eval(r.guard)) out.push_back(mv);
      ++at[k];
    }
  }
  otherwise(ph, out);
}

// Guards, filters and domains that may write the state each start from the position itself:
// their writes are undone before the next (OnPosition logs them).
void Game::rewind() {
  if (p_->guards_write_state) m_.undo_writes();
}

Game::OnPosition::OnPosition(Game& g, const State& s) : g_(g) {
  g_.m_.bind(const_cast<int32_t*>(s.data()));
  if (g_.p_->guards_write_state) g_.m_.log_writes(true);
}

Game::OnPosition::~OnPosition() {
  if (!g_.p_->guards_write_state) return;
  g_.m_.undo_writes();
  g_.m_.log_writes(false);
}

// Whether parameter k's value (bound) passes its `where` and is the first of its `distinct by`
// key; each test starts from the position itself.
bool Game::kept(const compile::Rule& r, int k) {
  const compile::RuleParam& prm = r.params[k];
  if (prm.filter >= 0) {
    rewind();
    if (!m_.eval(prm.filter)) return false;
  }
  if (prm.distinct < 0) return true;
  rewind();
  return first_of_key(r, k);
}

// `distinct by KEY` on parameter k (bound, past its filter, the state restored): whether no
// earlier value of this loop had its key; if none had, the key is remembered.
bool Game::first_of_key(const compile::Rule& r, int k) {
  const int64_t key = m_.eval(r.params[k].distinct);
  std::vector<int64_t>& seen = distinct_seen_[k];
  if (std::find(seen.begin(), seen.end(), key) != seen.end()) return false;
  if (seen.size() >= static_cast<size_t>(lang::kMaxDistinctKeys))
    throw diag::Error{diag::Code::runtime, p_->spans[r.params[k].distinct], msg::too_many_keys(r.name), {}};
  seen.push_back(key);
  return true;
}

// No rule's move is legal: the phase's `otherwise` rule, or an error.
void Game::otherwise(const compile::PhaseInfo& ph, std::vector<Move>& out) const {
  if (out.empty() && ph.otherwise >= 0) {
    Move mv;
    mv.rule = static_cast<int16_t>(ph.otherwise);
    out.push_back(mv);
  }
  if (out.empty()) throw diag::Error{diag::Code::runtime, ph.span, msg::no_legal_move(ph.name), msg::kNoLegalMoveHint};
}

void Game::apply(State& s, const Move& mv) {
  const compile::Rule& r = p_->rules.at(mv.rule);
  see(s);
  if (native_) {
    native_->clear_notes();
    native_->apply(s.data(), mv);
    return after_step(s, true);
  }
  m_.bind(s.data());
  m_.clear_notes();
  for (int i = 0; i < mv.nargs; ++i) m_.set_local(r.params[i].slot, mv.args[i]);
  m_.exec(r.body);
  after_step(s, true);
}

void Game::apply_roll(State& s, const std::vector<int32_t>& values) {
  const compile::PhaseInfo& ph = p_->phases[s[compile::kPhase]];
  if (&values != &roll_) roll_ = values;
  if (dice(s).identical) std::sort(roll_.begin(), roll_.end());  // alike dice: smallest first, always
  see(s);
  if (native_) {
    native_->clear_notes();
    native_->apply_roll(s.data(), roll_.data(), static_cast<int>(roll_.size()));
    return after_step(s, false);
  }
  m_.bind(s.data());
  m_.clear_notes();
  m_.set_roll(roll_.data(), static_cast<int>(roll_.size()));
  m_.exec(ph.chance_body);
  m_.set_roll(nullptr, 0);
  after_step(s, false);
}

const std::vector<int32_t>& Game::sample_roll(const State& s, Rng& rng) {
  const compile::DiceSet& d = dice(s);
  roll_.resize(d.faces.size());
  for (size_t i = 0; i < d.faces.size(); ++i) roll_[i] = d.faces[i][rng.below(d.faces[i].size())];
  if (d.identical) std::sort(roll_.begin(), roll_.end());  // as in the outcome table
  return roll_;
}

// The positions before s's, for `repetitions` on either engine.
void Game::see(const State& s) {
  if (p_->history.key < 0) return;
  m_.see_past(view_of(s.past));
  if (native_) native_->see_past(view_of(s.past));
}

void Game::after_step(State& s, bool decision) {
  ++s[compile::kPly];
  if (decision) ++s[compile::kMoves];
  if (!over(s) && p_->move_limit > 0 && s[compile::kMoves] >= p_->move_limit) s[compile::kOver] = compile::kLimit;
  if (check_facts_) verify_facts(s);
  remember(s);
}

// The positions `repetitions` compares with (lang/history.hpp): the one after setup and the one
// after every step of a game still being played.
void Game::remember(State& s) {
  if (p_->history.key >= 0 && !over(s)) s.past = remember_position(s.data(), p_->history, s.past);
}

void Game::refresh_facts(State& s) {
  see(s);
  compile::refresh_facts(*p_, s);
  m_.bind(s.data());
  m_.refresh_tallies();
  if (p_->history.key < 0) return;
  // A position from outside has no past: it is the first one remembered, its key made afresh.
  lang::store_key(s.data(), p_->history, lang::full_key(s.data(), p_->history));
  s.past.reset();
  remember(s);
}

void Game::verify_facts(const State& s) {
  std::string diff = compile::check_facts(*p_, s);
  if (diff.empty()) {
    std::memcpy(scratch_.data(), s.data(), s.size() * sizeof(int32_t));
    m_.bind(scratch_.data());
    diff = m_.check_tallies();
  }
  if (!diff.empty())
    throw std::logic_error(fmt::format("{} after step {} ({} engine)", diff, s[compile::kPly], engine_name(engine())));
}

std::string Game::roll_notation(const std::vector<int32_t>& values) const {
  std::string out = "roll";
  for (int32_t v : values) out += " " + std::to_string(v);
  return out;
}

std::vector<int> Game::places(const State& s) const {
  std::vector<int> out(p_->num_players);
  for (int i = 0; i < p_->num_players; ++i) out[i] = s[compile::kPlaces + i];
  return out;
}

std::vector<int> Game::points(const State& s) const {
  if (p_->points_base < 0) return {};
  return std::vector<int>(s.begin() + p_->points_base, s.begin() + p_->points_base + p_->num_players);
}

std::vector<std::string> Game::failed_invariants(const State& s) {
  see(s);
  std::vector<std::string> out;
  for (const compile::InvariantInfo& inv : p_->invariants)
    if (!call(s, inv.callable, nullptr, 0)) out.push_back(inv.text);
  return out;
}

int64_t Game::call(const State& s, int callable, const int64_t* args, int nargs) {
  see(s);
  std::memcpy(scratch_.data(), s.data(), s.size() * sizeof(int32_t));
  if (native_) return native_->call(scratch_.data(), callable, args, nargs);
  m_.bind(scratch_.data());
  return m_.call(callable, args, nargs);
}

std::vector<int> Game::owners_at_start() {
  std::vector<int> owner(static_cast<size_t>(p_->num_pieces), -1);
  if (p_->piece_owner < 0) return owner;
  try {
    State s = initial();
    for (int64_t pc = 0; pc < p_->num_pieces; ++pc) {
      int64_t seat = call(s, p_->piece_owner, &pc, 1);
      owner[static_cast<size_t>(pc)] = seat >= 0 && seat < p_->num_players ? static_cast<int>(seat) : -1;
    }
  } catch (const diag::Error&) {
    std::fill(owner.begin(), owner.end(), -1);  // a setup that fails here fails in play too
  }
  return owner;
}

}  // namespace keli::runtime
