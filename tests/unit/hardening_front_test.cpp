// The front end on hostile files (issue 20): nesting thousands deep in every command that walks a
// file, files named from outside the allowed folders or that are not Keli source (never shown),
// --path, import cycles, link loops, and a move listing too long to enumerate in both engines.
// The big files are generated here rather than kept in tests/diagnostics.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <filesystem>
#include <fstream>

#include "lang/limits.hpp"
#include "support.hpp"

namespace keli::test {
namespace fs = std::filesystem;

namespace {

// A fresh folder of its own under the temporary folder.
fs::path scratch(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / fmt::format("keli_front_{}_{}", getpid(), name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
  return path.string();
}

// A small game whose move adds `expr` to a score; `decls` go before the board.
std::string game(const std::string& decls, const std::string& expr, const std::string& params = "") {
  return fmt::format(
      "game \"Hostile\"\nplayers 2\nvar score: int per player = 0\n{}board {{ let h = site(0, 0) }}\n"
      "phase main {{\n  move take({}) {{\n    score[mover] += {}\n    end_game by score\n  }}\n}}\n",
      decls, params, expr);
}

std::string repeat(const std::string& s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

void no_crash(const Run& r) {
  CHECK(r.status < 128);  // not killed by a signal (a stack overflow is SIGSEGV)
  CHECK(r.err.find("internal error") == std::string::npos);
  CHECK(r.err.find("terminate called") == std::string::npos);
}

}  // namespace

TEST_CASE("files nested thousands deep give a positioned E004 in validate, describe and fmt", "[cli][hardening]") {
  fs::path dir = scratch("deep");
  std::string ifs =
      "def f(): int {\n" + repeat("if true {\n", 10000) + "return 1\n" + repeat("}\n", 10000) + "return 0\n}\n";
  std::string chain;
  for (int i = 0; i < 50000; ++i) chain += fmt::format("def f{}(): int = f{}()\n", i, i + 1);
  chain += "def f50000(): int = 1\n";
  std::string sum = "1";
  for (int i = 1; i < 20000; ++i) sum += " + 1";
  const std::vector<std::pair<std::string, std::string>> files = {
      {"parens", game("", repeat("(", 10000) + "1" + repeat(")", 10000))},
      {"ifs", game(ifs, "f()")},
      {"conditionals", game("", repeat("if true then ", 10000) + "1" + repeat(" else 0", 10000))},
      {"negations", game("", repeat("- ", 10000) + "1")},
      {"nots", game("var b: bool = " + repeat("not ", 10000) + "true\n", "1")},
      {"indexes", game("", "score" + repeat("[0]", 10000))},
      {"sum", game("", sum)},
      {"chain", game(chain, "f0()")},
  };
  for (const auto& [name, text] : files) {
    std::string path = write(dir / (name + ".keli"), text);
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"validate", path, "--no-tests"}, {"describe", path}, {"fmt", "--check", path}}) {
      if (name == "chain" && args[0] == "fmt") continue;  // it parses: fmt lays it out, nothing deep
      auto r = keli(args);
      INFO(fmt::format("keli {}\n{}", fmt::join(args, " "), r.err.substr(0, 600)));
      no_crash(r);
      CHECK(r.status == 1);
      CHECK(r.err.find("[E004]") != std::string::npos);
      CHECK(r.err.find(path + ":") != std::string::npos);  // with its file:line:col
    }
  }
}

// Domains that are not ranges, nested: each level was parsed twice (as a range, then as an
// expression), so 18 levels took 40 s and 30 would run for days. Now it is linear.
TEST_CASE("nested domains parse in linear time", "[cli][hardening]") {
  std::string domain = "seats";  // a region chosen by `if`: no domain may be (E201), a region may
  for (int i = 0; i < 30; ++i) domain = fmt::format("(if count(y{} in {}: true) > 0 then r else r)", i, domain);
  std::string path =
      write(scratch("domains") / "g.keli", game("region r\n", fmt::format("count(z in {}: true)", domain)));
  auto r = keli({"validate", path, "--no-tests"});
  INFO(r.err);
  CHECK(r.status == 0);
}

