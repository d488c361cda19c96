// The game being played by keli play: every step kept with the state before it, so that a person
// can take back a decision, save the game so far as a trace, and resume a saved trace.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "compile/compiler.hpp"
#include "runtime/game.hpp"

namespace keli::cli {

struct PlayStep {
  bool chance = false;
  int mover = -1;  // who decided (-1 for a throw)
  runtime::Move move;
  std::vector<int32_t> roll;
  bool human = false;  // decided at the keyboard: where `undo` goes back to
};

class PlaySession {
 public:
  explicit PlaySession(std::shared_ptr<const compile::Program> p);
  runtime::Game& game() { return g_; }
  const runtime::State& state() const { return s_; }
  const std::vector<PlayStep>& steps() const { return steps_; }
  const runtime::State& before_last() const { return before_.back(); }

  void move(int mover, const runtime::Move& m, bool human);
  void roll(const std::vector<int32_t>& values);
  // Back to the state before the last decision made at the keyboard; false when there is none.
  bool undo();
  // The game so far as a trace (header, steps, and the result once over), written whole through
  // util::OutputFile (never over one of `inputs`); "" on success, else why it was not written.
  std::string save(const std::string& path, const std::string& file, uint64_t seed,
                   const std::vector<std::string>& players, const std::vector<std::string>& inputs) const;

 private:
  std::shared_ptr<const compile::Program> p_;
  runtime::Game g_;
  runtime::State s_;
  std::vector<runtime::State> before_;
  std::vector<PlayStep> steps_;
};

// A saved trace read back for --resume: its header and steps (not yet checked against the game).
struct SavedGame {
  std::string file;
  compile::ParamSettings params;
  uint64_t seed = 0;
  std::vector<std::string> players;
  struct Step {
    int line = 0;
    bool chance = false;
    std::vector<int32_t> roll;
    std::string rule;
    std::vector<int32_t> args;
  };
  std::vector<Step> steps;
};
// False with `error` ("LINE: what") when the file cannot be read as a trace.
bool read_saved(const std::string& path, SavedGame& out, std::string& error);
// Plays the saved steps in `session`; false with `error` ("LINE: what") at the first illegal one.
bool replay_saved(const SavedGame& saved, PlaySession& session, std::string& error);

// One legal move explained: its rule with each parameter's name and value, and what it changes.
std::string explain_move(runtime::Game& g, const runtime::State& s, const runtime::Move& m);

}  // namespace keli::cli
