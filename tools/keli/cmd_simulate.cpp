// keli simulate: many games over several threads (interpreter/sim/), reported per seat and team
// with 95% intervals. The statistics depend only on the file, parameters, players, count and
// seed; timings appear in the text form only, so --json and --csv are the same on any machine.
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "agents/agent.hpp"
#include "cli.hpp"
#include "commands.hpp"
#include "sim/simulate.hpp"
#include "util/json.hpp"

namespace keli::cli {

namespace {

std::string pct(double x) { return fmt::format("{:.1f}%", 100 * x); }
std::string rate_text(const sim::Rate& r) {
  return fmt::format("{:>8} {:>6}  [{}, {}]", r.hits, pct(r.rate), pct(r.lo), pct(r.hi));
}

// A one-line bar on stderr, redrawn in place: share done, games a second, time left.
struct ProgressBar {
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  bool shown = false;
  void operator()(int64_t done, int64_t total) {
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    double rate = secs > 0 ? static_cast<double>(done) / secs : 0;
    double left = rate > 0 ? static_cast<double>(total - done) / rate : 0;
    constexpr int kWidth = 30;
    int filled = total ? static_cast<int>(kWidth * done / total) : kWidth;
    fmt::print(stderr, "\r[{:#<{}}{:.<{}}] {:>3}% {}/{} games, {:.0f} games/s, {:.0f} s left ", "", filled, "",
               kWidth - filled, total ? 100 * done / total : 100, done, total, rate, left);
    shown = true;
  }
  void clear() {
    if (shown) fmt::print(stderr, "\r\033[K");
  }
};

std::string header_json(const compile::Program& p, const std::string& file, const Args& a,
                        const std::vector<std::string>& specs) {
  std::vector<std::string> params, players;
  for (const auto& [k, v] : p.params)
    params.push_back(fmt::format("{}:{}", util::json_string(k), util::json_string(v)));
  for (const auto& s : specs) players.push_back(util::json_string(s));
  return fmt::format(R"({{"game":{},"file":{},"params":{{{}}},"players":[{}],"seed":{},)",
                     util::json_string(p.game_name), util::json_string(file), fmt::join(params, ","),
                     fmt::join(players, ","), a.seed);
}

void print_text(const compile::Program& p, const sim::Report& r) {
  fmt::print("wins by seat (count, rate, 95% interval):\n");
  for (int s = 0; s < p.num_players; ++s) fmt::print("  {:<12} {}\n", p.seat_names[s], rate_text(r.seat_wins[s]));
  if (!r.team_wins.empty()) {
    fmt::print("wins by team (seats sharing first place):\n");
    for (const auto& t : r.team_wins) {
      std::vector<std::string> names;
      for (int s : t.seats) names.push_back(p.seat_names[s]);
      fmt::print("  {:<12} {}\n", fmt::format("{}", fmt::join(names, "+")), rate_text(t.wins));
    }
  }
  fmt::print("  {:<12} {}\n", "draws", rate_text(r.draws));
  fmt::print("ended by the rules {}\n", rate_text(r.natural_end));
  fmt::print("length in decisions: mean {:.1f}, median {:.1f}, 95th percentile {:.0f} (min {:.0f}, max {:.0f})\n",
             r.length.mean, r.length.median, r.length.p95, r.length.min, r.length.max);
  fmt::print("throws a game: mean {:.1f}, median {:.1f}, 95th percentile {:.0f}\n", r.throws.mean, r.throws.median,
             r.throws.p95);
  fmt::print("branching factor: {:.2f} legal moves a decision\n", r.branching);
  if (r.errors) fmt::print("stopped by an error: {} of {} games (not counted above)\n", r.errors, r.games);
}

}  // namespace

int cmd_simulate(const std::vector<std::string>& argv) {
  Args a = parse(argv, {"--param", "--params", "-n", "--games", "--threads", "--seed", "--players", "--json", "--csv",
                        "--engine", "--no-invariants"});
  use_engine(a, runtime::Engine::Auto);
  if (a.files.size() != 1) throw Usage{"name one game file"};
  if (a.json && a.csv) throw Usage{"choose one of --json and --csv"};
  Loaded l = load(a.files[0], a, false);
  if (!l.program) return kFailed;
  const compile::Program& p = *l.program;
  std::vector<std::string> specs = seat_players(a, p.num_players, "random");
  for (const auto& s : specs) {
    std::string err;
    if (!agents::make_agent(s, p, err)) throw Usage{err};
  }
  sim::RunOptions opts;
  opts.games = a.games ? a.games : 1000;
  opts.threads = a.threads ? a.threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  opts.seed = a.seed;
  opts.check_invariants = !a.no_invariants;
  ProgressBar bar;
  if (isatty(STDERR_FILENO)) opts.progress = [&bar](int64_t done, int64_t total) { bar(done, total); };
  auto start = std::chrono::steady_clock::now();
  sim::Tally tally(p.num_players);
  sim::run_agents(
      l.program, opts, [&specs](int64_t) { return specs; }, [&tally](const sim::GameRecord& g) { tally.add(g); });
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  bar.clear();
  sim::Report r = tally.report();
  if (r.first_error) {
    const diag::Error& e = *r.first_error;
    fmt::print(stderr, "{}", error_text(l, a.files[0], e));
    fmt::print(stderr, "{}: error: {} of {} games stopped with an error; the first was game {} (keli run --seed {})\n",
               a.files[0], r.errors, r.games, r.first_error_game, sim::game_seed(a.seed, r.first_error_game));
  }
  if (a.json) {
    fmt::print("{}\"results\":{}}}\n", header_json(p, a.files[0], a, specs), sim::report_json(p, r));
  } else if (a.csv) {
    fmt::print("{}", sim::report_csv(p, r));
  } else {
    fmt::print("{} ({}): {} games, seed {}, players {}\n", p.game_name, a.files[0], r.games, a.seed,
               fmt::join(specs, ","));
    print_text(p, r);
    fmt::print("time: {:.2f} s on {} thread{}, {:.0f} games/s\n", secs, opts.threads, opts.threads == 1 ? "" : "s",
               secs > 0 ? static_cast<double>(r.games) / secs : 0.0);
  }
  return r.errors ? kFailed : kOk;
}

}  // namespace keli::cli
