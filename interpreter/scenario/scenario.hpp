// Scenario tests: YAML files that set up positions, play moves and assert outcomes
// (docs/scenarios.md). Failures are diagnostics pointing into the YAML file.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "compile/compiler.hpp"
#include "diag/diagnostics.hpp"
#include "session/game_file.hpp"

namespace keli::scenario {

struct Report {
  int passed = 0;
  int failed = 0;
};

// Where run_file takes a scenario file's game from. These open the game file and compile it anew
// for each scenario file; a caller that runs many scenario files over the same games (the fuzz
// target) may keep what they return, which must be what these would return.
class Games {
 public:
  virtual ~Games() = default;
  // The game file at `path` as GameFile::open gives it (its errors in its diagnostics()).
  virtual std::shared_ptr<const GameFile> open(const std::string& path);
  // GameFile::compile: null, with the reasons in `diags`, when `settings` are wrong.
  virtual std::shared_ptr<const compile::Program> compile(const GameFile& game, const compile::ParamSettings& settings,
                                                          diag::Diagnostics& diags);
};

// Runs every scenario of one file; the file is added to `src` so diagnostics can show it.
Report run_file(const std::string& path, SourceSet& src, diag::Diagnostics& diags);
// The same with the games taken from `games`.
Report run_file(const std::string& path, SourceSet& src, diag::Diagnostics& diags, Games& games);

// A path as given: a file stays itself; a folder gives every .yaml below it, sorted.
std::vector<std::string> find_files(const std::string& path);

}  // namespace keli::scenario
