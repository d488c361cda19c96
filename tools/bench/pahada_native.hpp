// A hand-written Pahada Keliya, the baseline the engines are measured against (Keli issue 13). It
// plays exactly what games/pahada_keliya.keli plays with its default parameters (RULINGS.md
// section 2): Parker's escort rule, crosses not safe, the start pair on R's third cell from the
// outer corner, anticlockwise turns, a limit of 100,000 moves. Legal moves come in the
// interpreter's order so both can be driven by the same choices (race_identical_test.cpp).
#pragma once

#include <array>
#include <cstdint>

#include "runtime/rng.hpp"

namespace keli::bench {

struct PahadaKeliya {
  static constexpr int kPlayers = 4;
  static constexpr int kPieces = 16;  // four a player: pieces 4p .. 4p + 3 are player p's
  static constexpr int kArms = 4;
  static constexpr int kCells = 1 + kArms * 24;  // the centre (0), then 24 cells an arm
  static constexpr int kHome = 84;               // the last track position: the centre again
  static constexpr int kLastCatchable = 76;      // own C d0: beyond it only an unblocked player goes
  static constexpr int kEscortCell = 34;         // the partner's inner left corner on one's own track
  static constexpr int kBehind = 40;             // a partner's piece before this holds one back
  static constexpr int kDoubleSixBar = 74;       // the partner's cell (its 74, our 40) a double 6 reaches
  static constexpr int kMoveLimit = 100000;

  enum Over : int8_t { kPlaying = 0, kEnded = 1, kLimit = 2 };
  enum Phase : int8_t { kThrowing = 0, kMoving = 1 };  // the game's phases, in declared order
  enum Rule : int8_t { kStep, kEscortPair, kPass };

  struct State {
    std::array<int8_t, kPieces> pos{};  // 0 the centre, 1..83 the track, 84 home
    std::array<int8_t, 2> die{};        // unused values of the throw, 0 once used
    std::array<bool, kPlayers> escorted{};
    std::array<bool, kPlayers> done{};
    std::array<int8_t, kPlayers> places{};  // 1 for the winning team, 2 for the other
    int8_t next_place = 1;
    int8_t mover = 0;
    Phase phase = kThrowing;
    Over over = kPlaying;
    int32_t ply = 0;    // decisions and throws
    int32_t moves = 0;  // decisions
  };

  struct Move {
    Rule rule;
    int8_t pc = -1, d = -1;  // step's piece and die
  };
  // A player moves one of four pieces with one of two dice, or the escort pair, or passes.
  struct Moves {
    std::array<Move, 4 * 2 + 1> list;
    int n = 0;
  };

  static State initial();
  static bool over(const State& s) { return s.over != kPlaying; }
  static bool chance(const State& s) { return s.over == kPlaying && s.phase == kThrowing; }
  // A throw as Keli's Game::sample_roll draws it: one rng.below(4) a die, then sorted (alike dice).
  static void roll(State& s, runtime::Rng& rng);
  static void apply_roll(State& s, int low, int high);
  static void legal(const State& s, Moves& out);  // in rule order, then piece, then die
  static void apply(State& s, const Move& m);

  // One random game from the start (uniform among the legal moves, rng.below(n) a decision, the
  // dice from the same generator, as keli bench plays); returns the number of decisions.
  static int playout(runtime::Rng& rng, State& s);

  // The cell at a position of a player's track: 0 the centre, 1 + arm * 24 + column * 8 + depth.
  static int cell(int player, int at);
};

}  // namespace keli::bench
