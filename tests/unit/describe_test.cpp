// keli describe: the library's Description of every game holds the facts the compiled program
// has (seats, sites, parameters, dice, state), each allowed parameter value really compiles, the
// variants' changes are listed exactly, and the binary's text and JSON carry the same facts.
#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "describe/describe.hpp"
#include "lang/limits.hpp"
#include "support.hpp"

namespace keli::test {
namespace fs = std::filesystem;

namespace {

describe::Description described(const std::string& path, const compile::ParamSettings& settings = {}) {
  auto g = GameFile::open(path);
  REQUIRE(g->ok());
  auto p = compile(path, settings);
  return describe::describe(*g, p);
}

// A parameter value compiles (or not) as the only setting.
bool compiles(const GameFile& g, const std::string& name, const std::string& value) {
  diag::Diagnostics d;
  return g.compile({{name, value}}, d) != nullptr;
}

using Sets = std::vector<std::tuple<std::string, std::string, std::string>>;  // name, from, to

Sets parameter_changes(const describe::Description& d) {
  Sets out;
  for (const auto& c : d.changes)
    if (c.action == "sets" && c.kind == "parameter") out.emplace_back(c.name, c.from, c.to);
  return out;
}

}  // namespace

TEST_CASE("describe holds every game's facts", "[describe]") {
  auto files = game_files();
  REQUIRE(files.size() >= 4);
  for (const auto& path : files) {
    INFO(path);
    auto g = GameFile::open(path);
    REQUIRE(g->ok());
    auto p = compile(path);
    describe::Description d = describe::describe(*g, p);
    CHECK(d.game == p->game_name);
    CHECK(d.seats == p->seat_names);
    CHECK(d.sites == p->num_sites);
    CHECK(d.sites > 0);
    CHECK(d.variant == !g->checked().base_file.empty());
    CHECK(d.phases.size() == p->phases.size());

    // Every allowed value compiles; something outside them does not; the default is one of them.
    REQUIRE(d.params.size() == p->params.size());
    for (const auto& x : d.params) {
      INFO(x.name);
      CHECK(!x.value.empty());
      if (x.type == "bool" || x.type == "choice" || !x.allowed.empty()) {
        REQUIRE(!x.allowed.empty());
        CHECK(std::count(x.allowed.begin(), x.allowed.end(), x.default_value) == 1);
        for (const auto& v : x.allowed) CHECK(compiles(*g, x.name, v));
        CHECK_FALSE(compiles(*g, x.name, "no_such_value"));
      }
      if (!x.range.empty()) {
        auto dots = x.range.find("..");
        std::string lo = x.range.substr(0, dots), hi = x.range.substr(dots + 2);
        CHECK(compiles(*g, x.name, lo));
        CHECK(compiles(*g, x.name, hi));
        CHECK_FALSE(compiles(*g, x.name, std::to_string(std::stoll(hi) + 1)));
      }
    }

    // Each dice set's throws and totals are a distribution: weights sum to the total, which for
    // dice of different faces is the product of the face counts.
    for (const auto& x : d.dice) {
      INFO(x.name);
      int64_t sum = 0, totals = 0, product = 1;
      for (const auto& t : x.throws) sum += t.weight;
      for (const auto& [total, w] : x.totals) totals += w;
      for (const auto& f : x.faces) product *= static_cast<int64_t>(f.size());
      CHECK(sum == x.total_weight);
      CHECK(totals == x.total_weight);
      CHECK(x.total_weight == product);
    }

    // Regions: one size per instance, as the program built them (the geometry's after the game's).
    size_t instances = 0;
    for (const auto& r : d.regions) instances += r.sizes.size();
    CHECK(instances ==
          (p->ray_table >= 0 ? static_cast<size_t>(p->region_tables[p->ray_table].base) : p->regions.size()));

    int slots = d.fixed_slots;
    for (const auto& v : d.vars) slots += v.slots;
    CHECK(slots == d.state_slots);
    CHECK(d.state_slots == p->visible_size);  // the facts' hidden slots are no part of it
    CHECK(d.move_limit == p->move_limit);
  }
}

TEST_CASE("describe names seats, teams, pieces, tracks and dice", "[describe]") {
  auto d = described(source_path("games/pahada_keliya.keli"));
  CHECK(d.seats == std::vector<std::string>{"South", "East", "North", "West"});
  CHECK(d.teams == std::vector<std::vector<std::string>>{{"South", "North"}, {"East", "West"}});
  CHECK(d.pieces == 16);
  CHECK(d.pieces_per_seat == std::vector<int>{4, 4, 4, 4});
  CHECK(d.shapes == std::vector<std::string>{"cross", "race_track"});
  bool path_seen = false;
  for (const auto& r : d.regions)
    if (r.name == "path") {
      path_seen = true;
      CHECK(r.track);
      CHECK(r.dims == "per 0..15");
      CHECK(std::count(r.sizes.begin(), r.sizes.end(), 85) == 4);
    }
  CHECK(path_seen);
  REQUIRE(d.dice.size() == 1);
  const auto& long_dice = d.dice[0];
  CHECK(long_dice.identical);
  CHECK(long_dice.throws.size() == 10);  // 4 doubles at 1/16, 6 mixed at 2/16
  CHECK(describe::fraction(long_dice.throws[0].weight, long_dice.total_weight) == "1/16");
  CHECK(long_dice.thrown_in == std::vector<std::string>{"throwing"});
  CHECK_FALSE(long_dice.ordered);

  // `ordered` keeps alike dice's values in place: every ordered throw is its own outcome.
  auto rule = described(source_path("tests/rules/ordered_dice.keli"));
  REQUIRE(rule.dice.size() == 4);
  CHECK((rule.dice[0].ordered && !rule.dice[0].identical && rule.dice[0].throws.size() == 9));
  CHECK((!rule.dice[1].ordered && rule.dice[1].identical && rule.dice[1].throws.size() == 6));
  CHECK((rule.dice[2].ordered && rule.dice[2].throws.size() == 9));
  CHECK((rule.dice[3].name == "by_name" && rule.dice[3].identical && rule.dice[3].faces.size() == 2));

  auto solo = described(source_path("games/pagade_kayi_ata.keli"));
  CHECK(solo.teams.empty());  // team(p) = p: every seat alone
  CHECK(solo.pieces_per_seat == std::vector<int>(16, 4));
  auto teams = described(source_path("games/pagade_kayi_ata.keli"), {{"play", "teams"}, {"players", "4"}});
  CHECK(teams.seats.size() == 4);
  CHECK(teams.teams == std::vector<std::vector<std::string>>{{"P1", "P3"}, {"P2", "P4"}});
  CHECK(teams.pieces_per_seat == std::vector<int>(4, 16));
  for (const auto& x : teams.params)
    if (x.name == "players") CHECK((x.default_value == "16" && x.value == "4"));

  auto raja = described(source_path("games/raja_pasu.keli"));
  REQUIRE(raja.events.size() == 1);
  CHECK(raja.events[0].handlers == std::vector<std::string>{"on dropped(h) when counters[h] == 4"});
  CHECK(raja.shapes == std::vector<std::string>{"two_rows"});
}

TEST_CASE("describe lays out the observation tensor from the game's tables", "[describe][observation]") {
  // Kalah: the seats' rows and stores agree on a turn of the board; the parts in order.
  auto kalah = described(source_path("games/kalah.keli"));
  CHECK(kalah.observation_turns_board);
  CHECK(kalah.observation_size == 34);
  std::vector<std::string> names;
  for (const auto& part : kalah.observation) names.push_back(part.name);
  CHECK(names == std::vector<std::string>{"to_move", "places", "counters", "closed", "store"});
  CHECK(kalah.observation[2].offset == 4);
  CHECK(kalah.observation[2].shape == std::vector<int>{14});
  // Pahada Keliya: a phase part, and a race board read the same from every seat.
  auto pahada = described(source_path("games/pahada_keliya.keli"));
  CHECK_FALSE(pahada.observation_turns_board);
  REQUIRE(pahada.observation.size() > 1);
  CHECK(pahada.observation[1].name == "phase");
  int end = 0;
  for (const auto& part : pahada.observation) {
    CHECK(part.offset == end);  // the parts tile the tensor
    int n = 1;
    for (int x : part.shape) n *= x;
    end += n;
  }
  CHECK(end == pahada.observation_size);
}

TEST_CASE("describe lists exactly what each variant changes", "[describe]") {
  const std::vector<std::pair<std::string, Sets>> variants = {
      {"pahada_keliya_simple", {{"escort", "parker", "simple"}}},
      {"pagade_kayi_ata_4_players", {{"players", "16", "4"}}},
      {"pagade_kayi_ata_8_players", {{"players", "16", "8"}}},
      {"pagade_kayi_ata_long_dice", {{"dice", "octagonal", "long"}}},
      {"pagade_kayi_ata_teams", {{"play", "individual", "teams"}}},
      {"pagade_kayi_ata_outer_exit",
       {{"exit", "center", "outer"}, {"captured_to", "hand", "centre"}, {"pairs", "true", "false"}}},
  };
  int checked = 0;
  for (const auto& [name, want] : variants) {
    std::string path = source_path("games/" + name + ".keli");
    if (!fs::exists(path)) continue;
    INFO(name);
    auto d = described(path);
    CHECK(d.variant);
    CHECK(d.base_game != "");
    CHECK(parameter_changes(d) == want);
    for (const auto& c : d.changes) CHECK((c.action == "sets" || c.kind == "about"));  // nothing else changed
    ++checked;
  }
  CHECK(checked >= 2);
  auto simple = described(source_path("games/pahada_keliya_simple.keli"));
  CHECK(simple.base_file == "pahada_keliya.keli");
  CHECK(simple.base_game == "Pahada Keliya");
  REQUIRE(simple.changes.size() == 2);
  CHECK(simple.changes[0].kind == "about");
  CHECK(simple.changes[0].to == "escort = simple");
  // A game that extends nothing has no changes.
  CHECK(described(source_path("games/pahada_keliya.keli")).changes.empty());
}

TEST_CASE("describe replaced and added declarations of a variant", "[describe]") {
  fs::path dir = fs::temp_directory_path() / fmt::format("keli_describe_{}", getpid());
  fs::create_directories(dir);
  auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir / name) << text;
    return (dir / name).string();
  };
  write("base.keli",
        "game \"Base\"\nparam n: int in 1..5 = 2 \"how many\"\nplayers 2\ntrack lane\n"
        "board { for i in 0..n { add site(i, 0) to lane } }\nvar at: int per player\n"
        "def far(p: player): bool = at[p] >= n\nevent moved(p: player)\n"
        "phase go { move step() { at[mover] += 1 emit moved(mover) if far(mover) { finish mover end_game } mover = "
        "next_seat(mover) } }\n");
  std::string variant =
      write("variant.keli",
            "game \"Variant\" extends \"base.keli\"\nparam n = 4\nplayers 3\n"
            "def far(p: player): bool = at[p] >= n + 1\nvar bonus: int\n"
            "on moved(p) { bonus += 1 }\ninvariant \"bonus grows\": bonus >= 0\nsetup { bonus = 0 }\n");
  auto d = described(variant);
  std::set<std::string> seen;
  for (const auto& c : d.changes) seen.insert(c.action + " " + c.kind + " " + c.name + " " + c.from + " " + c.to);
  CHECK(seen == std::set<std::string>{"sets parameter n 2 4", "sets players players 2 3", "replaces def far  ",
                                      "adds var bonus  ", "adds handler moved(p)  ", "adds invariant bonus grows  ",
                                      "adds setup   "});
  CHECK(d.seats.size() == 3);
  // One rule of a base phase replaced and one added, through `extend phase`.
  std::string rules = write("rules.keli",
                            "game \"Rules\" extends \"base.keli\"\nextend phase go {\n"
                            "  override move step() { at[mover] += 2 mover = next_seat(mover) }\n"
                            "  move rest() { mover = next_seat(mover) }\n}\n");
  auto r = described(rules);
  std::set<std::string> rule_changes;
  for (const auto& c : r.changes) rule_changes.insert(c.action + " " + c.kind + " " + c.name);
  CHECK(rule_changes == std::set<std::string>{"replaces move step (phase go)", "adds move rest (phase go)"});
  fs::remove_all(dir);
}

