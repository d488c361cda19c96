// Keli from programs: a game loaded with its parameters and engine, and states stepped by action
// id (runtime/actions.hpp), by notation or by throw, in OpenSpiel's shape. The one library the
// step protocol (api/step.hpp), moves files and the Python module (python/) stand on; no rules here.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "rulebook/why_not.hpp"
#include "api/history.hpp"
#include "compile/compiler.hpp"
#include "runtime/actions.hpp"
#include "runtime/game.hpp"
#include "runtime/observation.hpp"
#include "session/game_file.hpp"

namespace keli::api {

// Bad input: a game that does not load, a parameter, an action that is not legal, a runtime error
// of the rules. what() is Keli's rendered message (file:line:col, source line, caret, hint).
class Error : public std::runtime_error {
 public:
  Error(const std::string& text, std::string code) : std::runtime_error(text), code_(std::move(code)) {}
  const std::string& code() const { return code_; }  // "E601", ...

 private:
  std::string code_;
};

// OpenSpiel's player ids for the states where no seat decides.
constexpr int kChancePlayer = -1;
constexpr int kTerminalPlayer = -4;

class Game {
 public:
  // Loads, checks and compiles `path` with `params`; throws Error with every error's message.
  static std::shared_ptr<Game> load(const std::string& path, const compile::ParamSettings& params,
                                    const runtime::EngineOptions& engine);
  Game(std::unique_ptr<GameFile> file, std::shared_ptr<const compile::Program> program,
       const runtime::EngineOptions& engine);

  const compile::Program& program() const { return *program_; }
  const std::shared_ptr<const compile::Program>& program_ptr() const { return program_; }
  const GameFile& file() const { return *file_; }
  const runtime::ActionSpace& actions() const { return actions_; }
  // Some `end_game` of the game says what each seat scores (`points NAME`).
  bool scores_points() const { return game_->scores_points(); }
  const runtime::EngineOptions& engine_options() const { return options_; }
  // The engine that runs it (native when asked for and a compiler is there).
  runtime::Engine engine() const { return game_->engine(); }
  // The engine itself, shared by this game's states: one thread at a time.
  runtime::Game& runner() const { return *game_; }
  // The lock a program that uses runner() from several threads holds meanwhile (the Python
  // module, which steps states without the GIL).
  std::mutex& lock() const { return lock_; }
  // The observation tensor's layout and writer (runtime/observation.hpp).
  const runtime::Observer& observer() const { return *observer_; }

  // The game's rulebook in words (keli rules), as this game is set: text, md or html; any other
  // format is an input error.
  std::string rulebook(const std::string& format) const;
  // Why `text` is not a legal move in `s`, in words (rulebook/why_not.hpp). It runs the engine:
  // a program that shares the game between threads holds lock() meanwhile.
  rulebook::WhyNot why_not(const runtime::State& s, const std::string& text) const;
  // Why no move starts at the site labelled `site` (a tapped piece or cell); an unknown label is
  // an input error.
  rulebook::WhyNot why_not_at(const runtime::State& s, const std::string& site) const;

  // A runtime error as an Error with its position in the game's sources.
  Error error(const diag::Error& e) const;
  // Bad input that has no position in the game (an unknown action id): code E705.
  static Error input_error(const std::string& message, const std::string& hint = {});

 private:
  runtime::ActionSpace space() const;  // the action ids, a game with too many an Error
  std::unique_ptr<GameFile> file_;
  std::shared_ptr<const compile::Program> program_;
  runtime::EngineOptions options_;
  std::unique_ptr<runtime::Game> game_;
  runtime::ActionSpace actions_;
  std::unique_ptr<runtime::Observer> observer_;
  mutable std::mutex lock_;
};

struct ChanceOutcome {
  int64_t id = 0;
  int64_t weight = 0, total = 1;  // probability weight/total, exactly
  double probability() const { return static_cast<double>(weight) / static_cast<double>(total); }
};

// One state of a game; copies are clones. Every step that fails throws Error and leaves the state
// as it was.
class State {
 public:
  explicit State(std::shared_ptr<const Game> game);  // the start position
  const Game& game() const { return *game_; }
  const std::shared_ptr<const Game>& game_ptr() const { return game_; }
  const runtime::State& slots() const { return s_; }
  // Every visible slot (fixed slots, then the variables in declared order; no kept facts).
  std::vector<int32_t> observation() const;
  // The observation tensor as `seat` sees it (runtime/observation.hpp): observer().size() numbers.
  void observation_tensor(int seat, float* out) const;

