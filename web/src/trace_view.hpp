// The playground's trace viewer: a trace the page wrote to its file system, re-run and verified
// by the one trace reader (trace/reader.hpp) as `keli replay` does, every step's state kept so
// the page can step or scrub through it and draw the board at each.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "runtime/game.hpp"
#include "session/game_file.hpp"

namespace keli::web {

class TraceView {
 public:
  // Reads the trace at `trace_path` for the game at `game_path` ("": the packed game of the
  // trace's header, by its file name). {"ok", "game", "steps", "diagnostics" or "error"}.
  std::string open(const std::string& trace_path, const std::string& game_path);
  // Step k (0: the start): {"svg", "text", "ply", "steps"}.
  std::string at(int k) const;

 private:
  std::unique_ptr<GameFile> file_;
  std::shared_ptr<const compile::Program> program_;
  int first_track_ = -1;
  struct Shot {
    runtime::State state;
    std::string text;        // the step as it read: "South: sow 2", "roll 4 4"
    std::vector<int> sites;  // what it named or changed
  };
  std::vector<Shot> shots_;
  bool finished_ = false;  // the trace's result line was read
};

}  // namespace keli::web
