// mcts: UCT. Each node keeps the reward sums of every player, so the mover at a node picks by its
// own rewards: this plays any number of players, and partners (who share places) help each other.
// Throws are sampled (Game::sample_roll) and a chance node keeps one child per outcome seen.
// Nodes keep their states (up to a memory budget; past it, a path is replayed from the deepest
// kept state), so an iteration applies only the moves it adds. With a declared evaluation, a
// node's moves are tried best first and progressively (order=1); rollout=0 scores new nodes by
// the evaluation alone.
#include <algorithm>
#include <fmt/format.h>

#include <chrono>
#include <cmath>

#include "agents/search.hpp"

namespace keli::agents {

namespace {

struct Node {
  runtime::Move move;  // the decision from the parent (a decision parent)
  int roll = -1;       // the outcome from the parent (a chance parent): offset in rolls_
  int first_child = -1, next_sibling = -1;
  int moves = -1, nmoves = 0, expanded = 0;  // legal moves in moves_ (-1: not yet generated)
  int visits = 0;
  int mover = -1;  // who decides here (-1 at a chance node or the end)
  int state = -1;  // the state here in the pool (-1: replayed from an ancestor's)
};

class MctsAgent : public Agent {
 public:
  explicit MctsAgent(const Options& o)
      : iterations_(static_cast<int>(o.get("iterations"))),
        seconds_(o.get("time")),
        cutoff_(static_cast<int>(o.get("cutoff"))),
        scale_(o.get("scale")),
        c_(o.get("c")),
        rollout_(o.get("rollout") != 0),
        order_(o.get("order") != 0),
        pool_bytes_(static_cast<size_t>(o.get("memory") * 1048576.0)),
        verbose_(o.get("verbose") != 0) {}

  bool reproducible() const override { return seconds_ <= 0; }

