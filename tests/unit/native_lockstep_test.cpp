// The native engine plays exactly as the interpreter: every game in games/ under every option
// set of its battery plan, random playouts driven on both engines with the same choices and
// dice, comparing legal moves in order, notes, the whole state after every step, invariants,
// results and runtime errors; then MCTS (which copies states) choosing on either engine; then
// small games written to fail, one per runtime check, with the same message at the same place;
// and the work budget running out at the same node of the same step (the runtime's own counts).
// KELI_NATIVE_GAMES (default 3) and KELI_NATIVE_DECISIONS (default 400) size the playouts.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>

#include "agents/agent.hpp"
#include "native/backend.hpp"
#include "native/emit.hpp"
#include "support.hpp"

namespace keli::test {
namespace {

int env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::max(1, std::atoi(v)) : fallback;
}

runtime::EngineOptions native_engine() {
  const char* dir = std::getenv("KELI_NATIVE_CACHE");
  std::string d = dir && *dir ? dir : (std::filesystem::path(KELI_BINARY).parent_path() / "native-cache").string();
  return {runtime::Engine::Native, d};
}

// The error a step stops with ("" when none), with its code and position.
std::string attempt(const std::function<void()>& step) {
  try {
    step();
  } catch (const diag::Error& e) {
    return fmt::format("E{} {}:{}:{}+{} {}", static_cast<int>(e.code), e.span.file, e.span.line, e.span.col, e.span.len,
                       e.message);
  }
  return "";
}

std::vector<std::string> texts(const runtime::Game& g, const std::vector<runtime::Move>& moves) {
  std::vector<std::string> out;
  for (const auto& m : moves) out.push_back(g.call_text(m));
  return out;
}

// One random playout on both engines at once; false when both stopped with the same error (then
// in `error`, if given).
bool lockstep_game(runtime::Game& a, runtime::Game& b, uint64_t seed, int max_steps, std::string* error = nullptr) {
  runtime::Rng rng(seed);
  runtime::State sa, sb;
  std::string ea = attempt([&] { sa = a.initial(); }), eb = attempt([&] { sb = b.initial(); });
  if (error) *error = ea;
  REQUIRE(ea == eb);
  if (!ea.empty()) return false;
  std::vector<runtime::Move> la, lb;
  for (int step = 0; step < max_steps && !a.over(sa); ++step) {
    REQUIRE(sa == sb);
    REQUIRE(a.chance(sa) == b.chance(sb));
    if (a.chance(sa)) {
      const std::vector<int32_t> roll = a.sample_roll(sa, rng);
      ea = attempt([&] { a.apply_roll(sa, roll); });
      eb = attempt([&] { b.apply_roll(sb, roll); });
    } else {
      ea = attempt([&] { a.legal(sa, la); });
      eb = attempt([&] { b.legal(sb, lb); });
      if (error) *error = ea;
      REQUIRE(ea == eb);
      if (!ea.empty()) return false;
      REQUIRE(texts(a, la) == texts(b, lb));
      const runtime::Move m = la[rng.below(la.size())];
      ea = attempt([&] { a.apply(sa, m); });
      eb = attempt([&] { b.apply(sb, m); });
    }
    INFO("seed " << seed << ", step " << step);
    if (error) *error = ea;
    REQUIRE(ea == eb);
    if (!ea.empty()) return false;
    REQUIRE(a.notes() == b.notes());
    REQUIRE(sa == sb);
    REQUIRE(a.failed_invariants(sa) == b.failed_invariants(sb));
  }
  REQUIRE(sa == sb);
  REQUIRE(a.over(sa) == b.over(sb));
  REQUIRE(a.places(sa) == b.places(sb));
  return true;
}

// MCTS on each engine from the same seed must choose the same moves: its search copies states
// and replays them, so every state it reaches agrees too.
void lockstep_mcts(runtime::Game& a, runtime::Game& b, int decisions) {
  std::string err;
  auto ma = agents::make_agent("mcts:iterations=30:cutoff=20", a.program(), err);
  auto mb = agents::make_agent("mcts:iterations=30:cutoff=20", b.program(), err);
  REQUIRE(ma);
  REQUIRE(mb);
  runtime::Rng ra(7), rb(7);
  runtime::State sa = a.initial(), sb = b.initial();
  std::vector<runtime::Move> la, lb;
  for (int d = 0; d < decisions && !a.over(sa); ++d) {
    if (a.chance(sa)) {
      a.apply_roll(sa, a.sample_roll(sa, ra));
      b.apply_roll(sb, b.sample_roll(sb, rb));
    } else {
      a.legal(sa, la);
      b.legal(sb, lb);
      size_t ia = ma->choose(a, sa, la, ra), ib = mb->choose(b, sb, lb, rb);
      REQUIRE(ia == ib);
      a.apply(sa, la[ia]);
      b.apply(sb, lb[ib]);
    }
    REQUIRE(sa == sb);
  }
}

}  // namespace

