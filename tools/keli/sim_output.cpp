// The run header, records file and summary of keli simulate, shared with keli merge.
#include "sim_output.hpp"

#include <fmt/format.h>

#include "util/json.hpp"

namespace keli::cli {

namespace {

std::string pct(double x) { return fmt::format("{:.1f}%", 100 * x); }
std::string rate_text(const sim::Rate& r) {
  return fmt::format("{:>8} {:>6}  [{}, {}]", r.hits, pct(r.rate), pct(r.lo), pct(r.hi));
}

std::string header_json(const sim::RunHeader& h) {
  std::vector<std::string> params, players;
  for (const auto& [k, v] : h.params)
    params.push_back(fmt::format("{}:{}", util::json_string(k), util::json_string(v)));
  for (const auto& s : h.players) players.push_back(util::json_string(s));
  return fmt::format(R"({{"game":{},"file":{},"params":{{{}}},"players":[{}],"seed":{},)", util::json_string(h.game),
                     util::json_string(h.file), fmt::join(params, ","), fmt::join(players, ","), h.seed);
}

void print_text(const sim::RunHeader& h, const sim::Report& r) {
  fmt::print("wins by seat (count, rate, 95% interval):\n");
  for (size_t s = 0; s < h.seats.size(); ++s) fmt::print("  {:<12} {}\n", h.seats[s], rate_text(r.seat_wins[s]));
  if (!r.team_wins.empty()) {
    fmt::print("wins by team (seats sharing first place):\n");
    for (const auto& t : r.team_wins) {
      std::vector<std::string> names;
      for (int s : t.seats) names.push_back(h.seats[s]);
      fmt::print("  {:<12} {}\n", fmt::format("{}", fmt::join(names, "+")), rate_text(t.wins));
    }
  }
  fmt::print("  {:<12} {}\n", "draws", rate_text(r.draws));
  if (!r.seat_points.empty()) {
    fmt::print("points by seat (mean, median; min, max):\n");
    for (size_t s = 0; s < h.seats.size() && s < r.seat_points.size(); ++s) {
      const sim::Summary& x = r.seat_points[s];
      fmt::print("  {:<12} mean {:.2f}, median {:.1f} (min {:.0f}, max {:.0f})\n", h.seats[s], x.mean, x.median, x.min,
                 x.max);
    }
  }
  fmt::print("ended by the rules {}\n", rate_text(r.natural_end));
  fmt::print("length in decisions: mean {:.1f}, median {:.1f}, 95th percentile {:.0f} (min {:.0f}, max {:.0f})\n",
             r.length.mean, r.length.median, r.length.p95, r.length.min, r.length.max);
  fmt::print("throws a game: mean {:.1f}, median {:.1f}, 95th percentile {:.0f}\n", r.throws.mean, r.throws.median,
             r.throws.p95);
  fmt::print("branching factor: {:.2f} legal moves a decision\n", r.branching);
  if (r.errors) fmt::print("stopped by an error: {} of {} games (not counted above)\n", r.errors, r.games);
}

}  // namespace

SummaryForm summary_form(const Args& a) {
  if (a.json && a.csv) throw Usage{"choose one of --json and --csv"};
  return a.json ? SummaryForm::Json : a.csv ? SummaryForm::Csv : SummaryForm::Text;
}

sim::RunHeader run_header(const Loaded& l, const Args& a, const std::vector<std::string>& specs) {
  const compile::Program& p = *l.program;
  sim::RunHeader h;
  h.game = p.game_name;
  h.file = a.files[0];
  h.hash = sim::sources_hash(l.file->sources());
  h.params = p.params;
  h.seats = p.seat_names;
  h.players = specs;
  h.seed = a.seed;
  h.games = a.games ? a.games : 1000;
  h.shard = a.shard;
  h.shards = a.shards;
  h.invariants = !a.no_invariants;
  h.budget = a.budget;
  h.points = p.points_base >= 0;
  return h;
}

bool RecordsOut::open(const Args& a, const sim::RunHeader& h, const std::vector<std::string>& inputs) {
  if (a.records.empty()) {
    if (!a.records_format.empty()) throw Usage{"--records-format goes with --records FILE"};
    return true;
  }
  if (a.records == "-")
    throw Usage{
        "--records -: the records are written to a file (standard output shows the report): name a .csv or "
        ".jsonl file"};
  auto f = a.records_format.empty() ? sim::format_of_path(a.records) : sim::format_named(a.records_format);
  if (!f) {
    if (!a.records_format.empty())
      throw Usage{fmt::format("--records-format takes csv or jsonl, not '{}'", a.records_format)};
    throw Usage{fmt::format("--records {}: name a .csv or .jsonl file, or give --records-format csv|jsonl", a.records)};
  }
  format = *f;
  // A long run stopped by a signal keeps the rows of the games finished so far as FILE.partial.
  if (!file.open(a.records, inputs, util::OutputFile::OnStop::KeepPartial)) {
    output_error(a.records, fmt::format("cannot write the records here: {}", file.error()));
    return false;
  }
  on = true;
  file.stream() << sim::header_text(h, format) << std::flush;  // kept after a signal, it says whose rows
  return true;
}

void RecordsOut::write(const sim::RecordRow& r) {
  if (on) file.stream() << sim::row_text(r, format);
}

bool RecordsOut::commit() {
  if (!on || file.commit()) return true;
  output_error(file.path(), fmt::format("the records were not written: {}", file.error()));
  return false;
}

int print_summary(const sim::RunHeader& h, const sim::Report& r, SummaryForm form,
                  const std::optional<std::string>& timing) {
  if (r.first_error) {
    fmt::print(stderr, "{}", *r.first_error);
    fmt::print(stderr, "{}: error: {} of {} games stopped with an error; the first was game {} (keli run --seed {})\n",
               h.file, r.errors, r.games, r.first_error_game, sim::game_seed(h.seed, r.first_error_game));
  }
  if (form == SummaryForm::Json) {
    fmt::print("{}\"results\":{}}}\n", header_json(h), sim::report_json(h.seats, r));
  } else if (form == SummaryForm::Csv) {
    fmt::print("{}", sim::report_csv(h.seats, r));
  } else {
    fmt::print("{} ({}): {} games, seed {}, players {}\n", h.game, h.file, r.games, h.seed, fmt::join(h.players, ","));
    print_text(h, r);
    if (timing) fmt::print("{}\n", *timing);
  }
  return r.errors ? kFailed : kOk;
}

}  // namespace keli::cli
