// Stable action ids: rules in the program's order (declaration order), each a block of ids, the
// arguments a mixed-radix number inside it (docs/actions.md).
#include "runtime/actions.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "diag/diagnostics.hpp"

namespace keli::runtime {

ActionSpace::ActionSpace(const compile::Program& p) : p_(p), rules_(p.rules.size()) {
  for (size_t r = 0; r < p.rules.size(); ++r) {
    int64_t count = 1;
    for (const auto& prm : p.rules[r].params) {
      // Checked before multiplying, so that no product passes 64 bits.
      if (prm.id_count > 0 && count > lang::kMaxActionIds / prm.id_count) count = lang::kMaxActionIds + 1;
      count = std::min<int64_t>(count * prm.id_count, lang::kMaxActionIds + 1);
    }
    rules_[r] = {total_, count};
    total_ += count;
    if (total_ > lang::kMaxActionIds) {
      int node = p.rules[r].params.empty() ? -1 : p.rules[r].params[0].domain;
      throw diag::Error{diag::Code::too_large, node >= 0 ? p.spans[node] : Span{},
                        fmt::format("the moves of '{}' give the game more than {} action ids (kMaxActionIds)",
                                    p.rules[r].name, lang::kMaxActionIds),
                        "give the move's parameters ranges known before play, or fewer parameters"};
    }
  }
  for (const auto& d : p.dice)
    max_outcomes_ = std::max<int64_t>(max_outcomes_, static_cast<int64_t>(d.outcomes.size()));
}

int64_t ActionSpace::id(const Move& m) const {
  const compile::Rule& r = p_.rules[m.rule];
  int64_t digits = 0;
  for (int i = 0; i < m.nargs; ++i) {
    const compile::RuleParam& prm = r.params[i];
    int64_t d = m.args[i] - prm.id_low;
    if (d < 0 || d >= prm.id_count) {
      int node = prm.domain;
      throw diag::Error{diag::Code::runtime, node >= 0 ? p_.spans[node] : Span{},
                        fmt::format("the move '{}' has {} = {}, outside the values its action ids give it ({} to {})",
                                    r.name, prm.name, m.args[i], prm.id_low, prm.id_low + prm.id_count - 1),
                        fmt::format("a range known only in play has action ids for 0 to {} (kOpenRangeIdValues)",
                                    lang::kOpenRangeIdValues - 1)};
    }
    digits = digits * prm.id_count + d;
  }
  return rules_[m.rule].first + digits;
}

bool ActionSpace::move(int64_t id, Move& out) const {
  if (id < 0 || id >= total_) return false;
  // The last rule whose block starts at or before id (blocks of no ids are skipped over).
  auto it = std::upper_bound(rules_.begin(), rules_.end(), id, [](int64_t v, const RuleIds& b) { return v < b.first; });
  while (it != rules_.begin()) {
    --it;
    if (id < it->first + it->count) break;
  }
  if (id < it->first || id >= it->first + it->count) return false;
  const int r = static_cast<int>(it - rules_.begin());
  const auto& params = p_.rules[r].params;
  out = Move{};
  out.rule = static_cast<int16_t>(r);
  out.nargs = static_cast<uint8_t>(params.size());
  int64_t rest = id - it->first;
  for (int i = static_cast<int>(params.size()) - 1; i >= 0; --i) {
    out.args[i] = static_cast<int32_t>(params[i].id_low + rest % params[i].id_count);
    rest /= params[i].id_count;
  }
  return true;
}

int64_t ActionSpace::outcome_id(const compile::DiceSet& d, const std::vector<int32_t>& values) {
  std::vector<int32_t> v = values;
  if (d.identical) std::sort(v.begin(), v.end());
  for (size_t i = 0; i < d.outcomes.size(); ++i)
    if (d.outcomes[i].values == v) return static_cast<int64_t>(i);
  return -1;
}

std::vector<double> returns(const std::vector<int>& places, const std::vector<int>& points) {
  if (points.empty()) return returns_from_places(places);
  return std::vector<double>(points.begin(), points.end());
}

std::vector<double> returns_from_places(const std::vector<int>& places) {
  const int n = static_cast<int>(places.size());
  std::vector<double> out(n, 0.0);
  if (n < 2 || std::all_of(places.begin(), places.end(), [](int pl) { return pl == 0; })) return out;
  // Seats in order of place, the unplaced last as one group sharing what is left; position k of
  // n is worth 1 - 2k/(n-1), and a group of positions i..j-1 shares their mean.
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  auto key = [&](int i) { return places[i] > 0 ? places[i] : INT32_MAX; };
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return key(a) < key(b); });
  for (int i = 0; i < n;) {
    int j = i;
    while (j < n && key(order[j]) == key(order[i])) ++j;
    double mean = 1.0 - static_cast<double>(i + j - 1) / (n - 1);
    for (int k = i; k < j; ++k) out[order[k]] = mean;
    i = j;
  }
  // Scaled so that the best or the worst group has exactly 1 or -1: partners who win together
  // get 1, as a lone winner does (the sum stays 0).
  double most = 0;
  for (double r : out) most = std::max(most, std::abs(r));
  if (most > 0)
    for (double& r : out) r /= most;
  return out;
}

}  // namespace keli::runtime
