// greedy: one move ahead. A move that ends the game best for the mover wins outright; otherwise
// the move after which the mover's evaluation leads the best opponent by most. Equal moves are
// chosen among at random, so without an `evaluate` it plays like random but never misses a win.
#include <cmath>

#include "agents/search.hpp"

namespace keli::agents {

namespace {

class GreedyAgent : public Agent {
 public:
  size_t choose(runtime::Game& g, const runtime::State& s, const std::vector<runtime::Move>& legal,
                runtime::Rng& rng) override {
    if (legal.size() == 1) return 0;
    Evaluator& ev = cache_.get(g);
    const int mover = g.mover(s);
    double best = -HUGE_VAL;
    size_t chosen = 0, ties = 0;
    for (size_t i = 0; i < legal.size(); ++i) {
      after_ = s;
      g.apply(after_, legal[i]);
      double v;
      if (g.over(after_)) {
        // results dominate any evaluation: reward 1 (first) to 0 (last), scaled far above it
        ev.terminal(after_, rewards_);
        v = (rewards_[mover] - 0.5) * 1e12;
      } else {
        v = ev.margin(ev.scores(after_), mover);
      }
      if (v > best) {
        best = v;
        chosen = i;
        ties = 1;
      } else if (v == best && rng.below(++ties) == 0) {
        chosen = i;  // reservoir sampling among equals
      }
    }
    return chosen;
  }

 private:
  EvaluatorCache cache_;
  runtime::State after_;
  std::vector<double> rewards_;
};

}  // namespace

std::unique_ptr<Agent> make_greedy(const Options&) { return std::make_unique<GreedyAgent>(); }

}  // namespace keli::agents
