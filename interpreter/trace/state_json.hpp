// A state as JSON (for traces and --json output) and back to a comparison: the fixed slots by
// name (mover, phase, places) and every variable by its declared name.
#pragma once

#include <string>

#include <yaml-cpp/yaml.h>

#include "runtime/game.hpp"

namespace keli::trace {

std::string state_json(const compile::Program& p, const runtime::State& s);

// Compares a state read back from JSON with `s`; returns "" when equal, else what differs first.
std::string compare_state(const compile::Program& p, const runtime::State& s, const YAML::Node& recorded);

// Parameter values as JSON: numbers and booleans bare, choices as strings.
std::string params_json(const compile::Program& p);

}  // namespace keli::trace
