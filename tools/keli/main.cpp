// The keli command: one table of subcommands, each with its help text and its function.
#include <fmt/format.h>

#include <cstring>
#include <exception>
#include <filesystem>

#include "agents/agent.hpp"
#include "cli.hpp"
#include "commands.hpp"
#include "diag/diagnostics.hpp"
#include "runtime/engine.hpp"
#include "std_output.hpp"
#include "util/temp_files.hpp"

// The engine options every command that runs games takes (runtime/engine.hpp, docs/cli.md).
#define KELI_ENGINE_HELP                                                                        \
  "  --engine E  interp (the interpreter), native (the game compiled to C++ and loaded) or\n"   \
  "              auto (native when a C++ compiler is present, else the interpreter with a\n"    \
  "              line on stderr); default auto for simulate, match, bench and play with a\n"    \
  "              computer player, else interp\n"                                                \
  "  --cache DIR where native code is kept (default $XDG_CACHE_HOME/keli or ~/.cache/keli)\n"   \
  "  --budget N  units of work one step may do (loop rounds, domain elements, calls) instead\n" \
  "              of the game's 'limit work' or Keli's default (docs/language.md, safety bounds)\n"

// The option every command that loads games takes (ast/files.hpp, docs/cli.md), added to their help.
#define KELI_PATH_HELP                                                                           \
  "  --path DIR  one more folder games, imports and bases may be read from (repeatable); also\n" \
  "              the game's own folder and below, Keli's stdlib/ and games/, and $KELI_PATH\n"

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
     "                [--players random,random] [--trace PATH [--trace-every K] [--record-legal]]\n"
     "                [--board] [--quiet]\n"
     "  Plays one game and prints each move and the result. The same file, parameters and seed\n"
     "  give the same game on every machine. Declared invariants are checked after every step.\n"
     "  --trace PATH  write the game as JSON Lines (docs/trace-format.md): each step with a check\n"
     "                of the state after it, the whole state every K steps (--trace-every, default\n"
     "                500; 1 writes it on every step); never over the game or its imports; if the\n"
     "                game fails or a signal stops keli, what was written is kept as PATH.partial\n"
     "  --record-legal  with --trace: each decision line also records the action ids of the\n"
     "                legal moves (docs/actions.md), which replay compares\n"
     "  --board       draw the board after every move (it is drawn at the start and the end)\n"
     "  --quiet       print only the result\n"
     "  --players     one player a seat, separated by commas (the last fills the remaining seats);\n"
     "                options follow the name after colons: mcts:iterations=500:cutoff=40\n"
     "                (docs/agents.md). Players:\n" KELI_AGENTS_HELP KELI_ENGINE_HELP,
     keli::cli::cmd_run},
    {"play", "play a game against the computer in the terminal",
     "usage: keli play FILE [--param NAME=VALUE]... [--params FILE.yaml] [--seat N] [--seed N]\n"
     "                 [--players human,mcts,...] [--trace PATH] [--resume TRACE] [--debug]\n"
     "  Seats named 'human' in --players are played at the keyboard (by turns, when several);\n"
     "  the others by computer players (default random). Without 'human' in --players you take\n"
     "  seat N (--seat, default 0). The board is drawn before each of your decisions with the\n"
     "  last move's sites in brackets (bold on a terminal), fitted to the terminal's size (else\n"
     "  $COLUMNS x $LINES, else 80x24): a compact grid (S3+: S3 and more, listed under it) or a\n"
     "  picture when the board is too large; pieces and holes named as the moves name them.\n"
     "  Under it a status line in words: whose turn, the dice in hand, where the mover's pieces\n"
     "  stand as the moves count, the scores. At the prompt:\n"
     "    NUMBER or MOVE  play that move (its number in the list, or its notation as listed)\n"
     "    ?               list the legal moves, each with its rule's parameters explained\n"
     "    board           draw the board again\n"
     "    undo            take back your last decision (and the throws and moves since)\n"
     "    save FILE       write the game so far as a trace (docs/trace-format.md)\n"
     "    quit            stop (also the end of input)\n"
     "  --resume TRACE  replay a saved trace (verifying every step) and go on from its end; its\n"
     "                  file, parameters, seed and players are used unless given here\n"
     "  --trace PATH    write the whole game as a trace when it ends\n"
     "  --debug         also list the variables' raw values under the board (pos: 6 7 11 ...)\n"
     "  Players: human, and\n" KELI_AGENTS_HELP KELI_ENGINE_HELP,
     keli::cli::cmd_play},
    {"replay", "re-run a recorded trace and verify it",
     "usage: keli replay TRACE [--quiet | --expand]\n"
     "       keli replay GAME --moves FILE [--param NAME=VALUE]... [--params FILE.yaml] [--quiet]\n"
     "  Re-runs every step of a trace against its game file, reading it line by line, and exits\n"
     "  1, naming the first line that differs, when anything does not match: moves, throws and\n"
     "  computer players' choices drawn again from the seed, the state's check and whole states,\n"
     "  and the legal moves where the trace records them (run --record-legal).\n"
     "  --expand  print the trace again with the whole state on every step (for other tools)\n"
     "  --moves FILE  a moves file instead (docs/trace-format.md, Moves files): JSON Lines of\n"
     "                {\"move\": ID or \"NOTATION\"}, {\"throw\": [VALUES]} or {\"outcome\": ID}, no\n"
     "                states, played on GAME from its start; the first step that is not legal\n"
     "                stops it with FILE:LINE:COL and exit status 1\n" KELI_ENGINE_HELP,
     keli::cli::cmd_replay},
    {"step", "drive a game from another program: JSON Lines requests and replies",
     "usage: keli step FILE [--param NAME=VALUE]... [--params FILE.yaml] [--seed N]\n"
     "  Reads one JSON request a line from standard input and writes one JSON reply a line\n"
     "  (docs/step-protocol.md): {\"cmd\": \"apply\", \"move\": ID or \"NOTATION\"}, throw (\"values\"\n"
     "  or \"outcome\"), sample (a throw drawn from --seed, or from \"seed\"), legal (the legal\n"
     "  moves with their action ids, docs/actions.md), chance (the outcomes with exact\n"
     "  probabilities), state, over, result (places and returns), info, undo, clone, restore and\n"
     "  drop (states kept by handle), quit. A request's \"tag\" is echoed in its reply. A bad line\n"
     "  gets {\"ok\": false, \"error\": ..., \"code\": ...} and the session goes on.\n"
     "  exit status: 0 at the end of the input or after quit; 1 a game that does not load;\n"
     "  2 wrong usage\n" KELI_ENGINE_HELP,
     keli::cli::cmd_step},
    {"render", "draw the board as an SVG picture, at the start or at a step of a trace",
     "usage: keli render FILE [--param NAME=VALUE]... [--params FILE.yaml] -o OUT.svg\n"
     "       keli render FILE --trace TRACE [--ply N] -o OUT.svg\n"
     "  Draws the board from the game file's own geometry: one shape a site at its coordinates\n"
     "  (round holes when the game displays a count a site, squares otherwise; sites sharing a\n"
     "  place side by side), regions tinted (one a seat in that seat's colour), the displayed\n"
     "  marked cells crossed, true boolean flags a site as small badges, the first instance of each\n"
     "  track as a faint line from a dot to an arrow. Then the position: the displayed counts as\n"
     "  numbers, pieces as discs in their seat's colour with its initial (its number when initials\n"
     "  clash) and a stack's size on a badge. A legend below gives the seats, the key, the\n"
     "  parameters, the other variables and whose turn it is.\n"
     "  -o, --output FILE  where to write the SVG ('-' for standard output); required\n"
     "  --trace TRACE      draw the position of a recorded game (keli run --trace) instead of the\n"
     "                     start; every step up to it is re-run and checked as keli replay does.\n"
     "                     The trace's parameters are used (--param and --params are refused)\n"
     "  --ply N            the position after step N of the trace (0: the start; default: the\n"
     "                     last); only the lines up to step N are read. The sites the last move\n"
     "                     named are outlined\n"
     "  exit status: 0 written; 1 errors in the file or parameters, a trace that does not match\n"
     "  or is of another game, N past the trace's end, an unwritable output; 2 wrong usage\n",
     keli::cli::cmd_render},
    {"test", "run YAML scenario tests",
     "usage: keli test [PATH]... [--quiet]\n"
     "  Runs scenario files (docs/scenarios.md). A folder runs the .yaml files in the NAME.tests\n"
     "  folders below it; a game file runs the scenarios beside it (games/x.keli -> games/x.tests/).\n"
     "  With no PATH, runs games/ below the current folder.\n"
     "  Prints 'N passed, M failed' per file and in all (--quiet: only in all); exit status 1 if\n"
     "  any failed.\n" KELI_ENGINE_HELP,
     keli::cli::cmd_test},
    {"describe", "say what a game file defines: players, board, dice, parameters, rules, state",
     "usage: keli describe FILE [--param NAME=VALUE]... [--params FILE.yaml] [--json]\n"
     "  Prints, in sections: the game's name, file and provenance ('about' entries); for a variant\n"
     "  ('extends') its base file and what it changes (parameter defaults set, old -> new;\n"
     "  definitions, phases, variables and boards replaced; handlers, setups, invariants and new\n"
     "  definitions added); the players (seat names, teams when the game defines\n"
     "  'def team(p: player)', pieces per seat); the board (sites, the shapes that build it,\n"
     "  every region and track with its instances and sizes, marked cells, what the text board\n"
     "  shows); each set of dice with its faces and the exact probability of every throw and\n"
     "  total; every parameter (type, default, allowed values, description, the value in effect);\n"
     "  the phases with their move rules and 'otherwise' rules; events and handlers; the state\n"
     "  variables with their sizes (4 bytes a slot) and the total; invariants and the move limit.\n"
     "  --param, --params  describe the game as compiled with these values (sizes, dice, values\n"
     "              in effect follow them)\n"
     "  --json      the same facts as one JSON object (docs/cli.md lists its keys)\n"
     "  exit status: 0 described, 1 errors in the file or a bad parameter, 2 wrong usage\n",
     keli::cli::cmd_describe},
    {"rules", "print the rulebook of a game in English, generated from its file",
     "usage: keli rules FILE [--param NAME=VALUE]... [--params FILE.yaml] [--format text|md|html]\n"
     "                  [-o FILE] [--strict]\n"
     "  Prints the game's rulebook (docs/rulebooks.md): where the game comes from, what a variant\n"
     "  changes, players and equipment (the board, the dice with the exact odds of each total),\n"
     "  set-up, each phase with each move in words (what is chosen, when it is allowed, what it\n"
     "  does), triggers, the definitions the rules name, how the game ends, the options with the\n"
     "  rules each one changes, and the engine's safety bounds apart. Rule comments of the file\n"
     "  appear as quoted glosses. With --param, the book is the game played with those values:\n"
     "  rules the options rule out are left out.\n"
     "  --format    text (the default, wrapped at 100 columns), md (Markdown, as in docs/games/)\n"
     "              or html (a standalone page)\n"
     "  -o FILE     write the book to FILE instead of standard output\n"
     "  --strict    a construct the book could only show as code is an error, not a warning\n"
     "  exit status: 0 written; 1 errors in the file or parameters, an unwritable output, or\n"
     "  with --strict a rule shown as code; 2 wrong usage\n",
     keli::cli::cmd_rules},
    {"serve", "run the game site: rooms where people play each other and computers, online",
     "usage: keli serve [--port N] [--host ADDR] [--db FILE] [--games DIR] [--site DIR]\n"
     "                  [--threads T] [--engine interp|native|auto] [--rooms-per-address N]\n"
     "  Serves the site's protocol (docs/serve.md) as a WebSocket at ws://HOST:PORT/ws and, with\n"
     "  --site, the page's files over HTTP. Rooms for any game of the library and option set,\n"
     "  seats held by people (an unguessable token each), computer players or left open;\n"
     "  spectators; a lobby. The server is the referee: a move out of turn, for another seat or not\n"
     "  legal is refused. Every step is written to the database as it is played, and the rooms are\n"
     "  rebuilt from it on the next start.\n"
     "  --port N     the port (default 8080; 0 takes a free one); the one taken is printed\n"
     "  --host ADDR  the address listened on (default 127.0.0.1; 0.0.0.0 for every interface)\n"
     "  --db FILE    the SQLite database, created on first start (default keli.sqlite)\n"
     "  --games DIR  the library rooms are made of (default Keli's games/): names, never paths\n"
     "  --site DIR   the page's files (tools/web/build.sh's build-web/site)\n"
     "  --threads T  threads running the sessions (default 4; a computer's search holds one)\n"
     "  Stops on SIGINT or SIGTERM.\n"
     "  exit status: 0 stopped; 1 the database cannot be opened or the port taken; 2 wrong usage\n",
     keli::cli::cmd_serve},
    {"simulate", "play many games in parallel and report win rates and lengths",
     "usage: keli simulate FILE [-n N] [--threads T] [--seed N] [--players random,...]\n"
     "                     [--param NAME=VALUE]... [--params FILE.yaml] [--json | --csv] [--no-invariants]\n"
     "                     [--records FILE [--records-format csv|jsonl]] [--shard I/N] [--mpi]\n"
     "  Plays N games (default 1000) over T threads (default: one a core) and reports, with 95%\n"
     "  (Wilson) intervals: wins by seat, wins by team (seats sharing first place), draws (every\n"
     "  seat first, or none placed), the share ended by the rules rather than the move limit; game\n"
     "  length in decisions (mean, median, 95th percentile), throws a game, and the branching\n"
     "  factor (legal moves a decision). Game i is seeded from (seed, i), so the results are the\n"
     "  same for any T. Declared invariants are checked after every step; a game in which one\n"
     "  fails (or a runtime error) counts in 'errors', not in the other figures.\n"
     "  -n N        how many games\n"
     "  --threads T how many threads\n"
     "  --no-invariants  do not check the invariants (faster)\n"
     "  --json      one JSON object; --csv: rows statistic,subject,count,games,value,ci95_lo,ci95_hi.\n"
     "              Neither holds timings: the same seed gives byte-identical output.\n"
     "  --records FILE  one row a game, in game order (index, seed, players, decisions, throws,\n"
     "              legal moves, places, end by rules or limit, error), after a run header line:\n"
     "              CSV for .csv, JSON Lines for .jsonl (or --records-format); what keli merge and\n"
     "              keli report read (docs/simulation.md); a signal that stops the run keeps\n"
     "              the rows written so far as FILE.partial\n"
     "  --shard I/N play only games I, I+N, I+2N, ... of the N games' run (each seeded as in the whole\n"
     "              run); keli merge combines the shards' --records files into the whole run's output\n"
     "  --mpi       under mpirun: the games spread over the ranks (rank 0 hands out a few at a time\n"
     "              and prints); the same output as one process. Each rank plays on one thread\n"
     "  A progress bar (rate, time left) is drawn on stderr when it is a terminal.\n"
     "  exit status: 0 done, 1 bad game file or a game stopped by an error (the report is still\n"
     "  printed), 2 wrong usage\n" KELI_ENGINE_HELP,
     keli::cli::cmd_simulate},
    {"merge", "combine the records of a simulate run's shards into the run's summary",
     "usage: keli merge RECORDS... [--json | --csv] [--records OUT [--records-format csv|jsonl]]\n"
     "  Reads the --records files of the shards of one keli simulate run (--shard I/N; CSV or JSON\n"
     "  Lines, in any order) and prints the summary one process would have printed for the whole\n"
     "  run: --json and --csv byte for byte, the text form without its timing line.\n"
     "  --records OUT  the rows of the whole run in game order, in one file\n"
     "  Refused, with the file and line (E711): files of different runs (game text, parameters,\n"
     "  players, seed, count, shards), a shard given twice or missing, a row missing, out of order\n"
     "  or not of its shard, a file that is not a records file or is cut short.\n"
     "  exit status: 0 merged, 1 bad records or a game stopped by an error, 2 wrong usage\n",
     keli::cli::cmd_merge},
    {"report", "draw the records of a simulate run as charts in an HTML page or an SVG picture",
     "usage: keli report RECORDS... -o OUT.html|OUT.svg\n"
     "  Reads the --records file of a keli simulate run (or its shards' files, as keli merge does)\n"
     "  and draws, with no script and nothing fetched from the network: wins by seat and team\n"
     "  with 95% (Wilson) intervals, the share of games ended by the rules, a histogram of game\n"
     "  lengths in decisions, and the places of each seat; the page also lists the figures in\n"
     "  tables. Games stopped by an error are counted apart, as in keli simulate.\n"
     "  -o, --output FILE  an .html page (inline SVG charts) or one .svg picture; required\n"
     "  exit status: 0 written, 1 bad records or an unwritable output, 2 wrong usage\n",
     keli::cli::cmd_report},
    {"match", "computer players against each other, seats rotated, with win rates",
     "usage: keli match FILE --players A,B[,...] [-n N] [--threads T] [--seed N]\n"
     "                  [--param NAME=VALUE]... [--params FILE.yaml] [--json] [--no-invariants]\n"
     "  Plays N games (default 100) over T threads (default: one a core). Game i seats the\n"
     "  player list rotated by i (player k at seat (k + i) mod seats; a list shorter than the\n"
     "  seats is filled with its last player). Reports, for each distinct player, the games in\n"
     "  which a seat it held took first place (with a team, the team's win) with a 95% Wilson\n"
     "  interval; draws (every seat first, or none placed); the mean length in decisions. Game i\n"
     "  is seeded from (seed, i): the same figures for any T (unless a player searches by time).\n"
     "  --json  one JSON object: game, file, players, games, seed, agents [{player, seats, wins,\n"
     "          rate, ci95}], draws {count, rate, ci95}, by_limit, errors, length {mean, median, p95},\n"
     "          throws\n"
     "  --no-invariants  do not check the invariants after every step (faster)\n"
     "  exit status: 0 done, 1 bad game file or a game stopped by an error (a runtime error or a\n"
     "  failed invariant), 2 wrong usage\n"
     "  Players (options after colons, e.g. mcts:iterations=1000:cutoff=40):\n" KELI_AGENTS_HELP KELI_ENGINE_HELP,
     keli::cli::cmd_match},
    {"bench", "measure random playouts a second on one thread",
     "usage: keli bench FILE [--seconds S | --games N] [--seed N] [--param NAME=VALUE]...\n"
     "                  [--params FILE.yaml] [--json]\n"
     "  Plays random games (uniform among the legal decisions, dice thrown as the game says) on\n"
     "  one thread for S seconds (default 3) or N games, without checking invariants, and prints\n"
     "  playouts/s, decisions/s, steps/s (decisions and throws), decisions and steps a game, the\n"
     "  share ended by the rules and by the move limit, and the state size in bytes.\n"
     "  --json      the same figures as one JSON object\n"
     "  See docs/performance.md for the benchmarks and the figures measured.\n" KELI_ENGINE_HELP,
     keli::cli::cmd_bench},
    {"fmt", "lay out game files in the one canonical layout",
     "usage: keli fmt FILE|FOLDER... [--check]\n"
     "  Rewrites each file (every .keli below a folder) in the canonical layout: two spaces of\n"
     "  indentation a brace level (and one more level on a continuation line), one space around\n"
     "  binary operators and after commas, none inside brackets, one statement or declaration a\n"
     "  line, '} else {', 'about' entries one a line, at most one blank line in a row, trailing\n"
     "  comments of adjacent lines aligned, no trailing blanks, one final newline. The author's\n"
     "  line breaks inside an expression and the comments are kept (docs/language.md, Layout).\n"
     "  A file is written only when it changes, atomically (a temporary file renamed over it);\n"
     "  each file changed is listed. The output must hold exactly the tokens of the input, or the\n"
     "  file is left alone with an internal error.\n"
     "  --check     change nothing; list each file that is not laid out so, with its first\n"
     "              differing line (- as it is, + as it would be)\n"
     "  A file with a syntax error is reported (file:line:col) and left unchanged.\n"
     "  exit status: 0 all formatted (or, with --check, all already formatted), 1 a file would\n"
     "  change (--check), has a syntax error or cannot be read or written, 2 wrong usage\n",
     keli::cli::cmd_fmt},
};

