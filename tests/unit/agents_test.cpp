// Computer players: legal choices on every game, the same game for the same seed, option
// errors, expectimax's refusal of many-sided games, and MCTS beating random in a small match.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "agents/agent.hpp"
#include "lang/search_settings.hpp"
#include "support.hpp"

using namespace keli;

namespace {

// Plays up to `decisions` decisions of `program` with `spec` in every seat; checks that every
// choice is an index into the legal moves. Returns the notations, for comparisons.
std::vector<std::string> play_some(std::shared_ptr<const compile::Program> program, const std::string& spec,
                                   int decisions, uint64_t seed) {
  std::string err;
  auto agent = agents::make_agent(spec, *program, err);
  INFO(err);
  REQUIRE(agent);
  runtime::Game g(program);
  runtime::Rng rng(seed);
  runtime::State s = g.initial();
  std::vector<runtime::Move> legal;
  std::vector<std::string> out;
  while (!g.over(s) && static_cast<int>(out.size()) < decisions) {
    if (g.chance(s)) {
      g.apply_roll(s, g.sample_roll(s, rng));
      continue;
    }
    g.legal(s, legal);
    size_t i = agent->choose(g, s, legal, rng);
    REQUIRE(i < legal.size());
    out.push_back(g.call_text(legal[i]));
    g.apply(s, legal[i]);
  }
  return out;
}

}  // namespace

TEST_CASE("every agent chooses legal moves in every game", "[agents]") {
  for (const auto& file : test::game_files()) {
    auto p = test::compile(file);
    for (const char* spec :
         {"random", "greedy", "mc:playouts=2:cutoff=10", "mcts:iterations=20:cutoff=10", "mcts:iterations=20:rollout=0",
          "mcts:iterations=20:cutoff=5:order=0:memory=0", "expectimax:depth=1"}) {
      std::string err;
      auto a = agents::make_agent(spec, *p, err);
      if (!a) {
        // only expectimax may refuse, and only games of more than two sides
        CHECK(std::string(spec).rfind("expectimax", 0) == 0);
        CHECK(err.find("two sides") != std::string::npos);
        continue;
      }
      INFO(file << " " << spec);
      CHECK(play_some(p, spec, 6, 3).size() > 0);
    }
  }
}

TEST_CASE("agents are deterministic for a seed", "[agents]") {
  auto p = test::compile(test::source_path("games/pahada_keliya.keli"));
  for (const char* spec : {"greedy", "mc:playouts=3:cutoff=20", "mcts:iterations=50:cutoff=20", "expectimax:depth=2"}) {
    INFO(spec);
    auto a = play_some(p, spec, 12, 11), b = play_some(p, spec, 12, 11);
    CHECK(a == b);
  }
}

TEST_CASE("the games declare evaluations and teams the agents read", "[agents]") {
  auto raja = test::compile(test::source_path("games/raja_pasu.keli"));
  auto pahada = test::compile(test::source_path("games/pahada_keliya.keli"));
  auto pagade = test::compile(test::source_path("games/pagade_kayi_ata.keli"), {{"players", "4"}});
  CHECK(raja->evaluate >= 0);
  CHECK(raja->team < 0);
  CHECK(pahada->evaluate >= 0);
  CHECK(pahada->team >= 0);
  CHECK(pagade->evaluate >= 0);
  std::string err;
  CHECK(agents::make_agent("expectimax", *pahada, err));  // 4 players in 2 teams: two sides
  CHECK_FALSE(agents::make_agent("expectimax", *pagade, err));
  CHECK(err.find("two sides only") != std::string::npos);
  CHECK(agents::make_agent(
      "expectimax",
      *test::compile(test::source_path("games/pagade_kayi_ata.keli"), {{"players", "4"}, {"play", "teams"}}), err));
}

TEST_CASE("bad agent specs are clear errors", "[agents]") {
  struct Case {
    const char* spec;
    const char* message;
  };
  for (const Case& c : {Case{"mtcs", "unknown player 'mtcs'"}, Case{"random:x=1", "'random' takes no options"},
                        Case{"mcts:iters=5", "'mcts' has no option 'iters'"},
                        Case{"mcts:iterations=abc", "takes a whole number, not 'abc'"},
                        Case{"mcts:iterations=2.5", "takes a whole number"}, Case{"mcts:iterations=0", "must be 1 to"},
                        Case{"mcts:iterations=5:iterations=6", "given twice"},
                        Case{"mcts:time=", "takes a number, not ''"}, Case{"expectimax:depth=40", "must be 1 to 12"}}) {
    std::string err;
    INFO(c.spec);
    CHECK_FALSE(agents::make_agent(c.spec, err));
    CHECK_THAT(err, Catch::Contains(c.message));
  }
  std::string err;
  CHECK(agents::make_agent("mcts:iterations=5:cutoff=3:scale=2.5:c=0.7", err));
  auto r = test::keli({"run", "games/raja_pasu.keli", "--players", "mcts:iterations=5,mcts:bogus=1"});
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Catch::Contains("'mcts' has no option 'bogus'"));
  r = test::keli(
      {"match", "games/pahada_keliya.keli", "--players", "expectimax,random", "-n", "2", "--param", "escort=simple"});
  CHECK(r.status == 0);  // two teams: accepted
  r = test::keli({"match", "games/pagade_kayi_ata_4_players.keli", "--players", "expectimax,random", "-n", "2"});
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Catch::Contains("two sides only"));
}

