// Traces: JSON Lines recording one game (docs/trace-format.md). A header line, one line per
// decision or throw (with a check of the state after it, and the whole state every so often),
// then the result. Replay re-runs and verifies them.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "ast/files.hpp"
#include "diag/diagnostics.hpp"
#include "runtime/game.hpp"
#include "runtime/rng.hpp"

namespace keli::trace {

// The format this Keli writes (the header's "trace"); version 1 (no "trace" key: a full state
// on every line, nothing re-derived from the seed) is still read.
constexpr int kTraceVersion = 2;
// By default a step line carries the whole state when its ply is a multiple of this; every other
// step line carries only the state's check (docs/trace-format.md, "Size").
constexpr int kFullStateEvery = 500;

struct Header {
  std::string game, file;
  uint64_t seed = 0;
  std::vector<std::string> players;
  int version = kTraceVersion;
  // Every throw and every computer player's choice was drawn, in play order, from one generator
  // started at `seed`: a replay draws them again and compares.
  bool seeded = false;
  int every = kFullStateEvery;  // whole states on the steps whose ply is a multiple of it
};

class Writer {
 public:
  Writer(std::ostream& out, const compile::Program& p) : out_(out), p_(p) {}
  void header(const Header& h);  // also sets how often the whole state is written (h.every)
  // Call after applying: `mover` is who decided; `notation` is how the move read before it was
  // played (Game::notation). With `legal` (the moves that were legal before it, run
  // --record-legal) the line records their action ids, which a replay compares.
  void move(runtime::Game& g, int mover, const runtime::Move& m, const std::string& notation,
            const runtime::State& after, const std::vector<runtime::Move>* legal = nullptr);
  void roll(runtime::Game& g, const std::vector<int32_t>& values, const runtime::State& after);
  void result(runtime::Game& g, const runtime::State& final_state);

 private:
  std::string notes_json(runtime::Game& g) const;
  std::string after_json(runtime::Game& g, const runtime::State& after) const;  // check, state
  std::ostream& out_;
  const compile::Program& p_;
  int every_ = kFullStateEvery;
};

// The players of a seeded trace, re-run by the replay so that its generator stays in step with
// the recorded game (implemented above this layer, where the computer players are).
class Players {
 public:
  static constexpr int kPerson = -1;   // a person chose: nothing was drawn, nothing to compare
  static constexpr int kUnknown = -2;  // drew an unknown amount (a timed search): stop comparing
  virtual ~Players() = default;
  // The index in `legal` that seat `seat`'s player chooses in s, drawing from rng; or a k- value.
  virtual int choose(int seat, runtime::Game& g, const runtime::State& s, const std::vector<runtime::Move>& legal,
                     runtime::Rng& rng) = 0;
};

// The action ids of `legal` (runtime/actions.hpp), ascending: what --record-legal records.
std::vector<int64_t> legal_ids(const compile::Program& p, const std::vector<runtime::Move>& legal);

// Checks of one recorded step against the replayed game.
// Why the recorded throw `values` cannot come from the dice s throws; empty when it can.
std::string impossible_roll(runtime::Game& g, const runtime::State& s, const std::vector<int32_t>& values);
// The legal move of s with this rule and these arguments, or nullptr; `legal` receives every
// legal move, and `not_legal` (when nothing matches) the error and its hint listing them.
const runtime::Move* recorded_move(runtime::Game& g, const runtime::State& s, const std::string& rule,
                                   const std::vector<int32_t>& args, std::vector<runtime::Move>& legal,
                                   std::pair<std::string, std::string>& not_legal);

// The game file a trace names: relative to the current folder, to the trace's folder, or to
// Keli's source tree, held to the folders games may be read from. An empty path when none has
// it, `outside` set when it exists elsewhere. (The one place a trace's `file` is opened.)
ast::Located locate_game(const std::string& recorded, const std::string& trace_path);

// Makes the players a seeded trace names (null with `error` when it cannot: an unknown player).
using PlayersFactory =
    std::function<std::unique_ptr<Players>(const Header& h, const compile::Program& p, std::string& error)>;

struct ReplayOptions {
  std::ostream* log = nullptr;     // "replayed N steps: the trace matches"
  std::ostream* expand = nullptr;  // the trace again with the whole state on every step
  PlayersFactory players;          // without it a seeded trace's throws and choices are not re-drawn
};

// Re-runs the trace at `path`, streaming it. Returns 0 when it matches; otherwise reports (E701)
// the first line that differs, or that cannot be read, and returns 1.
int replay(const std::string& path, diag::Diagnostics& diags, SourceSet& src, const ReplayOptions& options);

}  // namespace keli::trace
