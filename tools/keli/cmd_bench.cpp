// keli bench: random playouts on one thread, as fast as the runtime goes, for measuring it.
// The players are inline uniform random choices (sim::playout with no agents); invariants are
// not checked, so the figure is the runtime's move generation and application alone.
#include <fmt/format.h>

#include <time.h>

#include <chrono>

#include "cli.hpp"
#include "commands.hpp"
#include "sim/playout.hpp"
#include "sim/simulate.hpp"
#include "util/json.hpp"

namespace keli::cli {

namespace {
// This thread's CPU time: the rates are per CPU second, so that other work on a shared machine
// does not lower them; the wall time is printed beside.
double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}
}  // namespace

int cmd_bench(const std::vector<std::string>& argv) {
  Args a = parse(argv, {"--param", "--params", "--seconds", "--games", "--seed", "--json", "--engine"});
  use_engine(a, runtime::Engine::Auto);
  if (a.files.size() != 1) throw Usage{"name one game file"};
  if (a.games && a.seconds > 0) throw Usage{"choose one of --seconds and --games"};
  Loaded l = load(a.files[0], a, false);
  if (!l.program) return kFailed;
  const compile::Program& p = *l.program;
  const double budget = a.seconds > 0 ? a.seconds : 3.0;
  runtime::Game game(l.program);
  std::vector<runtime::Move> legal;
  const std::vector<agents::Agent*> inline_random;
  int64_t games = 0, decisions = 0, steps = 0, by_limit = 0;
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  const double cpu_start = cpu_seconds();
  double secs = 0;
  while (true) {
    // Each game seeded as simulate's game `games` is, so a bench game can be re-run with keli run.
    runtime::Rng rng(sim::game_seed(a.seed, games));
    sim::GameRecord r = sim::playout(game, rng, inline_random, legal);
    if (r.error) {
      const diag::Error& e = *r.error;
      fmt::print(stderr, "{}", diag::render(l.file->sources(), {e.code, e.span, e.message, e.hint}));
      fmt::print(stderr, "{}: error: playout {} (keli run --seed {}) stopped with an error\n", a.files[0], games,
                 sim::game_seed(a.seed, games));
      return kFailed;
    }
    ++games;
    decisions += r.decisions;
    steps += r.decisions + r.throws;
    by_limit += r.by_limit;
    secs = std::chrono::duration<double>(Clock::now() - start).count();
    if (a.games ? games >= a.games : secs >= budget) break;
  }
  const double cpu = cpu_seconds() - cpu_start;
  const double per = cpu > 0 ? 1.0 / cpu : 0.0;
  const double g = static_cast<double>(games);
  const int bytes = p.state_size * static_cast<int>(sizeof(int32_t));
  if (a.json) {
    fmt::print(
        R"({{"game":{},"file":{},"engine":"{}","seed":{},"seconds":{:.3f},"cpu_seconds":{:.3f},"playouts":{},"playouts_per_s":{:.1f},)"
        R"("decisions":{},"decisions_per_s":{:.0f},"steps":{},"steps_per_s":{:.0f},)"
        R"("decisions_per_game":{:.2f},"steps_per_game":{:.2f},"ended_by_rules":{:.4f},"ended_by_limit":{:.4f},)"
        R"("state_bytes":{}}})"
        "\n",
        util::json_string(p.game_name), util::json_string(a.files[0]), runtime::engine_name(game.engine()), a.seed,
        secs, cpu, games, g * per, decisions, static_cast<double>(decisions) * per, steps,
        static_cast<double>(steps) * per, static_cast<double>(decisions) / g, static_cast<double>(steps) / g,
        static_cast<double>(games - by_limit) / g, static_cast<double>(by_limit) / g, bytes);
    return kOk;
  }
  fmt::print("{} ({}, {}): random playouts on one thread for {:.2f} s ({:.2f} s of CPU time; rates per CPU second)\n",
             p.game_name, a.files[0], runtime::engine_name(game.engine()), secs, cpu);
  fmt::print("  playouts      {:>12}  {:>12.1f} /s\n", games, g * per);
  fmt::print("  decisions     {:>12}  {:>12.0f} /s\n", decisions, static_cast<double>(decisions) * per);
  fmt::print("  steps         {:>12}  {:>12.0f} /s  (decisions and throws)\n", steps, static_cast<double>(steps) * per);
  fmt::print("  a game        {:>12.1f} decisions, {:.1f} steps\n", static_cast<double>(decisions) / g,
             static_cast<double>(steps) / g);
  fmt::print("  ended by the rules {:.1f}%, by the move limit {:.1f}%\n",
             100.0 * static_cast<double>(games - by_limit) / g, 100.0 * static_cast<double>(by_limit) / g);
  fmt::print("  state size    {:>12} bytes ({} slots)\n", bytes, p.state_size);
  return kOk;
}

}  // namespace keli::cli
