// A hand-written Pagade Kayi Ata (Sixteen-handed), a baseline the engines are measured against
// (Keli issue 13). It plays exactly what games/pagade_kayi_ata.keli plays with its default
// parameters but `players` (4, 8 or 16; RULINGS.md section 1): individual play, spread seats, two
// octagonal dice, doubles 16+16, sharing marked cells, the second circuit, the centre exit, a
// full ranking, pairs, captured pieces back to hand, a limit of 200,000 moves. Legal moves come
// in the interpreter's order so both can be driven by the same choices (race_identical_test.cpp).
#pragma once

#include <array>
#include <cstdint>

#include "runtime/rng.hpp"

namespace keli::bench {

class PagadeKayiAta {
 public:
  static constexpr int kMaxPlayers = 16;
  static constexpr int kArms = 16;
  static constexpr int kPieces = 64;             // four a set, one set an arm: piece pc is on arm pc / 4
  static constexpr int kCells = 1 + kArms * 24;  // the centre (0), then 24 cells an arm
  static constexpr int kHome = 288;              // the last track position: the centre again
  static constexpr int kTurn = kHome - 8;        // own C d0 the second time: the circuit may go round
  static constexpr int kRoundTo = 9;             // going round, the track goes on from own R d0
  static constexpr int kDice = 4;                // the game's die slots (two used: octagonal dice)
  static constexpr int kNine = 9;                // the value that enters a piece
  static constexpr int kMoveLimit = 200000;

  enum Over : int8_t { kPlaying = 0, kEnded = 1, kLimit = 2 };
  enum Phase : int8_t { kTurnPhase = 0, kThrowing = 1, kMoving = 2 };  // declared order
  enum Rule : int8_t { kThrow, kPass, kEnter, kStep, kRound, kPair, kPairWith, kLose };

  struct State {
    std::array<int16_t, kPieces> pos{};  // 0 in hand, 1..287 the track, 288 home
    // Pieces of each player on each cell, and what follows from it: all pieces there, and how
    // many players have two or more there (a pair blocks).
    std::array<std::array<uint8_t, kMaxPlayers>, kCells> here{};
    std::array<uint8_t, kCells> total{};
    std::array<uint8_t, kCells> pairs{};
    std::array<int8_t, kDice> die{};  // unused values of the throw, 0 once used
    int32_t extra = 0;                // further throws due
    std::array<bool, kMaxPlayers> done{};
    std::array<int8_t, kMaxPlayers> places{};
    int8_t next_place = 1;
    int8_t mover = 0;
    Phase phase = kTurnPhase;
    Over over = kPlaying;
    int32_t ply = 0;    // decisions and throws
    int32_t moves = 0;  // decisions
  };

  // Arguments as the game's rules take them: enter(pc, dice_set), step/round/pair(pc, d),
  // pair_with(pc, q, d, again).
  struct Move {
    Rule rule;
    int8_t a = -1, b = -1, c = -1, d = -1;
  };
  // Bounds: a player has at most 16 pieces, so at most 120 pairs of them, 4 dice, 4 ways round.
  static constexpr int kMaxMoves = 16 * 15 + 3 * 16 * kDice + 120 * kDice * 4 + 1;
  struct Moves {
    std::array<Move, kMaxMoves> list;
    int n = 0;
  };

  explicit PagadeKayiAta(int players);
  int players() const { return players_; }

  State initial() const { return State{}; }
  bool over(const State& s) const { return s.over != kPlaying; }
  bool chance(const State& s) const { return s.over == kPlaying && s.phase == kThrowing; }
  // A throw as Keli's Game::sample_roll draws it: one rng.below(8) a die, in die order.
  void roll(State& s, runtime::Rng& rng) const;
  void apply_roll(State& s, int first, int second) const;
  void legal(const State& s, Moves& out) const;  // in rule order, then parameter order
  void apply(State& s, const Move& m) const;

  // One random game from the start (uniform among the legal moves, rng.below(n) a decision, the
  // dice from the same generator, as keli bench plays); returns the number of decisions.
  int playout(runtime::Rng& rng, State& s) const;

  // The cell at a position of a set's track: 0 the centre, 1 + arm * 24 + column * 8 + depth.
  static int cell(int arm, int at);
  static bool marked(int cell);  // a marked (safe) cell

 private:
  struct Listing;  // the moving phase's legal moves (pagade_native.cpp)
  int owner(int pc) const { return owner_[pc]; }
  bool may_land(const State& s, int pc, int at, bool as_pair) const;
  bool can_step(const State& s, int pc, int v, bool round) const;
  bool can_pair_step(const State& s, int pc, int q, int v, int again) const;
  int pair_partner(const State& s, int pc) const;
  bool first_on_cell(const State& s, int pc) const;
  void place(State& s, int pc, int at) const;
  void capture(State& s, int pc) const;
  int next_player(const State& s, int p) const;
  void end_throw(State& s) const;
  void after_move(State& s, int p) const;
  void move_pair(State& s, int pc, int q, int d, int again) const;

  int players_;
  std::array<int8_t, kPieces> owner_{};
  std::array<std::array<int8_t, kPieces>, kMaxPlayers> pieces_of_{};  // ascending
  int per_player_ = 0;                                                // pieces a player has
};

}  // namespace keli::bench
