// What many games' records say (per seat, per team, draws, lengths, branching) and its JSON and
// CSV forms. Every sum is of integers, so the same records in any order give byte-identical output.
#include <fmt/format.h>

#include <algorithm>

#include "sim/simulate.hpp"
#include "util/json.hpp"

namespace keli::sim {

void Tally::add(const RecordRow& g) {
  ++games_;
  if (!g.error.empty()) {
    if (!first_error_ || g.index < first_error_game_) {
      first_error_ = g.error;
      first_error_game_ = g.index;
    }
    ++errors_;
    return;
  }
  ++played_;
  std::vector<int> winners;
  for (int s = 0; s < players_ && s < static_cast<int>(g.places.size()); ++s)
    if (g.places[s] == 1) winners.push_back(s);
  if (winners.empty() || static_cast<int>(winners.size()) == players_) {
    ++draws_;
  } else {
    for (int s : winners) ++seat_hits_[s];
    if (winners.size() >= 2) ++winner_sets_[winners];
  }
  if (!g.points.empty()) {
    points_.resize(static_cast<size_t>(players_));
    for (int s = 0; s < players_ && s < static_cast<int>(g.points.size()); ++s) points_[s].add(g.points[s]);
  }
  if (g.end == End::Rules) ++natural_;
  legal_sum_ += g.legal;
  decisions_ += g.decisions;
  lengths_.add(g.decisions);
  throws_.add(g.throws);
}

Report Tally::report() const {
  Report r;
  r.games = games_;
  r.errors = errors_;
  r.first_error = first_error_;
  r.first_error_game = first_error_game_;
  for (int s = 0; s < players_; ++s) r.seat_wins.push_back(wilson(seat_hits_[s], played_));
  // The teams are the winning sets seen (ordered: a std::map's keys). A team wins when all its
  // seats are among the winners (a larger winning set counts too).
  for (const auto& [team, games] : winner_sets_) {
    int64_t hits = 0;
    for (const auto& [w, n] : winner_sets_)
      if (std::includes(w.begin(), w.end(), team.begin(), team.end())) hits += n;
    r.team_wins.push_back({team, wilson(hits, played_)});
  }
  r.draws = wilson(draws_, played_);
  r.natural_end = wilson(natural_, played_);
  r.length = lengths_.summary();
  r.throws = throws_.summary();
  r.branching = decisions_ ? static_cast<double>(legal_sum_) / static_cast<double>(decisions_) : 0.0;
  for (const Histogram& h : points_) r.seat_points.push_back(h.summary());
  return r;
}

Report report(const compile::Program& program, const std::vector<GameRecord>& records) {
  Tally t(program.num_players);
  std::vector<std::string> players(static_cast<size_t>(program.num_players), "random");
  for (const auto& g : records)
    t.add(to_row(
        g, 0, players, [](const diag::Error& e) { return e.message; }, program.points_base >= 0));
  return t.report();
}

namespace {

std::string rate_json(const Rate& x) {
  return fmt::format(R"({{"count":{},"games":{},"rate":{:.4f},"ci95":[{:.4f},{:.4f}]}})", x.hits, x.trials, x.rate,
                     x.lo, x.hi);
}

std::string summary_json(const Summary& x) {
  return fmt::format(R"({{"mean":{:.2f},"median":{:.1f},"p95":{:.0f},"min":{:.0f},"max":{:.0f}}})", x.mean, x.median,
                     x.p95, x.min, x.max);
}

std::string team_name(const std::vector<std::string>& seat_names, const std::vector<int>& seats) {
  std::string out;
  for (int s : seats) out += (out.empty() ? "" : "+") + seat_names[s];
  return out;
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

}  // namespace

std::string report_json(const std::vector<std::string>& seat_names, const Report& r) {
  std::string out = fmt::format(R"({{"games":{},"errors":{},"seats":[)", r.games, r.errors);
  for (size_t s = 0; s < r.seat_wins.size(); ++s)
    out += fmt::format(R"({}{{"seat":{},"wins":{}{}}})", s ? "," : "", util::json_string(seat_names[s]),
                       rate_json(r.seat_wins[s]),
                       s < r.seat_points.size() ? R"(,"points":)" + summary_json(r.seat_points[s]) : "");
  out += R"(],"teams":[)";
  for (size_t t = 0; t < r.team_wins.size(); ++t) {
    std::vector<std::string> names;
    for (int s : r.team_wins[t].seats) names.push_back(util::json_string(seat_names[s]));
    out += fmt::format(R"({}{{"seats":[{}],"wins":{}}})", t ? "," : "", fmt::join(names, ","),
                       rate_json(r.team_wins[t].wins));
  }
  out +=
      fmt::format(R"(],"draws":{},"natural_end":{},"length":{},"throws":{},"branching":{:.3f}}})", rate_json(r.draws),
                  rate_json(r.natural_end), summary_json(r.length), summary_json(r.throws), r.branching);
  return out;
}

std::string report_csv(const std::vector<std::string>& seat_names, const Report& r) {
  std::string out = "statistic,subject,count,games,value,ci95_lo,ci95_hi\n";
  auto rate = [&](const std::string& what, const std::string& subject, const Rate& x) {
    out += fmt::format("{},{},{},{},{:.4f},{:.4f},{:.4f}\n", what, csv_field(subject), x.hits, x.trials, x.rate, x.lo,
                       x.hi);
  };
  auto summary = [&](const std::string& what, const Summary& x) {
    out += fmt::format(
        "{0},mean,,{1},{2:.2f},,\n{0},median,,{1},{3:.1f},,\n{0},p95,,{1},{4:.0f},,\n{0},min,,{1},{5:.0f},,\n"
        "{0},max,,{1},{6:.0f},,\n",
        what, x.count, x.mean, x.median, x.p95, x.min, x.max);
  };
  out += fmt::format("games,,{},{},,,\nerrors,,{},{},,,\n", r.games, r.games, r.errors, r.games);
  for (size_t s = 0; s < r.seat_wins.size(); ++s) rate("seat_wins", seat_names[s], r.seat_wins[s]);
  for (const auto& t : r.team_wins) rate("team_wins", team_name(seat_names, t.seats), t.wins);
  for (size_t s = 0; s < r.seat_points.size(); ++s) summary("points " + seat_names[s], r.seat_points[s]);
  rate("draws", "", r.draws);
  rate("natural_end", "", r.natural_end);
  summary("length", r.length);
  summary("throws", r.throws);
  out += fmt::format("branching,,,{},{:.3f},,\n", r.length.count, r.branching);
  return out;
}

}  // namespace keli::sim
