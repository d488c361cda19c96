// A state as JSON (for traces and --json output), its check (a hash of what a trace records),
// and the comparison of a recorded state with a replayed one: the fixed slots by name (mover,
// phase, places) and every recorded variable by its declared name.
#pragma once

#include <string>

#include "runtime/game.hpp"
#include "util/json_read.hpp"

namespace keli::trace {

// Whether a trace records variable `v`. Every variable is recorded today; facts hidden from
// the players or derived by the engine (once the runtime has such slots) are to be left out here,
// the one place that decides, so that state_json, state_check and compare_state agree.
bool recorded(const compile::VarInfo& v);

std::string state_json(const compile::Program& p, const runtime::State& s);

// 16 hex digits: a hash of the recorded slots of s (mover, phase, places, the points of a game that
// scores points, recorded variables).
std::string state_check(const compile::Program& p, const runtime::State& s);

// Compares a state read back from JSON with `s`; returns "" when equal, else what differs first.
std::string compare_state(const compile::Program& p, const runtime::State& s, const util::Json& recorded);

// Parameter values as JSON: numbers and booleans bare, choices as strings.
std::string params_json(const compile::Program& p);

}  // namespace keli::trace
