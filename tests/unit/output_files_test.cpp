// Files the command writes (traces, pictures, fmt in place): never over one of its own inputs,
// whatever name or link reaches it; a failed run leaves the old file and a TRACE.partial; fmt
// writes through a symbolic link; a link loop is a clear error. Also simulate and match: their
// memory does not grow with -n, and declared invariants are checked by default.
#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <sys/stat.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <fstream>

#include "support.hpp"

namespace keli::test {
namespace fs = std::filesystem;

namespace {

// A fresh folder of this test's own, holding a copy of Raja Pasu and the stdlib files it imports.
fs::path scratch(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / fmt::format("keli_out_{}_{}", getpid(), name);
  fs::remove_all(dir);
  fs::create_directories(dir / "stdlib");
  fs::copy_file(source_path("games/raja_pasu.keli"), dir / "g.keli");
  for (const char* f : {"rows.keli", "sowing.keli"})
    fs::copy_file(source_path(std::string("stdlib/") + f), dir / "stdlib" / f);
  return dir;
}

// Race to ten with an invariant that fails within a few steps of any game.
const char* kFailingGame = R"(game "Race"
players 2 named Red, Blue
track lane
board {
  for i in 0..10 {
    add site(i, 0) to lane
  }
}
dice d6 = [1, 2, 3, 4, 5, 6]
var at: int per player = 0
var thrown: int = 0
invariant "nobody past five": at[0] <= 5 and at[1] <= 5
phase throw chance d6 {
  thrown = roll[0]
  phase = go
}
phase go {
  move advance() when at[mover] + thrown <= 10 {
    at[mover] += thrown
    if at[mover] == 10 {
      finish mover
      end_game
    }
    mover = next_seat(mover)
    phase = throw
  }
  otherwise wait {
    mover = next_seat(mover)
    phase = throw
  }
}
)";

void write(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

}  // namespace

TEST_CASE("no command writes over one of its inputs, by any name", "[cli][output]") {
  fs::path dir = scratch("inputs");
  std::string game = (dir / "g.keli").string(), before = read_text(game);
  fs::create_symlink(dir / "g.keli", dir / "link.keli");
  fs::create_hard_link(dir / "g.keli", dir / "hard.keli");
  std::string rows = (dir / "stdlib" / "rows.keli").string(), rows_before = read_text(rows);
  std::string same_by_path = (dir / "stdlib" / ".." / "g.keli").string();
  for (const std::vector<std::string>& args : {std::vector<std::string>{"run", game, "--quiet", "--trace", game},
                                               {"run", game, "--quiet", "--trace", same_by_path},
                                               {"run", game, "--quiet", "--trace", (dir / "link.keli").string()},
                                               {"run", game, "--quiet", "--trace", (dir / "hard.keli").string()},
                                               {"run", game, "--quiet", "--trace", rows},  // an import is an input too
                                               {"render", game, "-o", game},
                                               {"render", game, "-o", rows},
                                               {"play", game, "--players", "random", "--seat", "0", "--trace", game}}) {
    auto r = keli(args);
    INFO(fmt::format("keli {}\n{}", fmt::join(args, " "), r.err));
    CHECK(r.status == 1);
    CHECK(r.err.find("an input of the command: it would be overwritten [E710]") != std::string::npos);
    CHECK(r.out.find("result:") == std::string::npos);  // refused before the game, not after it
    CHECK(read_text(game) == before);
    CHECK(read_text(rows) == rows_before);
  }
  CHECK(fs::is_symlink(dir / "link.keli"));
  fs::remove_all(dir);
}

TEST_CASE("a run that fails keeps the old trace and writes TRACE.partial", "[cli][output]") {
  fs::path dir = scratch("partial");
  write(dir / "race.keli", kFailingGame);
  write(dir / "t.jsonl", "an earlier trace\n");
  auto r = keli({"run", (dir / "race.keli").string(), "--quiet", "--trace", (dir / "t.jsonl").string()});
  INFO(r.err);
  CHECK(r.status == 1);
  // At the invariant's declaration, with the step, the values it read and the command again.
  CHECK(r.err.find("race.keli:12:1: error: the invariant \"nobody past five\" does not hold after step ") !=
        std::string::npos);
  CHECK(r.err.find("): at = [") != std::string::npos);
  CHECK(r.err.find("hint: reproduce: keli run " + (dir / "race.keli").string() + " --seed 1") != std::string::npos);
  CHECK(r.err.find("the trace up to the error is in " + (dir / "t.jsonl.partial").string()) != std::string::npos);
  CHECK(read_text((dir / "t.jsonl").string()) == "an earlier trace\n");
  std::string partial = read_text((dir / "t.jsonl.partial").string());
  CHECK(partial.rfind("{\"keli\":", 0) == 0);  // the header, then the steps up to the failure
  CHECK(partial.find("\"ply\":1") != std::string::npos);
  // A good run replaces the file whole, and leaves no temporary file beside it.
  auto ok = keli({"run", (dir / "g.keli").string(), "--quiet", "--trace", (dir / "t.jsonl").string()});
  CHECK(ok.status == 0);
  CHECK(read_text((dir / "t.jsonl").string()).rfind("{\"keli\":", 0) == 0);
  int temporaries = 0;
  for (const auto& e : fs::directory_iterator(dir))
    temporaries += e.path().filename().string().find(".tmp-") != std::string::npos;
  CHECK(temporaries == 0);
  fs::remove_all(dir);
}

TEST_CASE("fmt writes through a symbolic link, and a link loop is a clear error", "[cli][output]") {
  fs::path dir = scratch("links");
  std::string messy = kFailingGame;
  messy.replace(messy.find("players 2"), 9, "players   2");
  write(dir / "messy.keli", messy);
  fs::create_symlink("messy.keli", dir / "link.keli");
  fs::permissions(dir / "messy.keli", fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  auto r = keli({"fmt", (dir / "link.keli").string()});
  INFO(r.err);
  CHECK(r.status == 0);
  CHECK(fs::is_symlink(dir / "link.keli"));  // the link stays a link ...
  CHECK(read_text((dir / "messy.keli").string()).find("players 2 named") != std::string::npos);  // ... its file changed
  CHECK((fs::status(dir / "messy.keli").permissions() & fs::perms::all) ==
        (fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read));
  fs::create_symlink("loop", dir / "loop");
  fs::create_symlink("loop.keli", dir / "loop.keli");  // games are .keli files: any other is refused unread
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"fmt", (dir / "loop.keli").string()},
        {"validate", (dir / "loop.keli").string()},
        {"run", (dir / "g.keli").string(), "--quiet", "--trace", (dir / "loop").string()},
        {"render", (dir / "g.keli").string(), "-o", (dir / "loop").string()}}) {
    auto l = keli(args);
    INFO(fmt::format("keli {}\n{}", fmt::join(args, " "), l.err));
    CHECK(l.status == 1);
    CHECK(l.err.find("internal error") == std::string::npos);
    CHECK(l.err.find("levels of symbolic links") != std::string::npos);
  }
  // A device is written as it is, not replaced.
  CHECK(keli({"run", (dir / "g.keli").string(), "--quiet", "--trace", "/dev/null"}).status == 0);
  fs::remove_all(dir);
}

