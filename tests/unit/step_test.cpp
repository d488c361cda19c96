// Keli from programs: stable action ids over every game, the step protocol (`keli step` fed a
// script of lines, good and bad), strict moves files (`keli replay --moves`), legal moves
// recorded in traces (`run --record-legal`) and the id space in `describe --json`.
#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "runtime/actions.hpp"
#include "support.hpp"
#include "util/json_read.hpp"

namespace keli::test {
namespace fs = std::filesystem;
using util::Json;

namespace {
std::string temp_file(const std::string& name, const std::string& text) {
  std::string path = (fs::temp_directory_path() / fmt::format("keli_step_{}_{}", getpid(), name)).string();
  std::ofstream(path) << text;
  return path;
}

}  // namespace

TEST_CASE("action ids: every legal move of random games has a distinct id that decodes to it", "[step][actions]") {
  for (const auto& path : game_files()) {
    INFO(path);
    auto p = compile(path);
    runtime::ActionSpace space(*p);
    runtime::Game g(p);
    runtime::Rng rng(11);
    runtime::State s = g.initial();
    std::vector<runtime::Move> legal;
    for (int step = 0; step < 400 && !g.over(s); ++step) {
      if (g.chance(s)) {
        const auto& roll = g.sample_roll(s, rng);
        int64_t id = runtime::ActionSpace::outcome_id(g.dice(s), roll);
        REQUIRE(id >= 0);
        REQUIRE(id < space.max_chance_outcomes());
        CHECK(g.dice(s).outcomes[id].values == roll);
        g.apply_roll(s, roll);
        continue;
      }
      g.legal(s, legal);
      std::set<int64_t> seen;
      for (const auto& m : legal) {
        int64_t id = space.id(m);
        REQUIRE(id >= 0);
        REQUIRE(id < space.num_distinct_actions());
        CHECK(seen.insert(id).second);
        runtime::Move back;
        REQUIRE(space.move(id, back));
        CHECK(back == m);
      }
      g.apply(s, legal[rng.below(legal.size())]);
    }
  }
}

TEST_CASE("action ids: the mixed-radix layout and returns from places", "[step][actions]") {
  auto p = compile("games/raja_pasu.keli");
  runtime::ActionSpace space(*p);
  // Rules in declaration order: sow(h in row[mover]) takes the sites, then round_over.
  REQUIRE(p->rules.size() == 2);
  CHECK(space.rule(0).first == 0);
  CHECK(space.rule(0).count == p->num_sites);
  CHECK(space.rule(1).first == p->num_sites);
  CHECK(space.num_distinct_actions() == p->num_sites + 1);
  runtime::Move m;
  CHECK_FALSE(space.move(space.num_distinct_actions(), m));
  CHECK_FALSE(space.move(-1, m));
  CHECK(runtime::returns_from_places({1, 2}) == std::vector<double>{1.0, -1.0});
  CHECK(runtime::returns_from_places({1, 1}) == std::vector<double>{0.0, 0.0});
  CHECK(runtime::returns_from_places({0, 0}) == std::vector<double>{0.0, 0.0});
  CHECK(runtime::returns_from_places({1, 2, 1, 2}) == std::vector<double>{1.0, -1.0, 1.0, -1.0});  // partners
  CHECK(runtime::returns_from_places({1, 1, 2}) == std::vector<double>{0.5, 0.5, -1.0});
  CHECK(runtime::returns_from_places({2, 1, 3}) == std::vector<double>{0.0, 1.0, -1.0});
}

// A game that scores points: `result` gives them beside the places, and they are the returns
// (the moves of tests/traces/good/kalah_margin_points.jsonl, whose result is South -10, North 10).
TEST_CASE("keli step: the result of a game that scores points", "[step][cli][points]") {
  std::string script;
  std::istringstream trace(read_text(source_path("tests/traces/good/kalah_margin_points.jsonl")));
  for (std::string line; std::getline(trace, line);) {
    auto j = util::Json::parse(line);
    if (j.contains("move"))
      script += fmt::format("{{\"cmd\": \"apply\", \"move\": \"{}\"}}\n", j["move"].get<std::string>());
  }
  script += "{\"cmd\": \"result\"}\n";
  auto r = keli_input({"step", "games/kalah_margin.keli"}, script);
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  auto v = json_lines(r.out);
  REQUIRE(v.size() == 43);
  CHECK(v[42]["places"] == util::Json::array({2, 1}));
  CHECK(v[42]["points"] == util::Json::array({-10, 10}));
  CHECK(v[42]["returns"] == util::Json::array({-10.0, 10.0}));
  auto plain = json_lines(keli_input({"step", "games/kalah.keli"}, "{\"cmd\": \"result\"}\n").out);
  CHECK(!plain[0].contains("points"));
}

TEST_CASE("keli step: a scripted session of good and bad lines", "[step][cli]") {
  const std::string script =
      "{\"cmd\": \"info\"}\n"
      "{\"cmd\": \"legal\", \"tag\": 7}\n"
      "{\"cmd\": \"apply\", \"move\": 2}\n"
      "{\"cmd\": \"apply\", \"move\": \"sow 9\"}\n"  // North's row: sites 7..13
      "not json\n"
      "{\"cmd\": \"frobnicate\"}\n"
      "{\"cmd\": \"apply\", \"move\": 9}\n"  // North's hole, South to move: illegal
      "{\"cmd\": \"apply\", \"move\": 99999}\n"
      "{\"cmd\": \"clone\"}\n"
      "{\"cmd\": \"apply\", \"move\": \"sow 3\"}\n"
      "{\"cmd\": \"undo\"}\n"
      "{\"cmd\": \"restore\", \"handle\": 1}\n"
      "{\"cmd\": \"restore\", \"handle\": 5}\n"
      "{\"cmd\": \"throw\", \"values\": [1]}\n"
      "{\"cmd\": \"result\"}\n"
      "{\"cmd\": \"state\"}\n"
      "{\"cmd\": \"quit\"}\n"
      "{\"cmd\": \"info\"}\n";  // after quit: not read
  auto r = keli_input({"step", "games/raja_pasu.keli"}, script);
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  auto v = json_lines(r.out);
  REQUIRE(v.size() == 17);
  CHECK(v[0]["ok"] == true);
  CHECK(v[0]["num_distinct_actions"] == 15);  // 14 sites, then round_over
  CHECK(v[1]["tag"] == 7);
  CHECK(v[1]["moves"].size() == 7);
  CHECK(v[1]["moves"][2]["id"] == 2);
  CHECK(v[1]["moves"][2]["call"] == "sow 2");
  CHECK(v[1]["moves"][2]["move"] == "sow hole 3 (7)");  // the game's `reads` text
  CHECK(v[2]["ok"] == true);
  CHECK(v[2]["ply"] == 1);
  CHECK(v[3]["ok"] == true);  // by notation
  CHECK(v[3]["ply"] == 2);
  CHECK(v[4]["ok"] == false);
  CHECK(v[4]["error"].get<std::string>().find("not JSON") != std::string::npos);
  CHECK(v[5]["error"].get<std::string>().find("unknown command 'frobnicate'") != std::string::npos);
  CHECK(v[6]["ok"] == false);
  CHECK(v[6]["code"] == "E705");
  CHECK(v[6]["error"].get<std::string>().find("the move 'sow 9' (action 9) is not legal here") != std::string::npos);
  CHECK(v[7]["error"].get<std::string>().find("no action id of this game") != std::string::npos);
  CHECK(v[8]["handle"] == 1);
  CHECK(v[9]["ply"] == 3);
  CHECK(v[10]["ply"] == 2);  // undo
  CHECK(v[11]["ply"] == 2);  // restored
  CHECK(v[12]["error"].get<std::string>().find("no state has the handle 5") != std::string::npos);
  CHECK(v[13]["error"].get<std::string>().find("decides here: no throw") != std::string::npos);
  CHECK(v[14]["returns"] == Json::array({0.0, 0.0}));
  CHECK(v[15]["state"].is_object());
  CHECK(v[16] == Json{{"ok", true}});
}

TEST_CASE("keli step: dice, exact probabilities, sampling from a seed, long lines", "[step][cli]") {
  const std::string long_line = "{\"cmd\": \"" + std::string(1100000, 'x') + "\"}\n";
  const std::string script = "{\"cmd\": \"chance\"}\n{\"cmd\": \"sample\", \"seed\": 5}\n" + long_line +
                             "{\"cmd\": \"undo\"}\n{\"cmd\": \"sample\", \"seed\": 5}\n"
                             "{\"cmd\": \"apply\", \"move\": 0}\n";
  auto r = keli_input({"step", "games/pahada_keliya.keli"}, script);
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  auto v = json_lines(r.out);
  REQUIRE(v.size() == 6);
  REQUIRE(v[0]["chance"] == true);
  CHECK(v[0]["player"] == -1);
  double sum = 0;
  int64_t weights = 0;
  for (const auto& o : v[0]["outcomes"]) {
    sum += o["probability"].get<double>();
    weights += o["weight"].get<int64_t>();
    CHECK(o["total"] == v[0]["outcomes"][0]["total"]);
  }
  CHECK(sum == Approx(1.0));
  CHECK(weights == v[0]["outcomes"][0]["total"].get<int64_t>());
  CHECK(v[1]["ok"] == true);
  CHECK(v[2]["error"].get<std::string>().find("longer than 1048576 bytes (kMaxStepLine)") != std::string::npos);
  CHECK(v[4]["values"] == v[1]["values"]);  // the same seed, the same throw
  CHECK(v[4]["outcome"] == v[1]["outcome"]);
  CHECK(v[5]["ok"] == (v[4]["chance"] == false));
}

TEST_CASE("keli replay --moves: strict, with the line of the first illegal step", "[step][cli]") {
  std::string good = temp_file("good.moves", "{\"move\": 2}\n\n{\"move\": \"sow 9\"}\n{\"move\": 3}\n");
  auto r = keli({"replay", "games/raja_pasu.keli", "--moves", good});
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  CHECK(r.out.find("South sow hole 3 (7)") != std::string::npos);  // its notation (action 2: site 2)
  CHECK(r.out.find("replayed 3 steps") != std::string::npos);
  std::string bad =
      temp_file("bad.moves", "{\"move\": 2}\n{\"move\": \"sow 9\"}\n{\"move\": \"sow 9\"}\n{\"move\": 1}\n");
  r = keli({"replay", "games/raja_pasu.keli", "--moves", bad});
  CHECK(r.status == 1);
  CHECK(r.err.find(bad + ":3:1: error: the move 'sow 9' is not legal here [E705]") != std::string::npos);
  std::string throws = temp_file("throw.moves", "{\"throw\": [1, 2, 3, 4, 5, 6]}\n");
  r = keli({"replay", "games/pahada_keliya.keli", "--moves", throws});
  CHECK(r.status == 1);
  CHECK(r.err.find(":1:1: error: the throw") != std::string::npos);
  std::string notjson = temp_file("notjson.moves", "{\"move\": 2}\n{\"move\": \n");
  r = keli({"replay", "games/raja_pasu.keli", "--moves", notjson});
  CHECK(r.status == 1);
  CHECK(r.err.find(":2:") != std::string::npos);
  CHECK(r.err.find("not JSON") != std::string::npos);
  r = keli({"replay", "games/raja_pasu.keli", "--moves", "/nonexistent/x.moves"});
  CHECK(r.status == 1);
  CHECK(r.err.find("cannot read the moves file") != std::string::npos);
}

TEST_CASE("run --record-legal: the legal moves in the trace, compared by replay", "[step][cli][trace]") {
  std::string trace = (fs::temp_directory_path() / fmt::format("keli_step_{}_legal.jsonl", getpid())).string();
  auto r = keli({"run", "games/raja_pasu.keli", "--seed", "3", "--quiet", "--trace", trace, "--record-legal"});
  REQUIRE(r.status == 0);
  std::string text = read_text(trace);
  REQUIRE(text.find("\"legal\":[0,1,2,3,4,5,6]") != std::string::npos);
  r = keli({"replay", trace});
  INFO(r.err);
  CHECK(r.status == 0);
  // One recorded list changed: the replay names the line.
  std::string changed = text;
  const std::string first = "\"legal\":[0,1,2,3,4,5,6]";
  changed.replace(changed.find(first), first.size(), "\"legal\":[0,1,2,3,4,5]");
  std::ofstream(trace) << changed;
  r = keli({"replay", trace});
  CHECK(r.status == 1);
  CHECK(r.err.find("the trace records the legal moves [0, 1, 2, 3, 4, 5], the replay finds") != std::string::npos);
  r = keli({"run", "games/raja_pasu.keli", "--record-legal"});
  CHECK(r.status == 2);
}

TEST_CASE("describe --json lists the id space", "[step][describe]") {
  auto r = keli({"describe", "games/pagade_kayi_ata.keli", "--json"});
  REQUIRE(r.status == 0);
  Json d;
  util::JsonError err;
  REQUIRE(util::parse_json(r.out, d, err));
  const Json& a = d["actions"];
  int64_t next = 0;
  for (const auto& rule : a["rules"]) {
    CHECK(rule["first"] == next);
    next += rule["count"].get<int64_t>();
  }
  CHECK(a["num_distinct_actions"] == next);
  CHECK(a["max_chance_outcomes"].get<int64_t>() > 0);
  CHECK(d["dice"][0]["throws"][0]["id"] == 0);
}

TEST_CASE("keli step: rules gives the rulebook of keli rules, in the format asked", "[step][cli][rulebook]") {
  auto r = keli_input({"step", "games/kalah.keli", "--param", "capture=opposite_full"},
                      "{\"cmd\": \"rules\"}\n{\"cmd\": \"rules\", \"format\": \"md\"}\n"
                      "{\"cmd\": \"rules\", \"format\": \"pdf\"}\n{\"cmd\": \"rules\", \"format\": 3}\n");
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  auto v = json_lines(r.out);
  REQUIRE(v.size() == 4);
  CHECK(v[0]["format"] == "text");
  CHECK(v[0]["rules"] == keli({"rules", "games/kalah.keli", "--param", "capture=opposite_full"}).out);
  CHECK(v[1]["rules"] == keli({"rules", "games/kalah.keli", "--param", "capture=opposite_full", "--format", "md"}).out);
  CHECK(v[2]["ok"] == false);
  CHECK(v[2]["error"].get<std::string>().find("text, md or html, not 'pdf'") != std::string::npos);
  CHECK(v[3]["ok"] == false);
}

TEST_CASE("keli step: why says which test a move fails, in words, or what the rules accept", "[step][cli][rulebook]") {
  // Pahada Keliya, South to move with a 3 in hand: East's piece, then text no rule reads.
  auto r = keli_input({"step", "games/pahada_keliya.keli"},
                      "{\"cmd\": \"throw\", \"values\": [3, 3]}\n"
                      "{\"cmd\": \"why\", \"move\": \"E1 6-9 (3)\"}\n"
                      "{\"cmd\": \"why\", \"move\": \"S1 6-9 (3)\"}\n"
                      "{\"cmd\": \"why\", \"move\": \"fly away\"}\n"
                      "{\"cmd\": \"why\"}\n");
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  auto v = json_lines(r.out);
  REQUIRE(v.size() == 5);
  CHECK(v[1]["legal"] == false);
  REQUIRE(v[1]["failed"].size() >= 1);
  CHECK(v[1]["failed"][0]["rule"] == "step");
  CHECK(v[1]["failed"][0]["test"] == "where");
  CHECK(v[1]["failed"][0]["param"] == "pc");
  CHECK(v[1]["failed"][0]["condition"] == "the owner of pc is the mover");
  CHECK(v[1]["failed"][0]["values"] == "the owner of pc is East and the mover is South");
  CHECK(v[1]["failed"][0]["at"].get<std::string>().find("games/pahada_keliya.keli:") == 0);
  CHECK(v[2]["legal"] == true);
  CHECK(v[3]["legal"] == false);
  CHECK(v[3]["failed"].empty());
  CHECK(!v[3]["instead"].empty());
  CHECK(v[3]["message"].get<std::string>().find("no rule of the moving phase reads 'fly away'") != std::string::npos);
  CHECK(v[4]["ok"] == false);
}

TEST_CASE("keli step: why by site says why nothing starts at a tapped site", "[step][cli][rulebook]") {
  // Kalah, South to move: South's pit 0 can be sown; North's pit 9 is not South's; after sowing
  // pit 2 it is empty; a label the board does not have is an error reply.
  auto r = keli_input({"step", "games/kalah.keli"},
                      "{\"cmd\": \"why\", \"site\": \"0\"}\n"
                      "{\"cmd\": \"why\", \"site\": \"9\"}\n"
                      "{\"cmd\": \"apply\", \"move\": \"sow 2\"}\n"
                      "{\"cmd\": \"why\", \"site\": \"2\"}\n"
                      "{\"cmd\": \"why\", \"site\": \"z9\"}\n");
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  auto v = json_lines(r.out);
  REQUIRE(v.size() == 5);
  CHECK(v[0]["legal"] == true);
  CHECK(v[0]["message"] == "'1 (4)' is legal now");
  CHECK(v[1]["legal"] == false);
  REQUIRE(v[1]["failed"].size() == 1);
  CHECK(v[1]["failed"][0]["test"] == "domain");
  CHECK(v[1]["failed"][0]["anchor"] == "move-sowing-sow");
  CHECK(v[1]["message"].get<std::string>().find("sow cannot start at 9: h must be one of the mover's row") == 0);
  REQUIRE(v[3]["failed"].size() == 1);
  CHECK(v[3]["failed"][0]["test"] == "guard");
  CHECK(v[3]["failed"][0]["values"] == "the number of counters in h is 0");
  CHECK(v[4]["ok"] == false);
  CHECK(v[4]["error"].get<std::string>().find("no site 'z9'") != std::string::npos);
}

}  // namespace keli::test