TEST_CASE("native engine: every game and option set plays as the interpreter", "[native]") {
  if (!native::find_compiler()) {
    WARN("no C++ compiler: the native engine is not tested");
    return;
  }
  const int games = env_int("KELI_NATIVE_GAMES", 3), steps = env_int("KELI_NATIVE_DECISIONS", 400);
  for (const auto& file : game_files()) {
    auto g = GameFile::open(file);
    REQUIRE(g->ok());
    std::vector<std::string> axes = battery_axes(file);
    auto combos =
        axes.size() == 1 && axes[0].empty() ? std::vector<compile::ParamSettings>{{}} : option_combinations(*g, axes);
    for (const auto& settings : combos) {
      std::string label = file;
      for (const auto& [k, v] : settings) label += fmt::format(" {}={}", k, v);
      INFO(label);
      auto prog = compile(file, settings);
      runtime::Game interp(prog, {runtime::Engine::Interp, ""}), nat(prog, native_engine());
      REQUIRE(nat.engine() == runtime::Engine::Native);
      for (int seed = 1; seed <= games; ++seed) lockstep_game(interp, nat, static_cast<uint64_t>(seed), steps);
    }
  }
}

// The small games of tests/rules/ pin rules of move generation (a guard that writes the state
// changes nothing): both engines must list and play them alike too.
TEST_CASE("native engine: the rule tests' games play as the interpreter", "[native]") {
  if (!native::find_compiler()) {
    WARN("no C++ compiler: the native engine is not tested");
    return;
  }
  int played = 0;
  for (const auto& e : std::filesystem::directory_iterator(source_path("tests/rules"))) {
    if (e.path().extension() != ".keli") continue;
    INFO(e.path().string());
    auto prog = compile(e.path().string());
    runtime::Game interp(prog, {runtime::Engine::Interp, ""}), nat(prog, native_engine());
    REQUIRE(nat.engine() == runtime::Engine::Native);
    for (int seed = 1; seed <= 5; ++seed) lockstep_game(interp, nat, static_cast<uint64_t>(seed), 200);
    ++played;
  }
  REQUIRE(played > 0);
}

TEST_CASE("native engine: MCTS chooses as on the interpreter", "[native]") {
  if (!native::find_compiler()) return;
  for (const auto& file : game_files()) {
    INFO(file);
    auto prog = compile(file);
    runtime::Game interp(prog, {runtime::Engine::Interp, ""}), nat(prog, native_engine());
    lockstep_mcts(interp, nat, 6);
  }
}

namespace {
// A one-move game whose move runs `body` (with `k` in 0..2 its parameter).
std::shared_ptr<const compile::Program> failing(const std::string& decls, const std::string& body) {
  const std::string path =
      (std::filesystem::temp_directory_path() / fmt::format("keli_native_fault_{}.keli", getpid())).string();
  std::ofstream(path)
      << "game \"Fault\"\nplayers 2 named South, North\nboard two_rows(3)\nimport \"stdlib/rows.keli\"\n"
      << decls << "\nvar t: int per 0..2 = 0\nvar big: int = 2000000000\n"
      << "phase play {\n  move go(k in 0..2) {\n"
      << body << "\n    mover = next_seat(mover)\n  }\n}\n";
  auto p = compile(path);
  std::filesystem::remove(path);
  return p;
}
}  // namespace

