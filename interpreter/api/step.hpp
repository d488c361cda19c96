// The step protocol (docs/step-protocol.md): one JSON object a line in, one JSON reply a line
// out, over one game: apply moves by id or notation, throws given or sampled, the state, legal
// moves, chance outcomes, results, undo, clone and restore by handle. Every bad line is an error
// reply and the session goes on. Memory is bounded: undo keeps what each step changed, clones
// share the undo history they came from, and the session holds at most kMaxStepMemory bytes.
#pragma once

#include <cstdint>
#include <istream>
#include <map>
#include <memory>
#include <ostream>
#include <string>

#include "api/game.hpp"
#include "runtime/rng.hpp"
#include "util/json_read.hpp"

namespace keli::api {

// Reads one line (without its newline or a final \r) of at most kMaxStepLine bytes; the rest of
// a longer line is skipped and `too_long` set. False at the end of the input.
bool read_step_line(std::istream& in, std::string& line, bool& too_long);

class StepSession {
 public:
  StepSession(std::shared_ptr<const Game> game, uint64_t seed);

  // One request line -> one reply line (no newline). Sets done() after "quit".
  std::string handle(const std::string& line);
  bool done() const { return done_; }

  // Reads lines from `in` until its end or "quit", writing each reply and flushing. Lines
  // longer than kMaxStepLine are answered with an error and skipped.
  void serve(std::istream& in, std::ostream& out);

  // The bytes the session holds for undo records and clones (what kMaxStepMemory bounds).
  int64_t memory() const { return ledger_->bytes; }

  using Json = util::Json;
  using Reply = nlohmann::ordered_json;  // keys in the order written: "ok" first

 private:
  // The bytes held, shared with every undo record so that a record gives its bytes back when
  // the last position using it goes.
  struct Ledger {
    int64_t bytes = 0;
  };
  // One step taken back by undo, and the steps before it. Positions and clones share them.
  struct UndoNode {
    State::Undo undo;
    std::shared_ptr<UndoNode> prev;
    std::shared_ptr<Ledger> ledger;
    int64_t bytes = 0;
    ~UndoNode();  // frees a long chain one node after another, never by recursion
  };
  // A state with the steps that led to it.
  struct Position {
    State state;
    std::shared_ptr<UndoNode> history;
  };
  struct Kept {  // a clone, with the bytes its state holds
    Position position;
    int64_t bytes = 0;
  };
  struct Command {
    const char* name;
    Reply (StepSession::*run)(const Json& req);
  };
  static const Command kCommands[];
  static std::string command_names();

  Reply summary() const;  // ply, player, chance, over: what every reply of a step carries
  // Runs `step` on the current state; on success records its undo (refusing it, with the state
  // as it was, when that would pass kMaxStepMemory).
  template <typename F>
  void record(F&& step);
  void charge(int64_t bytes, const char* what) const;  // throws when the ledger would pass the limit
  Reply cmd_apply(const Json& req);
  Reply cmd_throw(const Json& req);
  Reply cmd_sample(const Json& req);
  Reply cmd_legal(const Json& req);
  Reply cmd_chance(const Json& req);
  Reply cmd_result(const Json& req);
  Reply cmd_over(const Json& req);
  Reply cmd_state(const Json& req);
  Reply cmd_info(const Json& req);
  Reply cmd_undo(const Json& req);
  Reply cmd_forget(const Json& req);
  Reply cmd_clone(const Json& req);
  Reply cmd_restore(const Json& req);
  Reply cmd_drop(const Json& req);
  Reply cmd_memory(const Json& req);
  Reply cmd_rules(const Json& req);
  Reply cmd_why(const Json& req);
  Reply cmd_quit(const Json& req);
  std::map<uint64_t, Kept>::iterator find_handle(const Json& req);

  std::shared_ptr<const Game> game_;
  std::shared_ptr<Ledger> ledger_ = std::make_shared<Ledger>();
  Position now_;
  std::map<uint64_t, Kept> handles_;
  uint64_t next_handle_ = 1;
  runtime::Rng rng_;
  bool done_ = false;
};

}  // namespace keli::api
