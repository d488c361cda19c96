// keli match: computer players against each other over many games with the seats rotated, so
// that no player keeps the advantage of a seat. Game i seats the player list rotated by i; the
// games run on several threads (interpreter/sim/) and give the same figures for any thread count.
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <thread>

#include "agents/agent.hpp"
#include "cli.hpp"
#include "commands.hpp"
#include "sim/simulate.hpp"
#include "runtime/machine.hpp"
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

// What a match came to, tallied game by game as the games end (nothing kept per game): each
// distinct player's wins, draws, games stopped by the limit or by an error, lengths.
struct Tally {
  std::vector<AgentResult> results;
  std::vector<int64_t> wins;
  std::vector<int64_t> seat_wins;       // per seat: games it placed first, whoever sat there
  std::vector<int> team_of;             // per seat: its team (the game's `team`), or itself
  std::vector<std::string> team_names;  // per team: its seats' names, "South+North"
  std::vector<int64_t> team_wins;       // per team: games it won, counted once for all its seats
  int64_t draws = 0, by_limit = 0, errors = 0, first_error_game = -1;
  std::optional<diag::Error> first_error;  // of the lowest-numbered game that had one
  sim::Histogram lengths, throws;
  sim::Rate draw_rate;
  sim::Summary length, throw_summary;

  explicit Tally(const std::vector<std::string>& list) {
    for (const auto& s : list) {
      auto it = std::find_if(results.begin(), results.end(), [&](const AgentResult& r) { return r.spec == s; });
      if (it == results.end())
        results.push_back({s, 1, {}});
      else
        ++it->seats;
    }
    wins.assign(results.size(), 0);
  }

  void teams(const compile::Program& p) {
    seat_wins.assign(p.num_players, 0);
    std::vector<int64_t> values(p.num_players);
    runtime::State s = p.initial;
    runtime::Machine m(p);
    m.bind(s.data());
    for (int i = 0; i < p.num_players; ++i) {
      int64_t arg = i;
      values[i] = p.team >= 0 ? m.call(p.team, &arg, 1) : i;
      auto it = std::find(values.begin(), values.begin() + i, values[i]);
      if (it == values.begin() + i) {
        team_of.push_back(static_cast<int>(team_names.size()));
        team_names.push_back(p.seat_names[i]);
      } else {
        team_of.push_back(team_of[it - values.begin()]);
        team_names[team_of.back()] += "+" + p.seat_names[i];
      }
    }
    team_wins.assign(team_names.size(), 0);
  }

  // Each distinct player: the games in which a seat it held took first place, draws aside.
  void add(const compile::Program& p, const std::vector<std::string>& list, const sim::GameRecord& r) {
    if (r.error) {
      ++errors;
      if (!first_error || r.index < first_error_game) first_error = r.error, first_error_game = r.index;
      return;
    }
    lengths.add(r.decisions);
    throws.add(r.throws);
    if (r.by_limit) ++by_limit;
    int firsts = static_cast<int>(std::count(r.places.begin(), r.places.end(), 1));
    if (firsts == 0 || firsts == p.num_players) {
      ++draws;  // every seat first, or nobody placed
      return;
    }
    std::vector<std::string> seats = rotated(list, r.index);
    std::vector<char> team_won(team_wins.size(), 0);
    for (int s = 0; s < p.num_players; ++s)
      if (r.places[s] == 1) ++seat_wins[s], team_won[team_of[s]] = 1;
    for (size_t k = 0; k < team_wins.size(); ++k) team_wins[k] += team_won[k];
    for (size_t k = 0; k < results.size(); ++k) {
      bool won = false;
      for (int s = 0; s < p.num_players; ++s) won = won || (r.places[s] == 1 && seats[s] == results[k].spec);
      if (won) ++wins[k];
    }
  }

  void finish(int64_t games) {
    const int64_t played = games - errors;  // rates are of the games played to their end
    for (size_t k = 0; k < results.size(); ++k) results[k].wins = sim::wilson(wins[k], played);
    draw_rate = sim::wilson(draws, played);
    length = lengths.summary();
    throw_summary = throws.summary();
  }
};

