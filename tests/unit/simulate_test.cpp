// keli simulate and keli bench (interpreter/sim/): statistics on known data, the same results
// for any thread count, well-formed JSON and CSV, usage errors, and a short bench run.
#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <regex>
#include <set>
#include <sstream>

#include "sim/simulate.hpp"
#include "support.hpp"

namespace keli::test {

TEST_CASE("Wilson intervals on known values", "[simulate]") {
  // Reference values: Wilson score interval, z = 1.959964 (e.g. R's prop.test without correction).
  sim::Rate half = sim::wilson(5, 10);
  CHECK(half.rate == Approx(0.5));
  CHECK(half.lo == Approx(0.2366).margin(1e-4));
  CHECK(half.hi == Approx(0.7634).margin(1e-4));
  sim::Rate none = sim::wilson(0, 10);
  CHECK(none.lo == 0.0);
  CHECK(none.hi == Approx(0.2775).margin(1e-4));
  sim::Rate all = sim::wilson(10, 10);
  CHECK(all.lo == Approx(0.7225).margin(1e-4));
  CHECK(all.hi == 1.0);
  sim::Rate big = sim::wilson(81, 263);
  CHECK(big.lo == Approx(0.2553).margin(1e-4));
  CHECK(big.hi == Approx(0.3662).margin(1e-4));
  sim::Rate empty = sim::wilson(0, 0);
  CHECK(empty.trials == 0);
  CHECK(empty.hi == 0.0);
}

TEST_CASE("sample summaries: mean, median, nearest-rank 95th percentile", "[simulate]") {
  std::vector<double> v;
  for (int i = 20; i >= 1; --i) v.push_back(i);  // unsorted on purpose
  sim::Summary s = sim::summarize(v);
  CHECK(s.count == 20);
  CHECK(s.mean == Approx(10.5));
  CHECK(s.median == Approx(10.5));
  CHECK(s.p95 == 19);  // the 19th of 20: ceil(0.95 * 20)
  CHECK(s.min == 1);
  CHECK(s.max == 20);
  sim::Summary odd = sim::summarize({3, 100, 1});
  CHECK(odd.median == 3);
  CHECK(odd.p95 == 100);
  std::vector<double> hundred;
  for (int i = 1; i <= 100; ++i) hundred.push_back(i);
  CHECK(sim::summarize(hundred).p95 == 95);
  CHECK(sim::summarize({}).count == 0);
}

TEST_CASE("a report counts seats, teams, draws, limits and errors", "[simulate]") {
  compile::Program p;
  p.num_players = 4;
  p.seat_names = {"A", "B", "C", "D"};
  auto rec = [](std::vector<int> places, int decisions, bool limit = false) {
    sim::GameRecord r;
    r.places = std::move(places);
    r.decisions = decisions;
    r.throws = 2 * decisions;
    r.legal_sum = 3 * decisions;
    r.by_limit = limit;
    return r;
  };
  std::vector<sim::GameRecord> rs = {rec({1, 3, 1, 3}, 10), rec({3, 1, 3, 1}, 20), rec({1, 3, 1, 3}, 30),
                                     rec({1, 2, 3, 4}, 40), rec({1, 1, 1, 1}, 50), rec({0, 0, 0, 0}, 60, true)};
  sim::GameRecord bad;
  bad.index = 6;
  bad.error = diag::Error{diag::Code{}, {}, "boom", ""};
  rs.push_back(bad);
  sim::Report r = sim::report(p, rs);
  CHECK(r.games == 7);
  CHECK(r.errors == 1);
  CHECK(r.first_error_game == 6);
  CHECK(r.seat_wins[0].hits == 3);  // two team wins and one alone
  CHECK(r.seat_wins[0].trials == 6);
  CHECK(r.seat_wins[1].hits == 1);
  CHECK(r.seat_wins[3].hits == 1);
  REQUIRE(r.team_wins.size() == 2);
  CHECK(r.team_wins[0].seats == std::vector<int>{0, 2});
  CHECK(r.team_wins[0].wins.hits == 2);
  CHECK(r.team_wins[1].seats == std::vector<int>{1, 3});
  CHECK(r.team_wins[1].wins.hits == 1);
  CHECK(r.draws.hits == 2);  // all first, and none placed
  CHECK(r.natural_end.hits == 5);
  CHECK(r.length.mean == Approx(35));
  CHECK(r.length.median == Approx(35));
  CHECK(r.throws.mean == Approx(70));
  CHECK(r.branching == Approx(3));
}

TEST_CASE("simulate: the same seed gives byte-identical output on 1 and 2 threads", "[simulate]") {
  for (const char* game : {"games/raja_pasu.keli", "games/pahada_keliya.keli"}) {
    for (const char* format : {"--json", "--csv"}) {
      auto one = keli({"simulate", game, "-n", "24", "--seed", "9", "--threads", "1", format});
      auto two = keli({"simulate", game, "-n", "24", "--seed", "9", "--threads", "2", format});
      INFO(game << " " << format << "\n" << one.err << two.err);
      CHECK(one.status == 0);
      CHECK(two.status == 0);
      CHECK(one.out == two.out);
      CHECK(one.err.empty());  // stderr is not a terminal: no progress bar
      auto other = keli({"simulate", game, "-n", "24", "--seed", "10", "--threads", "2", format});
      CHECK(other.out != one.out);  // the seed matters
    }
  }
}

TEST_CASE("simulate: JSON and CSV are well formed and complete", "[simulate]") {
  auto r = keli({"simulate", "games/pahada_keliya.keli", "-n", "20", "--threads", "2", "--json"});
  REQUIRE(r.status == 0);
  YAML::Node j = YAML::Load(r.out);  // JSON is YAML
  CHECK(j["game"].as<std::string>() == "Pahada Keliya");
  CHECK(j["seed"].as<int>() == 1);
  CHECK(j["players"].size() == 4);
  YAML::Node res = j["results"];
  CHECK(res["games"].as<int>() == 20);
  REQUIRE(res["seats"].size() == 4);
  int team_wins = 0;
  for (const auto& t : res["teams"]) {
    CHECK(t["seats"].size() == 2);
    team_wins += t["wins"]["count"].as<int>();
  }
  CHECK(team_wins + res["draws"]["count"].as<int>() == 20);  // a team game: every game won by a pair
  for (const char* k : {"draws", "natural_end"}) {
    CHECK(res[k]["ci95"].size() == 2);
    CHECK(res[k]["ci95"][0].as<double>() <= res[k]["rate"].as<double>());
  }
  for (const char* k : {"mean", "median", "p95", "min", "max"}) CHECK(res["length"][k].IsScalar());
  CHECK(res["throws"]["mean"].as<double>() > 0);
  CHECK(res["branching"].as<double>() >= 1);

  auto c = keli({"simulate", "games/raja_pasu.keli", "-n", "10", "--csv"});
  REQUIRE(c.status == 0);
  std::istringstream lines(c.out);
  std::string line;
  int rows = 0;
  std::set<std::string> stats;
  while (std::getline(lines, line)) {
    INFO(line);
    CHECK(std::count(line.begin(), line.end(), ',') == 6);
    if (rows++) stats.insert(line.substr(0, line.find(',')));
  }
  CHECK(stats ==
        std::set<std::string>{"games", "errors", "seat_wins", "draws", "natural_end", "length", "throws", "branching"});
}

TEST_CASE("simulate: text report and a game re-run by keli run", "[simulate]") {
  auto r = keli({"simulate", "games/raja_pasu.keli", "-n", "1", "--seed", "3", "--json"});
  REQUIRE(r.status == 0);
  int length = YAML::Load(r.out)["results"]["length"]["max"].as<int>();
  // Game 0 of seed 3 is `keli run --seed game_seed(3, 0)`: the same choices, the same length.
  auto run = keli({"run", "games/raja_pasu.keli", "--seed", std::to_string(sim::game_seed(3, 0)), "--quiet"});
  REQUIRE(run.status == 0);
  CHECK(run.out.find(fmt::format("after {} moves", length)) != std::string::npos);
  auto t = keli({"simulate", "games/raja_pasu.keli", "-n", "8"});
  REQUIRE(t.status == 0);
  for (const char* s : {"wins by seat", "South", "North", "draws", "ended by the rules", "length in decisions",
                        "95th percentile", "branching factor", "games/s"})
    CHECK(t.out.find(s) != std::string::npos);
}

TEST_CASE("simulate and bench: bad options are usage errors", "[simulate]") {
  for (const std::vector<std::string>& args : {std::vector<std::string>{"simulate", "games/raja_pasu.keli", "-n", "0"},
                                               {"simulate", "games/raja_pasu.keli", "-n", "-5"},
                                               {"simulate", "games/raja_pasu.keli", "-n", "ten"},
                                               {"simulate", "games/raja_pasu.keli", "--threads", "0"},
                                               {"simulate", "games/raja_pasu.keli", "--json", "--csv"},
                                               {"simulate", "games/raja_pasu.keli", "--players", "wizard"},
                                               {"simulate"},
                                               {"simulate", "games/raja_pasu.keli", "--seconds", "1"},
                                               {"bench", "games/raja_pasu.keli", "--seconds", "-1"},
                                               {"bench", "games/raja_pasu.keli", "--seconds", "0"},
                                               {"bench", "games/raja_pasu.keli", "--games", "0"},
                                               {"bench", "games/raja_pasu.keli", "--seconds", "1", "--games", "3"},
                                               {"bench", "games/raja_pasu.keli", "--csv"},
                                               {"bench"}}) {
    auto r = keli(args);
    INFO(fmt::format("keli {}\n{}", fmt::join(args, " "), r.err));
    CHECK(r.status == 2);
    CHECK(r.err.find("usage: keli") != std::string::npos);
  }
  auto missing = keli({"simulate", "no/such.keli"});
  CHECK(missing.status == 1);
  CHECK(missing.err.find("cannot read") != std::string::npos);
}

TEST_CASE("bench: a short run reports every figure", "[simulate]") {
  auto j = keli({"bench", "games/raja_pasu.keli", "--seconds", "0.2", "--json"});
  REQUIRE(j.status == 0);
  YAML::Node n = YAML::Load(j.out);
  for (const char* k : {"playouts", "playouts_per_s", "decisions_per_s", "steps_per_s", "decisions_per_game",
                        "ended_by_rules", "ended_by_limit", "state_bytes"})
    CHECK(n[k].IsScalar());
  CHECK(n["playouts"].as<int>() >= 1);
  CHECK(n["ended_by_rules"].as<double>() + n["ended_by_limit"].as<double>() == Approx(1));
  CHECK(n["state_bytes"].as<int>() > 0);
  auto t = keli({"bench", "games/pahada_keliya.keli", "--games", "3"});
  REQUIRE(t.status == 0);
  CHECK(std::regex_search(t.out, std::regex(R"(playouts +3 +[0-9.]+ /s)")));
  for (const char* s : {"decisions", "steps", "ended by the rules", "state size"})
    CHECK(t.out.find(s) != std::string::npos);
}

}  // namespace keli::test
