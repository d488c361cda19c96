// keli step: the step protocol (api/step.hpp, docs/step-protocol.md) over stdin and stdout.
#include <fmt/format.h>

#include <iostream>

#include "api/step.hpp"
#include "cli.hpp"
#include "commands.hpp"

namespace keli::cli {

int cmd_step(const std::vector<std::string>& argv) {
  Args a = parse(argv, {"--param", "--params", "--seed", "--engine"});
  use_engine(a, runtime::Engine::Interp);
  if (a.files.size() != 1) throw Usage{"name one game file"};
  Loaded l = load(a.files[0], a, false);
  if (!l.program) return kFailed;
  try {
    auto game = std::make_shared<api::Game>(std::move(l.file), l.program, runtime::default_engine());
    api::StepSession session(game, a.seed);
    session.serve(std::cin, std::cout);
  } catch (const api::Error& e) {
    fmt::print(stderr, "{}\n", e.what());
    return kFailed;
  }
  return kOk;
}

}  // namespace keli::cli