  int current_player() const;  // the seat to decide, kChancePlayer or kTerminalPlayer
  bool is_chance_node() const;
  bool is_terminal() const;
  bool ended_by_limit() const;
  int ply() const;
  int moves() const;

  // Decision: the ids of the legal moves, ascending. Chance: the ids of the outcomes. Terminal: none.
  std::vector<int64_t> legal_actions() const;
  // The legal moves in the engine's order (rule, then parameter order), with their ids.
  std::vector<std::pair<int64_t, runtime::Move>> legal_moves() const;
  std::vector<ChanceOutcome> chance_outcomes() const;
  // The move as the game's `reads` says it ("sow hole 3 (7)") or the throw ("roll 4 2"); Error
  // for an id of neither. Alike pieces read alike, so two legal moves may share a text.
  std::string action_to_string(int64_t id) const;
  // The move as a call ("sow 2", what traces record as "move"), one text per action; a throw as
  // action_to_string.
  std::string action_to_call(int64_t id) const;

  void apply_action(int64_t id);                 // a legal move's id, or at a chance node an outcome's
  void apply_outcome(int64_t id);                // at a chance node: the outcome's id
  void apply_text(const std::string& notation);  // a legal move as action_to_string prints it
  void apply_throw(const std::vector<int32_t>& values);
  std::vector<int32_t> sample_throw(runtime::Rng& rng);  // draws a throw as `keli run` does, applies it
  // The notes the last step raised (texts of `note`).
  const std::vector<std::string>& notes() const { return notes_; }

  // The action ids applied since the start, oldest first (moves and chance outcomes alike).
  std::vector<int64_t> history() const { return history_.list(); }
  size_t history_size() const { return history_.size(); }
  // The state as text: its history, one action id a line (pyspiel's serialization). deserialize
  // replays it from the start, so every part of the state (dice in hand, positions seen for a
  // repetition rule, counters) comes back exactly; Error naming the line that does not apply.
  std::string serialize() const;
  static State deserialize(std::shared_ptr<const Game> game, const std::string& text);
  // Takes the last action back, by replaying the history without it (as long as the game so
  // far); Error at the start.
  void undo_last();
  // 1 for each legal action id, 0 elsewhere: num_distinct_actions long at a decision or the end,
  // max_chance_outcomes long at a chance node (pyspiel's legal_actions_mask).
  std::vector<int8_t> legal_actions_mask() const;
  // The id of the legal move (or, at a chance node, the outcome) that reads `text` as
  // action_to_string or action_to_call prints it; Error otherwise.
  int64_t string_to_action(const std::string& text) const;
  // The same game (object, or file and parameters) and the same slots: every part of the state
  // the engine keeps, counters and positions seen included. position_hash agrees with it.
  bool same_position(const State& o) const;
  size_t position_hash() const;

  // What steps changed, so that they can be taken back without keeping whole states (the step
  // protocol's undo): the slots changed with their values before, and the notes before.
  struct Undo {
    std::vector<std::pair<int32_t, int32_t>> slots;  // (index, value before)
    std::vector<std::string> notes;
    History history;              // the history before (shared, not copied)
    runtime::PastPtr past;        // the positions before it, for `repetitions` (shared, not copied)
    int64_t step_past_bytes = 0;  // the position the step added to them
    int64_t bytes() const;        // the memory it holds, with the step's entry of the history
  };
  // What takes this state back to `before`, a state of the same game.
  Undo undo_to(const State& before) const;
  void take_back(const Undo& u);
  int64_t bytes() const;  // the memory a copy of this state holds

  std::vector<int> places() const;
  // The points each seat scored (`end_game ... points NAME`); empty when the game scores none.
  std::vector<int> points() const;
  // What each seat's result is worth: its points in a game that scores points, else
  // runtime::returns_from_places (1 first, -1 last).
  std::vector<double> returns() const;
  std::string to_string() const;  // the text board
  std::string to_json() const;    // the state as a trace records it

 private:
  void need_decision(const char* what) const;
  std::string legal_hint() const;  // "legal (action id in brackets): sow 0 (0), ..."
  // At a decision, the legal move that reads `text` (its notation or its call), with its id;
  // Error otherwise (apply_text and string_to_action).
  std::pair<int64_t, runtime::Move> legal_move_read(const std::string& text) const;
  void need_chance(const char* what) const;
  template <typename F>
  void step(int64_t action, F&& f);  // runs f on a copy; on success keeps it, the notes and the action
  std::shared_ptr<const Game> game_;
  runtime::State s_;
  std::vector<std::string> notes_;
  History history_;
};

}  // namespace keli::api