// A chain of n definitions, f0 calling f1 ... f(n-1), the last writing what a declared fact
// counts (whose conditions then run a frame deeper).
std::string deep_calls(int n) {
  std::string out = "pieces 2\nvar pos: int per piece = 0\nfact at(s: site): int = count(pc in pieces: pos[pc] == s)\n";
  out += fmt::format("def f{}() {{\n  pos[0] = 1\n}}\n", n - 1);
  for (int i = n - 2; i >= 0; --i) out += fmt::format("def f{}() {{\n  f{}()\n}}\n", i, i + 1);
  return out;
}

TEST_CASE("native engine: every runtime check fails with the interpreter's message and place", "[native]") {
  if (!native::find_compiler()) return;
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "    t[k + 1] = 1"},                                                                // index
      {"var c: int per 0..1 per player per 0..2 = 0", "    c[0][mover][k + 1] = 1"},           // third index
      {"var q: int per 0..1 per 0..1 per 0..1 per 0..1 = 0", "    t[0] = q[1][0][1][k - 1]"},  // fourth index
      {"", "    t[0] = 10 / (k - 1)"},                                                         // division by zero
      {"", "    t[0] = 7 % (k - 2)"},                                                          // remainder by zero
      {"", "    big += 2000000000"},                                                           // too large to store
      {"", "    mover = k + 1"},                                                               // no such seat
      {"", "    let x = 0\n    while x < 1 { t[0] = 1 }"},                                     // endless loop
      {"", "    t[0] = min(x in 1..k: x)"},                                                    // min over nothing
      {"", "    t[0] = row[South][k + 1]"},                                     // position outside a region
      {"", "    for x in 1..(k * 10000000) { t[0] = 1 }"},                      // range too long
      {"", "    suppose {\n      t[0] = 5\n      t[0] = 10 / (k - 1)\n    }"},  // inside `suppose`: undone as it stops
      {"limit points 5\nvar pts: int per player = 0", "    pts[mover] = k * 3\n    end_game points pts"},  // points
      // local collections: full, empty, a value outside the type, a position outside
      {"", "    let l: list of 0..1\n    for x in 0..k { add x % 2 to l }"},
      {"", "    let s: set of site\n    if k == 2 { t[0] = take_last(s) }"},
      {"", "    let s: set of 0..2\n    add k + 1 to s"},
      {"", "    let l: list of player\n    add mover to l\n    t[0] = l[k]"},
      {"", "    let l: list of site\n    add k to l\n    remove k + 11 from l"},
      // the board's geometry: a site and a direction outside the tables `step` and `ray` read
      {"directions orthogonal", "    let s = step(k + 4, N)\n    if s != none { t[0] = 1 }"},
      {"directions orthogonal", "    let r = ray(0, k + 2)\n    t[0] = size(r)"},
      // the searches: a site off the board, as the table's index; a loop's `while` that fails
      {"directions orthogonal\nvar st: int per site = 0", "    t[0] = count(x in group(st, k + 4): true)"},
      {"directions orthogonal\nvar st: int per site = 0",
       "    st[k] = 1\n    t[0] = count(x in border(st, k - 1): true)"},
      {"", "    t[0] = sum(x in 0..3 while 6 / (k - x) > 0: x)"},
      // the fact's condition, run by the write at the end of 200 nested calls, is frame 201
      {deep_calls(200), "    if k == 2 { f0() }"},
  };
  for (const auto& [decls, body] : cases) {
    INFO(body);
    auto prog = failing(decls, body);
    if (!prog) continue;
    runtime::Game interp(prog, {runtime::Engine::Interp, ""}), nat(prog, native_engine());
    int stopped = 0;
    for (uint64_t seed = 1; seed <= 8; ++seed) stopped += lockstep_game(interp, nat, seed, 20) ? 0 : 1;
    CHECK(stopped > 0);  // the check was reached, on both engines alike
  }
}

