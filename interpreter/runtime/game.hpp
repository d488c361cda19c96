// The runtime's public API: states, legal moves, applying moves and throws, results, notation.
// A State is a flat array of 32-bit integers laid out by the compiler (compile/program.hpp).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "compile/program.hpp"
#include "runtime/engine.hpp"
#include "runtime/machine.hpp"
#include "runtime/past.hpp"
#include "runtime/rng.hpp"

namespace keli::runtime {

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

  // How a move reads in state s (before it): its rule's `reads` text, else the rule's name and its
  // arguments as the rules name them (sites' labels, seats' names, pieces' labels). The one source
  // of move text for every command (runtime/notation.cpp).
  std::string notation(const State& s, const Move& m);
  // One hole of a move's `reads` text (its part `part`, a single value) as notation() shows it;
  // "" for literal text, a test or a list: how the moves name a hole or a piece's place, for boards.
  std::string read_part(const State& s, const Move& m, size_t part);
  // The move as a call, `RULE ARG...` (sites by label, seats by name, other values as numbers):
  // what traces record as "move" and scenarios may name, whatever the game's `reads` texts say.
  std::string call_text(const Move& m) const;
  // A piece as people name it: its seat's letter (or name, when letters repeat) and its number
  // among that seat's pieces, from 1: S1, S2, ... E1; P1.1 ... when seats are P1, P2, ...
  // Pieces alike in s (same seat, place and every other table by piece) all read as the first.
  std::string piece_label(const State& s, int piece);
  int stand_in(const State& s, int piece);  // the first piece alike with `piece` in s
  // The legal moves as a person is offered them: each with its notation, and a move whose
  // notation and resulting state are those of an earlier one left out (it is the same choice).
  struct Choice {
    Move move;
    std::string text;
  };
  std::vector<Choice> choices(const State& s, const std::vector<Move>& legal);
  // Why a move of the phase's rules is not legal in s: the first test it fails, as the node of a
  // parameter's domain (the value is not in it), filter or the rule's guard; -1 when it passes.
  int why_not(const State& s, const Move& m);
  // The part of the failed test `node` (from why_not) that decides it, with the move's values
  // bound: inside `a and b` the first side that is false, down to a test that is no `and`; for a
  // comparison, the values of its two sides; for a call of a definition, its arguments' values.
  struct FailedPart {
    int node = -1;
    std::vector<int64_t> sides;
  };
  FailedPart failed_part(const State& s, const Move& m, int node);
  // A value as the rules name it: a site's label, a seat's name, a piece's label, yes or no.
  std::string value_text(const State& s, lang::ValueKind kind, int64_t v);
  // Every move of s's phase's rules whose notation is `text` (compared by `same`), legal or not,
  // trying at most `tries` parameter values in all: what a person may have meant.
  std::vector<Move> read_as(const State& s, const std::string& text,
                            bool (*same)(const std::string&, const std::string&), int64_t tries);
  // Every move of s's phase's rules, legal or not, that `keep` accepts, trying at most `tries`
  // parameter values in all (each domain listed with the earlier values bound, filters and
  // guards ignored). `keep` may throw diag::Error: the move is then left out.
  std::vector<Move> candidates(const State& s, const std::function<bool(const Move&)>& keep, int64_t tries);
  std::string roll_notation(const std::vector<int32_t>& values) const;
  // Final places per seat (1 = first; equal places share); all zero while the game goes on.
  std::vector<int> places(const State& s) const;
  // Points per seat, as the game's `end_game ... points NAME` gave them (all 0 until the game ends,
  // and after an end without points); empty for a game that scores no points.
  std::vector<int> points(const State& s) const;
  bool scores_points() const { return p_->points_base >= 0; }
  // The texts of declared invariants that do not hold in s.
  std::vector<std::string> failed_invariants(const State& s);
  // The first declared invariant that does not hold in s, as an E704 error at its declaration
  // saying the step and the values of the variables its condition reads (runtime/invariants.cpp).
  std::optional<diag::Error> invariant_failure(const State& s);
  // The value of a callable (agents' `evaluate` and `team`) in s, which it may not change.
  int64_t call(const State& s, int callable, const int64_t* args, int nargs);
  // Each piece's seat at the start (the game's piece owner, `owner[pc]`), -1 for a piece of no
  // seat, and for every piece when the game names no owner or its setup fails.
  std::vector<int> owners_at_start();
  // Every value the engine keeps (found counts, declared facts, the position history) made afresh
  // from s's variables: for a state made from outside (a scenario's position), which has no past.
  void refresh_facts(State& s);

 private:
  void after_step(State& s, bool decision);
  void remember(State& s);
  void see(const State& s);
  void verify_facts(const State& s);  // the debug mode's check (EngineOptions::check_facts)
  void otherwise(const compile::PhaseInfo& ph, std::vector<Move>& out) const;
  void rewind();
  void bind_reads(const State& s, const Move& m);  // the machine on a copy of s, the move's values set
  // Binds the machine to s for guards, filters and domains: with their writes logged when they may
  // write (Program::guards_write_state), and undone when it goes.
  class OnPosition {
   public:
    OnPosition(Game& g, const State& s);
    ~OnPosition();
    OnPosition(const OnPosition&) = delete;
    OnPosition& operator=(const OnPosition&) = delete;

   private:
    Game& g_;
  };
  bool kept(const compile::Rule& r, int k);
  bool first_of_key(const compile::Rule& r, int k);
  bool listed_earlier(const compile::Rule& r, int i, const Machine::Domain& d, int at);
  std::shared_ptr<const compile::Program> p_;
  Machine m_;
  std::shared_ptr<class NativeGame> native_;  // null: the interpreter runs the game
  State scratch_;
  // `distinct by`: the keys of the values kept so far, one list per parameter (Game::legal).
  std::vector<int64_t> distinct_seen_[lang::kMaxMoveParams];
  State before_setup_;  // Program::initial with the declared facts counted (initial() starts here)
  bool check_facts_ = false;
  std::vector<int32_t> roll_;
  std::vector<std::string> piece_labels_;  // filled at the first piece_label
  // Pieces alike: every table by piece holds the same for both, so exchanging them changes
  // nothing. Known only when no other table refers to pieces (then `alike_known_`).
  void find_piece_tables();
  bool alike(const State& s, int a, int b) const;
  bool same_up_to_alike(const State& a, const State& b) const;
  bool piece_tables_found_ = false, alike_known_ = false;
  std::vector<const compile::VarInfo*> piece_vars_, piece_consts_;
};

}  // namespace keli::runtime