TEST_CASE("simulate keeps no record per game: a huge -n starts, not std::bad_alloc", "[cli][simulate]") {
  // Killed by `timeout` while still playing (status 124); it used to allocate 300000000 records
  // up front and die at once.
  std::string cmd = fmt::format("cd '{}' && timeout 2 '{}' simulate games/raja_pasu.keli -n 300000000 --threads 1 2>&1",
                                KELI_SOURCE_DIR, KELI_BINARY);
  FILE* f = popen(cmd.c_str(), "r");
  REQUIRE(f);
  std::string out;
  char buf[4096];
  while (size_t n = fread(buf, 1, sizeof buf, f)) out.append(buf, n);
  int status = pclose(f);
  INFO(out);
  CHECK(WEXITSTATUS(status) == 124);
  CHECK(out.find("bad_alloc") == std::string::npos);
}

TEST_CASE("an inherited invariant fails at its declaration in the base file", "[cli][invariant]") {
  fs::path dir = scratch("inherited");
  write(dir / "race.keli", kFailingGame);
  write(dir / "variant.keli", "game \"Race, a variant\"\nextends \"race.keli\"\n");
  auto r = keli({"run", (dir / "variant.keli").string(), "--quiet", "--seed", "4", "--players", "random,random"});
  INFO(r.err);
  CHECK(r.status == 1);
  // The base file, by the shorter of its absolute path and its path from the working folder.
  CHECK(r.err.find("race.keli:12:1: error: the invariant \"nobody past five\"") != std::string::npos);
  CHECK(r.err.find("variant.keli:") == std::string::npos);
  CHECK(r.err.find("12 | invariant \"nobody past five\"") != std::string::npos);
  CHECK(r.err.find("reproduce: keli run " + (dir / "variant.keli").string() + " --seed 4 --players random,random") !=
        std::string::npos);
}

TEST_CASE("simulate and match check invariants unless --no-invariants", "[cli][simulate]") {
  fs::path dir = scratch("invariants");
  write(dir / "race.keli", kFailingGame);
  std::string game = (dir / "race.keli").string();
  auto s = keli({"simulate", game, "-n", "20", "--threads", "2", "--json"});
  INFO(s.err);
  CHECK(s.status == 1);
  CHECK(s.err.find("race.keli:12:1: error: the invariant \"nobody past five\" does not hold after step ") !=
        std::string::npos);
  CHECK(s.err.find("20 of 20 games stopped with an error") != std::string::npos);
  CHECK(YAML::Load(s.out)["results"]["errors"].as<int>() == 20);
  auto fast = keli({"simulate", game, "-n", "20", "--json", "--no-invariants"});
  CHECK(fast.status == 0);
  CHECK(YAML::Load(fast.out)["results"]["errors"].as<int>() == 0);
  auto m = keli({"match", game, "--players", "random,greedy", "-n", "10", "--json"});
  CHECK(m.status == 1);
  CHECK(m.err.find("does not hold after step ") != std::string::npos);
  CHECK(YAML::Load(m.out)["errors"].as<int>() == 10);
  auto mf = keli({"match", game, "--players", "random,greedy", "-n", "10", "--json", "--no-invariants"});
  CHECK(mf.status == 0);
  CHECK(YAML::Load(mf.out)["errors"].as<int>() == 0);
  // A game whose invariants hold reports the same with and without the checks.
  auto a = keli({"simulate", "games/raja_pasu.keli", "-n", "6", "--json"});
  auto b = keli({"simulate", "games/raja_pasu.keli", "-n", "6", "--json", "--no-invariants"});
  CHECK(a.status == 0);
  CHECK(a.out == b.out);
  fs::remove_all(dir);
}

}  // namespace keli::test
