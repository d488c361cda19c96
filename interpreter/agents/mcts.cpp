// mcts: UCT. Each node keeps the reward sums of every player, so the mover at a node picks by its
// own rewards: this plays any number of players, and partners (who share places) help each other.
// Throws are sampled (Game::sample_roll) and a chance node keeps one child per outcome seen.
// States are not stored: each iteration replays its path from the root on one reused state.
#include <algorithm>
#include <fmt/format.h>

#include <chrono>
#include <cmath>

#include "agents/search.hpp"

namespace keli::agents {

namespace {

struct Node {
  runtime::Move move;        // the decision from the parent (a decision parent)
  int roll = -1;             // the outcome from the parent (a chance parent): offset in rolls_
  int first_child = -1, next_sibling = -1;
  int moves = -1, nmoves = 0, expanded = 0;  // legal moves in moves_ (-1: not yet generated)
  int visits = 0;
  int mover = -1;            // who decides here (-1 at a chance node or the end)
};

class MctsAgent : public Agent {
 public:
  explicit MctsAgent(const Options& o)
      : iterations_(static_cast<int>(o.get("iterations"))),
        seconds_(o.get("time")),
        cutoff_(static_cast<int>(o.get("cutoff"))),
        scale_(o.get("scale")),
        c_(o.get("c")),
        verbose_(o.get("verbose") != 0) {}

  size_t choose(runtime::Game& g, const runtime::State& s, const std::vector<runtime::Move>& legal,
                runtime::Rng& rng) override {
    if (legal.size() == 1) return 0;  // no search when nothing is to be decided
    Evaluator& ev = cache_.get(g);
    np_ = ev.players();
    nodes_.clear();
    sums_.clear();
    moves_.assign(legal.begin(), legal.end());
    rolls_.clear();
    new_node();
    nodes_[0].moves = 0;
    nodes_[0].nmoves = static_cast<int>(legal.size());
    nodes_[0].mover = g.mover(s);
    auto start = std::chrono::steady_clock::now();
    int it = 0;
    for (;; ++it) {
      if (seconds_ > 0) {
        if (it % 16 == 0 && std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() >= seconds_) break;
      } else if (it >= iterations_) {
        break;
      }
      iterate(g, ev, s, rng);
    }
    // the most visited move; the better mean among equals
    int best = -1;
    size_t chosen = 0;
    double best_mean = -1;
    const int mover = nodes_[0].mover;
    for (int c = nodes_[0].first_child; c >= 0; c = nodes_[c].next_sibling) {
      double mean = sums_[c * np_ + mover] / std::max(1, nodes_[c].visits);
      if (nodes_[c].visits > best || (nodes_[c].visits == best && mean > best_mean)) {
        best = nodes_[c].visits;
        best_mean = mean;
        for (size_t i = 0; i < legal.size(); ++i)
          if (legal[i] == nodes_[c].move) chosen = i;
      }
    }
    if (verbose_) {
      double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      fmt::print(stderr, "mcts: {} iterations in {:.3f} s ({:.0f}/s), {} nodes; {} visited {} times, mean reward {:.3f}\n", it,
                 secs, secs > 0 ? it / secs : 0.0, nodes_.size(), g.notation(legal[chosen]), best, best_mean);
    }
    return chosen;
  }

 private:
  int new_node() {
    nodes_.emplace_back();
    sums_.resize(sums_.size() + np_, 0.0);
    return static_cast<int>(nodes_.size()) - 1;
  }

  void add_child(int parent, int child) {
    nodes_[child].next_sibling = nodes_[parent].first_child;
    nodes_[parent].first_child = child;
  }

  // Selection and expansion down to a new node (or the end), a rollout, then backing up.
  void iterate(runtime::Game& g, Evaluator& ev, const runtime::State& root, runtime::Rng& rng) {
    work_ = root;
    path_.clear();
    int node = 0;
    path_.push_back(node);
    while (!g.over(work_)) {
      if (g.chance(work_)) {
        const std::vector<int32_t>& roll = g.sample_roll(work_, rng);
        int child = -1;
        for (int c = nodes_[node].first_child; c >= 0 && child < 0; c = nodes_[c].next_sibling)
          if (std::equal(roll.begin(), roll.end(), rolls_.begin() + nodes_[c].roll)) child = c;
        if (child < 0) {
          child = new_node();
          nodes_[child].roll = static_cast<int>(rolls_.size());
          rolls_.insert(rolls_.end(), roll.begin(), roll.end());
          add_child(node, child);
        }
        g.apply_roll(work_, roll);
        node = child;
        path_.push_back(node);
        continue;
      }
      Node* n = &nodes_[node];
      if (n->moves < 0) {
        g.legal(work_, legal_);
        n->moves = static_cast<int>(moves_.size());
        n->nmoves = static_cast<int>(legal_.size());
        n->mover = g.mover(work_);
        moves_.insert(moves_.end(), legal_.begin(), legal_.end());
      }
      if (n->expanded < n->nmoves) {
        // expand one untried move, chosen at random
        int pick = n->moves + n->expanded + static_cast<int>(rng.below(n->nmoves - n->expanded));
        std::swap(moves_[pick], moves_[n->moves + n->expanded]);
        runtime::Move m = moves_[n->moves + n->expanded];
        ++n->expanded;
        int child = new_node();
        nodes_[child].move = m;
        add_child(node, child);
        g.apply(work_, m);
        path_.push_back(child);
        break;
      }
      node = select(node);
      g.apply(work_, nodes_[node].move);
      path_.push_back(node);
    }
    rollout(g, work_, rng, cutoff_, legal_);
    ev.rewards(work_, scale_, rewards_);
    for (int k : path_) {
      ++nodes_[k].visits;
      for (int p = 0; p < np_; ++p) sums_[k * np_ + p] += rewards_[p];
    }
  }

  // UCB1 on the mover's own mean reward.
  int select(int node) const {
    const Node& n = nodes_[node];
    double log_n = std::log(static_cast<double>(std::max(1, n.visits)));
    double best = -HUGE_VAL;
    int chosen = n.first_child;
    for (int c = n.first_child; c >= 0; c = nodes_[c].next_sibling) {
      double v = nodes_[c].visits;
      double u = sums_[c * np_ + n.mover] / v + c_ * std::sqrt(log_n / v);
      if (u > best) {
        best = u;
        chosen = c;
      }
    }
    return chosen;
  }

  int iterations_;
  double seconds_;
  int cutoff_;
  double scale_, c_;
  bool verbose_;
  int np_ = 0;
  EvaluatorCache cache_;
  // reused between decisions, so that a search allocates only while its tree grows
  std::vector<Node> nodes_;
  std::vector<double> sums_;           // np_ per node
  std::vector<runtime::Move> moves_;   // the legal moves of each expanded node
  std::vector<int32_t> rolls_;         // the outcome of each chance child
  std::vector<int> path_;
  std::vector<runtime::Move> legal_;
  std::vector<double> rewards_;
  runtime::State work_;
};

}  // namespace

std::unique_ptr<Agent> make_mcts(const Options& o) { return std::make_unique<MctsAgent>(o); }

}  // namespace keli::agents