TEST_CASE("keli describe prints text and JSON with the same facts", "[describe][cli]") {
  for (const auto& path : game_files()) {
    std::string rel = "games/" + fs::path(path).filename().string();
    INFO(rel);
    auto d = described(path);
    Run text = keli({"describe", rel});
    REQUIRE(text.status == 0);
    CHECK(text.err.empty());
    for (const char* heading : {"Players\n", "Board\n", "Parameters\n", "Phases", "State (4 bytes a slot)\n"})
      CHECK(text.out.find(heading) != std::string::npos);
    CHECK(text.out.find(fmt::format("{} sites", d.sites)) != std::string::npos);
    CHECK(text.out.find(fmt::format("total  ")) != std::string::npos);
    for (const auto& s : d.seats) CHECK(text.out.find(s) != std::string::npos);
    size_t widest = 0, start = 0;
    for (size_t nl; (nl = text.out.find('\n', start)) != std::string::npos; start = nl + 1)
      widest = std::max(widest, nl - start);
    CHECK(widest <= 110);  // wrapped near 100 (a single long word may stick out)

    Run json = keli({"describe", rel, "--json"});
    REQUIRE(json.status == 0);
    YAML::Node j = YAML::Load(json.out);
    CHECK(j["game"].as<std::string>() == d.game);
    CHECK(j["players"]["count"].as<size_t>() == d.seats.size());
    CHECK(j["players"]["seats"][0].as<std::string>() == d.seats[0]);
    CHECK(j["board"]["sites"].as<int>() == d.sites);
    CHECK(j["params"].size() == d.params.size());
    for (size_t i = 0; i < d.params.size(); ++i) {
      CHECK(j["params"][i]["value"].as<std::string>() == d.params[i].value);
      CHECK(j["params"][i]["allowed"].size() == d.params[i].allowed.size());
    }
    CHECK(j["dice"].size() == d.dice.size());
    for (size_t i = 0; i < d.dice.size(); ++i) {
      int64_t sum = 0;
      for (const auto& t : j["dice"][i]["throws"]) sum += t["weight"].as<int64_t>();
      CHECK(sum == j["dice"][i]["total_weight"].as<int64_t>());
    }
    CHECK(j["state"]["bytes"].as<int>() == 4 * d.state_slots);
    CHECK(j["move_limit"].as<int>() == d.move_limit);
    CHECK(j["work_budget"].as<int64_t>() == d.work_budget);
    CHECK(text.out.find("Safety bounds (the engine's, not rules)\n") != std::string::npos);
    CHECK(text.out.find(fmt::format("moves: {} decisions", d.move_limit)) != std::string::npos);
    CHECK(j["variant"].as<bool>() == d.variant);
    if (d.variant) CHECK(j["changes"].size() == d.changes.size());
  }
  Run simple = keli({"describe", "games/pahada_keliya_simple.keli"});
  CHECK(simple.out.find("parameter  escort   parker -> simple") != std::string::npos);
  CHECK(simple.out.find("teams (2): South + North; East + West") != std::string::npos);
  Run four = keli({"describe", "games/pagade_kayi_ata.keli", "--param", "players=4", "--json"});
  REQUIRE(four.status == 0);
  CHECK(YAML::Load(four.out)["players"]["count"].as<int>() == 4);
}

