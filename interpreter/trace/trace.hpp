// Traces: JSON Lines recording one game (docs/trace-format.md). A header line, one line per
// decision or throw with the state after it, then the result. Replay re-runs and verifies them.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "diag/diagnostics.hpp"
#include "runtime/game.hpp"

namespace keli::trace {

struct Header {
  std::string game, file;
  uint64_t seed = 0;
  std::vector<std::string> players;
};

class Writer {
 public:
  Writer(std::ostream& out, const compile::Program& p) : out_(out), p_(p) {}
  void header(const Header& h);
  // Call after applying: `mover` is who decided (or -1 for a throw).
  void move(runtime::Game& g, int mover, const runtime::Move& m, const runtime::State& after);
  void roll(runtime::Game& g, const std::vector<int32_t>& values, const runtime::State& after);
  void result(runtime::Game& g, const runtime::State& final_state);

 private:
  std::string notes_json(runtime::Game& g) const;
  std::ostream& out_;
  const compile::Program& p_;
};

// Checks of one recorded step against the replayed game, shared by replay and trace::Reader.
// Why the recorded throw `values` cannot come from the dice s throws; empty when it can.
std::string impossible_roll(runtime::Game& g, const runtime::State& s, const std::vector<int32_t>& values);
// The legal move of s with this rule and these arguments, or nullptr; `legal` receives every
// legal move, and `not_legal` (when nothing matches) the error and its hint listing them.
const runtime::Move* recorded_move(runtime::Game& g, const runtime::State& s, const std::string& rule,
                                   const std::vector<int32_t>& args, std::vector<runtime::Move>& legal,
                                   std::pair<std::string, std::string>& not_legal);

// Re-runs the trace at `path`. Returns 0 when it matches; otherwise reports (E701) the first
// line that differs, or that cannot be read, and returns 1. `log` gets one line per step.
int replay(const std::string& path, diag::Diagnostics& diags, SourceSet& src, std::ostream* log);

}  // namespace keli::trace
