// keli match: computer players against each other over many games with the seats rotated, so
// that no player keeps the advantage of a seat. Game i seats the player list rotated by i; the
// games run on several threads (interpreter/sim/) and give the same figures for any thread count.
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

// The seats of game i: the list rotated by i (player k sits at seat (k + i) mod seats).
std::vector<std::string> rotated(const std::vector<std::string>& list, int64_t i) {
  size_t n = list.size();
  std::vector<std::string> out(n);
  for (size_t k = 0; k < n; ++k) out[(k + static_cast<size_t>(i % static_cast<int64_t>(n))) % n] = list[k];
  return out;
}

struct AgentResult {
  std::string spec;
  int seats = 0;  // how many seats it holds in every game
  sim::Rate wins;
};

}  // namespace

namespace {

// What a match came to: each distinct player's wins, draws, games stopped by the limit, lengths.
struct Tally {
  std::vector<AgentResult> results;
  int64_t draws = 0, by_limit = 0;
  sim::Rate draw_rate;
  sim::Summary length, throws;
};

// Each distinct player: the games in which a seat it held took first place, draws aside.
Tally tally(const compile::Program& p, const std::vector<std::string>& list,
            const std::vector<sim::GameRecord>& records, int64_t games) {
  Tally t;
  for (const auto& s : list) {
    auto it = std::find_if(t.results.begin(), t.results.end(), [&](const AgentResult& r) { return r.spec == s; });
    if (it == t.results.end())
      t.results.push_back({s, 1, {}});
    else
      ++it->seats;
  }
  std::vector<int64_t> wins(t.results.size(), 0);
  std::vector<double> lengths, throws;
  for (const auto& r : records) {
    lengths.push_back(r.decisions);
    throws.push_back(r.throws);
    if (r.by_limit) ++t.by_limit;
    int firsts = static_cast<int>(std::count(r.places.begin(), r.places.end(), 1));
    if (firsts == 0 || firsts == p.num_players) {
      ++t.draws;  // every seat first, or nobody placed
      continue;
    }
    std::vector<std::string> seats = rotated(list, r.index);
    for (size_t k = 0; k < t.results.size(); ++k) {
      bool won = false;
      for (int s = 0; s < p.num_players; ++s) won = won || (r.places[s] == 1 && seats[s] == t.results[k].spec);
      if (won) ++wins[k];
    }
  }
  for (size_t k = 0; k < t.results.size(); ++k) t.results[k].wins = sim::wilson(wins[k], games);
  t.draw_rate = sim::wilson(t.draws, games);
  t.length = sim::summarize(lengths);
  t.throws = sim::summarize(throws);
  return t;
}

void print_json(const compile::Program& p, const Args& a, const std::vector<std::string>& list, int64_t games,
                const Tally& t) {
  std::vector<std::string> agents_json, players;
  for (const auto& s : list) players.push_back(util::json_string(s));
  for (const auto& r : t.results)
    agents_json.push_back(fmt::format(R"({{"player":{},"seats":{},"wins":{},"rate":{:.6f},"ci95":[{:.6f},{:.6f}]}})",
                                      util::json_string(r.spec), r.seats, r.wins.hits, r.wins.rate, r.wins.lo,
                                      r.wins.hi));
  fmt::print(
      R"({{"game":{},"file":{},"players":[{}],"games":{},"seed":{},"agents":[{}],"draws":{{"count":{},"rate":{:.6f},"ci95":[{:.6f},{:.6f}]}},"by_limit":{},"length":{{"mean":{:.3f},"median":{:.1f},"p95":{:.1f}}},"throws":{{"mean":{:.3f}}}}})"
      "\n",
      util::json_string(p.game_name), util::json_string(a.files[0]), fmt::join(players, ","), games, a.seed,
      fmt::join(agents_json, ","), t.draws, t.draw_rate.rate, t.draw_rate.lo, t.draw_rate.hi, t.by_limit, t.length.mean,
      t.length.median, t.length.p95, t.throws.mean);
}

void print_text(const compile::Program& p, const Args& a, int64_t games, int threads, double seconds, const Tally& t) {
  fmt::print("{}: {} games, seats rotated, seed {}, {} thread{}\n", p.game_name, games, a.seed, threads,
             threads == 1 ? "" : "s");
  size_t width = 6;
  for (const auto& r : t.results) width = std::max(width, r.spec.size());
  fmt::print("  {:<{}}  seats  wins  win rate  95% interval\n", "player", width);
  for (const auto& r : t.results)
    fmt::print("  {:<{}}  {:>5}  {:>4}  {:>8}  [{}, {}]\n", r.spec, width, r.seats, r.wins.hits, pct(r.wins.rate),
               pct(r.wins.lo), pct(r.wins.hi));
  fmt::print("  draws: {} ({}, [{}, {}]); stopped by the move limit: {}\n", t.draws, pct(t.draw_rate.rate),
             pct(t.draw_rate.lo), pct(t.draw_rate.hi), t.by_limit);
  fmt::print("  length: mean {:.1f} decisions (median {:.0f}, 95th percentile {:.0f}){}\n", t.length.mean,
             t.length.median, t.length.p95, t.throws.mean > 0 ? fmt::format(", {:.1f} throws", t.throws.mean) : "");
  fmt::print("  time: {:.1f} s\n", seconds);
}

}  // namespace

int cmd_match(const std::vector<std::string>& argv) {
  Args a =
      parse(argv, {"--param", "--params", "--seed", "--players", "-n", "--games", "--threads", "--json", "--engine"});
  use_engine(a, runtime::Engine::Auto);
  if (a.files.size() != 1) throw Usage{"name one game file"};
  if (a.players.empty()) throw Usage{"name the players with --players A,B[,...]"};
  Loaded l = load(a.files[0], a, false);
  if (!l.program) return kFailed;
  const compile::Program& p = *l.program;
  std::vector<std::string> list = seat_players(a, p.num_players, "random");
  for (const auto& s : list) {
    std::string err;
    if (s == "human") throw Usage{"a match is between computer players; 'human' plays with keli play"};
    if (!agents::make_agent(s, p, err)) throw Usage{err};
  }
  int64_t games = a.games > 0 ? a.games : 100;
  sim::RunOptions opts;
  opts.games = games;
  opts.seed = a.seed;
  opts.threads = a.threads > 0 ? a.threads : std::max(1u, std::thread::hardware_concurrency());
  bool tty = isatty(2);
  auto start = std::chrono::steady_clock::now();
  if (tty)
    opts.progress = [&](int64_t done, int64_t total) {
      double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      fmt::print(stderr, "\r  {}/{} games, {:.0f} s ", done, total, secs);
    };
  std::vector<sim::GameRecord> records = sim::run_agents(l.program, opts, [&](int64_t i) { return rotated(list, i); });
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (tty) fmt::print(stderr, "\r\033[K");
  for (const auto& r : records)
    if (r.error) {
      fmt::print(stderr, "game {} (seed {}) stopped: {}", r.index, sim::game_seed(a.seed, r.index),
                 diag::render(l.file->sources(), {r.error->code, r.error->span, r.error->message, r.error->hint}));
      return kFailed;
    }
  Tally t = tally(p, list, records, games);
  if (a.json)
    print_json(p, a, list, games, t);
  else
    print_text(p, a, games, opts.threads, seconds, t);
  return kOk;
}

}  // namespace keli::cli
