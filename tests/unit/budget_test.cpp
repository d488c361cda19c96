// The per-step work budget from the command line: the nested loops stop fast with the
// positioned error on both engines, `limit work` in a game and --budget on every command that
// plays, and --budget's usage errors; a full position history (`limit history`). (Where exactly
// it runs out, engine against engine: native_lockstep_test.cpp; what counts:
// tests/semantics/budget.keli.)
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <chrono>
#include <filesystem>

#include "native/backend.hpp"
#include "support.hpp"

namespace keli::test {
namespace {

std::string cache_dir() { return (std::filesystem::path(KELI_BINARY).parent_path() / "native-cache").string(); }

std::vector<std::string> engines() {
  std::vector<std::string> out = {"interp"};
  if (native::find_compiler()) out.push_back("native");
  return out;
}

}  // namespace

TEST_CASE("two nested loops of 10^7 rounds stop at the work budget on both engines", "[cli][budget]") {
  const std::string file = "tests/budget/nested_loops.keli";
  for (const std::string& engine : engines()) {
    INFO(engine);
    const auto start = std::chrono::steady_clock::now();
    auto r = keli({"run", file, "--quiet", "--engine", engine, "--cache", cache_dir()});
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    INFO(r.err);
    CHECK(r.status == 1);
    CHECK(r.err.find(file +
                     ":13:7: error: this loop ran out of the step's work budget: a step may do 100000000 units of "
                     "work (loop rounds, domain elements, calls) [E601]") != std::string::npos);
    CHECK(r.err.find("limit work N") != std::string::npos);  // the hint says how to raise it
    CHECK(seconds < 120);  // 10^8 units, not 10^14 (a loaded machine may take some seconds)
    // A budget below the outer loop's 10^7 elements stops it where it opens: a domain is charged
    // whole when its loop starts.
    auto small = keli({"run", file, "--quiet", "--engine", engine, "--cache", cache_dir(), "--budget", "1000"});
    CHECK(small.status == 1);
    CHECK(
        small.err.find(file + ":12:5: error: this loop ran out of the step's work budget: a step may do 1000 units") !=
        std::string::npos);
  }
}

TEST_CASE("limit work bounds each step, and --budget replaces it on both engines", "[cli][budget]") {
  const std::string file = "tests/budget/limit_work.keli";
  for (const std::string& engine : engines()) {
    INFO(engine);
    const std::vector<std::string> base = {"run", file, "--quiet", "--engine", engine, "--cache", cache_dir()};
    auto tight = keli(base);
    INFO(tight.err);
    CHECK(tight.status == 1);
    CHECK(
        tight.err.find(file + ":18:21: error: this call ran out of the step's work budget: a step may do 150 units") !=
        std::string::npos);
    auto exact = base;
    exact.insert(exact.end(), {"--budget", "151"});
    auto ok = keli(exact);
    INFO(ok.err);
    CHECK(ok.status == 0);
    CHECK(ok.out.find("result: ") != std::string::npos);
  }
}

TEST_CASE("a read of repetitions after the history overflowed stops the game on both engines", "[cli][budget]") {
  const std::string file = "tests/budget/limit_history.keli";
  for (const std::string& engine : engines()) {
    INFO(engine);
    auto r = keli({"run", file, "--quiet", "--engine", engine, "--cache", cache_dir()});
    INFO(r.err);
    CHECK(r.status == 1);
    CHECK(r.err.find(file +
                     ":21:10: error: the game's position history overflowed: it remembers 5 positions (limit history), "
                     "and this game has had more, so 'repetitions' cannot be counted [E601]") != std::string::npos);
    CHECK(r.err.find("declare a larger 'limit history N'") != std::string::npos);
  }
}

TEST_CASE("every command that plays takes --budget", "[cli][budget]") {
  const std::string trace =
      (std::filesystem::temp_directory_path() / fmt::format("keli_budget_{}.jsonl", getpid())).string();
  REQUIRE(keli({"run", "games/raja_pasu.keli", "--quiet", "--trace", trace}).status == 0);
  // 20 units build Raja Pasu's board and list its moves, but no sowing: each command stops at
  // play (E601; a replay's or scenario's own code names it), not while compiling (E501).
  const std::vector<std::vector<std::string>> commands = {
      {"run", "games/raja_pasu.keli"},
      {"play", "games/raja_pasu.keli"},  // the human's move 1 (stdin)
      {"replay", trace},
      {"test", "games/raja_pasu.tests"},
      {"simulate", "games/raja_pasu.keli", "-n", "1", "--threads", "1"},
      {"match", "games/raja_pasu.keli", "--players", "random,random", "-n", "1", "--threads", "1"},
      {"bench", "games/raja_pasu.keli", "--games", "1"},
  };
  for (auto args : commands) {
    INFO(fmt::format("keli {} --budget 20", fmt::join(args, " ")));
    CHECK(keli({args[0], "--help"}).out.find("--budget N") != std::string::npos);
    args.insert(args.end(), {"--engine", "interp", "--budget", "20"});
    auto r = keli_input(args, "1\n");
    INFO(r.out << r.err);
    CHECK(r.status == 1);
    CHECK(r.err.find("ran out of the step's work budget: a step may do 20 units") != std::string::npos);
    CHECK(r.err.find("building the board failed") == std::string::npos);
    CHECK(r.err.find("[E501]") == std::string::npos);
  }
  std::filesystem::remove(trace);
}

TEST_CASE("the option --budget takes a whole number from 1 to kMaxWorkBudget", "[cli][budget]") {
  for (const char* bad : {"0", "-3", "x", "1000000001", "1e6", ""}) {
    INFO(bad);
    auto r = keli({"run", "games/raja_pasu.keli", "--budget", bad});
    CHECK(r.status == 2);
    CHECK(r.err.find("--budget takes a whole number from 1 to 1000000000") != std::string::npos);
  }
  CHECK(keli({"validate", "games/raja_pasu.keli", "--budget", "5"}).status == 2);  // validate plays nothing
}

}  // namespace keli::test
