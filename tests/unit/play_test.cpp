// keli play driven through stdin: moves by number and notation, '?' explanations, undo, save and
// --resume, several human seats, and bad input asked again.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "support.hpp"

using namespace keli;

namespace {

int count_of(const std::string& text, const std::string& what) {
  int n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

std::string temp(const std::string& name) {
  return (std::filesystem::temp_directory_path() / fmt::format("keli_play_{}_{}", getpid(), name)).string();
}

}  // namespace

TEST_CASE("play: '?' explains each legal move in words: its rule's comment and what it changes", "[play]") {
  auto r = test::keli_input({"play", "games/raja_pasu.keli", "--seed", "1"}, "?\nquit\n");
  REQUIRE(r.status == 0);
  // South's seven holes, each in the game's notation, with the rule's comment and its effect
  CHECK_THAT(r.out, Catch::Contains("1) sow hole 1 (7)"));
  CHECK_THAT(r.out, Catch::Contains("sow: A move: choose an occupied hole in your own row"));
  CHECK_THAT(r.out, Catch::Contains("1) sow hole 1 (7): counters change on 14 cells; store South: 0 -> 15"));
  CHECK_THAT(r.out, Catch::Contains("then North to play"));
  CHECK_THAT(r.out, Catch::Contains("game stopped"));
}

TEST_CASE("play: 'rules' prints the game's rulebook as set, the text of keli rules", "[play][rulebook]") {
  auto r =
      test::keli_input({"play", "games/raja_pasu.keli", "--seed", "1", "--param", "rounds=single"}, "rules\nquit\n");
  REQUIRE(r.status == 0);
  std::string book = test::keli({"rules", "games/raja_pasu.keli", "--param", "rounds=single"}).out;
  REQUIRE(!book.empty());
  CHECK_THAT(r.out, Catch::Contains(book));
  CHECK_THAT(r.out, Catch::Contains("'rules'"));  // the greeting names the command
}

TEST_CASE("play: bad input is asked again, and numbers and notations both play", "[play]") {
  auto r = test::keli_input({"play", "games/raja_pasu.keli", "--seed", "2", "--players", "human,random"},
                            "xyzzy\n99\n1\nsow 3\nquit\n");
  REQUIRE(r.status == 0);
  CHECK_THAT(r.out, Catch::Contains("'xyzzy' is not one of your moves"));
  CHECK_THAT(r.out, Catch::Contains("there is no move 99: type 1..7"));
  CHECK(count_of(r.out, "North plays") >= 1);
  // the board is drawn after each move with the move's hole in brackets, numbered as the moves
  // number it (South's hole 1)
  CHECK_THAT(r.out, Catch::Contains("[1:"));
}

TEST_CASE("play: undo takes back the last decision and the moves after it", "[play]") {
  std::string saved = temp("undo.jsonl");
  auto r =
      test::keli_input({"play", "games/raja_pasu.keli", "--seed", "3"}, "1\nundo\nundo\nsave " + saved + "\nquit\n");
  REQUIRE(r.status == 0);
  CHECK_THAT(r.out, Catch::Contains("taken back: it is South's decision again"));
  CHECK_THAT(r.out, Catch::Contains("nothing to undo"));
  CHECK_THAT(r.out, Catch::Contains("saved 0 steps"));
  // what undo took back had drawn from the generator: the trace no longer follows the seed
  CHECK_THAT(test::read_text(saved), Catch::Contains(R"("seeded":false)"));
  CHECK(test::keli({"replay", saved}).err.find("ends before the game's result") != std::string::npos);
  std::filesystem::remove(saved);
}

TEST_CASE("play: save writes a trace and --resume goes on from it", "[play]") {
  std::string saved = temp("save.jsonl");
  auto r = test::keli_input({"play", "games/pahada_keliya.keli", "--seed", "4", "--players", "human,greedy"},
                            "1\n1\nsave " + saved + "\nquit\n");
  REQUIRE(r.status == 0);
  CHECK_THAT(r.out, Catch::Contains("saved"));
  std::ifstream in(saved);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string trace = ss.str();
  CHECK_THAT(trace, Catch::Contains(R"("players":["human","greedy","greedy","greedy"])"));
  CHECK_THAT(trace, Catch::Contains(R"("chance":true)"));
  // no undo: the throws and greedy's choices are drawn again from the seed when it is read back
  CHECK_THAT(trace, Catch::Contains(R"("seeded":true)"));
  int steps = count_of(trace, "\"ply\":");
  CHECK(steps >= 3);
  auto resumed = test::keli_input({"play", "--resume", saved}, "quit\n");
  REQUIRE(resumed.status == 0);
  CHECK_THAT(resumed.out, Catch::Contains(fmt::format("resumed {} after {} steps", saved, steps)));
  // the same trace with another seed is not the game that was played
  {
    std::string other = trace;
    other.replace(other.find(R"("seed":4)"), 8, R"("seed":5)");
    std::ofstream(temp("other_seed.jsonl")) << other;
    auto changed = test::keli_input({"play", "--resume", temp("other_seed.jsonl")}, "quit\n");
    CHECK(changed.status == 1);
    CHECK_THAT(changed.err, Catch::Contains("but seed 5 throws"));
    std::filesystem::remove(temp("other_seed.jsonl"));
  }
  // a corrupted saved game is refused with its line
  {
    std::ofstream out(saved, std::ios::app);
    out << R"({"ply":999,"player":0,"move":"x","rule":"nonsense","args":[],"state":{}})"
        << "\n";
  }
  auto bad = test::keli_input({"play", "--resume", saved}, "quit\n");
  CHECK(bad.status == 1);
  CHECK_THAT(bad.err, Catch::Contains("the move 'nonsense' is not legal here"));
  std::filesystem::remove(saved);
}

TEST_CASE("play: a whole game against mcts, with two people at the keyboard", "[play]") {
  // Raja Pasu with three holes a row: people always choose their first move until it ends
  std::string input;
  for (int i = 0; i < 400; ++i) input += "1\n";
  auto r = test::keli_input({"play", "games/raja_pasu.keli", "--param", "holes=3", "--param", "seeds=2", "--param",
                             "rounds=single", "--seed", "6", "--players", "human,mcts:iterations=50"},
                            input);
  REQUIRE(r.status == 0);
  CHECK_THAT(r.out, Catch::Contains("result: South 2nd, North 1st"));  // mcts wins the round
  // two people always choosing the first move can play a match of hundreds of rounds: one round
  auto two = test::keli_input({"play", "games/raja_pasu.keli", "--param", "holes=3", "--param", "seeds=2", "--param",
                               "rounds=single", "--seed", "6", "--players", "human,human"},
                              input);
  REQUIRE(two.status == 0);
  CHECK_THAT(two.out, Catch::Contains("you play South (seat 0) and North (seat 1)"));
  CHECK_THAT(two.out, Catch::Contains("North> "));
  CHECK_THAT(two.out, Catch::Contains("result:"));
}

// The race games to their end against mcts: a person who always types 1 (the first legal move)
// against three searching players, a full ranking in Pagade Kayi Ata.
TEST_CASE("play: whole games of Pahada Keliya and Pagade Kayi Ata against mcts", "[play]") {
  std::string input;
  for (int i = 0; i < 20000; ++i) input += "1\n";
  auto pahada = test::keli_input(
      {"play", "games/pahada_keliya.keli", "--seed", "5", "--players", "human,mcts:iterations=20:cutoff=5"}, input);
  REQUIRE(pahada.status == 0);
  // This seed's game (a golden: mcts at 20 iterations beats first-move play in about half of the
  // games; since alike moves are listed once, this one goes to the person's team).
  CHECK_THAT(pahada.out, Catch::Contains("result: South 1st, East 3rd, North 1st, West 3rd"));
  auto pagade = test::keli_input({"play", "games/pagade_kayi_ata_4_players.keli", "--seed", "5", "--players",
                                  "human,mcts:iterations=10:rollout=0:scale=300"},
                                 input);
  REQUIRE(pagade.status == 0);
  CHECK_THAT(pagade.out, Catch::Contains("result: P1 1st, P2 2nd, P3 3rd, P4 4th"));
  CHECK_THAT(pagade.out, Catch::Contains("P1> "));
}
