// The keli command: one table of subcommands, each with its help text and its function.
#include <fmt/format.h>

#include <cstring>
#include <exception>

#include "cli.hpp"
#include "commands.hpp"

namespace {

struct Command {
  const char* name;
  const char* summary;
  const char* help;
  int (*run)(const std::vector<std::string>& args);
};

const Command kCommands[] = {
    {"validate", "check game files and run their scenario tests",
     "usage: keli validate FILE... [--json] [--no-tests] [--param NAME=VALUE]... [--params FILE.yaml]\n"
     "  Reports every error and warning in each game file (file:line:col, the source line, a caret\n"
     "  and a hint), compiles it with its default parameters, and runs the scenario tests in the\n"
     "  folder beside it (games/x.keli -> games/x.tests/).\n"
     "  --json      diagnostics as a JSON array on stdout, for editors\n"
     "  --no-tests  do not run the scenario tests\n"
     "  --param, --params  compile with these parameter values instead of the defaults\n"
     "  exit status: 0 clean (warnings allowed), 1 errors or failed scenarios, 2 wrong usage\n",
     keli::cli::cmd_validate},
    {"run", "play one whole game between computer players",
     "usage: keli run FILE [--param NAME=VALUE]... [--params FILE.yaml] [--seed N]\n"
     "                [--players random,random] [--trace PATH] [--board] [--quiet]\n"
     "  Plays one game and prints each move and the result. The same file, parameters and seed\n"
     "  give the same game on every machine. Declared invariants are checked after every step.\n"
     "  --trace PATH  write the game as JSON Lines (docs/trace-format.md)\n"
     "  --board       draw the board after every move (it is drawn at the start and the end)\n"
     "  --quiet       print only the result\n",
     keli::cli::cmd_run},
    {"play", "play a game against the computer in the terminal",
     "usage: keli play FILE [--param NAME=VALUE]... [--params FILE.yaml] [--seat N] [--seed N]\n"
     "                 [--players random,...] [--trace PATH]\n"
     "  You take seat N (default 0); the other seats are computer players (--players, default\n"
     "  random). Choose a move by its number or its notation; '?' lists the moves again,\n"
     "  'board' redraws the board, 'quit' stops.\n",
     keli::cli::cmd_play},
    {"replay", "re-run a recorded trace and verify it",
     "usage: keli replay TRACE [--quiet]\n"
     "  Re-runs every step of a trace against its game file and exits 1, naming the first line\n"
     "  that differs, when anything does not match.\n",
     keli::cli::cmd_replay},
    {"test", "run YAML scenario tests",
     "usage: keli test [PATH]... [--quiet]\n"
     "  Runs scenario files (docs/scenarios.md). A folder runs the .yaml files in the NAME.tests\n"
     "  folders below it; a game file runs the scenarios beside it (games/x.keli -> games/x.tests/).\n"
     "  With no PATH, runs games/ below the current folder.\n"
     "  Prints 'N passed, M failed' per file and in all (--quiet: only in all); exit status 1 if\n"
     "  any failed.\n",
     keli::cli::cmd_test},
};

void print_usage(FILE* to) {
  fmt::print(to, "usage: keli COMMAND [OPTIONS]\n\ncommands:\n");
  for (const auto& c : kCommands) fmt::print(to, "  {:<10} {}\n", c.name, c.summary);
  fmt::print(to, "\n'keli COMMAND --help' describes a command.\n");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    print_usage(stderr);
    return keli::cli::kUsage;
  }
  std::string name = argv[1];
  if (name == "--help" || name == "-h" || name == "help") {
    print_usage(stdout);
    return keli::cli::kOk;
  }
  if (name == "--version") {
    fmt::print("keli {}\n", KELI_VERSION);
    return keli::cli::kOk;
  }
  for (const auto& c : kCommands) {
    if (name != c.name) continue;
    std::vector<std::string> args(argv + 2, argv + argc);
    for (const auto& a : args)
      if (a == "--help" || a == "-h") {
        fmt::print("{}", c.help);
        return keli::cli::kOk;
      }
    try {
      return c.run(args);
    } catch (const keli::cli::Usage& u) {
      fmt::print(stderr, "keli {}: {}\n{}", c.name, u.message, c.help);
      return keli::cli::kUsage;
    } catch (const std::exception& e) {
      fmt::print(stderr, "keli {}: internal error: {}\n", c.name, e.what());
      return keli::cli::kFailed;
    }
  }
  fmt::print(stderr, "keli: unknown command '{}'\n", name);
  print_usage(stderr);
  return keli::cli::kUsage;
}
