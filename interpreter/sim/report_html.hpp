// keli report's pictures of a run's records: wins by seat (and team) with their 95% intervals,
// the share ended by the rules, the distribution of game lengths and the places of each seat,
// drawn as inline SVG in one HTML page (or one SVG picture) that needs no network and no script.
// Every figure drawn is also written as text (tables, data- attributes), so tests and readers
// can check it against the records.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sim/records.hpp"
#include "sim/simulate.hpp"

namespace keli::sim {

// What the pictures need beyond the summary, gathered from the rows (games with an error left out).
class ReportData {
 public:
  explicit ReportData(size_t seats) : places(seats) {}
  void add(const RecordRow& r);
  std::vector<std::map<int, int64_t>> places;  // per seat: place -> games (0: not placed)
  std::map<int64_t, int64_t> lengths;          // decisions -> games
};

// A bar of the length histogram: games of `from` to `to` decisions (both included).
struct LengthBin {
  int64_t from = 0, to = 0, games = 0;
};
// About kLengthBins bins of equal whole-number width from the shortest game to the longest.
std::vector<LengthBin> length_bins(const std::map<int64_t, int64_t>& lengths);

std::string report_html(const RunHeader& h, const Report& r, const ReportData& d);
std::string report_svg(const RunHeader& h, const Report& r, const ReportData& d);

}  // namespace keli::sim
