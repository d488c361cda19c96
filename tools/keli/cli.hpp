// Shared pieces of the keli command: argument parsing, loading a game with parameters, and
// printing diagnostics. Each subcommand lives in its own cmd_*.cpp and is listed in main.cpp.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "compile/compiler.hpp"
#include "diag/diagnostics.hpp"
#include "runtime/engine.hpp"
#include "session/game_file.hpp"
#include "trace/trace.hpp"

#include "util/output_file.hpp"

namespace keli::cli {

// Exit statuses: 0 success, 1 a problem with the input or a failed check, 2 wrong usage.
constexpr int kOk = 0, kFailed = 1, kUsage = 2;

struct Usage {
  std::string message;  // thrown for wrong command-line usage
};

struct Args {
  std::vector<std::string> files;
  compile::ParamSettings params;
  std::vector<std::string> params_files;
  uint64_t seed = 1;
  bool seed_given = false;
  std::vector<std::string> players;
  std::string trace;
  std::string resume;  // keli play --resume TRACE
  std::string output;  // keli render: -o/--output FILE
  int64_t ply = -1;    // keli render: --ply N (>= 0); -1 when not given
  int seat = 0;
  bool json = false, quiet = false, board = false, no_tests = false, help = false;
  bool expand = false;        // keli replay --expand
  std::string moves;          // keli replay GAME --moves FILE
  bool record_legal = false;  // keli run --record-legal
  int trace_every = 0;        // keli run / play --trace-every K; 0: the default
  // keli simulate / bench: -n and --games (a count, > 0), --threads (> 0), --seconds (> 0), --csv.
  int64_t games = 0;
  int threads = 0;  // 0: not given
  double seconds = 0;
  bool csv = false;
  bool no_invariants = false;  // keli simulate / match: --no-invariants (faster, nothing checked)
  // keli simulate: --records FILE [--records-format csv|jsonl], --shard I/N, --mpi; also merge's --records.
  std::string records, records_format;
  int shard = 0, shards = 1;
  bool mpi = false;
  // --engine interp|native|auto, --cache DIR and --budget N (commands that run games).
  std::optional<runtime::Engine> engine;
  std::string cache;
  int64_t budget = 0;  // --budget N; 0: the game's `limit work`
  // --path DIR (repeatable, every command that loads games): more folders games may come from.
  std::vector<std::string> search_path;
  std::string format;   // keli rules --format text|md|html
  bool strict = false;  // keli rules --strict: a rule given as code is an error
  bool debug = false;   // keli play --debug: the variables' raw values under the board
  // keli serve: --host ADDR, --port N (0: any free), --db FILE, --games DIR, --site DIR, --rooms-per-address N.
  std::string host = "127.0.0.1";
  int port = 8080;
  std::string db = "keli.sqlite", games_dir, site;
  int rooms_per_address = 0;  // keli serve --rooms-per-address N; 0: kMaxServeRoomsPerAddress
};

// Sets the engine every Game of this command runs on: --engine, else `fallback`; --cache, --budget.
void use_engine(const Args& a, runtime::Engine fallback);

// Parses the options a command accepts (`allowed` lists them, e.g. {"--param", "--seed"}).
Args parse(const std::vector<std::string>& argv, const std::vector<std::string>& allowed);

// Opens and compiles FILE with the parameters of `args` (and --params files). Prints every
// diagnostic; returns null when there are errors.
struct Loaded {
  std::unique_ptr<GameFile> file;
  std::shared_ptr<const compile::Program> program;
};
Loaded load(const std::string& path, const Args& args, bool print_warnings);

// Reads a YAML map of parameter values; prints a positioned error and returns false if it cannot.
bool read_params_file(const std::string& path, compile::ParamSettings& out);

void print_diagnostics(const SourceSet& src, const diag::Diagnostics& d, bool warnings);

// A runtime error of a game of FILE as a diagnostic; one without a position (a failed
// invariant) is said of FILE.
std::string error_text(const Loaded& l, const std::string& file, const diag::Error& e);

// The files a loaded game was read from (the game, its imports and base, --params files): what
// no output file of the command may overwrite.
std::vector<std::string> input_files(const Loaded& l, const Args& a);

// Prints "PATH: error: WHY" for an output file that cannot be written; returns kFailed.
int output_error(const std::string& path, const std::string& why);

// The trace `keli run` writes as it plays when --trace names one (its header written on
// opening) into a temporary file: put in place when the game ends, kept as TRACE.partial when
// it fails, so an earlier trace of that name is never truncated.
struct TraceFile {
  util::OutputFile file;
  std::unique_ptr<trace::Writer> writer;  // null without --trace
  // `seeded`: every throw and computer choice will be drawn from one generator seeded with --seed.
  bool open(const Args& a, const compile::Program& p, const std::vector<std::string>& players,
            const std::vector<std::string>& inputs, bool seeded);
  bool commit();        // false, with the message printed, when the trace cannot be put in place
  void keep_partial();  // the game failed: what was written becomes TRACE.partial (said on stderr)
};

// Makes the computer players a seeded trace names, for trace::Reader to re-run (trace_players.cpp).
trace::PlayersFactory trace_players();

// "South 1st, North 2nd": the final places (cmd_run.cpp).
std::string places_text(const compile::Program& p, const std::vector<int>& places);
// The places, then in a game that scores points each seat's ("South 2nd, North 1st; points South
// -10, North 10"); `points` empty for a game without points.
std::string result_text(const compile::Program& p, const std::vector<int>& places, const std::vector<int>& points);

// Players per seat from --players (the last one given fills the remaining seats).
std::vector<std::string> seat_players(const Args& args, int seats, const std::string& fallback);

}  // namespace keli::cli
