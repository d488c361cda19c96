// The step protocol (docs/step-protocol.md): one JSON object a line in, one JSON reply a line
// out, over one game: apply moves by id or notation, throws given or sampled, the state, legal
// moves, chance outcomes, results, undo, clone and restore by handle. Every bad line is an error
// reply and the session goes on.
#pragma once

#include <istream>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

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

 private:
  // A state with the steps that led to it, for undo.
  struct Position {
    State state;
    std::vector<State> history;
  };
  using Json = util::Json;
  using Reply = nlohmann::ordered_json;  // keys in the order written: "ok" first
  Reply dispatch(const std::string& cmd, const Json& req);
  Reply summary() const;  // ply, player, chance, over: what every reply of a step carries
  Reply cmd_apply(const Json& req);
  Reply cmd_throw(const Json& req);
  Reply cmd_sample(const Json& req);
  Reply cmd_legal() const;
  Reply cmd_chance() const;
  Reply cmd_result() const;
  Reply cmd_state(const Json& req) const;
  Reply cmd_info() const;
  Reply cmd_undo();
  Reply cmd_clone();
  Reply cmd_restore(const Json& req, bool drop);

  std::shared_ptr<const Game> game_;
  Position now_;
  std::map<int64_t, Position> handles_;
  int64_t next_handle_ = 1;
  runtime::Rng rng_;
  bool done_ = false;
};

}  // namespace keli::api
