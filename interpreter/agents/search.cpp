// The evaluation, teams, rewards and rollouts the searching players share.
#include "agents/search.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

namespace keli::agents {

Evaluator::Evaluator(const compile::Program& p, const runtime::NativeGame* native, int64_t budget)
    : p_(p),
      m_(p),
      native_(native ? std::make_unique<runtime::NativeGame>(p, native->module()) : nullptr),
      scratch_(p.initial),
      scores_(p.num_players, 0.0) {
  if (budget > 0) m_.set_budget(budget);
  if (native_) native_->set_budget(m_.budget());
  team_.resize(p.num_players);
  std::iota(team_.begin(), team_.end(), 0);
  if (p.team >= 0) {
    // Teams are fixed by the parameters: asked once, of the state before setup.
    try {
      m_.bind(scratch_.data());
      for (int i = 0; i < p.num_players; ++i) {
        int64_t arg = i;
        team_[i] = static_cast<int>(m_.call(p.team, &arg, 1));
      }
    } catch (const diag::Error&) {
      std::iota(team_.begin(), team_.end(), 0);  // a `team` that needs play: seats stand alone
    }
  }
  std::vector<int> distinct = team_;
  std::sort(distinct.begin(), distinct.end());
  sides_ = static_cast<int>(std::unique(distinct.begin(), distinct.end()) - distinct.begin());
}

const std::vector<double>& Evaluator::scores(const runtime::State& s) {
  if (p_.evaluate < 0) return scores_;  // all 0: only results count
  // On a copy: `evaluate` is the game's code and must not change the state being searched.
  std::memcpy(scratch_.data(), s.data(), s.size() * sizeof(int32_t));
  m_.bind(scratch_.data());
  m_.see_past(runtime::view_of(s.past));
  if (native_) native_->see_past(runtime::view_of(s.past));
  for (int i = 0; i < p_.num_players; ++i) {
    int64_t arg = i;
    scores_[i] = static_cast<double>(native_ ? native_->call(scratch_.data(), p_.evaluate, &arg, 1)
                                             : m_.call(p_.evaluate, &arg, 1));
  }
  return scores_;
}

double Evaluator::margin(const std::vector<double>& sc, int p) const {
  double best = -HUGE_VAL;
  for (int q = 0; q < p_.num_players; ++q)
    if (team_[q] != team_[p]) best = std::max(best, sc[q]);
  return best == -HUGE_VAL ? 0.0 : sc[p] - best;
}

void Evaluator::terminal(const runtime::State& s, std::vector<double>& out) const {
  const int n = p_.num_players;
  out.assign(n, 1.0);
  if (n < 2) return;
  // Seats in order of place, the unplaced (0) last, as one group sharing what is left.
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  auto key = [&](int i) {
    int32_t pl = s[compile::kPlaces + i];
    return pl > 0 ? pl : INT32_MAX;
  };
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return key(a) < key(b); });
  for (int i = 0; i < n;) {
    int j = i;
    while (j < n && key(order[j]) == key(order[i])) ++j;
    // positions i..j-1 shared: the mean of their rewards (n-1-pos)/(n-1)
    double r = (2.0 * (n - 1) - (i + j - 1)) / 2.0 / (n - 1);
    for (int k = i; k < j; ++k) out[order[k]] = r;
    i = j;
  }
}

void Evaluator::estimate(const runtime::State& s, double scale, std::vector<double>& out) {
  const std::vector<double>& sc = scores(s);
  out.resize(p_.num_players);
  for (int p = 0; p < p_.num_players; ++p) out[p] = 1.0 / (1.0 + std::exp(-margin(sc, p) / scale));
}

void Evaluator::rewards(const runtime::State& s, double scale, std::vector<double>& out) {
  if (s[compile::kOver] != compile::kPlaying)
    terminal(s, out);
  else
    estimate(s, scale, out);
}

double Evaluator::one_move(runtime::Game& g, const runtime::State& s, const runtime::Move& m, int mover,
                           runtime::State& after) {
  after = s;
  g.apply(after, m);
  if (!g.over(after)) return margin(scores(after), mover);
  terminal(after, results_);
  return (results_[mover] - 0.5) * 1e12;
}

void rollout(runtime::Game& g, runtime::State& s, runtime::Rng& rng, int cutoff, std::vector<runtime::Move>& legal) {
  int decisions = 0;
  while (!g.over(s)) {
    if (g.chance(s)) {
      g.apply_roll(s, g.sample_roll(s, rng));
      continue;
    }
    if (cutoff > 0 && decisions >= cutoff) return;
    g.legal(s, legal);
    g.apply(s, legal[rng.below(legal.size())]);
    ++decisions;
  }
}

}  // namespace keli::agents
