// The optimizer must not change what a game does: every game file, under every combination of
// its option parameters (as its battery plan varies them), is compiled with and without
// compile/optimize and played in lockstep by the same random choices. The legal moves, the
// notes and the whole state must agree after every step.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <set>

#include "compile/facts.hpp"
#include "support.hpp"

namespace keli::test {
namespace {

// Per option set; lockstep play is slow for the long games. The sanitizer run of CI
// (KELI_BATTERY_MAX_GAMES set) plays fewer steps: the same code paths.
constexpr int kGames = 2;
int max_steps() { return std::getenv("KELI_BATTERY_MAX_GAMES") ? 1500 : 6000; }

void lockstep(const std::shared_ptr<const compile::Program>& plain, const std::shared_ptr<const compile::Program>& fast,
              uint64_t seed, const std::string& what) {
  runtime::Game a(plain), b(fast);
  runtime::Rng rng(seed);
  runtime::State sa = a.initial(), sb = b.initial();
  // The optimized program keeps facts in hidden slots after the variables: the variables and the
  // position history must agree, and every kept count must equal its recomputation.
  const lang::HistoryLayout& ha = plain->history;
  const lang::HistoryLayout& hb = fast->history;
  const size_t shown = static_cast<size_t>(plain->visible_size);
  REQUIRE(fast->visible_size == plain->visible_size);
  REQUIRE(plain->state_size == plain->visible_size + (ha.key < 0 ? 0 : 2));
  REQUIRE((ha.key < 0) == (hb.key < 0));
  auto same = [&] {
    if (sa.size() != static_cast<size_t>(plain->state_size) || sb.size() != static_cast<size_t>(fast->state_size))
      return false;
    if (!std::equal(sa.begin(), sa.begin() + shown, sb.begin())) return false;
    if (ha.key >= 0 && lang::stored_key(sa.data(), ha) != lang::stored_key(sb.data(), hb)) return false;
    return runtime::same_past(sa.past, sb.past);
  };
  REQUIRE(same());
  REQUIRE(compile::check_facts(*fast, sb) == "");
  std::vector<runtime::Move> ma, mb;
  // Unoptimized, a declared fact is its definition, called for every read: far slower.
  const int steps = plain->declared_facts.empty() ? max_steps() : std::min(max_steps(), 400);
  for (int step = 0; step < steps && !a.over(sa); ++step) {
    INFO(what << " seed " << seed << " step " << step);
    if (a.chance(sa)) {
      std::vector<int32_t> roll = a.sample_roll(sa, rng);
      a.apply_roll(sa, roll);
      b.apply_roll(sb, roll);
    } else {
      a.legal(sa, ma);
      b.legal(sb, mb);
      REQUIRE(ma == mb);
      const runtime::Move m = ma[rng.below(ma.size())];
      a.apply(sa, m);
      b.apply(sb, m);
    }
    REQUIRE(a.notes() == b.notes());
    REQUIRE(same());
    REQUIRE(compile::check_facts(*fast, sb) == "");
  }
}

TEST_CASE("optimized programs play exactly as unoptimized ones", "[optimize]") {
  int sets = 0;
  for (const std::string& path : game_files()) {
    auto file = GameFile::open(path);
    REQUIRE(file->ok());
    for (const compile::ParamSettings& settings : option_combinations(*file, battery_axes(path))) {
      diag::Diagnostics d1, d2;
      auto plain = file->compile(settings, d1, false);
      auto fast = file->compile(settings, d2, true);
      REQUIRE(plain);
      REQUIRE(fast);
      std::string what = path;
      for (const auto& [k, v] : settings) what += fmt::format(" {}={}", k, v);
      for (int g = 0; g < kGames; ++g) lockstep(plain, fast, 1000 + g, what);
      ++sets;
    }
  }
  CHECK(sets > 10);
}

// The optimizer's work is visible: the games' move generation reads a frozen state (but in the
// games whose guards try each move, as Backgammon's "play both dice if you can"), some
// definitions are remembered, and some domains are indexed.
TEST_CASE("the optimizer finds work to save in the seed games", "[optimize]") {
  const std::set<std::string> looking_ahead = {"backgammon.keli"};
  for (const std::string& path : game_files()) {
    auto p = compile(path);
    INFO(path);
    CHECK(p->guards_write_state == looking_ahead.count(std::filesystem::path(path).filename().string()) > 0);
    int memo = 0;
    for (const auto& c : p->callables) memo += c.memo ? 1 : 0;
    CHECK(memo > 0);
    CHECK(p->var_access.size() == p->vars.size());
  }
}

// Pagade Kayi Ata's `pair_at` is a count the engine keeps, and `first_in_hand`'s scan over the
// pieces of the same set before it runs over that set's pieces below it only.
TEST_CASE("the optimizer keeps counts and cuts loops short in Pagade Kayi Ata", "[optimize][facts]") {
  auto p = compile(source_path("games/pagade_kayi_ata.keli"));
  REQUIRE_FALSE(p->facts.empty());
  CHECK(p->visible_size + p->facts[0].slots <= p->state_size);
  int below = 0, indexed = 0;
  for (const auto& n : p->code) {
    below += n.op == compile::Op::DomBelow ? 1 : 0;
    indexed += n.op == compile::Op::DomIndex ? 1 : 0;
  }
  CHECK(below > 0);
  CHECK(indexed > 0);
  auto k = compile(source_path("tests/semantics/kept_counts.keli"));
  CHECK(k->facts.size() >= 6);
}

// A count along one index of a table of three dimensions is left to the aggregate: a kept count
// has one slot per position of a single other index (compile/facts.cpp).
TEST_CASE("the optimizer keeps no count of a three-dimensional table", "[optimize][facts]") {
  auto p = compile(source_path("tests/rules/deep_state.keli"));
  CHECK(p->facts.empty());
  CHECK(p->visible_size == p->state_size);
}

// The debug mode recomputes every kept count after each step: a count gone wrong is reported
// (here one is spoiled by hand), on either engine.
TEST_CASE("the facts check finds a kept count that disagrees", "[optimize][facts]") {
  auto p = compile(source_path("games/pagade_kayi_ata_4_players.keli"));
  REQUIRE_FALSE(p->facts.empty());
  runtime::EngineOptions checked;
  checked.check_facts = true;
  runtime::Game g(p, checked);
  runtime::State s = g.initial();
  CHECK(compile::check_facts(*p, s).empty());
  size_t cells = 0;  // the first count the optimizer found (the game's declared fact is another kind)
  while (cells < p->facts.size() && p->facts[cells].kind != compile::FactKind::Cells) ++cells;
  REQUIRE(cells < p->facts.size());
  s[p->facts[cells].base] += 1;
  CHECK_FALSE(compile::check_facts(*p, s).empty());
  runtime::Rng rng(1);
  auto step = [&] {
    if (g.chance(s)) return g.apply_roll(s, g.sample_roll(s, rng));
    std::vector<runtime::Move> legal;
    g.legal(s, legal);
    g.apply(s, legal.at(0));
  };
  CHECK_THROWS_WITH(step(), Catch::Contains("the count kept of `"));
  compile::refresh_facts(*p, s);
  CHECK(compile::check_facts(*p, s).empty());
}

// A declared fact is kept in hidden slots after the variables, and the debug mode compares
// every entry with the fact's definition: an entry spoiled by hand is reported at the next step,
// and a refresh counts it again from the variables.
TEST_CASE("the facts check finds a declared fact that disagrees with its definition", "[optimize][facts]") {
  auto p = compile(source_path("tests/rules/tallies.keli"));
  int tally = -1;
  for (size_t i = 0; i < p->facts.size(); ++i)
    if (p->facts[i].kind == compile::FactKind::Tally && p->facts[i].slots == 12) tally = static_cast<int>(i);
  REQUIRE(tally >= 0);
  CHECK(p->facts[tally].base >= p->visible_size);
  runtime::EngineOptions checked;
  checked.check_facts = true;
  runtime::Game g(p, checked);
  runtime::State s = g.initial();
  std::vector<runtime::Move> legal;
  g.legal(s, legal);
  REQUIRE(legal.size() == 2);  // enter either of South's pieces
  g.apply(s, legal.at(0));
  CHECK(s[p->facts[tally].base + 0] == 1);  // here(0, South): the entered piece
  s[p->facts[tally].base + 1] += 1;         // here(0, North), spoiled
  g.legal(s, legal);
  CHECK_THROWS_WITH(g.apply(s, legal.at(0)), Catch::Contains("the fact 'here' kept for (0, 1) is"));
  g.refresh_facts(s);
  CHECK(s[p->facts[tally].base + 1] == 1);  // North's piece entered by the last move
}

}  // namespace
}  // namespace keli::test
