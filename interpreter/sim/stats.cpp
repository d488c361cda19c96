// Sample summaries and Wilson intervals for many-game runs (see stats.hpp).
#include "sim/stats.hpp"

#include <algorithm>
#include <cmath>

namespace keli::sim {

Rate wilson(int64_t hits, int64_t trials, double z) {
  Rate r;
  r.hits = hits;
  r.trials = trials;
  if (trials <= 0) return r;
  double n = static_cast<double>(trials);
  double p = static_cast<double>(hits) / n;
  double z2 = z * z;
  double denom = 1 + z2 / n;
  double centre = (p + z2 / (2 * n)) / denom;
  double half = z * std::sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom;
  r.rate = p;
  // Clamp the rounding at the edges: at 0 hits the lower bound is exactly 0, at n hits the upper 1.
  r.lo = hits == 0 ? 0.0 : std::max(0.0, centre - half);
  r.hi = hits == trials ? 1.0 : std::min(1.0, centre + half);
  return r;
}

namespace {
// Nearest rank: the index (from 0) of the ceil(q * n)-th smallest of n values; q * n is rounded
// first so that 0.95 * 100 counts as 95 whatever the floating-point representation of 0.95.
size_t nearest_rank(double q, size_t n) {
  double rank = std::ceil(std::round(q * static_cast<double>(n) * 1e9) / 1e9);
  return static_cast<size_t>(std::clamp(rank, 1.0, static_cast<double>(n))) - 1;
}
}  // namespace

double percentile_sorted(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return 0;
  return sorted[nearest_rank(q, sorted.size())];
}

int64_t Histogram::at_rank(int64_t k) const {
  for (const auto& [value, count] : counts_) {
    if (k < count) return value;
    k -= count;
  }
  return counts_.empty() ? 0 : counts_.rbegin()->first;
}

Summary Histogram::summary() const {
  Summary s;
  int64_t sum = 0;
  for (const auto& [value, count] : counts_) {
    s.count += count;
    sum += value * count;  // lengths, throws, points (each within 32 bits): far from 64 bits
  }
  if (s.count == 0) return s;
  auto n = static_cast<size_t>(s.count);
  s.mean = static_cast<double>(sum) / static_cast<double>(s.count);
  s.median = n % 2 ? static_cast<double>(at_rank(s.count / 2))
                   : static_cast<double>(at_rank(s.count / 2 - 1) + at_rank(s.count / 2)) / 2;
  s.p95 = static_cast<double>(at_rank(static_cast<int64_t>(nearest_rank(0.95, n))));
  s.min = static_cast<double>(counts_.begin()->first);
  s.max = static_cast<double>(counts_.rbegin()->first);
  return s;
}

Summary summarize(std::vector<double> values) {
  Summary s;
  if (values.empty()) return s;
  s.count = static_cast<int64_t>(values.size());
  double sum = 0;
  for (double v : values) sum += v;  // in the given order, so equal inputs give equal bits
  s.mean = sum / static_cast<double>(values.size());
  std::sort(values.begin(), values.end());
  size_t n = values.size();
  s.median = n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
  s.p95 = percentile_sorted(values, 0.95);
  s.min = values.front();
  s.max = values.back();
  return s;
}

}  // namespace keli::sim
