// mc: flat Monte Carlo. Each legal move is followed by `playouts` random rollouts (cut off and
// scored by the evaluation when `cutoff` is set); the move with the best mean reward for the
// mover is played.
#include "agents/search.hpp"

namespace keli::agents {

namespace {

class McAgent : public Agent {
 public:
  explicit McAgent(const Options& o)
      : playouts_(static_cast<int>(o.get("playouts"))),
        cutoff_(static_cast<int>(o.get("cutoff"))),
        scale_(o.get("scale")) {}

  size_t choose(runtime::Game& g, const runtime::State& s, const std::vector<runtime::Move>& legal,
                runtime::Rng& rng) override {
    if (legal.size() == 1) return 0;
    Evaluator& ev = cache_.get(g);
    const int mover = g.mover(s);
    double best = -1;
    size_t chosen = 0;
    for (size_t i = 0; i < legal.size(); ++i) {
      double total = 0;
      for (int k = 0; k < playouts_; ++k) {
        work_ = s;
        g.apply(work_, legal[i]);
        rollout(g, work_, rng, cutoff_, scratch_);
        ev.rewards(work_, scale_, rewards_);
        total += rewards_[mover];
      }
      if (total > best) {
        best = total;
        chosen = i;
      }
    }
    return chosen;
  }

 private:
  int playouts_, cutoff_;
  double scale_;
  EvaluatorCache cache_;
  runtime::State work_;
  std::vector<runtime::Move> scratch_;
  std::vector<double> rewards_;
};

}  // namespace

std::unique_ptr<Agent> make_mc(const Options& o) { return std::make_unique<McAgent>(o); }

}  // namespace keli::agents
