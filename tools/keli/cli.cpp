// Shared pieces of the keli command: options, loading a game with parameters, diagnostics.
#include "cli.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>

#include "ast/loader.hpp"

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

Args parse(const std::vector<std::string>& argv, const std::vector<std::string>& allowed) {
  Args a;
  auto ok = [&](const std::string& opt) { return std::find(allowed.begin(), allowed.end(), opt) != allowed.end(); };
  for (size_t i = 0; i < argv.size(); ++i) {
    std::string arg = argv[i];
    std::string value;
    bool has_value = false;
    if (arg.rfind("--", 0) == 0 && arg.find('=') != std::string::npos && arg.rfind("--param=", 0) != 0 &&
        arg != "--param") {
      value = arg.substr(arg.find('=') + 1);
      arg = arg.substr(0, arg.find('='));
      has_value = true;
    }
    auto need = [&]() -> std::string {
      if (has_value) return value;
      if (i + 1 >= argv.size()) throw Usage{fmt::format("{} needs a value", arg)};
      return argv[++i];
    };
    if (arg == "--help" || arg == "-h") {
      a.help = true;
    } else if (arg.rfind("--param", 0) == 0 && ok("--param") && (arg == "--param" || arg.rfind("--param=", 0) == 0)) {
      std::string nv = arg == "--param" ? need() : arg.substr(8);
      auto eq = nv.find('=');
      if (eq == std::string::npos || eq == 0) throw Usage{fmt::format("--param takes NAME=VALUE, not '{}'", nv)};
      a.params.emplace_back(nv.substr(0, eq), nv.substr(eq + 1));
    } else if (arg == "--params" && ok("--params")) {
      a.params_files.push_back(need());
    } else if (arg == "--seed" && ok("--seed")) {
      std::string v = need();
      try {
        size_t used = 0;
        a.seed = std::stoull(v, &used);
        if (used != v.size() || v[0] == '-') throw 0;
      } catch (...) {
        throw Usage{fmt::format("--seed takes a whole number, not '{}'", v)};
      }
      a.seed_given = true;
    } else if (arg == "--players" && ok("--players")) {
      std::string v = need();
      a.players.clear();
      size_t start = 0;
      while (true) {
        size_t comma = v.find(',', start);
        a.players.push_back(v.substr(start, comma - start));
        if (comma == std::string::npos) break;
        start = comma + 1;
      }
    } else if (arg == "--trace" && ok("--trace")) {
      a.trace = need();
    } else if (arg == "--resume" && ok("--resume")) {
      a.resume = need();
    } else if (arg == "--seat" && ok("--seat")) {
      std::string v = need();
      try {
        size_t used = 0;
        a.seat = std::stoi(v, &used);
        if (used != v.size()) throw 0;
      } catch (...) {
        throw Usage{fmt::format("--seat takes a seat number, not '{}'", v)};
      }
    } else if (arg == "--json" && ok("--json")) {
      a.json = true;
    } else if (arg == "--quiet" && ok("--quiet")) {
      a.quiet = true;
    } else if (arg == "--board" && ok("--board")) {
      a.board = true;
    } else if (arg == "--no-tests" && ok("--no-tests")) {
      a.no_tests = true;
    } else if ((arg == "-n" && ok("-n")) || (arg == "--games" && ok("--games"))) {
      a.games = positive_number(arg, need(), 1'000'000'000'000LL);
    } else if (arg == "--threads" && ok("--threads")) {
      a.threads = static_cast<int>(positive_number(arg, need(), 1024));
    } else if (arg == "--seconds" && ok("--seconds")) {
      std::string v = need();
      try {
        size_t used = 0;
        a.seconds = std::stod(v, &used);
        if (used != v.size() || !(a.seconds > 0) || a.seconds > 1e6) throw 0;
      } catch (...) {
        throw Usage{fmt::format("--seconds takes a number of seconds above 0, not '{}'", v)};
      }
    } else if (arg == "--engine" && ok("--engine")) {
      std::string v = need();
      a.engine = runtime::parse_engine(v);
      if (!a.engine) throw Usage{fmt::format("--engine takes interp, native or auto, not '{}'", v)};
    } else if (arg == "--cache" && ok("--engine")) {
      a.cache = need();
    } else if (arg == "--csv" && ok("--csv")) {
      a.csv = true;
    } else if ((arg == "-o" || arg == "--output") && ok("--output")) {
      a.output = need();
    } else if (arg == "--ply" && ok("--ply")) {
      std::string v = need();
      try {
        a.ply = v == "0" ? 0 : positive_number(arg, v, 2'147'483'647LL);  // 0: the start position
      } catch (const Usage&) {
        throw Usage{fmt::format("--ply takes a step number, 0 (the start) or more, not '{}'", v)};
      }
    } else if (arg.rfind("-", 0) == 0 && arg.size() > 1) {
      throw Usage{fmt::format("unknown option '{}'", arg)};
    } else {
      a.files.push_back(arg);
    }
  }
  return a;
}

void use_engine(const Args& a, runtime::Engine fallback) {
  runtime::set_default_engine({a.engine.value_or(fallback), a.cache});
}

void print_diagnostics(const SourceSet& src, const diag::Diagnostics& d, bool warnings) {
  for (const auto& x : d.all())
    if (warnings || diag::info(x.code).severity == diag::Severity::Error)
      fmt::print(stderr, "{}", diag::render(src, x));
}

// Parameters from a YAML file: a map of names to values; errors carry the file's position.
bool read_params_file(const std::string& path, compile::ParamSettings& out) {
  std::string text;
  if (!ast::read_file(path, text)) {
    fmt::print(stderr, "{}: error: cannot read the parameters file [E702]\n", path);
    return false;
  }
  try {
    YAML::Node n = YAML::Load(text);
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

bool TraceFile::open(const Args& a, const compile::Program& p, const std::vector<std::string>& players) {
  if (a.trace.empty()) return true;
  file.open(a.trace);
  if (!file) {
    fmt::print(stderr, "{}: error: cannot write the trace file\n", a.trace);
    return false;
  }
  writer = std::make_unique<trace::Writer>(file, p);
  writer->header({p.game_name, a.files[0], a.seed, players});
  return true;
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
