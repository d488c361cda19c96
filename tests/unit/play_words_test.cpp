// keli play in the game's own words, driven through stdin: labelled pieces, moves by notation,
// by the start of one or in any case, suggestions, reasons a move is not legal, a forced move
// after Enter, '?' in words, the result told to the person, and --resume from another folder.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <filesystem>

#include "support.hpp"

using namespace keli;

TEST_CASE("play: Pahada Keliya's moves in its notation, alike pieces once, input by start or case", "[play]") {
  // seed 3: South throws 3 3 first (docs of keli run); the computer players are random
  auto r = test::keli_input({"play", "games/pahada_keliya.keli", "--seed", "3", "--players", "human,random"},
                            "?\nE1 6-9 (3)\ns9\nS3 11-14 (4\nstep 7 7\ns3 11\nquit\n");
  REQUIRE(r.status == 0);
  CHECK_THAT(r.out, Catch::Contains("Your moves:  1) S1 6-9 (3)  2) S2 7-10 (3)  3) S3 11-14 (3)\n"));
  CHECK_THAT(r.out, Catch::Contains("S3x2"));  // the board labels pieces as the moves do
  // '?' in words: the rule's comment once, then each move's effect and whose turn follows
  CHECK_THAT(r.out, Catch::Contains("step: \"Players use the throw of a die to move a piece"));
  CHECK_THAT(r.out, Catch::Contains("1) S1 6-9 (3): S1 moves (pos 6 -> 9); die 0: 3 -> 0; then South moves again"));
  // a move that reads so but is not legal: which test fails, with its line
  CHECK_THAT(r.out, Catch::Contains("'E1 6-9 (3)' is not legal now: pc must be such that the owner of pc is the mover "
                                    "(games/pahada_keliya.keli:"));
  CHECK_THAT(r.out, Catch::Contains("here the owner of pc is East and the mover is South"));
  CHECK_THAT(r.out, Catch::Contains("'s9' is not one of your moves"));
  CHECK_THAT(r.out, Catch::Contains("did you mean 3) S3 11-14 (3)?"));
  CHECK_THAT(r.out, Catch::Contains("'step 7 7' is not one of your moves"));
  CHECK_THAT(r.out, Catch::Contains("game stopped"));
}

TEST_CASE("play: a forced move is shown and played with Enter, and the result is told to the person", "[play]") {
  // Pagade Kayi Ata: without a nine nothing enters, and the only move is to lose the throw
  auto r =
      test::keli_input({"play", "games/pagade_kayi_ata_4_players.keli", "--seed", "1", "--players", "human,random"},
                       "throw\n\nthrow\n\nthrow\n\nthrow\n\nquit\n");
  REQUIRE(r.status == 0);
  CHECK_THAT(r.out, Catch::Contains("Your moves:  1) throw  2) pass"));
  CHECK_THAT(r.out, Catch::Contains("Your only move: no move: the throw is lost. Press Enter to play it"));
  std::string input;
  for (int i = 0; i < 400; ++i) input += "1\n";
  auto whole = test::keli_input({"play", "games/raja_pasu.keli", "--param", "holes=3", "--param", "seeds=2", "--param",
                                 "rounds=single", "--seed", "6", "--players", "human,mcts:iterations=50"},
                                input);
  REQUIRE(whole.status == 0);
  CHECK_THAT(whole.out, Catch::Contains("result: South 2nd, North 1st\nYou finished 2nd of 2\n"));
}

TEST_CASE("play: --resume finds the game from any folder", "[play]") {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / fmt::format("keli_resume_{}", getpid());
  fs::create_directories(dir / "elsewhere");
  std::string saved = (dir / "saved.jsonl").string();
  auto r = test::keli_input({"play", "games/raja_pasu.keli", "--seed", "3", "--players", "human,random"},
                            "1\nsave " + saved + "\nquit\n");
  REQUIRE(r.status == 0);
  CHECK_THAT(test::read_text(saved), Catch::Contains(R"x("notation":"sow hole 1 (7)")x"));
  auto resumed = test::keli_input_in((dir / "elsewhere").string(), {"play", "--resume", "../saved.jsonl"}, "quit\n");
  CHECK(resumed.status == 0);
  CHECK_THAT(resumed.out, Catch::Contains("resumed ../saved.jsonl after"));
  fs::remove_all(dir);
}
