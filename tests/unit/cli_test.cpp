// The command line on bad input: a clear message naming the file and position, exit status 1
// (2 for wrong usage), never a crash or a C++ exception's text.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <filesystem>
#include <fstream>

#include "support.hpp"

namespace keli::test {
namespace fs = std::filesystem;

static std::string temp_file(const std::string& name, const std::string& text) {
  std::string path = (fs::temp_directory_path() / fmt::format("keli_cli_{}_{}", getpid(), name)).string();
  std::ofstream(path) << text;
  return path;
}

static void no_crash(const Run& r) {
  CHECK(r.status < 128);  // not killed by a signal
  CHECK(r.err.find("terminate called") == std::string::npos);
  CHECK(r.err.find("internal error") == std::string::npos);
  CHECK(r.err.find("what()") == std::string::npos);
}

TEST_CASE("command-line usage errors exit 2", "[cli]") {
  for (const std::vector<std::string>& args : {std::vector<std::string>{},
                                               {"frobnicate"},
                                               {"run"},
                                               {"run", "games/raja_pasu.keli", "--seed", "x"},
                                               {"run", "games/raja_pasu.keli", "--bogus"},
                                               {"run", "games/raja_pasu.keli", "--param", "noequals"},
                                               {"run", "games/raja_pasu.keli", "--players", "random,random,random"},
                                               {"run", "games/raja_pasu.keli", "--players", "wizard"},
                                               {"play", "games/raja_pasu.keli", "--seat", "5"},
                                               {"replay"},
                                               {"validate"}}) {
    auto r = keli(args);
    INFO(fmt::format("keli {}\n{}", fmt::join(args, " "), r.err));
    CHECK(r.status == 2);
    no_crash(r);
  }
}

TEST_CASE("every subcommand has --help", "[cli]") {
  for (const char* c : {"validate", "run", "play", "replay", "test"}) {
    auto r = keli({c, "--help"});
    CHECK(r.status == 0);
    CHECK(r.out.find("usage: keli") != std::string::npos);
  }
}

TEST_CASE("bad input gets a positioned message and exit 1", "[cli]") {
  struct Case {
    std::vector<std::string> args;
    std::string expect;
  };
  std::string syntax = temp_file("syntax.keli", "game \"x\"\nplayers 2\nboard {\n  let = 3\n}\n");
  std::string unreadable = temp_file("unreadable.keli", "game \"x\"\n");
  fs::permissions(unreadable, fs::perms::none);
  bool root = access(unreadable.c_str(), R_OK) == 0;  // root reads anything: skip that case then
  std::string yaml = temp_file("bad.yaml", "game: x\nscenarios: [\n");
  std::string params = temp_file("params.yaml", "skip_origin: [1, 2]\n");
  std::string params_bad = temp_file("params_bad.yaml", "holes: 99\n");
  std::string params_twice = temp_file("params_twice.yaml", "holes: 5\nholes: 7\n");
  std::vector<Case> cases = {
      {{"run", "no/such/game.keli"}, "cannot read 'no/such/game.keli'"},
      {{"validate", syntax}, fmt::format("{}:4:7: error: expected a name", syntax)},
      {{"run", syntax}, "expected a name"},
      {{"run", "games/raja_pasu.keli", "--param", "hoels=5"}, "unknown parameter 'hoels'"},
      {{"run", "games/raja_pasu.keli", "--param", "holes=99"}, "'99' is not a valid value for parameter 'holes'"},
      {{"run", "games/raja_pasu.keli", "--param", "rounds=many"}, "allowed: single, match"},
      {{"run", "games/raja_pasu.keli", "--param", "skip_origin=maybe"}, "allowed: true or false"},
      {{"run", "games/raja_pasu.keli", "--params", params}, "params.yaml:1:14: error"},
      {{"run", "games/raja_pasu.keli", "--params", params_bad}, "'99' is not a valid value"},
      {{"run", "games/raja_pasu.keli", "--params", "missing.yaml"}, "cannot read"},
      {{"run", "games/raja_pasu.keli", "--params", params_twice},
       "params_twice.yaml:2:1: error: the key 'holes' is given twice (first on line 1) [E702]"},
      {{"test", yaml}, "bad.yaml:3:1: error: this is not valid YAML"},
      {{"test", "no_such_dir"}, "no such file"},
      {{"replay", "no_such.jsonl"}, "cannot read trace"},
  };
  if (!root) cases.push_back({{"run", unreadable}, "cannot read"});
  for (const auto& c : cases) {
    auto r = keli(c.args);
    INFO(fmt::format("keli {}\n{}", fmt::join(c.args, " "), r.err));
    CHECK(r.status == 1);
    CHECK(r.err.find(c.expect) != std::string::npos);
    no_crash(r);
  }
  fs::permissions(unreadable, fs::perms::owner_all);
}

TEST_CASE("keli run plays a whole game and keli play survives any input", "[cli]") {
  auto r = keli({"run", "games/raja_pasu.keli", "--seed", "7"});
  CHECK(r.status == 0);
  CHECK(r.out.find("result: ") != std::string::npos);
  CHECK(r.out.find("South") != std::string::npos);
  std::string input = temp_file("input.txt", "hello\n99\n0\n-1\n?\nsow 99\n\nsow 3\n1\n1\n1\nquit\n");
  std::string cmd =
      fmt::format("cd '{}' && '{}' play games/raja_pasu.keli --seed 3 < '{}'", KELI_SOURCE_DIR, KELI_BINARY, input);
  FILE* f = popen(cmd.c_str(), "r");
  REQUIRE(f);
  std::string out;
  char buf[4096];
  while (size_t n = fread(buf, 1, sizeof buf, f)) out.append(buf, n);
  int status = pclose(f);
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(out.find("'hello' is not one of your moves") != std::string::npos);
  CHECK(out.find("there is no move 99: type 1..7") != std::string::npos);
  CHECK(out.find("game stopped") != std::string::npos);
  // End of input in the middle of a game stops it cleanly.
  auto eof = keli({"play", "games/raja_pasu.keli", "--seed", "3"});
  CHECK(eof.status == 0);
  CHECK(eof.out.find("input ended") != std::string::npos);
}

}  // namespace keli::test
