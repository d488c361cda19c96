// The hand-written Raja Pasu and games/raja_pasu.keli must be the same game: 10,000 random games
// driven by the same choices, with the same legal moves in the same order and identical states
// (counters and closed flag per hole, stores, mover, round, moves, over) after every move.
// `native_identical_test single` plays one round (the file's `rounds = single`), else the match.
// KELI_NATIVE_MAX_GAMES caps the count (the sanitizer build), as KELI_BATTERY_MAX_GAMES does.
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <string>

#include "lockstep.hpp"
#include "raja_pasu_native.hpp"
#include "runtime/game.hpp"
#include "session/game_file.hpp"

namespace {

using keli::bench::RajaPasu;
namespace rt = keli::runtime;
namespace compile = keli::compile;

using keli::bench::lockstep::var;

// Keli's state in the native form, read by variable name through the program's layout.
struct Layout {
  int counters, closed, store, round;
  explicit Layout(const compile::Program& p)
      : counters(var(p, "counters").base),
        closed(var(p, "closed").base),
        store(var(p, "store").base),
        round(var(p, "round").base) {}
  RajaPasu::State read(const rt::State& s) const {
    RajaPasu::State n;
    for (int h = 0; h < RajaPasu::kSites; ++h) {
      n.counters[h] = s[counters + h];
      n.closed[h] = s[closed + h] != 0;
    }
    n.store = {s[store], s[store + 1]};
    n.mover = s[compile::kMover];
    n.round = s[round];
    n.moves = s[compile::kMoves];
    n.over = static_cast<RajaPasu::Over>(s[compile::kOver]);
    return n;
  }
};

std::string show(const RajaPasu::State& s) {
  std::string c, cl;
  for (int h = 0; h < RajaPasu::kSites; ++h) {
    c += fmt::format("{} ", s.counters[h]);
    cl += s.closed[h] ? 'x' : '.';
  }
  return fmt::format("counters {}closed {} store {} {} mover {} round {} moves {} over {}", c, cl, s.store[0],
                     s.store[1], s.mover, s.round, s.moves, static_cast<int>(s.over));
}

bool same(const RajaPasu::State& a, const RajaPasu::State& b) {
  return a.counters == b.counters && a.closed == b.closed && a.store == b.store && a.mover == b.mover &&
         a.round == b.round && a.moves == b.moves && a.over == b.over;
}

}  // namespace

int main(int argc, char** argv) {
  const bool single = argc > 1 && std::string(argv[1]) == "single";
  if (argc > 2 || (argc == 2 && !single)) {
    fmt::print(stderr, "usage: native_identical_test [single]\n");
    return 2;
  }
  const RajaPasu native(single ? RajaPasu::Rounds::Single : RajaPasu::Rounds::Match);
  int games = 10'000;
  if (const char* cap = std::getenv("KELI_NATIVE_MAX_GAMES")) games = std::min(games, std::max(1, std::atoi(cap)));
  auto file = keli::GameFile::open(std::string(KELI_SOURCE_DIR) + "/games/raja_pasu.keli");
  keli::diag::Diagnostics d;
  compile::ParamSettings settings;
  if (single) settings.emplace_back("rounds", "single");
  auto program = file->ok() ? file->compile(settings, d) : nullptr;
  if (!program) {
    fmt::print(stderr, "games/raja_pasu.keli does not compile\n");
    return 1;
  }
  // The native numbering is the sowing order; the interpreter's must be the same for the
  // per-hole comparison to mean anything.
  if (program->num_sites != RajaPasu::kSites) {
    fmt::print(stderr, "the game has {} sites, the native version {}\n", program->num_sites, RajaPasu::kSites);
    return 1;
  }
  for (const auto& t : program->region_tables)
    if (t.name == "ring") {
      const auto& ring = program->regions[t.base];
      for (int i = 0; i < RajaPasu::kSites; ++i)
        if (ring[i] != i) {
          fmt::print(stderr, "the ring's {}th hole is site {}, not {}\n", i, ring[i], i);
          return 1;
        }
    }
  const Layout layout(*program);
  rt::Game game(program);
  std::vector<rt::Move> legal;
  RajaPasu::Moves native_legal;
  long long moves = 0, limit_games = 0;
  for (int g = 0; g < games; ++g) {
    rt::Rng rng(static_cast<uint64_t>(g) + 1);
    rt::State ks = game.initial();
    RajaPasu::State ns = RajaPasu::initial();
    auto fail = [&](const std::string& what) {
      fmt::print(stderr, "game {} (seed {}), after {} moves: {}\n  keli:   {}\n  native: {}\n", g, g + 1, ns.moves,
                 what, show(layout.read(ks)), show(ns));
      return 1;
    };
    if (!same(layout.read(ks), ns)) return fail("the start positions differ");
    while (!game.over(ks)) {
      if (game.chance(ks)) return fail("the interpreter has a chance state; Raja Pasu has no dice");
      game.legal(ks, legal);
      RajaPasu::legal(ns, native_legal);
      bool legal_same = static_cast<int>(legal.size()) == native_legal.n;
      for (int i = 0; legal_same && i < native_legal.n; ++i) {
        int h = legal[i].nargs == 1 ? legal[i].args[0] : RajaPasu::kRoundOver;
        legal_same = h == native_legal.holes[i];
      }
      if (!legal_same)
        return fail(fmt::format("the legal moves differ ({} in keli, {} native)", legal.size(), native_legal.n));
      size_t pick = static_cast<size_t>(rng.below(legal.size()));
      game.apply(ks, legal[pick]);
      native.apply(ns, native_legal.holes[pick]);
      ++moves;
      if (!same(layout.read(ks), ns))
        return fail(fmt::format("the states differ after playing {}", game.call_text(legal[pick])));
    }
    if (ns.over == RajaPasu::kPlaying) return fail("keli ended the game, the native version did not");
    limit_games += ns.over == RajaPasu::kLimit;
  }
  fmt::print("{} games ({}), {} moves: identical states after every move ({} games stopped by the move limit)\n", games,
             single ? "one round" : "a match", moves, limit_games);
  return 0;
}
