// The semantics corpus: every tests/semantics/*.keli states what its expressions compute with
// `# expect:` lines, and each case group is evaluated in every context its kind allows (as a
// variable's initial value, as a move guard, in the board code, in a setup block, in a move or a
// throw), by every engine. Any disagreement with an expectation fails, with the file, line, context and engine.
// The file format is in tests/semantics/README.md.
#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>

#include "semantics_corpus.hpp"
#include "runtime/engine.hpp"
#include "support.hpp"

namespace keli::test::semantics {
namespace fs = std::filesystem;
using runtime::State;

namespace {

constexpr size_t kMinFiles = 17;  // the corpus can never shrink to nothing and pass

// One compiled game as an engine runs it.
class Session {
 public:
  virtual ~Session() = default;
  virtual const compile::Program& program() const = 0;
  virtual State initial() = 0;                // variables' initial values, then setup
  virtual void play(State& s, int rule) = 0;  // a rule without parameters
  virtual void throw_dice(State& s, const std::vector<int32_t>& values) = 0;
  virtual std::vector<int> legal(const State& s) = 0;  // the rules with a legal move now
};

// A game run by runtime::Game on one engine.
class Interpreted : public Session {
 public:
  Interpreted(std::shared_ptr<const compile::Program> p, const runtime::EngineOptions& engine)
      : game_(std::move(p), engine) {}
  const compile::Program& program() const override { return game_.program(); }
  State initial() override { return game_.initial(); }
  void play(State& s, int rule) override {
    runtime::Move m;
    m.rule = static_cast<int16_t>(rule);
    game_.apply(s, m);
  }
  void throw_dice(State& s, const std::vector<int32_t>& values) override { game_.apply_roll(s, values); }
  std::vector<int> legal(const State& s) override {
    std::vector<runtime::Move> moves;
    game_.legal(s, moves);
    std::vector<int> rules;
    for (const auto& m : moves) rules.push_back(m.rule);
    return rules;
  }

