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
      double v = ev.one_move(g, s, legal[i], mover, after_);  // results dominate any evaluation
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
};

}  // namespace

std::unique_ptr<Agent> make_greedy(const Options&) { return std::make_unique<GreedyAgent>(); }

}  // namespace keli::agents