  size_t choose(runtime::Game& g, const runtime::State& s, const std::vector<runtime::Move>& legal,
                runtime::Rng& rng) override {
    if (legal.size() == 1) return 0;  // no search when nothing is to be decided
    Evaluator& ev = cache_.get(g);
    // Ordering and widening need the game's evaluation: without one, every move is tried once in
    // random order (plain UCT), as docs/agents.md says; the legal order would be a bias.
    ordered_ = order_ && ev.declared();
    np_ = ev.players();
    nodes_.clear();
    sums_.clear();
    moves_.clear();
    rolls_.clear();
    pooled_ = 0;
    new_node();
    legal_.assign(legal.begin(), legal.end());
    generate(g, ev, s, 0);
    auto start = std::chrono::steady_clock::now();
    int it = 0;
    for (;; ++it) {
      if (seconds_ > 0) {
        if (it % 16 == 0 && std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() >= seconds_)
          break;
      } else if (it >= iterations_) {
        break;
      }
      iterate(g, ev, s, rng);
      if (progress_ && it % 64 == 63) progress_(it + 1);
    }
    // the most visited move; the better mean among equals; among moves equal in both, the one
    // expanded first (children are listed newest first), which is the best ordered
    int best = -1;
    size_t chosen = 0;
    double best_mean = -1;
    const int mover = nodes_[0].mover;
    for (int c = nodes_[0].first_child; c >= 0; c = nodes_[c].next_sibling) {
      double mean = sums_[c * np_ + mover] / std::max(1, nodes_[c].visits);
      if (nodes_[c].visits > best || (nodes_[c].visits == best && mean >= best_mean)) {
        best = nodes_[c].visits;
        best_mean = mean;
        for (size_t i = 0; i < legal.size(); ++i)
          if (legal[i] == nodes_[c].move) chosen = i;
      }
    }
    if (verbose_) {
      double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      fmt::print(stderr,
                 "mcts: {} iterations in {:.3f} s ({:.0f}/s), {} nodes; {} visited {} times, mean reward {:.3f}\n", it,
                 secs, secs > 0 ? it / secs : 0.0, nodes_.size(), g.notation(s, legal[chosen]), best, best_mean);
      for (int c = nodes_[0].first_child; c >= 0; c = nodes_[c].next_sibling) {
        fmt::print(stderr, "  {}: {} visits, mean reward {:.3f}\n", g.notation(s, nodes_[c].move), nodes_[c].visits,
                   sums_[c * np_ + mover] / std::max(1, nodes_[c].visits));
      }
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

  // The state after a new child's move or throw, in work_, is kept for the child while the pool
  // has room, so that later iterations start from it instead of replaying the path.
  void keep(int child) {
    // Each kept state's position is a link of its own in the history behind `repetitions`.
    const size_t one = work_.size() * sizeof(int32_t) + static_cast<size_t>(runtime::link_bytes(work_.past));
    if ((pooled_ + 1) * one > pool_bytes_) return;
    if (pooled_ == pool_.size()) pool_.emplace_back();
    pool_[pooled_] = work_;
    nodes_[child].state = static_cast<int>(pooled_++);
  }

  // Moves the current state into child: its kept state, else cur with the child's step applied
  // in work_ (`fresh`: the child is new, keep its state).
  template <class Step>
  const runtime::State* enter(const runtime::State* cur, int child, bool fresh, Step&& step) {
    if (nodes_[child].state >= 0) return &pool_[nodes_[child].state];
    if (cur != &work_) work_ = *cur;
    step(work_);
    if (fresh) keep(child);
    return &work_;
  }

  // Selection and expansion down to a new node (or the end), a rollout, then backing up.
  void iterate(runtime::Game& g, Evaluator& ev, const runtime::State& root, runtime::Rng& rng) {
    const runtime::State* cur = &root;
    path_.clear();
    int node = 0;
    path_.push_back(node);
    while (!g.over(*cur)) {
      if (g.chance(*cur)) {
        const std::vector<int32_t>& roll = g.sample_roll(*cur, rng);
        int child = -1;
        for (int c = nodes_[node].first_child; c >= 0 && child < 0; c = nodes_[c].next_sibling)
          if (std::equal(roll.begin(), roll.end(), rolls_.begin() + nodes_[c].roll)) child = c;
        bool fresh = child < 0;
        if (fresh) {
          child = new_node();
          nodes_[child].roll = static_cast<int>(rolls_.size());
          rolls_.insert(rolls_.end(), roll.begin(), roll.end());
          add_child(node, child);
        }
        cur = enter(cur, child, fresh, [&](runtime::State& st) { g.apply_roll(st, roll); });
        node = child;
        path_.push_back(node);
        continue;
      }
      if (nodes_[node].moves < 0) {
        g.legal(*cur, legal_);
        generate(g, ev, *cur, node);
      }
      Node* n = &nodes_[node];
      if (n->expanded < n->nmoves && (!ordered_ || n->expanded < widened(n->visits))) {
        // expand one untried move: the next in order when ordered, else one at random
        if (!ordered_) {
          int pick = n->moves + n->expanded + static_cast<int>(rng.below(n->nmoves - n->expanded));
          std::swap(moves_[pick], moves_[n->moves + n->expanded]);
        }
        runtime::Move m = moves_[n->moves + n->expanded];
        ++n->expanded;
        int child = new_node();
        nodes_[child].move = m;
        add_child(node, child);
        cur = enter(cur, child, true, [&](runtime::State& st) { g.apply(st, m); });
        path_.push_back(child);
        break;
      }
      node = select(node);
      cur = enter(cur, node, false, [&](runtime::State& st) { g.apply(st, nodes_[node].move); });
      path_.push_back(node);
    }
    if (rollout_) {
      if (cur != &work_) work_ = *cur;
      rollout(g, work_, rng, cutoff_, legal_);
      cur = &work_;
    }
    ev.rewards(*cur, scale_, rewards_);
    for (int k : path_) {
      ++nodes_[k].visits;
      for (int p = 0; p < np_; ++p) sums_[k * np_ + p] += rewards_[p];
    }
  }

  // Stores the moves in legal_ as node's moves. Ordered, they are sorted best first for the
  // mover by the evaluation after each (a move that ends the game by its result), so that a node
  // visited a few times is judged by its likely moves rather than by random ones.
  void generate(runtime::Game& g, Evaluator& ev, const runtime::State& s, int node) {
    Node& n = nodes_[node];
    n.moves = static_cast<int>(moves_.size());
    n.nmoves = static_cast<int>(legal_.size());
    n.mover = g.mover(s);
    if (ordered_ && legal_.size() > 1) {
      keyed_.clear();
      for (size_t i = 0; i < legal_.size(); ++i)
        keyed_.emplace_back(-ev.one_move(g, s, legal_[i], n.mover, scratch_), static_cast<int>(i));
      std::stable_sort(keyed_.begin(), keyed_.end());
      for (const auto& [key, i] : keyed_) moves_.push_back(legal_[i]);
      return;
    }
    moves_.insert(moves_.end(), legal_.begin(), legal_.end());
  }

  // Progressive widening of ordered nodes: how many of the best-ordered moves a node visited
  // `visits` times may have tried (1, then 2 from 2 visits, 3 from 8, 4 from 18, ... 11 from 200).
  // A node seen a few times is judged by its best moves; all are tried as its visits grow.
  static int widened(int visits) { return 1 + static_cast<int>(std::sqrt(visits / 2.0)); }

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
  bool rollout_, order_;
  bool ordered_ = false;  // order_, for a game that declares an evaluation
  size_t pool_bytes_;     // the most the kept states may take
  bool verbose_;
  int np_ = 0;
  EvaluatorCache cache_;
  // reused between decisions, so that a search allocates only while its tree grows
  std::vector<Node> nodes_;
  std::vector<double> sums_;          // np_ per node
  std::vector<runtime::Move> moves_;  // the legal moves of each expanded node
  std::vector<int32_t> rolls_;        // the outcome of each chance child
  std::vector<int> path_;
  std::vector<runtime::Move> legal_;
  std::vector<double> rewards_;
  runtime::State work_, scratch_;
  std::vector<runtime::State> pool_;  // states of nodes; entries are reused between searches
  size_t pooled_ = 0;
  std::vector<std::pair<double, int>> keyed_;  // (minus the ordering key, index in legal_)
};

}  // namespace

std::unique_ptr<Agent> make_mcts(const Options& o) { return std::make_unique<MctsAgent>(o); }

}  // namespace keli::agents
