// keli replay: re-runs a trace and verifies every step against the game (trace::replay, through
// the one trace reader); --expand writes it again with the whole state on every step.
#include <fmt/format.h>

#include <iostream>

#include "api/moves.hpp"
#include "cli.hpp"
#include "commands.hpp"
#include "trace/trace.hpp"

namespace keli::cli {

// keli replay GAME --moves FILE: the moves file re-run strictly (api/moves.hpp).
int replay_moves(const Args& a) {
  if (a.expand) throw Usage{"--expand reads a trace, not a moves file"};
  Loaded l = load(a.files[0], a, false);
  if (!l.program) return kFailed;
  try {
    auto game = std::make_shared<api::Game>(std::move(l.file), l.program, runtime::default_engine());
    api::MovesResult r = api::replay_moves(game, a.moves, a.quiet ? nullptr : &std::cout);
    std::cout.flush();
    if (!r.ok) {
      fmt::print(stderr, "{}", r.error);
      return kFailed;
    }
    fmt::print("replayed {} step{} of {}: every one legal; {}\n", r.steps, r.steps == 1 ? "" : "s", a.moves,
               r.state.is_terminal() ? "result: " + result_text(game->program(), r.state.places(), r.state.points())
                                     : std::string("the game goes on"));
  } catch (const api::Error& e) {
    fmt::print(stderr, "{}\n", e.what());
    return kFailed;
  }
  return kOk;
}

int cmd_replay(const std::vector<std::string>& argv) {
  Args a = parse(argv, {"--quiet", "--engine", "--expand", "--moves", "--param", "--params"});
  use_engine(a, runtime::Engine::Interp);
  if (!a.moves.empty()) {
    if (a.files.size() != 1) throw Usage{"name one game file for --moves"};
    return replay_moves(a);
  }
  if (!a.params.empty() || !a.params_files.empty())
    throw Usage{"a trace records its parameters: --param goes with --moves"};
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
