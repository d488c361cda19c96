// Helpers shared by the tests: paths into the source tree, loading games, running the binary.
#pragma once

#include <string>
#include <vector>

#include "compile/compiler.hpp"
#include "runtime/game.hpp"
#include "session/game_file.hpp"
#include "util/json_read.hpp"

namespace keli::test {

std::string source_path(const std::string& relative);
// The whole content of a file (empty when it cannot be read).
std::string read_text(const std::string& path);
std::vector<std::string> game_files();  // every games/*.keli, sorted

// Compiles a game with settings; fails the current test (with the diagnostics) if it does not.
std::shared_ptr<const compile::Program> compile(const std::string& path, const compile::ParamSettings& settings = {});

// Each line of `out` parsed as one JSON value (the replies of `keli step`); fails the current test
// at a line that is not JSON.
std::vector<util::Json> json_lines(const std::string& out);

struct Run {
  int status = -1;
  std::string out, err;
};
// Runs build/keli with arguments (each shell-quoted), from the source root, stdin from /dev/null.
Run keli(const std::vector<std::string>& args);
// The same with `input` as its stdin (for keli play).
Run keli_input(const std::vector<std::string>& args, const std::string& input);
// The same from another folder than the source root.
Run keli_input_in(const std::string& folder, const std::vector<std::string>& args, const std::string& input);
// The same with standard output sent to `stdout_path` (a device such as /dev/full), not captured.
Run keli_stdout(const std::string& stdout_path, const std::vector<std::string>& args, const std::string& input = "");

// Every combination of the game's bool and choice parameters (ints keep their defaults); with
// `axes`, of those parameters only (ints with a set of allowed values included).
std::vector<compile::ParamSettings> option_combinations(const GameFile& g, const std::vector<std::string>& axes = {});

// The parameters a game's battery plan (games/NAME.battery.yaml) varies: its `axes`, if any;
// a single empty name for `axes: []` (the defaults only).
std::vector<std::string> battery_axes(const std::string& game);

// How many of the option sets the suite round-trips through a trace: the plan's `trace_sets`
// (spread evenly over the combinations, for long games), or 0 for all of them.
int trace_sets(const std::string& game);

}  // namespace keli::test
