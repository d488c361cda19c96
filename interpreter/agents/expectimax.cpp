// expectimax: a depth-limited search for games of two sides (2 players, or 2 teams by the
// game's `team`). The root mover's side maximises, the other side minimises, and a throw is
// the mean over every outcome of its dice weighted by its exact probability (DiceSet outcomes).
// Leaves are scored by the root side's evaluation lead; a finished game by its result.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <stdexcept>

#include "agents/search.hpp"

namespace keli::agents {

namespace {

class ExpectimaxAgent : public Agent {
 public:
  explicit ExpectimaxAgent(const Options& o) : depth_(static_cast<int>(o.get("depth"))) {}

  std::string unsuitable(const compile::Program& p) const override {
    Evaluator ev(p);
    if (ev.sides() == 2) return {};
    return ev.sides() == p.num_players
               ? fmt::format("it plays two sides only, and this game has {} players on their own", p.num_players)
               : fmt::format("it plays two sides only, and this game's 'team' makes {}", ev.sides());
  }

  size_t choose(runtime::Game& g, const runtime::State& s, const std::vector<runtime::Move>& legal,
                runtime::Rng& rng) override {
    if (legal.size() == 1) return 0;
    ev_ = &cache_.get(g);
    std::string why = unsuitable(g.program());
    if (!why.empty()) throw std::runtime_error("expectimax cannot play " + g.program().game_name + ": " + why);
    root_ = g.mover(s);
    double best = -HUGE_VAL;
    size_t chosen = 0, ties = 0;
    for (size_t i = 0; i < legal.size(); ++i) {
      runtime::State& child = level(0);
      child = s;
      g.apply(child, legal[i]);
      double v = value(g, 1, depth_ - 1);
      if (v > best) {
        best = v;
        chosen = i;
        ties = 1;
      } else if (v == best && rng.below(++ties) == 0) {
        chosen = i;
      }
    }
    return chosen;
  }

 private:
  runtime::State& level(int k) {
    if (static_cast<int>(states_.size()) <= k) {
      states_.resize(k + 1);
      moves_.resize(k + 1);
    }
    return states_[k];
  }

  // The value for the root's side of the state at level k-1, with `depth` decisions left.
  double value(runtime::Game& g, int k, int depth) {
    level(k);
    const runtime::State& s = states_[k - 1];
    if (g.over(s)) {
      ev_->terminal(s, rewards_);
      return (rewards_[root_] - 0.5) * 1e12;  // results dominate any evaluation
    }
    if (depth <= 0) return ev_->margin(ev_->scores(s), root_);
    if (g.chance(s)) {
      const compile::DiceSet& d = g.dice(s);
      double total = 0;
      for (const auto& o : d.outcomes) {
        states_[k] = states_[k - 1];
        g.apply_roll(states_[k], o.values);
        total += static_cast<double>(o.weight) * value(g, k + 1, depth);
      }
      return total / static_cast<double>(d.total);
    }
    bool maximise = ev_->partners(g.mover(s), root_);
    g.legal(s, moves_[k]);
    double best = maximise ? -HUGE_VAL : HUGE_VAL;
    for (size_t i = 0; i < moves_[k].size(); ++i) {
      states_[k] = states_[k - 1];
      g.apply(states_[k], moves_[k][i]);
      double v = value(g, k + 1, depth - 1);
      best = maximise ? std::max(best, v) : std::min(best, v);
    }
    return best;
  }

  int depth_;
  int root_ = 0;
  Evaluator* ev_ = nullptr;
  EvaluatorCache cache_;
  // one state and one move list per level of the search; a deque keeps references to the
  // levels above valid while deeper ones are added
  std::deque<runtime::State> states_;
  std::deque<std::vector<runtime::Move>> moves_;
  std::vector<double> rewards_;
};

}  // namespace

std::unique_ptr<Agent> make_expectimax(const Options& o) { return std::make_unique<ExpectimaxAgent>(o); }

}  // namespace keli::agents
