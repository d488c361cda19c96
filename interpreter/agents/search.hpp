// What the searching players share: the game's evaluation and teams (the defs `evaluate` and
// `team`, found by the compiler), rewards per player, and random rollouts. Internal to agents/.
#pragma once

#include <memory>
#include <vector>

#include "agents/agent.hpp"
#include "runtime/machine.hpp"
#include "runtime/native_game.hpp"

namespace keli::agents {

std::unique_ptr<Agent> make_greedy(const Options& o);
std::unique_ptr<Agent> make_mc(const Options& o);
std::unique_ptr<Agent> make_mcts(const Options& o);
std::unique_ptr<Agent> make_expectimax(const Options& o);

// Scores states for the players of one program. Built lazily by the agents on first use (an
// agent is made before it knows its game) and rebuilt when the program changes.
class Evaluator {
 public:
  // `native`: the game's native code, to evaluate with (null: the interpreter); `budget`: the
  // work each evaluation may do (0: the game's `limit work`).
  explicit Evaluator(const compile::Program& p, const runtime::NativeGame* native = nullptr, int64_t budget = 0);
  const compile::Program& program() const { return p_; }
  int players() const { return p_.num_players; }
  bool declared() const { return p_.evaluate >= 0; }
  bool native() const { return native_ != nullptr; }
  // Team number per seat: from `def team(p: player): int`, else each seat its own.
  const std::vector<int>& teams() const { return team_; }
  int sides() const { return sides_; }
  bool partners(int a, int b) const { return team_[a] == team_[b]; }

  // The game's evaluation of s for every seat (all 0 without `evaluate`).
  const std::vector<double>& scores(const runtime::State& s);
  // Seat p's lead in `scores` over the best seat not on its team.
  double margin(const std::vector<double>& scores, int p) const;
  // Final rewards in [0, 1] from the places: 1 for first, 0 for last, seats sharing places share
  // the rewards of those places; unplaced seats share the places left. All 0.5 when nobody is placed.
  void terminal(const runtime::State& s, std::vector<double>& out) const;
  // A state that is not over (a cut-off rollout): the logistic of each seat's margin / scale.
  void estimate(const runtime::State& s, double scale, std::vector<double>& out);
  // Either, as the state requires.
  void rewards(const runtime::State& s, double scale, std::vector<double>& out);
  // A move's value to `mover`, one move ahead: its lead after m or, when m ends the game, its
  // result (1 first .. 0 last, less 0.5) far above any lead. `after` is scratch.
  double one_move(runtime::Game& g, const runtime::State& s, const runtime::Move& m, int mover, runtime::State& after);

 private:
  const compile::Program& p_;
  runtime::Machine m_;
  std::unique_ptr<runtime::NativeGame> native_;
  runtime::State scratch_;
  std::vector<double> scores_, results_;
  std::vector<int> team_;
  int sides_ = 0;
};

// Keeps an Evaluator for the program an agent is currently playing.
class EvaluatorCache {
 public:
  Evaluator& get(const runtime::Game& g) {
    const compile::Program& p = g.program();
    // the address and a fingerprint: a new program may be allocated where a freed one was
    size_t print = p.code.size() * 31 + p.state_size * 7 + p.callables.size();
    if (!e_ || &e_->program() != &p || print != print_ || e_->native() != (g.native() != nullptr))
      e_ = std::make_unique<Evaluator>(p, g.native().get(), g.budget());
    print_ = print;
    return *e_;
  }

 private:
  std::unique_ptr<Evaluator> e_;
  size_t print_ = 0;
};

// Uniformly random play from s until the game is over or `cutoff` decisions (0: no cut-off)
// have been made; throws are sampled. `legal` is scratch.
void rollout(runtime::Game& g, runtime::State& s, runtime::Rng& rng, int cutoff, std::vector<runtime::Move>& legal);

}  // namespace keli::agents
