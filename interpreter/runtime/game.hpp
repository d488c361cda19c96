// The runtime's public API: states, legal moves, applying moves and throws, results, notation.
// A State is a flat array of 32-bit integers laid out by the compiler (compile/program.hpp).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "compile/program.hpp"
#include "runtime/engine.hpp"
#include "runtime/machine.hpp"
#include "runtime/rng.hpp"

namespace keli::runtime {

using State = std::vector<int32_t>;

struct Move {
  int16_t rule = -1;
  uint8_t nargs = 0;
  int32_t args[lang::kMaxMoveParams] = {};
  bool operator==(const Move& o) const {
    if (rule != o.rule || nargs != o.nargs) return false;
    for (int i = 0; i < nargs; ++i)
      if (args[i] != o.args[i]) return false;
    return true;
  }
};

class Game {
 public:
  // On the engine default_engine() names (runtime/engine.hpp), or on the one `engine` names.
  explicit Game(std::shared_ptr<const compile::Program> p);
  Game(std::shared_ptr<const compile::Program> p, const EngineOptions& engine);
  const compile::Program& program() const { return *p_; }
  Engine engine() const { return native_ ? Engine::Native : Engine::Interp; }  // the one running
  // The native code it runs on (null on the interpreter), for others to make their own runner.
  std::shared_ptr<const class NativeGame> native() const { return native_; }
  // Units of work each step may do: EngineOptions::budget, else the game's `limit work`. A step
  // is a move, a throw, a listing of legal moves, a setup block, a call (an invariant checked).
  int64_t budget() const { return m_.budget(); }

  State initial();  // the start position: variables' initial values, then the setup blocks
  bool over(const State& s) const { return s[compile::kOver] != compile::kPlaying; }
  bool ended_by_limit(const State& s) const { return s[compile::kOver] == compile::kLimit; }
  bool chance(const State& s) const { return !over(s) && p_->phases[s[compile::kPhase]].dice >= 0; }
  int mover(const State& s) const { return s[compile::kMover]; }
  int ply(const State& s) const { return s[compile::kPly]; }      // decisions and throws
  int moves(const State& s) const { return s[compile::kMoves]; }  // decisions only

  // Decision states: every legal move, in rule order then parameter order.
  void legal(const State& s, std::vector<Move>& out);
  void apply(State& s, const Move& m);

  // Chance states: the dice thrown and every outcome with its weight; apply one outcome.
  const compile::DiceSet& dice(const State& s) const { return p_->dice[p_->phases[s[compile::kPhase]].dice]; }
  void apply_roll(State& s, const std::vector<int32_t>& values);
  const std::vector<int32_t>& sample_roll(const State& s, Rng& rng);

  // Notes raised by the last apply or apply_roll (texts in program().notes).
  const std::vector<int>& notes() const;

  std::string notation(const Move& m) const;
  std::string roll_notation(const std::vector<int32_t>& values) const;
  // Final places per seat (1 = first; equal places share); all zero while the game goes on.
  std::vector<int> places(const State& s) const;
  // The texts of declared invariants that do not hold in s.
  std::vector<std::string> failed_invariants(const State& s);
  // The first declared invariant that does not hold in s, as an E704 error at its declaration
  // saying the step and the values of the variables its condition reads (runtime/invariants.cpp).
  std::optional<diag::Error> invariant_failure(const State& s);
  // The value of a callable (agents' `evaluate` and `team`) in s, which it may not change.
  int64_t call(const State& s, int callable, const int64_t* args, int nargs);

 private:
  void after_step(State& s, bool decision);
  void verify_facts(const State& s) const;  // the debug mode's check (EngineOptions::check_facts)
  void otherwise(const compile::PhaseInfo& ph, std::vector<Move>& out) const;
  std::shared_ptr<const compile::Program> p_;
  Machine m_;
  std::shared_ptr<class NativeGame> native_;  // null: the interpreter runs the game
  State scratch_;
  bool check_facts_ = false;
  std::vector<int32_t> roll_;
};

}  // namespace keli::runtime
