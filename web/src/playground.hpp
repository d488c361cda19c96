// The browser playground's one object: a game file loaded from the page's file system (a packed
// game or one the page wrote there), checked like `keli validate`, and played step by step with
// undo. Every call takes and returns JSON text, so the binding (bind.cpp) stays a list of names.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "runtime/game.hpp"
#include "session/game_file.hpp"

namespace keli::web {

// One step of a game as the page records it: a decision (the index of the move among the
// engine's legal moves) or a throw (its values). Replaying the steps from the start gives the
// same position, which is how the Web Worker's copy follows the page.
struct Step {
  bool is_move = true;
  int legal_index = -1;
  std::vector<int32_t> roll;
};

class Playground {
 public:
  Playground();  // works in /keli, where the page's game files are
  // The game files packed into the page (games/*.keli, in /keli), as a JSON array of paths.
  static std::string games();
  // The text of a file of the page's file system ("" when there is none).
  static std::string read(const std::string& path);
  // Writes `text` to `path` (an edited or dropped game file; its folder is made).
  static void write(const std::string& path, const std::string& text);

  // Loads, checks and compiles the file: {"ok", "game", "players", "diagnostics": [...]} with
  // each diagnostic's line, column, severity, code, message, hint and rendered text. On success
  // the game starts at its start position.
  std::string load(const std::string& path);
  // The position now: the picture, whose turn, the moves offered with their notation and the
  // sites each names or changes, the last throw, the history and, at the end, the places.
  std::string view();
  // Only whose turn it is and whether the game is over: view() without the picture and the moves,
  // for the steps of computers that the page does not draw.
  std::string status() const;
  // Plays the offered choice `index` of view()'s "choices" (the engine's legal move it stands for).
  std::string choose(int index);
  std::string play_legal(int legal_index);  // a legal move by its index in the engine's list
  std::string roll(double seed);            // at a throw: draws one (the page's seed), applies it
  std::string undo();                       // back one step
  std::string restart();                    // the start position, the history cleared
  // Keeps the first `from` steps and plays `steps_json` (the page's steps after them) on: how the
  // Web Worker's copy follows the page, sent only what it has not seen.
  std::string sync(int from, const std::string& steps_json);
  std::string steps(int from) const;  // the steps after the first `from`, as sync() reads them
  // The loaded game's rulebook in words (keli rules --format html): the page's rules panel.
  std::string rules() const;
  // Why no move starts at site `site` now (a tapped piece or cell that none of the offered moves
  // names): {"ok", "legal", "message", "failed": [{"rule", "anchor", "at", "message"}]}, the
  // anchors being the rulebook's sections of the rules.
  std::string why(int site);
  // A computer player's choice (an agents/ spec: "random", "mcts:time=1") as a legal index.
  std::string think(const std::string& spec, double seed);

 private:
  std::string position();               // view() of a loaded game; may throw diag::Error
  std::string apply(const Step& step);  // applies, records; {"ok":false,"error"} on a fault
  std::string error_json(const std::string& what) const;
  std::unique_ptr<GameFile> file_;
  std::shared_ptr<const compile::Program> program_;
  std::unique_ptr<runtime::Game> game_;
  std::vector<runtime::State> states_;  // states_[k]: after k steps
  std::vector<Step> steps_;
  static constexpr size_t kHistoryShown = 200;  // steps of the history a view holds (the last ones)
  // The legal index of each choice of the last view, while the position is the one it showed.
  std::optional<std::vector<int>> shown_;
  std::vector<std::string> history_;  // what each step reads: "South: S2 c5-d2 (4)", "roll 4 2"
  int first_track_ = -1;
};

}  // namespace keli::web
