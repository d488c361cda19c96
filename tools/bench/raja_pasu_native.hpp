// A hand-written Raja Pasu, the speed limit the interpreter is measured against (Keli issue 6).
// It plays exactly what games/raja_pasu.keli plays with its default parameters (RULINGS.md
// section 3): 7 holes a row, 7 counters a hole, pasu to the row's owner, one pussa capture,
// rounds as a match with refills from the right (or, with `rounds = single`, one round), a lap
// limit of 1000 and a match limit of 20000 moves. Legal moves come in the same order as the
// interpreter's, so both can be driven by the same choices and compared state by state
// (native_identical_test.cpp).
#pragma once

#include <array>
#include <cstdint>

#include "runtime/rng.hpp"

namespace keli::bench {

struct RajaPasu {
  // The game file's parameter `rounds`: a match of rounds with refills, or one round.
  enum class Rounds : int8_t { Match, Single };

  static constexpr int kHoles = 7;           // a row
  static constexpr int kSites = 2 * kHoles;  // sowing order: South 0..6, North 7..13
  static constexpr int kSeeds = 7;
  static constexpr int kLapLimit = 1000;
  static constexpr int kMoveLimit = 20000;
  static constexpr int kRoundOver = -1;  // the move when the mover's row is empty

  enum Over : int8_t { kPlaying = 0, kEnded = 1, kLimit = 2 };

  struct State {
    std::array<int32_t, kSites> counters{};
    std::array<bool, kSites> closed{};
    std::array<int32_t, 2> store{};
    int32_t mover = 0;
    int32_t round = 1;
    int32_t moves = 0;
    Over over = kPlaying;
    int8_t winner = -1;  // the match's winner once it ended by the rules
  };

  // At most one move per hole of a row, or the single round-over move.
  struct Moves {
    std::array<int8_t, kHoles> holes;
    int n = 0;
  };

  explicit RajaPasu(Rounds rounds = Rounds::Match) : rounds_(rounds) {}

  static State initial();
  // Legal moves in the interpreter's order: the mover's occupied open holes left to right, or
  // kRoundOver when there are none.
  static void legal(const State& s, Moves& out);
  void apply(State& s, int move) const;  // a hole, or kRoundOver

  // One random game (uniform among the legal moves, rng.below(n) per decision, like Keli's
  // random agent); returns the number of decisions.
  int playout(runtime::Rng& rng, State& s) const;

 private:
  Rounds rounds_;
};

}  // namespace keli::bench
