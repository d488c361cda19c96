// Moves files (docs/trace-format.md, "Moves files"): a game's moves and throws without states,
// one JSON object a line ({"move": ID or "NOTATION"}, {"throw": [VALUES]}, {"outcome": ID}),
// re-run strictly: the first step that cannot be taken is a positioned error.
#pragma once

#include <ostream>
#include <string>

#include "api/game.hpp"

namespace keli::api {

struct MovesResult {
  bool ok = true;
  std::string error;  // FILE:LINE:COL: error: ... with the hint, when !ok
  int steps = 0;      // steps taken
  State state;        // where the file leaves the game
};

// Plays the moves file at `path` from the start of `game`. `log` (may be null) gets one line per
// step, as `keli run` prints them.
MovesResult replay_moves(const std::shared_ptr<const Game>& game, const std::string& path, std::ostream* log);

}  // namespace keli::api