TEST_CASE("imports and bases come only from the allowed folders, and --path adds one", "[cli][hardening]") {
  fs::path dir = scratch("path");
  write(dir / "shared" / "helper.keli", "def one(): int = 1\n");
  std::string g = write(dir / "games" / "g.keli", "import \"helper.keli\"\n" + game("", "one()"));
  auto without = keli({"validate", g, "--no-tests"});
  CHECK(without.status == 1);
  CHECK(without.err.find("cannot find import 'helper.keli' [E002]") != std::string::npos);
  auto with = keli({"validate", g, "--no-tests", "--path", (dir / "shared").string()});
  INFO(with.err);
  CHECK(with.status == 0);
  CHECK(keli({"run", g, "--quiet", "--path=" + (dir / "shared").string()}).status == 0);
  CHECK(keli({"validate", g, "--path", (dir / "nowhere").string()}).status == 2);
  CHECK(keli({"run", "--help"}).out.find("--path DIR") != std::string::npos);
  // `..` out of the game's folder finds the file, but it is outside: refused, unless allowed.
  std::string up = write(dir / "games" / "up.keli", "import \"../shared/helper.keli\"\n" + game("", "one()"));
  auto refused = keli({"validate", up, "--no-tests"});
  CHECK(refused.err.find("'../shared/helper.keli' lies outside the folders games may be read from [E005]") !=
        std::string::npos);
  CHECK(keli({"validate", up, "--no-tests", "--path", (dir / "shared").string()}).status == 0);
}

TEST_CASE("no error shows a line of a file that is not Keli source", "[cli][hardening]") {
  fs::path dir = scratch("echo");
  const std::string secret = "TOP-SECRET-LINE";
  std::string txt = write(dir / "secret.txt", secret + "\n");
  std::string binary = write(dir / "binary.keli", "game \"x\"\n" + secret + " \xff\xfe\n");
  std::string outside = write(dir / "outside" / "secret.keli", secret + "\n");
  fs::path games = dir / "games";
  const std::vector<std::string> imports = {"/etc/passwd", "/proc/self/environ", "../../../../../../../../etc/passwd",
                                            outside,       "../secret.txt",      "../binary.keli"};
  for (const auto& imp : imports) {
    std::string g = write(games / "g.keli", fmt::format("import \"{}\"\n", imp) + game("", "1"));
    auto r = keli({"validate", g, "--no-tests"});
    INFO(imp << "\n" << r.err);
    no_crash(r);
    CHECK(r.status == 1);
    CHECK(r.err.find("[E005]") != std::string::npos);
    CHECK(r.err.find(secret) == std::string::npos);
    CHECK(r.err.find("root:") == std::string::npos);  // /etc/passwd's first line
  }
  for (const std::vector<std::string>& args : {std::vector<std::string>{"validate", txt},
                                               {"validate", binary},
                                               {"describe", binary},
                                               {"fmt", txt},
                                               {"fmt", "--check", binary}}) {
    auto r = keli(args);
    INFO(fmt::format("keli {}\n{}", fmt::join(args, " "), r.err));
    no_crash(r);
    CHECK(r.status == 1);
    CHECK(r.err.find("[E005]") != std::string::npos);
    CHECK(r.err.find(secret) == std::string::npos);
  }
  CHECK(keli({"validate", binary}).err.find(binary + ":2:17: error: '") != std::string::npos);  // where, not what
}

TEST_CASE("a trace's file and a scenario's game are held to the same folders", "[cli][hardening]") {
  fs::path dir = scratch("refs");
  std::string g = write(dir / "outside" / "g.keli", game("", "1"));
  fs::path traces = dir / "traces";
  fs::create_directories(traces);
  std::string t = (traces / "t.jsonl").string();
  REQUIRE(keli({"run", g, "--quiet", "--trace", t}).status == 0);
  std::string text = read_text(t);
  REQUIRE(text.find(g) != std::string::npos);  // recorded as named: an absolute path
  auto refused = keli({"replay", t});
  INFO(refused.err);
  CHECK(refused.status == 1);
  CHECK(refused.err.find("lies outside the folders games may be read from [E005]") != std::string::npos);
  // The exact folder to allow, as the hint words it.
  const std::string allow = fs::weakly_canonical(dir / "outside").string();
  CHECK(refused.err.find("add --path " + allow) != std::string::npos);
  CHECK(keli({"replay", t, "--path", allow}).status == 0);
  // From the trace's own folder, as the reproducer runs it.
  auto there = keli_input_in(traces.string(), {"replay", "t.jsonl"}, "");
  CHECK(there.status == 1);
  CHECK(there.err.find("[E005]") != std::string::npos);
  // A scenario may name its game by a path inside its own folder tree, however deep.
  write(dir / "suite" / "deep" / "er" / "g.keli", read_text(g));
  std::string inside = write(dir / "suite" / "s.yaml",
                             "game: deep/er/g.keli\nscenarios:\n  - name: x\n    play: [take]\n    expect:\n"
                             "      score: [1, 0]\n");
  auto in_tree = keli({"test", inside});
  INFO(in_tree.out << in_tree.err);
  CHECK(in_tree.status == 0);
  CHECK(in_tree.out.find("1 passed, 0 failed") != std::string::npos);
  // A scenario naming a file outside its folder and the one above.
  std::string yaml =
      write(dir / "a" / "b" / "g.tests" / "s.yaml", "game: /etc/passwd\nscenarios:\n  - name: x\n    moves: []\n");
  auto s = keli({"test", yaml});
  CHECK(s.status == 1);
  CHECK(s.err.find("'/etc/passwd' lies outside the folders games may be read from") != std::string::npos);
  CHECK(s.err.find("root:") == std::string::npos);
}

