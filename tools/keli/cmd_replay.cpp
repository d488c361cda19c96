// keli replay: re-runs a trace and verifies every step against the game (trace::replay, through
// the one trace reader); --expand writes it again with the whole state on every step.
#include <fmt/format.h>

#include <iostream>

#include "cli.hpp"
#include "commands.hpp"
#include "trace/trace.hpp"

namespace keli::cli {

int cmd_replay(const std::vector<std::string>& argv) {
  Args a = parse(argv, {"--quiet", "--engine", "--expand"});
  use_engine(a, runtime::Engine::Interp);
  if (a.files.size() != 1) throw Usage{"name one trace file"};
  SourceSet src;
  diag::Diagnostics d;
  trace::ReplayOptions options;
  options.log = a.quiet || a.expand ? nullptr : &std::cout;
  options.expand = a.expand ? &std::cout : nullptr;
  options.players = trace_players();
  int status = trace::replay(a.files[0], d, src, options);
  std::cout.flush();
  print_diagnostics(src, d, true);
  return status == 0 ? kOk : kFailed;
}

}  // namespace keli::cli