void print_json(const compile::Program& p, const Args& a, const std::vector<std::string>& list, int64_t games,
                const Tally& t) {
  std::vector<std::string> agents_json, players;
  for (const auto& s : list) players.push_back(util::json_string(s));
  for (const auto& r : t.results)
    agents_json.push_back(fmt::format(R"({{"player":{},"seats":{},"wins":{},"rate":{:.6f},"ci95":[{:.6f},{:.6f}]}})",
                                      util::json_string(r.spec), r.seats, r.wins.hits, r.wins.rate, r.wins.lo,
                                      r.wins.hi));
  fmt::print(
      R"({{"game":{},"file":{},"players":[{}],"games":{},"seed":{},"agents":[{}],"draws":{{"count":{},"rate":{:.6f},"ci95":[{:.6f},{:.6f}]}},"by_limit":{},"errors":{},"length":{{"mean":{:.3f},"median":{:.1f},"p95":{:.1f}}},"throws":{{"mean":{:.3f}}}}})"
      "\n",
      util::json_string(p.game_name), util::json_string(a.files[0]), fmt::join(players, ","), games, a.seed,
      fmt::join(agents_json, ","), t.draws, t.draw_rate.rate, t.draw_rate.lo, t.draw_rate.hi, t.by_limit, t.errors,
      t.length.mean, t.length.median, t.length.p95, t.throw_summary.mean);
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
             t.length.median, t.length.p95,
             t.throw_summary.mean > 0 ? fmt::format(", {:.1f} throws", t.throw_summary.mean) : "");
  // By seat, and by team when partners share their places: a team's win counted once.
  const int64_t played = games - t.errors;
  std::vector<std::string> by_seat;
  for (int s = 0; s < p.num_players; ++s)
    by_seat.push_back(fmt::format("{} {}", p.seat_names[s], pct(sim::wilson(t.seat_wins[s], played).rate)));
  fmt::print("  first place by seat: {}\n", fmt::join(by_seat, ", "));
  if (t.team_names.size() < static_cast<size_t>(p.num_players)) {
    std::vector<std::string> by_team;
    for (size_t k = 0; k < t.team_names.size(); ++k)
      by_team.push_back(fmt::format("{} {}", t.team_names[k], pct(sim::wilson(t.team_wins[k], played).rate)));
    fmt::print("  wins by team (once a game): {}\n", fmt::join(by_team, ", "));
  }
  if (t.errors) fmt::print("  stopped by an error: {} games (not counted above)\n", t.errors);
  fmt::print("  time: {:.1f} s\n", seconds);
}

}  // namespace

int cmd_match(const std::vector<std::string>& argv) {
  Args a = parse(argv, {"--param", "--params", "--seed", "--players", "-n", "--games", "--threads", "--json",
                        "--engine", "--no-invariants"});
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
  opts.check_invariants = !a.no_invariants;
  opts.threads = a.threads > 0 ? a.threads : std::max(1u, std::thread::hardware_concurrency());
  bool tty = isatty(2);
  auto start = std::chrono::steady_clock::now();
  if (tty)
    opts.progress = [&](int64_t done, int64_t total) {
      double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      // the time left, estimated from the games finished so far
      double left = done > 0 ? secs * static_cast<double>(total - done) / static_cast<double>(done) : 0;
      fmt::print(stderr, "\r  {}/{} games, {:.0f} s, about {:.0f} s left ", done, total, secs, left);
    };
  Tally t(list);
  t.teams(p);
  sim::run_agents(
      l.program, opts, [&](int64_t i) { return rotated(list, i); },
      [&](const sim::GameRecord& r) { t.add(p, list, r); });
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (tty) fmt::print(stderr, "\r\033[K");
  t.finish(games);
  if (const auto& e = t.first_error)
    fmt::print(stderr,
               "{}{}: error: {} of {} games stopped with an error; the first was game {} (keli run --seed {})\n",
               error_text(l, a.files[0], *e), a.files[0], t.errors, games, t.first_error_game,
               sim::game_seed(a.seed, t.first_error_game));
  if (a.json)
    print_json(p, a, list, games, t);
  else
    print_text(p, a, games, opts.threads, seconds, t);
  return t.errors ? kFailed : kOk;
}

}  // namespace keli::cli