// The `safety { }` block: its parameters and limits are listed apart from the rules' parameters.
TEST_CASE("describe lists the safety block's bounds apart from the rules", "[describe][cli]") {
  auto d = described(source_path("games/raja_pasu.keli"), {{"lap_limit", "7"}});
  CHECK(d.move_limit == 20000);
  CHECK(d.limit_declared);
  CHECK_FALSE(d.work_declared);
  CHECK(d.work_budget == lang::kDefaultWorkBudget);
  CHECK(d.history == 0);
  for (const auto& p : d.params) CHECK(p.safety == (p.name == "lap_limit"));

  Run text = keli({"describe", "games/raja_pasu.keli", "--param", "lap_limit=7"});
  REQUIRE(text.status == 0);
  const size_t rules = text.out.find("Parameters\n"), phases = text.out.find("Phases");
  const size_t safety = text.out.find("Safety bounds (the engine's, not rules)\n");
  REQUIRE(safety != std::string::npos);
  const size_t lap = text.out.find("lap_limit ");
  CHECK(text.out.find("rounds ", rules) < phases);  // a rule's parameter in the first table
  CHECK(lap > safety);                              // the safety block's only after its heading
  CHECK(text.out.find("1000     7 (set)", safety) != std::string::npos);
  CHECK(text.out.find("moves: 20000 decisions, then the game ends by limit\n", safety) != std::string::npos);
  CHECK(text.out.find("work: 100000000 units a step", safety) != std::string::npos);

  Run json = keli({"describe", "games/oware.keli", "--param", "cycling=repetition", "--json"});
  REQUIRE(json.status == 0);
  YAML::Node j = YAML::Load(json.out);
  CHECK(j["history"].as<int>() == 3001);
  CHECK(j["move_limit"].as<int>() == 3000);
  for (const auto& p : j["params"]) CHECK_FALSE(p["safety"].as<bool>());
}

TEST_CASE("keli describe rejects bad input", "[describe][cli]") {
  Run missing = keli({"describe", "games/no_such_game.keli"});
  CHECK(missing.status == 1);
  CHECK(missing.err.find("cannot read 'games/no_such_game.keli'") != std::string::npos);
  CHECK(missing.out.empty());
  Run bad = keli({"describe", "games/pahada_keliya.keli", "--param", "escort=loose"});
  CHECK(bad.status == 1);
  CHECK(bad.err.find("'loose' is not a valid value for parameter 'escort'") != std::string::npos);
  CHECK(bad.out.empty());
  Run unknown = keli({"describe", "games/pahada_keliya.keli", "--param", "escrot=simple"});
  CHECK(unknown.status == 1);
  CHECK(unknown.err.find("unknown parameter 'escrot'") != std::string::npos);
  CHECK(keli({"describe"}).status == 2);
  CHECK(keli({"describe", "games/pahada_keliya.keli", "--seed", "3"}).status == 2);
}

}  // namespace keli::test
