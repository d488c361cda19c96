// The system C++ compiler, as the native engine runs it: found on PATH (or $KELI_CXX), run
// without a shell (arguments passed as they are), its output captured in memory, its time
// bounded; a failure the environment caused (a full disk, a read-only folder, no compiler, out
// of memory) told apart from generated code that does not compile (a Keli bug).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace keli::native {

// $KELI_CXX, else c++, g++ or clang++ found on PATH; none when there is no compiler.
std::optional<std::string> find_compiler();

// `compiler --version`, once per compiler per process: the compiler's identity in the cache key.
std::string compiler_identity(const std::string& cxx);

struct ToolRun {
  bool started = false;  // false: the program could not be run at all (`output` says why)
  int exit_status = -1;  // the exit status, or -1 when stopped by a signal
  int signal = 0;        // the signal that stopped it, if any
  bool timed_out = false;
  std::string output;  // standard output and error together, at most kMaxToolOutput bytes
};

// Runs argv[0] with argv (looked up on PATH when it has no '/'), for at most `seconds`.
ToolRun run_tool(const std::vector<std::string>& argv, int seconds);

// What in the environment made a failed compile fail ("No space left on device", ...), or ""
// when nothing did and the fault is in the generated code.
std::string environment_cause(const ToolRun& r);

}  // namespace keli::native
