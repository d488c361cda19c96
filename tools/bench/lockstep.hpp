// What the identical-state tests of the hand-written baselines share: loading a game, reading
// Keli's state by variable name through the program's layout, and driving Keli's interpreter
// and a hand-written game with the same random stream (dice and choices), comparing the legal
// moves and the states after every step.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "runtime/game.hpp"
#include "session/game_file.hpp"

namespace keli::bench::lockstep {

inline const compile::VarInfo& var(const compile::Program& p, const std::string& name) {
  for (const auto& v : p.vars)
    if (v.name == name) return v;
  throw std::runtime_error("the game has no variable '" + name + "'");
}

// The sites of a region or track instance (a track per index: `index` picks one).
inline const std::vector<int32_t>& region(const compile::Program& p, const std::string& name, int index = 0) {
  for (const auto& t : p.region_tables)
    if (t.name == name) return p.regions.at(static_cast<size_t>(t.base + index));
  throw std::runtime_error("the game has no region or track '" + name + "'");
}

// The first slot of a state variable, which must have `size` elements.
inline int base(const compile::Program& p, const std::string& name, int size) {
  const compile::VarInfo& v = var(p, name);
  if (v.size() != size) throw std::runtime_error(fmt::format("'{}' has {} elements, not {}", name, v.size(), size));
  return v.base;
}

// The first hidden slot of a declared `fact` the engine keeps (entries in the order of its
// parameters, the last fastest), checked to have `size` entries.
inline int fact_base(const compile::Program& p, const std::string& name, int size) {
  for (const compile::Fact& f : p.facts)
    if (f.kind == compile::FactKind::Tally && p.callables.at(f.def).name == name) {
      if (f.slots != size)
        throw std::runtime_error(fmt::format("fact '{}' has {} entries, not {}", name, f.slots, size));
      return f.base;
    }
  throw std::runtime_error(fmt::format("the game keeps no fact '{}'", name));
}

inline std::shared_ptr<const compile::Program> load(const std::string& file, const compile::ParamSettings& settings) {
  auto gf = GameFile::open(std::string(KELI_SOURCE_DIR) + "/" + file);
  diag::Diagnostics d;
  auto program = gf->ok() ? gf->compile(settings, d) : nullptr;
  if (!program) throw std::runtime_error(file + " does not compile");
  return program;
}

// Games to play: `wanted`, capped by KELI_NATIVE_MAX_GAMES (the sanitizer build).
inline int games(int wanted) {
  if (const char* cap = std::getenv("KELI_NATIVE_MAX_GAMES")) return std::min(wanted, std::max(1, std::atoi(cap)));
  return wanted;
}

// The first difference between Keli's state and the native one, variable by variable.
class Diff {
 public:
  explicit Diff(const runtime::State& keli) : keli_(keli) {}
  // Keli's slot `slot` (a variable's base plus its offset) against the native value.
  void check(const std::string& name, int index, int slot, int64_t native) {
    if (first_.empty() && keli_.at(static_cast<size_t>(slot)) != native)
      first_ = fmt::format("{}[{}]: keli {}, native {}", name, index, keli_[static_cast<size_t>(slot)], native);
  }
  // The slots every state starts with (compile/program.hpp).
  template <class Places>
  void fixed(int mover, int phase, int over, int ply, int moves, int next_place, const Places& places, int players) {
    check("mover", 0, compile::kMover, mover);
    check("phase", 0, compile::kPhase, phase);
    check("over", 0, compile::kOver, over);
    check("ply", 0, compile::kPly, ply);
    check("moves", 0, compile::kMoves, moves);
    check("next place", 0, compile::kNextPlace, next_place);
    for (int p = 0; p < players; ++p) check("places", p, compile::kPlaces + p, places[p]);
  }
  const std::string& first() const { return first_; }

 private:
  const runtime::State& keli_;
  std::string first_;
};

// Plays `games` random games of `game` (Keli) and `native` side by side, game g from seed g + 1.
// Native is an adapter with: start(), over(), chance(), roll(Rng&), legal() -> count,
// same_move(i, const Move&, const Program&), move_text(i), apply(i), moves(), limited(),
// diff(const State&) -> first difference or "".
template <class Native>
int run(const std::string& title, runtime::Game& game, Native& native, int games) {
  std::vector<runtime::Move> legal;
  long long steps = 0, limit_games = 0;
  std::map<std::string, long long> played;  // by rule: what the games exercised
  for (int g = 0; g < games; ++g) {
    runtime::Rng rng(static_cast<uint64_t>(g) + 1);
    runtime::State ks = game.initial();
    native.start();
    auto fail = [&](const std::string& what) {
      fmt::print(stderr, "{}: game {} (seed {}), step {}: {}\n", title, g, g + 1, ks[compile::kPly], what);
      return 1;
    };
    std::string diff = native.diff(ks);
    if (!diff.empty()) return fail("the start positions differ: " + diff);
    while (!game.over(ks)) {
      if (native.over()) return fail("the native version ended the game, keli did not");
      if (game.chance(ks) != native.chance()) return fail("only one of them throws the dice here");
      std::string done;
      if (game.chance(ks)) {
        runtime::Rng twin = rng;
        const auto& roll = game.sample_roll(ks, rng);
        done = game.roll_notation(roll);
        game.apply_roll(ks, roll);
        native.roll(twin);
        if (runtime::Rng(twin).next() != runtime::Rng(rng).next()) return fail("the throws drew differently");
      } else {
        game.legal(ks, legal);
        const int n = native.legal();
        if (n != static_cast<int>(legal.size()))
          return fail(fmt::format("{} legal moves in keli, {} native", legal.size(), n));
        for (int i = 0; i < n; ++i)
          if (!native.same_move(i, legal[static_cast<size_t>(i)], game.program()))
            return fail(fmt::format("legal move {}: keli {}, native {}", i,
                                    game.call_text(legal[static_cast<size_t>(i)]), native.move_text(i)));
        const size_t pick = static_cast<size_t>(rng.below(legal.size()));
        done = game.call_text(legal[pick]);
        ++played[game.program().rules.at(static_cast<size_t>(legal[pick].rule)).name];
        game.apply(ks, legal[pick]);
        native.apply(static_cast<int>(pick));
      }
      ++steps;
      diff = native.diff(ks);
      if (!diff.empty()) return fail("the states differ after " + done + ": " + diff);
    }
    if (!native.over()) return fail("keli ended the game, the native version did not");
    limit_games += native.limited();
  }
  std::string rules;
  for (const auto& [rule, n] : played) rules += fmt::format(" {} {}", rule, n);
  fmt::print(
      "{}: {} games, {} steps: the same legal moves and states after every step ({} games stopped by "
      "the move limit); moves played:{}\n",
      title, games, steps, limit_games, rules);
  return 0;
}

}  // namespace keli::bench::lockstep
