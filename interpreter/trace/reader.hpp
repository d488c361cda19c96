// The one trace reader: a trace read line by line (never held whole) and each step re-run against
// the game and verified as `keli replay` verifies it: legal, numbered right, its notes, its throw
// and its computer player's choice drawn again from the seed (seeded traces), its state's check
// and, where the line has one, its whole state. Every command that reads a trace uses it.
#pragma once

#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "compile/compiler.hpp"
#include "diag/diagnostics.hpp"
#include "lang/source.hpp"
#include "runtime/game.hpp"
#include "trace/trace.hpp"
#include "util/json_read.hpp"

namespace keli::trace {

class Reader {
 public:
  enum class Next { Step, Result, End, Error };

  // Opens the trace and reads its header. False, with an E701 diagnostic, when it cannot.
  bool open(const std::string& path, diag::Diagnostics& diags, SourceSet& src);
  const Header& header() const { return header_; }
  const compile::ParamSettings& params() const { return params_; }  // as recorded, in order

  // Starts the game in `program`, which must be compiled with params(). False (E701) when the
  // trace records another game, another number of players, or players `players` cannot make.
  // Without `players` a seeded trace's throws and choices are not drawn again.
  bool start(std::shared_ptr<const compile::Program> program, const PlayersFactory& players = {});

  // Re-runs the next line and verifies it. Step: state() is the state after it. Result: the
  // result line was read and agrees. End: the file ends (after the result, or without one).
  // Error: an E701 diagnostic was reported. After Result, next() reports any line that follows.
  Next next();

  // Reports an E701 error at the line read last (the header before the first next()).
  Next fail_here(const std::string& message, const std::string& hint = {}, diag::Code code = diag::Code::bad_trace);

  runtime::Game& game() { return *game_; }
  const runtime::State& state() const { return state_; }
  int ply() const;                                             // steps re-run so far
  int line() const { return ln_; }                             // the line read last, 1-based
  bool seed_verified() const { return rng_live_; }             // throws still compared with the seed
  const std::string& last_step() const { return last_step_; }  // "South sow 2", "roll 4 4"; "" at the start
  std::vector<int> last_sites() const;                         // the sites the last decision names (for highlighting)
  // The last step as played: a decision (its mover and move) or a throw (its values).
  bool last_was_move() const { return last_was_move_; }
  int last_mover() const { return last_mover_; }
  const runtime::Move& last_move() const { return last_move_; }
  const std::string& last_notation() const { return last_notation_; }  // the last move's, as it read
  const std::vector<int32_t>& last_roll() const { return last_roll_; }

 private:
  bool read_line();
  bool parse_line(util::Json& out);
  bool read_header(const util::Json& head);
  Next fail(const std::string& message, const std::string& hint = {}, uint32_t col = 1,
            diag::Code code = diag::Code::bad_trace);
  Next result(const util::Json& n);
  Next throw_step(const util::Json& n);
  Next decision(const util::Json& n);
  Next after_step(const util::Json& n);

  std::string path_;
  std::ifstream in_;
  diag::Diagnostics* diags_ = nullptr;
  SourceSet* src_ = nullptr;
  Header header_;
  compile::ParamSettings params_;
  std::shared_ptr<const compile::Program> program_;
  std::unique_ptr<runtime::Game> game_;
  std::unique_ptr<Players> players_;
  runtime::Rng rng_;
  bool rng_live_ = false;  // the seed's generator is in step with the recorded game
  bool over_ = false;      // the result line was read
  runtime::State state_;
  std::vector<runtime::Move> legal_;
  runtime::Move last_move_;
  std::vector<int32_t> last_roll_;
  bool last_was_move_ = false;
  int last_mover_ = -1;
  std::string line_, last_step_, last_notation_;
  int ln_ = 0, read_ = 0;  // the current line's number; lines read so far
};

}  // namespace keli::trace
