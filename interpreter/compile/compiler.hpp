// The compiler's entry point: a checked game plus parameter settings give an executable Program.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "check/checker.hpp"
#include "compile/program.hpp"

namespace keli::compile {

// Parameter settings as the user wrote them (name, value text), applied over the defaults.
using ParamSettings = std::vector<std::pair<std::string, std::string>>;

// Runs the board-building program `building` from callable `entry`, growing its sites and
// regions, and throws diag::Error when the board cannot be built. The compiler owns this seam and
// runtime/ fills it (runtime::run_board), so compile/ never depends on the evaluator.
using BoardRunner = std::function<void(Program& building, int entry)>;

// Null when there are errors (reported to `diags`: unknown parameters, bad values, a board that
// fails to build).
// `optimized = false` skips compile/optimize (the tests compare both forms move by move).
std::shared_ptr<const Program> compile_game(const check::Checked& ck, const ParamSettings& settings,
                                            const SourceSet& src, diag::Diagnostics& diags,
                                            const BoardRunner& run_board, bool optimized = true);

}  // namespace keli::compile