// A step may do `limit work` units (loop rounds, domain elements, calls, handlers run, move
// parameter values listed); the next one is an error at the node that spent it, on both engines.
TEST_CASE("native engine: the work budget runs out at the interpreter's node and step", "[native][budget]") {
  if (!native::find_compiler()) return;
  const std::string call = "def f(x: int): int {\n  return x + 1\n}\n";
  const std::string event = "event ping(x: int)\non ping(x) {\n  t[1] = x\n}\n";
  struct Case {
    std::string decls, body, expect;  // expect: the message's start ("" when no step fails)
    int64_t budget = 0;               // EngineOptions::budget (0: the game's `limit work`)
  };
  const std::vector<Case> cases = {
      {"limit work 50", "    for x in 0..100 { t[0] = x }", "this loop ran out"},
      {"limit work 50", "    let x = 0\n    while x < 100 { x += 1 }", "this loop ran out"},
      {"limit work 50", "    t[0] = count(x in 0..100: x > 3)", "this aggregate ran out"},
      {"limit work 51\n" + call, "    for x in 0..30 { t[0] = f(x) }", "this call ran out"},
      {"limit work 51\n" + event, "    for x in 0..30 { emit ping(x) }", "this event's handlers ran out"},
      {"", "    t[0] = 1", "listing this move parameter's values ran out", 2},  // the board needs more
      {"limit work 50", "    for x in 0..40 { t[0] = x }", ""},                 // each step has the whole budget
      // a search of a list costs what it holds (lang/collections.hpp, coll_work)
      {"limit work 60",
       "    let l: list of 0..99\n    for x in 0..40 { add x to l }\n    t[0] = if 99 in l then 1 else 0",
       "this search of a list or set ran out"},
  };
  for (const auto& c : cases) {
    INFO(c.decls << "\n" << c.body);
    auto prog = failing(c.decls, c.body);
    REQUIRE(prog);
    runtime::Game interp(prog, {runtime::Engine::Interp, "", c.budget}),
        nat(prog, {runtime::Engine::Native, native_engine().cache_dir, c.budget});
    for (uint64_t seed = 1; seed <= 3; ++seed) {
      std::string error;
      const bool finished = lockstep_game(interp, nat, seed, 20, &error);
      CHECK(finished == c.expect.empty());
      CHECK(error.find(c.expect) != std::string::npos);
    }
  }
}

TEST_CASE("native engine: a remembered function's work counts as on the interpreter", "[native][budget]") {
  if (!native::find_compiler()) return;
  // heavy() is remembered while moves are listed (the interpreter only): 21 units each time it is
  // computed, spent again by every remembered use; 60 units run out inside its loop at k = 2.
  auto prog = failing(
      "limit work 60\ndef heavy(): int {\n  let n = 0\n  for x in 0..20 { n += x }\n  return n\n}\n"
      "phase other {\n  move go2(k in 0..2) when heavy() > k { t[0] = 1 }\n}",
      "    phase = other");
  REQUIRE(prog);
  runtime::Game interp(prog, {runtime::Engine::Interp, ""}), nat(prog, native_engine());
  std::string error;
  CHECK_FALSE(lockstep_game(interp, nat, 1, 4, &error));
  CHECK(error.find("this loop ran out of the step's work budget: a step may do 60 units") != std::string::npos);
}