 private:
  runtime::Game game_;
};

std::unique_ptr<Session> interpreted(const GameFile& g, diag::Diagnostics& d, bool optimized) {
  auto p = g.compile({}, d, optimized);
  return p ? std::make_unique<Interpreted>(p, runtime::EngineOptions{runtime::Engine::Interp, {}}) : nullptr;
}

// The native engine compiles each game to C++ (about a second a game, cached in the build tree).
std::unique_ptr<Session> native(const GameFile& g, diag::Diagnostics& d) {
  auto p = g.compile({}, d, true);
  std::string cache = (std::filesystem::path(KELI_BINARY).parent_path() / "native-cache").string();
  return p ? std::make_unique<Interpreted>(p, runtime::EngineOptions{runtime::Engine::Native, cache}) : nullptr;
}

// The engines every case runs on. Each compiles a checked game (null, with the reasons in the
// diagnostics, when it does not compile) and runs it.
// `every_context`: also the generated games of each group (board, setup, guards); the native
// engine runs the files as written (their moves and throws), since compiling the hundreds of
// generated games to C++ would take minutes, and what is computed before play does not depend
// on the engine.
struct Engine {
  std::string name;
  std::function<std::unique_ptr<Session>(const GameFile&, diag::Diagnostics&)> start;
  bool every_context = true;
};

const std::vector<Engine>& engines() {
  static const std::vector<Engine> all = {
      {"interpreter", [](const GameFile& g, diag::Diagnostics& d) { return interpreted(g, d, true); }},
      {"interpreter, unoptimized", [](const GameFile& g, diag::Diagnostics& d) { return interpreted(g, d, false); }},
      {"native", native, false},
  };
  return all;
}

// A game started by one engine: its state, or why there is none.
struct Run {
  std::unique_ptr<Session> session;
  State state;
  std::string failure;  // compile errors or the message of a runtime error
};

std::string errors_of(const GameFile& g, const diag::Diagnostics& d) {
  std::string out;
  for (const auto* list : {&g.diagnostics(), &d})
    for (const auto& x : list->all())
      if (diag::info(x.code).severity == diag::Severity::Error) out += diag::render(g.sources(), x);
  return out.empty() ? "the game does not compile" : out;
}

// Compiles and builds the start position; `step`, when given, is then applied to it.
Run start(const Engine& e, const GameFile& g, const std::function<void(Run&)>& step = {}) {
  Run r;
  diag::Diagnostics d;
  if (g.ok()) r.session = e.start(g, d);
  if (!r.session) {
    r.failure = errors_of(g, d);
    return r;
  }
  try {
    r.state = r.session->initial();
    if (step) step(r);
  } catch (const diag::Error& err) {
    r.failure = err.message;
  }
  return r;
}

struct Report {
  std::vector<std::string> failures;
  int checks = 0;
};

// A table entry or variable of the state, a constant table's entry, or one of the counts
// `players`, `pieces`, `sites`; nullopt (with the reason) when there is no such thing.
std::optional<int64_t> read(const compile::Program& p, const State& s, const std::string& name,
                            const std::vector<int64_t>& at, std::string& why) {
  auto entry = [&](const compile::VarInfo& t) -> std::optional<int64_t> {
    if (at.size() != t.dims.size()) {
      why = fmt::format("'{}' takes {} indices", name, t.dims.size());
      return std::nullopt;
    }
    int64_t off = 0;
    for (size_t d = 0; d < at.size(); ++d) {
      int64_t i = at[d] - t.lows[d];
      if (i < 0 || i >= t.dims[d]) {
        why = fmt::format("index {} is outside '{}'", at[d], name);
        return std::nullopt;
      }
      off = off * t.dims[d] + i;
    }
    return off;
  };
  for (const auto& v : p.vars)
    if (v.name == name) {
      auto off = entry(v);
      return off ? std::optional<int64_t>(s[v.base + *off]) : std::nullopt;
    }
  for (const auto& c : p.const_tables)
    if (c.name == name) {
      auto off = entry(c);
      return off ? std::optional<int64_t>(p.consts[c.base + *off]) : std::nullopt;
    }
  if (at.empty() && name == "players") return p.num_players;
  if (at.empty() && name == "pieces") return p.num_pieces;
  if (at.empty() && name == "sites") return p.num_sites;
  why = fmt::format("the game has no variable or constant '{}'", name);
  return std::nullopt;
}

void check_values(const CaseFile& f, const std::vector<Expect>& expects, const Run& run, const std::string& where,
                  bool copies, Report& r) {
  for (const auto& e : expects) {
    ++r.checks;
    std::string why;
    auto got = read(run.session->program(), run.state, copies ? board_copy(e.name) : e.name, e.indices, why);
    if (!got)
      r.failures.push_back(fmt::format("{}:{}: {} ({}): {}", f.path, e.line, e.target, where, why));
    else if (*got != e.value) {
      bool truth = e.value_text == "true" || e.value_text == "false";
      std::string shown = truth ? (*got ? "true" : "false") : std::to_string(*got);
      r.failures.push_back(
          fmt::format("{}:{}: {} = {} expected, got {} ({})", f.path, e.line, e.target, e.value_text, shown, where));
    }
  }
}

// The group's expectations against one run: its values, or the error it must stop with.
void check_group(const CaseFile& f, const Group& g, const Run& run, const std::string& where, bool copies, Report& r) {
  if (g.expects_error()) {
    ++r.checks;
    const Expect& e = g.expects[0];
    if (run.failure.empty())
      r.failures.push_back(fmt::format("{}:{}: error '{}' expected, but '{}' ran without one ({})", f.path, e.line,
                                       e.error, g.name, where));
    else if (run.failure.find(e.error) == std::string::npos)
      r.failures.push_back(
          fmt::format("{}:{}: error '{}' expected, got: {} ({})", f.path, e.line, e.error, run.failure, where));
    return;
  }
  if (!run.failure.empty()) {
    r.checks += static_cast<int>(g.expects.size());
    r.failures.push_back(
        fmt::format("{}:{}: group '{}' failed ({}): {}", f.path, g.first_line, g.name, where, run.failure));
    return;
  }
  check_values(f, g.expects, run, where, copies, r);
}

int phase_index(const compile::Program& p, const std::string& name) {
  for (size_t i = 0; i < p.phases.size(); ++i)
    if (p.phases[i].name == name) return static_cast<int>(i);
  return -1;
}

// A group in play: from the start position, its phase entered and its rule played (or its dice
// thrown, the first outcome of their table).
void play_group(Run& run, const Group& g) {
  Session& s = *run.session;
  const compile::Program& p = s.program();
  int ph = phase_index(p, g.phase);
  run.state[compile::kPhase] = ph;
  if (g.chance) {
    s.throw_dice(run.state, p.dice[p.phases[ph].dice].outcomes.at(0).values);
    return;
  }
  for (int rule : p.phases[ph].rules)
    if (p.rules[rule].name == g.name) return s.play(run.state, rule);
  throw diag::Error{
      diag::Code::runtime, {}, fmt::format("the runner found no rule '{}' in phase '{}'", g.name, g.phase), {}};
}

void check_moves(const CaseFile& f, const Engine& e, Report& r) {
  Run base = start(e, *f.game);
  if (!base.failure.empty() && !f.top.empty())
    r.failures.push_back(fmt::format("{}: the start position cannot be built ({}): {}", f.path, e.name, base.failure));
  else
    check_values(f, f.top, base, "start position, " + e.name, false, r);
  for (const auto& g : f.groups) {
    Run run = start(e, *f.game, [&](Run& x) { play_group(x, g); });
    check_group(f, g, run, (g.chance ? "throw, " : "move, ") + e.name, false, r);
  }
}

// A generated game lives in a temporary folder (kept when something fails, to be looked at).
fs::path temp_folder() {
  static fs::path dir = fs::temp_directory_path() / fmt::format("keli_semantics_{}", getpid());
  fs::create_directories(dir);
  return dir;
}

fs::path write_game(const CaseFile& f, const Group& g, const std::string& context, const std::string& text) {
  fs::path path = temp_folder() / fmt::format("{}.{}.{}.keli", fs::path(f.path).stem().string(), g.name, context);
  std::ofstream(path) << text;
  return path;
}

void check_generated(const CaseFile& f, const Group& g, const std::string& context, const std::string& text,
                     Report& r) {
  fs::path path = write_game(f, g, context, text);
  auto game = GameFile::open(path.string());
  size_t before = r.failures.size();
  for (const Engine& e : engines()) {
    if (!e.every_context) continue;
    Run run = start(e, *game);
    check_group(f, g, run, fmt::format("{}, {}; generated as {}", context, e.name, path.string()), context == "board",
                r);
  }
  if (r.failures.size() == before) fs::remove(path);
}

// A constant group's expressions as move guards: the checker must not call one always false, and
// each must hold when the legal moves are listed.
void check_guards(const CaseFile& f, const Group& g, Report& r) {
  fs::path path = write_game(f, g, "guard", guard_game(f, g));
  auto game = GameFile::open(path.string());
  size_t before = r.failures.size();
  for (const auto& d : game->diagnostics().all())
    if (d.code == diag::Code::never_applies && d.message.find(guard_rule("")) != std::string::npos)
      r.failures.push_back(fmt::format("{}:{}: the checker calls a guard always false (generated as {}): {}", f.path,
                                       g.first_line, path.string(), d.message));
  for (const Engine& e : engines()) {
    if (!e.every_context) continue;
    std::vector<int> legal;
    Run run = start(e, *game, [&](Run& x) {
      x.state[compile::kPhase] = phase_index(x.session->program(), "semantics_guards");
      legal = x.session->legal(x.state);
    });
    std::string where = fmt::format("guard, {}; generated as {}", e.name, path.string());
    if (!run.failure.empty()) {
      check_group(f, g, run, where, false, r);
      continue;
    }
    const compile::Program& p = run.session->program();
    for (const auto& x : g.expects) {
      ++r.checks;
      bool holds =
          std::any_of(legal.begin(), legal.end(), [&](int rule) { return p.rules[rule].name == guard_rule(x.name); });
      if (!holds)
        r.failures.push_back(fmt::format("{}:{}: {} = {} expected, but the guard comparing them does not hold ({})",
                                         f.path, x.line, x.target, x.value_text, where));
    }
  }
  if (r.failures.size() == before) fs::remove(path);
}

void check_file(const CaseFile& f, Report& r) {
  for (const Engine& e : engines()) check_moves(f, e, r);
  for (const auto& g : f.groups) {
    if (g.kind == Kind::Constant) {
      check_generated(f, g, "initial value", constant_game(f, g), r);
      if (!g.expects_error()) check_guards(f, g, r);  // a guard stores nothing: no error to expect
    }
    if (g.kind == Kind::Play) continue;
    check_generated(f, g, "board", board_game(f, g), r);
    check_generated(f, g, "setup", setup_game(f, g), r);
  }
}

std::vector<std::string> corpus_files() {
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(source_path("tests/semantics")))
    if (e.path().extension() == ".keli") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

TEST_CASE("the semantics corpus computes what it expects, in every context and engine", "[semantics]") {
  auto files = corpus_files();
  REQUIRE(files.size() >= kMinFiles);
  for (const auto& path : files) {
    DYNAMIC_SECTION(fs::path(path).filename().string()) {
      CaseFile f = read_case_file(path);
      f.path = fs::relative(path, source_path("")).string();  // as failures name it
      for (const auto& p : f.problems) FAIL_CHECK(path << ": " << p);
      REQUIRE(f.problems.empty());
      REQUIRE(f.groups.size() + f.top.size() > 0);
      Report r;
      check_file(f, r);
      for (const auto& msg : r.failures) FAIL_CHECK(msg);
      if (std::getenv("KELI_SEMANTICS_LIST")) {  // one line a failure, unwrapped, for reading
        for (const auto& msg : r.failures) fmt::print("{}\n", msg);
        fmt::print("{}: {} checks, {} failed\n", path, r.checks, r.failures.size());
      }
      CHECK(r.checks > 0);
    }
  }
  std::error_code ignored;
  fs::remove(temp_folder(), ignored);  // only when empty: games that failed are kept
}

}  // namespace keli::test::semantics
