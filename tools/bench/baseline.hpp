// What the hand-written race game baselines share: the Pachisi tracks of stdlib/arms.keli, the
// runtime's bookkeeping after a decision, and a random playout as keli bench plays one (dice from
// the same generator, one rng.below(n) a decision), so that their games are the interpreter's
// from the same seed.
#pragma once

#include <cstdint>

#include "runtime/rng.hpp"

namespace keli::bench {

// stdlib/arms.keli's cell(a, column, depth), numbered as Keli numbers the sites the board
// shapes make: the centre first, then 24 cells an arm (column L, C, R, depth outer to inner).
constexpr int arm_cell(int a, int column, int depth) { return 1 + a * 24 + column * 8 + depth; }

// race_track(h, Arms, false) for every home arm h: the cell at each position, 0 the centre.
template <int Arms>
struct RaceTracks {
  static constexpr int kLength = 17 * (Arms + 1);  // positions 0 (in hand) .. home
  uint16_t at[Arms][kLength] = {};
  constexpr RaceTracks() {
    for (int h = 0; h < Arms; ++h) {
      int n = 1;  // position 0 is the centre
      for (int d = 0; d < 8; ++d) at[h][n++] = arm_cell(h, 1, 7 - d);
      for (int d = 0; d < 8; ++d) at[h][n++] = arm_cell(h, 2, d);
      for (int k = 1; k < Arms; ++k) {
        int a = (h + k) % Arms;
        for (int d = 0; d < 8; ++d) at[h][n++] = arm_cell(a, 0, 7 - d);
        at[h][n++] = arm_cell(a, 1, 0);
        for (int d = 0; d < 8; ++d) at[h][n++] = arm_cell(a, 2, d);
      }
      for (int d = 0; d < 8; ++d) at[h][n++] = arm_cell(h, 0, 7 - d);
      at[h][n++] = arm_cell(h, 1, 0);
      for (int d = 1; d < 8; ++d) at[h][n++] = arm_cell(h, 1, d);
      at[h][n] = 0;  // home: the centre
    }
  }
};

// Game::after_step for a decision: count it, and stop at the move limit.
template <class Game>
void count_decision(typename Game::State& s) {
  ++s.ply;
  ++s.moves;
  if (s.over == Game::kPlaying && s.moves >= Game::kMoveLimit) s.over = Game::kLimit;
}

// One random game from the start; returns the number of decisions.
template <class Game, class State>
int random_playout(const Game& game, runtime::Rng& rng, State& s) {
  s = game.initial();
  typename Game::Moves m;
  while (!game.over(s)) {
    if (game.chance(s)) {
      game.roll(s, rng);
      continue;
    }
    game.legal(s, m);
    game.apply(s, m.list[rng.below(static_cast<uint64_t>(m.n))]);
  }
  return s.moves;
}

}  // namespace keli::bench
