// Files written for the first edition keep working (issue 19, item 12): tests/first_edition/games
// holds every game file of the first release, unchanged, importing today's stdlib; each must still
// validate (warnings allowed, no errors), and each golden trace recorded from them must replay
// step for step: the same legal moves chosen, throws and states (tests/first_edition/README.md).
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>

#include "support.hpp"

namespace keli::test {
namespace fs = std::filesystem;

namespace {

std::vector<std::string> files_in(const std::string& folder, const std::string& extension) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(source_path(folder)))
    if (e.path().extension() == extension) out.push_back(folder + "/" + e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("first edition: every game file of the first release still validates", "[first_edition]") {
  const auto games = files_in("tests/first_edition/games", ".keli");
  REQUIRE(games.size() >= 34);  // the first release's 34 game files
  for (const auto& g : games) {
    INFO(g);
    auto run = keli({"validate", "--no-tests", g});
    INFO(run.out << run.err);
    CHECK(run.status == 0);
  }
}

TEST_CASE("first edition: the golden traces of the first release's games replay", "[first_edition]") {
  const auto traces = files_in("tests/first_edition/traces", ".jsonl");
  REQUIRE(traces.size() >= 29);
  for (const auto& t : traces) {
    INFO(t);
    auto run = keli({"replay", t});
    INFO(run.out << run.err);
    CHECK(run.status == 0);
    CHECK(run.out.find("the trace matches") != std::string::npos);
  }
}

}  // namespace keli::test