void print_usage(FILE* to) {
  fmt::print(to, "usage: keli COMMAND [OPTIONS]\n\ncommands:\n");
  for (const auto& c : kCommands) fmt::print(to, "  {:<10} {}\n", c.name, c.summary);
  fmt::print(to, "\n'keli COMMAND --help' describes a command.\n");
}

// The command named by argv[1] run, its exceptions turned into messages and statuses.
int dispatch(int argc, char** argv) {
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
        fmt::print("{}{}", c.help, std::string(c.name) == "fmt" ? "" : KELI_PATH_HELP);
        return keli::cli::kOk;
      }
    try {
      return c.run(args);
    } catch (const keli::cli::Usage& u) {
      fmt::print(stderr, "keli {}: {}\n{}", c.name, u.message, c.help);
      return keli::cli::kUsage;
    } catch (const std::filesystem::filesystem_error& e) {
      // A path the system refuses (a link loop, a name too long): the user's input, not a bug.
      fmt::print(stderr, "{}: error: {}\n", e.path1().string(), e.code().message());
      return keli::cli::kFailed;
    } catch (const keli::runtime::NativeUnavailable& e) {
      fmt::print(stderr,
                 "keli {}: error: the native engine cannot run here: {} [{}]\n  hint: --engine interp, or "
                 "--engine auto (the interpreter where the native engine cannot run)\n",
                 c.name, e.what(), keli::diag::info(keli::diag::Code::native_unavailable).code);
      return keli::cli::kFailed;
    } catch (const std::system_error& e) {
      if (keli::cli::write_failure(e)) return keli::cli::kFailed;  // said once, by finish_output
      fmt::print(stderr, "keli {}: internal error: {}\n", c.name, e.what());
      return keli::cli::kFailed;
    } catch (const std::exception& e) {
      fmt::print(stderr, "keli {}: internal error: {}\n", c.name, e.what());
      return keli::cli::kFailed;
    }
  }
  fmt::print(stderr, "keli: unknown command '{}'\n", name);
  print_usage(stderr);
  return keli::cli::kUsage;
}

}  // namespace

int main(int argc, char** argv) {
  keli::util::clean_up_on_stop_signals();
  keli::cli::CheckedCout checked_cout;
  int status = keli::cli::kFailed;
  try {
    status = dispatch(argc, argv);
  } catch (const std::system_error& e) {
    // A message to stderr that could not be written: nothing more can be said there.
    if (!keli::cli::write_failure(e)) throw;
  }
  // Every command's output checked in this one place: lost output is an error (docs/cli.md).
  return keli::cli::finish_output(status);
}