TEST_CASE("a game file larger than kMaxSourceBytes is refused before it is read", "[cli][hardening]") {
  fs::path dir = scratch("big");
  fs::path big = dir / "big.keli";
  {
    std::ofstream f(big, std::ios::binary);
    f << game("", "1");
  }
  fs::resize_file(big, 3ull << 30);  // 3 GB, sparse: it was read whole, then bad_alloc
  for (const char* cmd : {"validate", "run", "describe", "fmt"}) {
    auto r = keli({cmd, big.string()});
    INFO(cmd << ": " << r.err);
    no_crash(r);
    CHECK(r.status == 1);
    CHECK(r.err.find(fmt::format("more than a source file may be: {} (kMaxSourceBytes)", lang::kMaxSourceBytes)) !=
          std::string::npos);
  }
  fs::remove(big);
}

TEST_CASE("a version 1 trace replays with a word that its seed and players were not checked", "[cli][hardening]") {
  auto r = keli({"replay", "tests/traces/good/pahada_keliya_v1_seed_changed.jsonl"});
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  CHECK(r.out.find("the trace matches") != std::string::npos);
  CHECK(r.out.find("not the seed 999 or the players it names: a version 1 trace") != std::string::npos);
  auto seeded = keli({"replay", "tests/first_edition/traces/kalah.jsonl"});
  CHECK(seeded.out.find("note:") == std::string::npos);
}

TEST_CASE("import cycles and link loops are clear errors", "[cli][hardening]") {
  fs::path dir = scratch("cycles");
  std::string a = write(dir / "a.keli", "import \"b.keli\"\n" + game("", "1"));
  write(dir / "b.keli", "import \"a.keli\"\ndef one(): int = 1\n");
  for (const char* cmd : {"validate", "run"}) {
    auto r = keli({cmd, a});
    INFO(r.err);
    CHECK(r.status == 1);
    CHECK(r.err.find("a.keli:1:8: error: files import or extend one another in a cycle: a.keli -> b.keli -> a.keli "
                     "[E006]") != std::string::npos);
  }
  fs::create_symlink("loop2.keli", dir / "loop1.keli");
  fs::create_symlink("loop1.keli", dir / "loop2.keli");
  std::string l = write(dir / "l.keli", "import \"loop1.keli\"\n" + game("", "1"));
  for (const auto& path : {l, (dir / "loop1.keli").string()}) {
    auto r = keli({"validate", path});
    INFO(r.err);
    no_crash(r);
    CHECK(r.status == 1);
    CHECK(r.err.find("[E002]") != std::string::npos);
  }
}

TEST_CASE("a move listing past kMaxMoveTries stops both engines with the same error", "[cli][hardening]") {
  fs::path dir = scratch("tries");
  std::string g = write(dir / "g.keli", game("var n: int = 9999\n", "a + b", "a in 0..n, b in 0..n"));
  CHECK(keli({"validate", g, "--no-tests"}).status == 0);  // the domains are known only in play
  auto interp = keli({"run", g, "--quiet", "--engine", "interp"});
  auto native = keli({"run", g, "--quiet", "--engine", "native", "--cache", (dir / "cache").string()});
  INFO(interp.err << native.err);
  CHECK(interp.status == 1);
  CHECK(interp.err.find("g.keli:7:18: error: listing the moves of 'take' tried more than 20000000 values of its "
                        "parameters (kMaxMoveTries) [E601]") != std::string::npos);
  if (native.err.find("no C++ compiler") == std::string::npos) CHECK(native.err == interp.err);
}

}  // namespace keli::test
