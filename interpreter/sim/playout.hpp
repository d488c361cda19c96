// One game played out from the start position, with the statistics of the run: its length,
// throws, the legal moves seen at decision states, and the result. Players are agents per seat,
// or null for the inline uniform random choice (no virtual call; the same choice as "random").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "agents/agent.hpp"
#include "diag/diagnostics.hpp"
#include "runtime/game.hpp"

namespace keli::sim {

struct GameRecord {
  int64_t index = 0;                 // the game's number in its run (0-based)
  std::vector<int> places;           // final place per seat (1 = first; equal places share)
  std::vector<int> points;           // points per seat; empty when the game scores none
  int decisions = 0;                 // Game::moves at the end
  int throws = 0;                    // chance steps: Game::ply - Game::moves
  int64_t legal_sum = 0;             // legal moves summed over decision states (branching factor)
  bool by_limit = false;             // stopped by the game's move limit rather than its rules
  std::optional<diag::Error> error;  // a runtime error stopped the game (render with the game's sources)
};

// Plays one whole game with `rng`. seats[i] chooses for seat i; a null pointer (or an empty
// vector) chooses uniformly with rng.below(legal.size()). With `check_invariants`, declared
// invariants are checked after every step and the first that fails stops the game as its error
// (E704, as keli run reports it). `legal` is scratch space reused between calls so that a
// playout allocates nothing per move. Runtime errors (diag::Error) are caught and recorded in `error`.
GameRecord playout(runtime::Game& game, runtime::Rng& rng, const std::vector<agents::Agent*>& seats,
                   std::vector<runtime::Move>& legal, bool check_invariants = false);

}  // namespace keli::sim
