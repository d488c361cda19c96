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
#include "sim_output.hpp"

namespace keli::cli {

namespace {

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

}  // namespace

int cmd_simulate(const std::vector<std::string>& argv) {
  Args a = parse(argv, {"--param", "--params", "-n", "--games", "--threads", "--seed", "--players", "--json", "--csv",
                        "--engine", "--no-invariants", "--records", "--shard", "--mpi"});
  use_engine(a, runtime::Engine::Auto);
  if (a.files.size() != 1) throw Usage{"name one game file"};
  SummaryForm form = summary_form(a);
  if (a.mpi && a.threads) throw Usage{"--threads does not go with --mpi: each rank plays one game at a time"};
  if (a.mpi) return simulate_mpi(a, form);
  Loaded l = load(a.files[0], a, false);
  if (!l.program) return kFailed;
  const compile::Program& p = *l.program;
  std::vector<std::string> specs = seat_players(a, p.num_players, "random");
  for (const auto& s : specs) {
    std::string err;
    if (!agents::make_agent(s, p, err)) throw Usage{err};
  }
  sim::RunHeader h = run_header(l, a, specs);
  RecordsOut records;
  if (!records.open(a, h, input_files(l, a))) return kFailed;
  sim::RunOptions opts;
  opts.games = h.games;
  opts.shard = h.shard;
  opts.shards = h.shards;
  opts.threads = a.threads ? a.threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  opts.seed = a.seed;
  opts.check_invariants = h.invariants;
  ProgressBar bar;
  if (isatty(STDERR_FILENO)) opts.progress = [&bar](int64_t done, int64_t total) { bar(done, total); };
  auto start = std::chrono::steady_clock::now();
  // The summary is a Tally of the rows, in game order, as keli merge tallies them from files.
  sim::Tally tally(p.num_players);
  sim::InOrder in_order(h, [&](const sim::RecordRow& r) {
    tally.add(r);
    records.write(r);
  });
  auto describe = [&](const diag::Error& e) { return error_text(l, a.files[0], e); };
  sim::run_agents(
      l.program, opts, [&specs](int64_t) { return specs; },
      [&](const sim::GameRecord& g) { in_order.add(sim::to_row(g, a.seed, specs, describe, h.points)); });
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  bar.clear();
  if (!records.commit()) return kFailed;
  sim::Report r = tally.report();
  return print_summary(h, r, form,
                       fmt::format("time: {:.2f} s on {} thread{}, {:.0f} games/s", secs, opts.threads,
                                   opts.threads == 1 ? "" : "s", secs > 0 ? static_cast<double>(r.games) / secs : 0.0));
}

}  // namespace keli::cli
