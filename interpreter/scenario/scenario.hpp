// Scenario tests: YAML files that set up positions, play moves and assert outcomes
// (docs/scenarios.md). Failures are diagnostics pointing into the YAML file.
#pragma once

#include <string>
#include <vector>

#include "diag/diagnostics.hpp"

namespace keli::scenario {

struct Report {
  int passed = 0;
  int failed = 0;
};

// Runs every scenario of one file; the file is added to `src` so diagnostics can show it.
Report run_file(const std::string& path, SourceSet& src, diag::Diagnostics& diags);

// A path as given: a file stays itself; a folder gives every .yaml below it, sorted.
std::vector<std::string> find_files(const std::string& path);

}  // namespace keli::scenario
