// The compiler's entry point: a checked game plus parameter settings give an executable Program.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "check/checker.hpp"
#include "compile/program.hpp"

namespace keli::compile {

// Parameter settings as the user wrote them (name, value text), applied over the defaults.
using ParamSettings = std::vector<std::pair<std::string, std::string>>;

// Null when there are errors (reported to `diags`: unknown parameters, bad values, a board that
// fails to build).
// `optimized = false` skips compile/optimize (the tests compare both forms move by move).
std::shared_ptr<const Program> compile_game(const check::Checked& ck, const ParamSettings& settings,
                                            const SourceSet& src, diag::Diagnostics& diags, bool optimized = true);

}  // namespace keli::compile
