// Statistics for many-game runs: summaries of a sample (mean, median, 95th percentile) and
// rates with Wilson 95% confidence intervals. Plain functions over plain numbers, so any
// command (simulate, match) can use them for any rate.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

namespace keli::sim {

// A proportion hits/trials with its Wilson score interval (95%: z = 1.959964). The Wilson
// interval stays inside [0, 1] and is sensible at 0 or n hits, where the normal one is not.
struct Rate {
  int64_t hits = 0, trials = 0;
  double rate = 0, lo = 0, hi = 0;  // all 0 when trials == 0
};
Rate wilson(int64_t hits, int64_t trials, double z = 1.959964);

// Mean, median and 95th percentile (nearest rank: the smallest value with at least 95% of the
// sample at or below it), min and max. All zero for an empty sample.
struct Summary {
  int64_t count = 0;
  double mean = 0, median = 0, p95 = 0, min = 0, max = 0;
};
Summary summarize(std::vector<double> values);

// Nearest-rank percentile (0 < q <= 1) of a sorted sample; 0 when empty.
double percentile_sorted(const std::vector<double>& sorted, double q);

// A sample of whole numbers (game lengths, throws, points) kept as a count per value, so that a run of
// any number of games takes memory for its distinct values only. The counts are integers, so
// the summary does not depend on the order in which values were added.
class Histogram {
 public:
  void add(int64_t value) { ++counts_[value]; }
  // The same as summarize() of the sample written out in full.
  Summary summary() const;

 private:
  int64_t at_rank(int64_t k) const;  // the k-th smallest value, from 0
  std::map<int64_t, int64_t> counts_;
};

}  // namespace keli::sim
