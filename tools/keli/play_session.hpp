// The game being played by keli play: every step kept with the state before it, so that a person
// can take back a decision, save the game so far as a trace, and resume a saved trace.
#pragma once

#include "check/checker.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "compile/compiler.hpp"
#include "lang/source.hpp"
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
  // `seeded`: every throw and computer choice came from one generator seeded with `seed` (not
  // after a resume; never once undo has taken steps back).
  std::string save(const std::string& path, const std::string& file, uint64_t seed,
                   const std::vector<std::string>& players, const std::vector<std::string>& inputs, bool seeded) const;

 private:
  std::shared_ptr<const compile::Program> p_;
  runtime::Game g_;
  runtime::State s_;
  std::vector<runtime::State> before_;
  std::vector<PlayStep> steps_;
  bool undone_ = false;  // undo took steps back
};

// One legal move explained in words: which pieces move (and how their tables change), what is
// captured, what else changes, and whose turn follows (play_session.cpp).
std::string explain_move(runtime::Game& g, const runtime::State& s, const runtime::Move& m);
// The comment on the lines just above a rule (its span), without the '#'s, as one line.
std::string rule_comment(const SourceSet& src, const Span& span);

// What a person's line picks among the offered moves (play_input.cpp): the index, or -1 and a
// message (a suggestion, the moves it could be, or why a move that reads so is not legal).
struct Pick {
  int index = -1;
  std::string message;
};
Pick pick_move(runtime::Game& g, const runtime::State& s, const std::vector<runtime::Game::Choice>& offered,
               const std::string& line, const check::Checked& ck, const SourceSet& src);

}  // namespace keli::cli
