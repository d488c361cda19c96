// Shared pieces of the keli command: options, loading a game with parameters, diagnostics.
#include "cli.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <optional>

#include "ast/files.hpp"
#include "ast/loader.hpp"
#include "lang/limits.hpp"
#include "scenario/yaml_read.hpp"
#include "util/output_file.hpp"

namespace keli::cli {

// A whole number from 1 to `most` for option `opt`, or a usage error.
static int64_t positive_number(const std::string& opt, const std::string& v, int64_t most) {
  try {
    size_t used = 0;
    long long n = std::stoll(v, &used);
    if (used != v.size() || n < 1 || n > most) throw 0;
    return n;
  } catch (...) {
    throw Usage{fmt::format("{} takes a whole number from 1 to {}, not '{}'", opt, most, v)};
  }
}

namespace {

// A value must be a whole number read to its end, or the option's own usage error.
template <typename T, typename Read>
T read_whole(const std::string& v, Read read, const std::string& error) {
  try {
    size_t used = 0;
    T n = read(v, &used);
    if (used != v.size() || v.empty() || v[0] == '-') throw 0;
    return n;
  } catch (...) {
    throw Usage{error};
  }
}

void set_players(Args& a, const std::string& v) {
  a.players.clear();
  size_t start = 0;
  while (true) {
    size_t comma = v.find(',', start);
    a.players.push_back(v.substr(start, comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
}

void set_param(Args& a, const std::string& nv) {
  auto eq = nv.find('=');
  if (eq == std::string::npos || eq == 0) throw Usage{fmt::format("--param takes NAME=VALUE, not '{}'", nv)};
  a.params.emplace_back(nv.substr(0, eq), nv.substr(eq + 1));
}

void set_seconds(Args& a, const std::string& v) {
  std::string error =
      fmt::format("--seconds takes a number of seconds above 0, up to {}, not '{}'", lang::kMaxSeconds, v);
  a.seconds = read_whole<double>(
      v, [](const std::string& x, size_t* u) { return std::stod(x, u); }, error);
  if (!(a.seconds > 0) || a.seconds > static_cast<double>(lang::kMaxSeconds)) throw Usage{error};
}

// --shard I/N: 0 <= I < N, N up to the game limit.
void set_shard(Args& a, const std::string& v) {
  std::string error = fmt::format("--shard takes I/N, shard I of N counted from 0 (0/4 ... 3/4), not '{}'", v);
  size_t slash = v.find('/');
  if (slash == std::string::npos) throw Usage{error};
  auto number = [&](const std::string& x) {
    return read_whole<int64_t>(
        x, [](const std::string& t, size_t* u) { return std::stoll(t, u); }, error);
  };
  int64_t i = number(v.substr(0, slash)), n = number(v.substr(slash + 1));
  if (n < 1 || i >= n || n > lang::kMaxShards) throw Usage{error + fmt::format(" (N from 1 to {})", lang::kMaxShards)};
  a.shard = static_cast<int>(i);
  a.shards = static_cast<int>(n);
}

void add_search_path(Args& a, const std::string& v) {
  std::error_code ec;
  if (v.empty() || !std::filesystem::is_directory(v, ec))
    throw Usage{fmt::format("--path takes a folder games may be read from, and '{}' is not one", v)};
  a.search_path.push_back(v);
}

void set_ply(Args& a, const std::string& v) {
  try {
    a.ply = v == "0" ? 0 : positive_number("--ply", v, 2'147'483'647LL);  // 0: the start position
  } catch (const Usage&) {
    throw Usage{fmt::format("--ply takes a step number, 0 (the start) or more, not '{}'", v)};
  }
}

// keli serve's --port: 0 (any free port) to 65535.
void set_port(Args& a, const std::string& v) {
  a.port = read_whole<int>(
      v, [](const std::string& x, size_t* u) { return std::stoi(x, u); },
      fmt::format("--port takes a port number (0 to 65535), not '{}'", v));
  if (a.port < 0 || a.port > 65535) throw Usage{fmt::format("--port takes 0 to 65535, not {}", a.port)};
}

void set_seed(Args& a, const std::string& v) {
  a.seed = read_whole<uint64_t>(
      v, [](const std::string& x, size_t* u) { return std::stoull(x, u); },
      fmt::format("--seed takes a whole number, not '{}'", v));
  a.seed_given = true;
}

// keli serve's --rooms-per-address: the live rooms one address may hold (a load test's clients
// all come from the loopback address).
void set_rooms_per_address(Args& a, const std::string& v) {
  a.rooms_per_address = static_cast<int>(positive_number("--rooms-per-address", v, lang::kMaxServeRooms));
}

// keli play --debug: the raw variables under the board, besides the status line in words.
void set_debug(Args& a, const std::string&) { a.debug = true; }

// The one table of options: each with the name a command allows it under (`allowed` of parse),
// the words that spell it, whether it takes a value, and what it sets.
struct Option {
  const char* allowed;
  std::vector<const char*> spellings;
  bool takes_value;
  void (*set)(Args&, const std::string& value);
};

const std::vector<Option>& options() {
  static const std::vector<Option> table = {
      {"--param", {"--param"}, true, set_param},
      {"--params", {"--params"}, true, [](Args& a, const std::string& v) { a.params_files.push_back(v); }},
      {"--seed", {"--seed"}, true, set_seed},
      {"--players", {"--players"}, true, set_players},
      {"--trace", {"--trace"}, true, [](Args& a, const std::string& v) { a.trace = v; }},
      {"--resume", {"--resume"}, true, [](Args& a, const std::string& v) { a.resume = v; }},
      {"--seat",
       {"--seat"},
       true,
       [](Args& a, const std::string& v) {
         a.seat = read_whole<int>(
             v, [](const std::string& x, size_t* u) { return std::stoi(x, u); },
             fmt::format("--seat takes a seat number, not '{}'", v));
       }},
      {"--json", {"--json"}, false, [](Args& a, const std::string&) { a.json = true; }},
      {"--quiet", {"--quiet"}, false, [](Args& a, const std::string&) { a.quiet = true; }},
      {"--board", {"--board"}, false, [](Args& a, const std::string&) { a.board = true; }},
      {"--no-tests", {"--no-tests"}, false, [](Args& a, const std::string&) { a.no_tests = true; }},
      {"-n", {"-n"}, true, [](Args& a, const std::string& v) { a.games = positive_number("-n", v, lang::kMaxGames); }},
      {"--games",
       {"--games"},
       true,
       [](Args& a, const std::string& v) { a.games = positive_number("--games", v, lang::kMaxGames); }},
      {"--threads",
       {"--threads"},
       true,
       [](Args& a, const std::string& v) {
         a.threads = static_cast<int>(positive_number("--threads", v, lang::kMaxThreads));
       }},
      {"--seconds", {"--seconds"}, true, set_seconds},
      {"--engine",
       {"--engine"},
       true,
       [](Args& a, const std::string& v) {
         a.engine = runtime::parse_engine(v);
         if (!a.engine) throw Usage{fmt::format("--engine takes interp, native or auto, not '{}'", v)};
       }},
      {"--engine", {"--cache"}, true, [](Args& a, const std::string& v) { a.cache = v; }},
      {"--engine",  // allowed wherever --engine is: every command that plays
       {"--budget"},
       true,
       [](Args& a, const std::string& v) { a.budget = positive_number("--budget", v, lang::kMaxWorkBudget); }},
      {"--csv", {"--csv"}, false, [](Args& a, const std::string&) { a.csv = true; }},
      {"--no-invariants", {"--no-invariants"}, false, [](Args& a, const std::string&) { a.no_invariants = true; }},
      {"--records", {"--records"}, true, [](Args& a, const std::string& v) { a.records = v; }},
      {"--records",  // allowed wherever --records is
       {"--records-format"},
       true,
       [](Args& a, const std::string& v) { a.records_format = v; }},
      {"--shard", {"--shard"}, true, set_shard},
      {"--mpi", {"--mpi"}, false, [](Args& a, const std::string&) { a.mpi = true; }},
      {"--output", {"-o", "--output"}, true, [](Args& a, const std::string& v) { a.output = v; }},
      {"--ply", {"--ply"}, true, set_ply},
      {"--path", {"--path"}, true, add_search_path},  // every command that parses options loads games
      {"--expand", {"--expand"}, false, [](Args& a, const std::string&) { a.expand = true; }},
      {"--moves", {"--moves"}, true, [](Args& a, const std::string& v) { a.moves = v; }},
      {"--format", {"--format"}, true, [](Args& a, const std::string& v) { a.format = v; }},
      {"--strict", {"--strict"}, false, [](Args& a, const std::string&) { a.strict = true; }},
      {"--debug", {"--debug"}, false, set_debug},
      {"--host", {"--host"}, true, [](Args& a, const std::string& v) { a.host = v; }},
      {"--port", {"--port"}, true, set_port},
      {"--db", {"--db"}, true, [](Args& a, const std::string& v) { a.db = v; }},
      {"--games-dir", {"--games"}, true, [](Args& a, const std::string& v) { a.games_dir = v; }},  // keli serve's
      {"--site", {"--site"}, true, [](Args& a, const std::string& v) { a.site = v; }},
      {"--rooms-per-address", {"--rooms-per-address"}, true, set_rooms_per_address},
      {"--record-legal", {"--record-legal"}, false, [](Args& a, const std::string&) { a.record_legal = true; }},
      {"--trace-every",
       {"--trace-every"},
       true,
       [](Args& a, const std::string& v) {
         a.trace_every = static_cast<int>(positive_number("--trace-every", v, 1'000'000'000));
       }},
  };
  return table;
}

const Option* find_option(const std::string& arg, const std::vector<std::string>& allowed) {
  for (const Option& o : options()) {
    if (std::string(o.allowed) != "--path" && std::find(allowed.begin(), allowed.end(), o.allowed) == allowed.end())
      continue;
    for (const char* spelling : o.spellings)
      if (arg == spelling) return &o;
  }
  return nullptr;
}

}  // namespace

Args parse(const std::vector<std::string>& argv, const std::vector<std::string>& allowed) {
  Args a;
  for (size_t i = 0; i < argv.size(); ++i) {
    std::string arg = argv[i];
    std::optional<std::string> value;  // written `--option=value`
    size_t eq = arg.find('=');
    if (arg.rfind("--", 0) == 0 && eq != std::string::npos) {
      value = arg.substr(eq + 1);
      arg = arg.substr(0, eq);
    }
    if (arg == "--help" || arg == "-h") {
      a.help = true;
      continue;
    }
    if (const Option* o = find_option(arg, allowed)) {
      if (o->takes_value && !value) {
        if (i + 1 >= argv.size()) throw Usage{fmt::format("{} needs a value", arg)};
        value = argv[++i];
      }
      o->set(a, value.value_or(""));
    } else if (arg.rfind("-", 0) == 0 && arg.size() > 1) {
      throw Usage{fmt::format("unknown option '{}'", arg)};
    } else {
      a.files.push_back(argv[i]);
    }
  }
  ast::set_search_path(a.search_path);
  return a;
}

void use_engine(const Args& a, runtime::Engine fallback) {
  runtime::set_default_engine({a.engine.value_or(fallback), a.cache, a.budget});
}

void print_diagnostics(const SourceSet& src, const diag::Diagnostics& d, bool warnings) {
  for (const auto& x : d.all())
    if (warnings || diag::info(x.code).severity == diag::Severity::Error)
      fmt::print(stderr, "{}", diag::render(src, x));
}

// Parameters from a YAML file: a map of names to values; errors carry the file's position.
bool read_params_file(const std::string& path, compile::ParamSettings& out) {
  std::string text;
  if (std::string why; !ast::read_file(path, text, why)) {
    fmt::print(stderr, "{}: error: cannot read the parameters file: {} [E702]\n", path, why);
    return false;
  }
  try {
    YAML::Node n = YAML::Load(text);
    scenario::check_document(n);  // a name given twice would otherwise set the first value silently
    if (!n.IsMap()) {
      fmt::print(stderr, "{}:1:1: error: a parameters file maps names to values, e.g. 'players: 8' [E702]\n", path);
      return false;
    }
    for (const auto& kv : n) {
      if (!kv.second.IsScalar()) {
        fmt::print(stderr, "{}:{}:{}: error: the value of '{}' must be a single value [E702]\n", path,
                   kv.second.Mark().line + 1, kv.second.Mark().column + 1, kv.first.as<std::string>());
        return false;
      }
      out.emplace_back(kv.first.as<std::string>(), kv.second.as<std::string>());
    }
  } catch (const YAML::Exception& e) {
    fmt::print(stderr, "{}:{}:{}: error: this is not valid YAML: {} [E702]\n", path, e.mark.line + 1, e.mark.column + 1,
               e.msg);
    return false;
  } catch (const scenario::Failure& f) {
    fmt::print(stderr, "{}:{}:{}: error: {} [E702]\n", path, f.mark.line + 1, f.mark.column + 1, f.message);
    return false;
  }
  return true;
}

Loaded load(const std::string& path, const Args& args, bool print_warnings) {
  Loaded l;
  l.file = GameFile::open(path);
  print_diagnostics(l.file->sources(), l.file->diagnostics(), print_warnings);
  if (!l.file->ok()) return l;
  compile::ParamSettings settings;
  for (const auto& f : args.params_files)
    if (!read_params_file(f, settings)) return l;
  settings.insert(settings.end(), args.params.begin(), args.params.end());  // --param wins
  diag::Diagnostics d;
  l.program = l.file->compile(settings, d);
  for (const auto& x : d.all()) {
    std::string text = diag::render(l.file->sources(), x);
    if (!x.span.valid()) text = path + ": " + text.substr(text.find(' ') + 1);
    fmt::print(stderr, "{}", text);
  }
  return l;
}

std::vector<std::string> input_files(const Loaded& l, const Args& a) {
  std::vector<std::string> out = a.params_files;
  if (l.file)
    for (size_t i = 0; i < l.file->sources().size(); ++i)
      out.push_back(l.file->sources().file(static_cast<int>(i)).path);
  return out;
}

int output_error(const std::string& path, const std::string& why) {
  fmt::print(stderr, "{}: error: {} [E710]\n", path, why);
  return kFailed;
}

std::string error_text(const Loaded& l, const std::string& file, const diag::Error& e) {
  std::string text = diag::render(l.file->sources(), {e.code, e.span, e.message, e.hint});
  return e.span.valid() ? text : file + ": " + text.substr(text.find(' ') + 1);
}

bool TraceFile::open(const Args& a, const compile::Program& p, const std::vector<std::string>& players,
                     const std::vector<std::string>& inputs, bool seeded) {
  if (a.trace.empty()) return true;
  if (a.trace == "-") throw Usage{"--trace -: a trace is written to a file (standard output shows the game): name one"};
  // Stopped by a signal, the trace keeps its steps so far as TRACE.partial, as when the game fails.
  if (!file.open(a.trace, inputs, util::OutputFile::OnStop::KeepPartial)) {
    output_error(a.trace, fmt::format("cannot write the trace here: {}", file.error()));
    return false;
  }
  writer = std::make_unique<trace::Writer>(file.stream(), p);
  trace::Header h{p.game_name, a.files[0], a.seed, players};
  h.seeded = seeded;
  if (a.trace_every > 0) h.every = a.trace_every;
  writer->header(h);
  file.stream().flush();  // on disk at once: a trace kept after a signal says what it is
  return true;
}

bool TraceFile::commit() {
  if (!writer || file.commit()) return true;
  output_error(file.path(), fmt::format("the trace was not written: {}", file.error()));
  return false;
}

void TraceFile::keep_partial() {
  if (!writer) return;
  if (file.keep_partial())
    fmt::print(stderr, "{}: the trace up to the error is in {}; '{}' is left as it was\n", file.path(),
               file.partial_path(), file.path());
  else
    output_error(file.partial_path(), fmt::format("the partial trace was not written: {}", file.error()));
}

std::vector<std::string> seat_players(const Args& args, int seats, const std::string& fallback) {
  std::vector<std::string> out;
  for (int i = 0; i < seats; ++i)
    out.push_back(args.players.empty() ? fallback : args.players[std::min<size_t>(i, args.players.size() - 1)]);
  if (args.players.size() > static_cast<size_t>(seats))
    throw Usage{fmt::format("--players names {} players, but the game has {} seats", args.players.size(), seats)};
  return out;
}

}  // namespace keli::cli