// The deepest nesting of frames is known before play (compile/frames.cpp): generated code counts
// the depth only where it could pass kMaxCallDepth, and then fails where the interpreter does.
TEST_CASE("native engine: the depth of calls is counted only where it may pass the limit", "[native]") {
  auto within = failing(deep_calls(199), "    if k == 2 { f0() }");
  auto past = failing(deep_calls(200), "    if k == 2 { f0() }");
  REQUIRE(within);
  REQUIRE(past);
  CHECK(within->max_frames == 200);  // f0 .. f198, then the fact's condition
  CHECK(past->max_frames == 201);
  CHECK(native::emit(*within).find("++c->depth") == std::string::npos);
  CHECK(native::emit(*past).find("++c->depth >") != std::string::npos);
  for (const auto& file : game_files()) {  // every game of ours: no depth counted
    INFO(file);
    auto p = compile(file);
    REQUIRE(p);
    CHECK(p->max_frames >= 1);
    CHECK(p->max_frames <= lang::kMaxCallDepth);
  }
  if (!native::find_compiler()) return;
  runtime::Game interp(within, {runtime::Engine::Interp, ""}), nat(within, native_engine());
  for (uint64_t seed = 1; seed <= 4; ++seed) CHECK(lockstep_game(interp, nat, seed, 20));
}

// In generated code a call of a remembered definition whose arguments are inner move parameters
// is remembered for the rest of the rule's listing (native/emit_memo.cpp), in an array, not the
// interpreter's table; each use charges what computing it cost, so every budget runs out (or
// not) at the same node and step on both engines.
TEST_CASE("native engine: a call remembered across a rule's listing counts its work as on the interpreter",
          "[native][budget]") {
  if (!native::find_compiler()) return;
  const std::string decls =
      "def heavy(j: int): int {\n  let n = 0\n  for x in 0..20 { n += x }\n  return n + j\n}\n"
      "phase other {\n  move go2(k in 0..2, j in 0..3) when heavy(j) > 210 + k { t[0] = j }\n}";
  bool ran_out = false, finished = false;
  for (int budget = 60; budget <= 420; budget += 12) {
    INFO("limit work " << budget);
    auto prog = failing(fmt::format("limit work {}\n{}", budget, decls), "    phase = other");
    REQUIRE(prog);
    CHECK(native::emit(*prog).find("_known[") != std::string::npos);  // the array is there
    runtime::Game interp(prog, {runtime::Engine::Interp, ""}), nat(prog, native_engine());
    std::string error;
    const bool done = lockstep_game(interp, nat, 1, 6, &error);
    if (done)
      finished = true;
    else
      ran_out = ran_out || error.find("ran out of the step's work budget") != std::string::npos;
  }
  CHECK(ran_out);   // some budgets run out inside the listing,
  CHECK(finished);  // larger ones list every move
}

TEST_CASE("native engine: the budget is given at run time, not compiled in", "[native][budget]") {
  if (!native::find_compiler()) return;
  auto tight = failing("limit work 50", "    for x in 0..40 { t[0] = x }");
  auto loose = failing("limit work 5000", "    for x in 0..40 { t[0] = x }");
  REQUIRE(tight);
  REQUIRE(loose);
  CHECK(native::emit(*tight) == native::emit(*loose));  // one module, one cache entry for both
  // EngineOptions::budget overrides the game's `limit work`, on both engines alike.
  runtime::Game interp(loose, {runtime::Engine::Interp, "", 30}),
      nat(loose, {runtime::Engine::Native, native_engine().cache_dir, 30});
  CHECK(interp.budget() == 30);
  CHECK(nat.budget() == 30);
  std::string error;
  CHECK_FALSE(lockstep_game(interp, nat, 1, 4, &error));
  CHECK(error.find("a step may do 30 units") != std::string::npos);
}

// A named value (docs/language.md, "Named values") costs nothing: the optimizer folds a constant
// without dimensions, so the C++ made of `k == home` is the C++ made of `k == 2`: only the table
// of constants' data (K[], which keeps home's one entry) differs.
TEST_CASE("native engine: a named value compiles as the number it names", "[native]") {
  auto named = failing("const home: int = 2", "    if k == home { t[0] = 1 }");
  auto number = failing("# home is 2", "    if k == 2 { t[0] = 1 }");
  REQUIRE(named);
  REQUIRE(number);
  auto code = [](std::string text) {
    size_t at = text.find("const int64_t K[] = {");
    REQUIRE(at != std::string::npos);
    return text.erase(at, text.find("};", at) - at);
  };
  CHECK(code(native::emit(*named)) == code(native::emit(*number)));
}

}  // namespace keli::test
