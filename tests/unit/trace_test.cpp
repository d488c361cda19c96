// Trace round trips: traces written by `keli run` replay cleanly, twice-run traces are identical,
// and every kind of damage to a trace is caught at the right line.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "support.hpp"

namespace keli::test {
namespace fs = std::filesystem;

static std::string temp(const std::string& name) {
  return (fs::temp_directory_path() / fmt::format("keli_trace_{}_{}", getpid(), name)).string();
}
static std::vector<std::string> lines_of(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> out;
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}
static void write_lines(const std::string& path, const std::vector<std::string>& lines) {
  std::ofstream out(path);
  for (const auto& l : lines) out << l << "\n";
}

TEST_CASE("traces replay for every game, seed and option set", "[trace]") {
  for (const auto& file : game_files()) {
    auto g = GameFile::open(file);
    REQUIRE(g->ok());
    int n = 0;
    auto axes = battery_axes(file);
    auto combos =
        axes.size() == 1 && axes[0].empty() ? std::vector<compile::ParamSettings>{{}} : option_combinations(*g, axes);
    size_t sets = trace_sets(file), stride = sets == 0 || sets >= combos.size() ? 1 : combos.size() / sets;
    for (size_t c = 0; c < combos.size(); c += stride) {
      const auto& settings = combos[c];
      std::vector<std::string> args = {"run",           file, "--quiet", "--seed", std::to_string(++n), "--trace",
                                       temp("rt.jsonl")};
      for (const auto& [k, v] : settings) args.insert(args.end(), {"--param", k + "=" + v});
      auto run = keli(args);
      INFO(run.err);
      REQUIRE(run.status == 0);
      auto rep = keli({"replay", temp("rt.jsonl")});
      INFO(rep.err);
      CHECK(rep.status == 0);
    }
  }
}

TEST_CASE("the same file, parameters and seed give the same trace", "[trace]") {
  REQUIRE(keli({"run", "games/raja_pasu.keli", "--quiet", "--seed", "11", "--trace", temp("a.jsonl")}).status == 0);
  REQUIRE(keli({"run", "games/raja_pasu.keli", "--quiet", "--seed", "11", "--trace", temp("b.jsonl")}).status == 0);
  auto a = lines_of(temp("a.jsonl")), b = lines_of(temp("b.jsonl"));
  REQUIRE(a.size() > 10);
  CHECK(a == b);
  REQUIRE(keli({"run", "games/raja_pasu.keli", "--quiet", "--seed", "12", "--trace", temp("c.jsonl")}).status == 0);
  CHECK(lines_of(temp("c.jsonl")) != a);
}

TEST_CASE("the trace corpus: good traces replay, bad ones fail at the expected line", "[trace]") {
  int good = 0, bad = 0;
  for (const auto& e : fs::directory_iterator(source_path("tests/traces/good"))) {
    if (e.path().extension() != ".jsonl") continue;
    std::string rel = "tests/traces/good/" + e.path().filename().string();
    auto r = keli({"replay", rel});
    INFO(rel << "\n" << r.err);
    CHECK(r.status == 0);
    CHECK(r.out.find("the trace matches") != std::string::npos);
    ++good;
  }
  for (const auto& e : fs::directory_iterator(source_path("tests/traces/bad"))) {
    if (e.path().extension() != ".jsonl") continue;
    std::string rel = "tests/traces/bad/" + e.path().filename().string();
    auto expect = lines_of(fs::path(e.path()).replace_extension(".expect").string());
    INFO(rel);
    REQUIRE(expect.size() == 1);
    auto r = keli({"replay", rel});
    CHECK(r.status == 1);
    CHECK(r.err.substr(0, r.err.find('\n')) == rel + ":" + expect[0] + " [E701]");
    ++bad;
  }
  CHECK(good >= 3);
  CHECK(bad >= 30);
}

TEST_CASE("replay --expand writes the whole state on every step, and the result replays", "[trace]") {
  REQUIRE(keli({"run", "games/pahada_keliya.keli", "--quiet", "--seed", "3", "--trace", temp("x.jsonl")}).status == 0);
  auto compact = lines_of(temp("x.jsonl"));
  auto r = keli({"replay", temp("x.jsonl"), "--expand"});
  REQUIRE(r.status == 0);
  std::ofstream(temp("expanded.jsonl")) << r.out;
  auto full = lines_of(temp("expanded.jsonl"));
  REQUIRE(full.size() == compact.size());
  CHECK(full[0].find("\"every\":1") != std::string::npos);
  for (size_t i = 1; i + 1 < full.size(); ++i) {
    INFO(full[i]);
    REQUIRE(full[i].find("\"state\":{") != std::string::npos);
    // the same step: only the whole state is added
    auto step = [](const std::string& l) {
      size_t at = l.find(",\"state\":");
      return at == std::string::npos ? l.substr(0, l.size() - 1) : l.substr(0, at);
    };
    CHECK(step(full[i]) == step(compact[i]));
  }
  CHECK(full.back() == compact.back());
  auto again = keli({"replay", temp("expanded.jsonl")});
  INFO(again.err);
  CHECK(again.status == 0);
}

TEST_CASE("a compact trace holds the whole state every K steps (--trace-every)", "[trace]") {
  REQUIRE(keli({"run", "games/raja_pasu.keli", "--quiet", "--seed", "5", "--trace-every", "100", "--trace",
                temp("k.jsonl")})
              .status == 0);
  auto t = lines_of(temp("k.jsonl"));
  REQUIRE(t.size() > 300);
  for (size_t i = 1; i + 1 < t.size(); ++i) {
    bool full = t[i].find("\"state\":") != std::string::npos;
    CHECK(full == (i % 100 == 0));  // line i + 1 holds step i
    CHECK(t[i].find("\"check\":\"") != std::string::npos);
  }
  CHECK(keli({"replay", temp("k.jsonl")}).status == 0);
  CHECK(keli({"run", "games/raja_pasu.keli", "--quiet", "--trace-every", "0", "--trace", temp("k.jsonl")}).status == 2);
}

TEST_CASE("damaged traces are rejected at the first differing line", "[trace]") {
  REQUIRE(keli({"run", "games/raja_pasu.keli", "--quiet", "--seed", "5", "--trace-every", "1", "--trace",
                temp("good.jsonl")})
              .status == 0);
  auto good = lines_of(temp("good.jsonl"));
  REQUIRE(good.size() > 20);
  auto expect_failure = [&](std::vector<std::string> lines, int line, const std::string& text) {
    write_lines(temp("bad.jsonl"), lines);
    auto r = keli({"replay", temp("bad.jsonl")});
    INFO(r.err);
    CHECK(r.status == 1);
    CHECK(r.err.find(fmt::format("bad.jsonl:{}:", line)) != std::string::npos);
    CHECK(r.err.find(text) != std::string::npos);
    CHECK(r.err.find("E701") != std::string::npos);
  };
  SECTION("truncated") {
    auto t = good;
    t.resize(10);
    expect_failure(t, 10, "ends before the game's result");
  }
  SECTION("a state value changed") {
    auto t = good;
    auto pos = t[7].find("\"store\":[");
    REQUIRE(pos != std::string::npos);
    t[7].insert(pos + 9, "9");
    expect_failure(t, 8, "differs");
  }
  SECTION("an illegal move") {
    auto t = good;
    auto pos = t[3].find("\"args\":[");
    REQUIRE(pos != std::string::npos);
    t[3].replace(pos + 8, t[3].find(']', pos) - pos - 8, "99");
    expect_failure(t, 4, "is not legal here");
  }
  SECTION("not JSON") {
    auto t = good;
    t[5] = "{\"ply\": 5, \"move\": ";
    expect_failure(t, 6, "not valid JSON");
  }
  SECTION("an empty file") { expect_failure({}, 1, "empty"); }
  SECTION("no header") {
    auto t = good;
    t[0] = "{\"hello\": 1}";
    expect_failure(t, 1, "not a trace header");
  }
  SECTION("a parameter the game does not have") {
    auto t = good;
    auto pos = t[0].find("\"holes\"");
    t[0].replace(pos, 7, "\"hoels\"");
    expect_failure(t, 1, "does not compile");
  }
  SECTION("lines after the result") {
    auto t = good;
    t.push_back(t[1]);
    expect_failure(t, static_cast<int>(t.size()), "lines follow the result");
  }
}

}  // namespace keli::test
