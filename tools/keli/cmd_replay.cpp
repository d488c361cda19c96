// keli replay: re-runs a trace and verifies every step against the game.
#include <fmt/format.h>

#include <iostream>

#include "cli.hpp"
#include "commands.hpp"
#include "trace/trace.hpp"

namespace keli::cli {

int cmd_replay(const std::vector<std::string>& argv) {
  Args a = parse(argv, {"--quiet", "--engine"});
  use_engine(a, runtime::Engine::Interp);
  if (a.files.size() != 1) throw Usage{"name one trace file"};
  SourceSet src;
  diag::Diagnostics d;
  int status = trace::replay(a.files[0], d, src, a.quiet ? nullptr : &std::cout);
  print_diagnostics(src, d, true);
  return status == 0 ? kOk : kFailed;
}

}  // namespace keli::cli