TEST_CASE("the --help texts list every agent and option", "[agents]") {
  std::string help = KELI_AGENTS_HELP;
  for (const auto& k : agents::agent_kinds()) {
    CHECK_THAT(help, Catch::Contains(k.name));
    for (const auto& o : k.options) CHECK_THAT(help, Catch::Contains(std::string(o.key)));
  }
}

// Kept states only save replaying paths: the tree, and so every choice, must be the same with
// the whole tree kept, with none kept, and with a budget that runs out part way.
TEST_CASE("mcts plays the same whether it keeps states or replays paths", "[agents]") {
  for (const char* game :
       {"games/raja_pasu.keli", "games/pahada_keliya.keli", "games/pagade_kayi_ata_4_players.keli"}) {
    auto p = test::compile(test::source_path(game));
    for (const char* opts : {"cutoff=10", "rollout=0", "cutoff=5:order=0"}) {
      std::string kept = fmt::format("mcts:iterations=60:{}", opts);
      INFO(game << " " << kept);
      auto a = play_some(p, kept, 10, 7);
      CHECK(a == play_some(p, kept + ":memory=0", 10, 7));
      CHECK(a == play_some(p, kept + ":memory=0.01", 10, 7));  // 10 kB: one Pagade state, some dozens of Raja Pasu
    }
  }
}

// Ordering and widening read the game's evaluation; a game without one is searched by plain UCT
// whatever `order` says (tools/bench/kalah.keli declares none), and one with one is ordered.
TEST_CASE("mcts orders its moves only in a game that declares an evaluation", "[agents]") {
  auto plain = test::compile(test::source_path("tools/bench/kalah.keli"));
  REQUIRE_FALSE(plain->evaluate >= 0);
  for (uint64_t seed : {3, 11}) {
    INFO(seed);
    CHECK(play_some(plain, "mcts:iterations=150", 12, seed) ==
          play_some(plain, "mcts:iterations=150:order=0", 12, seed));
  }
  auto scored = test::compile(test::source_path("games/oware.keli"));
  REQUIRE(scored->evaluate >= 0);
  int differ = 0;
  for (uint64_t seed : {3, 11, 19})
    differ += play_some(scored, "mcts:iterations=150", 12, seed) !=
              play_some(scored, "mcts:iterations=150:order=0", 12, seed);
  CHECK(differ > 0);
}

TEST_CASE("mcts beats random at Raja Pasu in a small match", "[agents]") {
  // with cut-off rollouts, and scoring new nodes by the evaluation alone
  for (const char* spec : {"mcts:iterations=200:cutoff=30,random", "mcts:iterations=200:rollout=0,random"}) {
    auto r = test::keli({"match", "games/raja_pasu.keli", "--players", spec, "-n", "16", "--seed", "5", "--json"});
    REQUIRE(r.status == 0);
    // {"player":"mcts:...","seats":1,"wins":W,...}: at least 11 of 16 (random alone wins about half)
    auto at = r.out.find("\"wins\":");
    REQUIRE(at != std::string::npos);
    int wins = std::stoi(r.out.substr(at + 7));
    INFO(r.out);
    CHECK(wins >= 11);
  }
}

TEST_CASE("keli match reports rotated seats", "[agents]") {
  auto a = test::keli(
      {"match", "games/raja_pasu.keli", "--players", "greedy,random", "-n", "6", "--threads", "1", "--json"});
  auto b = test::keli(
      {"match", "games/raja_pasu.keli", "--players", "greedy,random", "-n", "6", "--threads", "2", "--json"});
  REQUIRE(a.status == 0);
  CHECK(a.out == b.out);  // the same games whatever the threads
  CHECK_THAT(a.out, Catch::Contains(R"("players":["greedy","random"],"games":6)"));
  auto t = test::keli({"match", "games/raja_pasu.keli", "--players", "greedy,random", "-n", "4"});
  CHECK(t.status == 0);
  CHECK_THAT(t.out, Catch::Contains("95% interval"));
  CHECK(test::keli({"match", "games/raja_pasu.keli", "-n", "4"}).status == 2);                    // no players
  CHECK(test::keli({"match", "games/raja_pasu.keli", "--players", "human,random"}).status == 2);  // people play
}

// The `ai` block's settings reach the players: given as numbers and from a parameter, unless the
// spec gives the option itself (tests/diagnostics/ok_ai_block.keli).
TEST_CASE("the ai block's settings are the players' options", "[agents]") {
  auto game = test::compile(test::source_path("tests/diagnostics/ok_ai_block.keli"), {{"depth_wanted", "7"}});
  REQUIRE(game->evaluate >= 0);
  std::string err;
  agents::Options mcts, spec, expectimax;
  REQUIRE(agents::agent_options("mcts", *game, mcts, err));
  CHECK(mcts.get("cutoff") == 20);
  CHECK(mcts.get("scale") == 30);
  REQUIRE(agents::agent_options("mcts:cutoff=3", *game, spec, err));
  CHECK(spec.get("cutoff") == 3);
  REQUIRE(agents::agent_options("expectimax", *game, expectimax, err));
  CHECK(expectimax.get("depth") == 7);
}

// lang/search_settings.hpp lists exactly the options of the players, so the checker's list of
// settings cannot fall behind the players'.
TEST_CASE("the ai block's settings are every player option", "[agents]") {
  std::set<std::string> options, settings;
  for (const auto& k : agents::agent_kinds())
    for (const auto& o : k.options) options.insert(o.key);
  for (const auto& s : lang::kSearchSettings) settings.insert(std::string(s.key));
  CHECK(options == settings);
}
