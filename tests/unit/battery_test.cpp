// The random-play battery: every game in games/, every combination of its bool and choice
// parameters, many seeded random games each. After every step the game's declared invariants
// must hold; every game must end by its rules (not by its move limit) unless the plan allows it.
// How many games each combination plays comes from games/NAME.battery.yaml (default 100):
// `games` in the suite, `soak_games` in the soak run (`build/tests/keli_tests "[soak]"`).
#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>

#include "support.hpp"

namespace keli::test {
namespace {

struct Plan {
  int games = 100;
  int soak_games = 1000;
  bool natural = true;                                            // every game must end by the rules
  std::vector<std::pair<compile::ParamSettings, int>> overrides;  // when these settings: this many games
  std::vector<std::string> axes;  // the parameters whose combinations are run (no `axes`: all bools and choices)
  bool defaults_only = false;     // `axes: []`: the default parameters only
};

Plan read_plan(const std::string& game) {
  Plan plan;
  std::string path = std::filesystem::path(game).replace_extension(".battery.yaml").string();
  if (!std::filesystem::exists(path)) return plan;
  YAML::Node n = YAML::LoadFile(path);
  if (n["games"]) plan.games = n["games"].as<int>();
  plan.soak_games = n["soak_games"] ? n["soak_games"].as<int>() : plan.games * 10;
  if (n["require_natural_end"]) plan.natural = n["require_natural_end"].as<bool>();
  for (const auto& a : n["axes"]) plan.axes.push_back(a.as<std::string>());
  plan.defaults_only = n["axes"] && n["axes"].size() == 0;
  for (const auto& o : n["overrides"]) {
    compile::ParamSettings when;
    for (const auto& kv : o["when"]) when.emplace_back(kv.first.as<std::string>(), kv.second.as<std::string>());
    plan.overrides.emplace_back(when, o["games"].as<int>());
  }
  return plan;
}

int games_for(const Plan& plan, const compile::ParamSettings& s, bool soak) {
  int n = soak ? plan.soak_games : plan.games;
  for (const auto& [when, count] : plan.overrides) {
    bool all = true;
    for (const auto& w : when) all = all && std::find(s.begin(), s.end(), w) != s.end();
    if (all) {
      n = soak ? count * plan.soak_games / plan.games : count;
      break;
    }
  }
  // The sanitizer run of CI caps the battery (KELI_BATTERY_MAX_GAMES): the same code paths, fewer games.
  if (const char* cap = std::getenv("KELI_BATTERY_MAX_GAMES")) n = std::min(n, std::max(1, std::atoi(cap)));
  return n;
}

void battery(bool soak) {
  const char* only = std::getenv("KELI_BATTERY_GAME");  // run one game's battery: a part of its file name
  for (const auto& file : game_files()) {
    if (only && file.find(only) == std::string::npos) continue;
    auto g = GameFile::open(file);
    REQUIRE(g->ok());
    Plan plan = read_plan(file);
    auto combos = plan.defaults_only ? std::vector<compile::ParamSettings>{{}} : option_combinations(*g, plan.axes);
    for (const auto& settings : combos) {
      std::string label = file;
      for (const auto& [k, v] : settings) label += fmt::format(" {}={}", k, v);
      DYNAMIC_SECTION(label) {
        auto prog = compile(file, settings);
        runtime::Game game(prog);
        std::vector<runtime::Move> legal;
        int n = games_for(plan, settings, soak), natural = 0, over_10k = 0, longest = 0;
        long long steps = 0, moves = 0;
        for (int seed = 1; seed <= n; ++seed) {
          runtime::Rng rng(static_cast<uint64_t>(seed));
          runtime::State s = game.initial();
          while (!game.over(s)) {
            if (game.chance(s)) {
              game.apply_roll(s, game.sample_roll(s, rng));
            } else {
              game.legal(s, legal);
              REQUIRE(!legal.empty());
              game.apply(s, legal[rng.below(legal.size())]);
            }
            ++steps;
            auto bad = game.failed_invariants(s);
            if (!bad.empty()) FAIL(fmt::format("seed {}, ply {}: invariant \"{}\" fails", seed, game.ply(s), bad[0]));
          }
          if (!game.ended_by_limit(s)) ++natural;
          moves += game.moves(s);
          longest = std::max(longest, game.moves(s));
          if (game.moves(s) > 10000) ++over_10k;
        }
        fmt::print(
            "{}: {} games, {} ended by the rules, {} by the move limit; {:.1f} moves and {:.1f} steps a "
            "game, longest {} moves, {} games over 10,000 moves\n",
            label, n, natural, n - natural, static_cast<double>(moves) / n, static_cast<double>(steps) / n, longest,
            over_10k);
        std::fflush(stdout);
        if (plan.natural) CHECK(natural == n);
      }
    }
  }
}

}  // namespace

TEST_CASE("random-play battery: invariants hold and every game ends", "[battery]") { battery(false); }

// The full battery (hidden from the default run): build/tests/keli_tests "[soak]"
TEST_CASE("random-play soak: the battery at full size", "[.soak]") { battery(true); }

}  // namespace keli::test
