// Reading a trace one step at a time: the header, then each line re-run against the game and
// checked as `keli replay` checks it, except that the recorded state is compared only when asked
// (check_state), for the position wanted. A position at some ply needs only the lines up to it,
// and the long state of the lines before it is not parsed: a 16-player race game's traces
// run to hundreds of MB, 14 kB a line.
#pragma once

#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "lang/source.hpp"
#include "compile/compiler.hpp"
#include "diag/diagnostics.hpp"
#include "runtime/game.hpp"
#include "trace/trace.hpp"

namespace keli::trace {

class Reader {
 public:
  enum class Next { Step, Result, End, Error };

  // Opens the trace and reads its header. False, with an E701 diagnostic, when it cannot.
  bool open(const std::string& path, diag::Diagnostics& diags, SourceSet& src);
  const Header& header() const { return header_; }
  const compile::ParamSettings& params() const { return params_; }  // as recorded, in order

  // Starts the game in `program`, which must be compiled with params(). False (E701) when the
  // trace records another game.
  bool start(std::shared_ptr<const compile::Program> program);

  // Re-runs the next line: its step must be legal and numbered right. Step: state() is the state
  // after it. Result: the result line was read and agrees. End: the file ends without a result.
  // Error: an E701 diagnostic was reported.
  Next next();
  // Compares the state recorded on the last step's line with state(); false (E701) if they differ.
  bool check_state();

  const runtime::State& state() const { return state_; }
  int ply() const;                                             // steps re-run so far
  int line() const { return ln_; }                             // the line read last, 1-based
  const std::string& last_step() const { return last_step_; }  // "South sow 2", "roll 4 4"; "" at the start
  std::vector<int> last_sites() const;                         // the sites the last decision names (for highlighting)

 private:
  bool read_line(std::string& out);
  Next fail(const std::string& message, const std::string& hint = {}, uint32_t col = 1);
  void fail_at(int ln, const std::string& text, const std::string& message, uint32_t col, const std::string& hint = {});

  std::string path_;
  std::ifstream in_;
  diag::Diagnostics* diags_ = nullptr;
  SourceSet* src_ = nullptr;
  Header header_;
  compile::ParamSettings params_;
  std::shared_ptr<const compile::Program> program_;
  std::unique_ptr<runtime::Game> game_;
  runtime::State state_;
  std::vector<runtime::Move> legal_;
  runtime::Move last_move_;
  bool last_was_move_ = false;
  std::string line_, last_step_;
  std::string step_line_;  // the last step's line, for check_state
  int ln_ = 0, step_ln_ = 0;
};

}  // namespace keli::trace
