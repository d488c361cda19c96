// Files written for the first edition keep working (issue 19, item 12): tests/first_edition/games
// holds every game file of the first release, unchanged, importing today's stdlib; each must still
// validate (warnings allowed, no errors), and each golden trace recorded from them must replay
// step for step: the same legal moves chosen, throws and states (tests/first_edition/README.md).
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <string>

#include <unistd.h>

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

// Callers written for earlier editions of the standard library (issue 42, item 6): a call that
// gives a definition the arguments it had then, an `emit` of a stdlib event with its earlier
// arguments, a variant extending an earlier file. Each validates with its scenarios, and plays the
// same game on both engines.
TEST_CASE("earlier editions: callers of the standard library keep working", "[first_edition]") {
  const auto callers = files_in("tests/first_edition/callers", ".keli");
  REQUIRE(callers.size() >= 4);
  const std::string dir = (fs::temp_directory_path() / ("keli_callers_" + std::to_string(getpid()))).string();
  fs::create_directories(dir);
  const std::string cache = (fs::path(KELI_BINARY).parent_path() / "native-cache").string();
  for (const auto& c : callers) {
    INFO(c);
    auto v = keli({"validate", c});
    INFO(v.out << v.err);
    CHECK(v.status == 0);
    CHECK(v.err.find("error") == std::string::npos);
    const std::string name = fs::path(c).stem().string();
    std::vector<std::string> traces;
    for (const char* engine : {"interp", "native"}) {
      const std::string t = dir + "/" + name + "." + engine + ".jsonl";
      auto r = keli({"run", c, "--seed", "3", "--quiet", "--engine", engine, "--cache", cache, "--trace", t});
      INFO(engine << ": " << r.err);
      CHECK(r.status == 0);
      traces.push_back(read_text(t));
    }
    CHECK(!traces[0].empty());
    CHECK(traces[0] == traces[1]);
  }
  fs::remove_all(dir);
}

}  // namespace keli::test
