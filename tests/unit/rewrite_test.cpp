// A rewritten game file must play exactly as the file it replaces (issue 19, item 11): each game
// listed in tests/first_edition/rewrites.yaml is played in lockstep against its first-edition copy
// (tests/first_edition/games), under every option set of its battery plan, by the same random
// choices. After every step both must offer the same moves in the same order (by notation), raise
// the same notes, and agree on the turn, phase, places and every variable the new file keeps; the
// variables the rewrite dropped (bookkeeping the engine now keeps, such as a `fact`) are listed
// in the plan, and so are the ones it renamed (`renamed: {OLD: NEW}`, as Pagade's `extra` is now
// the turn order's `turns_due`), which must agree under their new names; nothing else may differ. The suite plays a few
// games per option set; KELI_REWRITE_GAMES=N plays N (the soak: thousands). A game marked
// `alike_once` lists the moves of alike pieces once (issue 38, item 3): its moves must be the
// first-edition file's with each repeated reading dropped, in the same order, and the first
// edition plays the first move of the reading picked, which must leave the same state.
#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>

#include "support.hpp"

namespace keli::test {
namespace {

int games_per_set() {
  const char* n = std::getenv("KELI_REWRITE_GAMES");
  return n && *n ? std::max(1, std::atoi(n)) : 2;
}
int max_steps() { return std::getenv("KELI_BATTERY_MAX_GAMES") ? 1500 : 20000; }

const compile::VarInfo* find_var(const compile::Program& p, const std::string& name) {
  for (const auto& v : p.vars)
    if (v.name == name) return &v;
  return nullptr;
}

std::vector<std::string> offered(runtime::Game& g, const runtime::State& s) {
  std::vector<runtime::Move> moves;
  g.legal(s, moves);
  std::vector<std::string> out;
  for (const auto& m : moves) out.push_back(g.notation(s, m));
  return out;
}

std::vector<std::string> note_texts(const runtime::Game& g, const compile::Program& p) {
  std::vector<std::string> out;
  for (int id : g.notes()) out.push_back(p.notes.at(id));
  return out;
}

struct Pair {
  std::shared_ptr<const compile::Program> old_p, new_p;
  std::vector<std::pair<const compile::VarInfo*, const compile::VarInfo*>> kept;  // old, new
  bool alike_once = false;  // the new file lists alike pieces' moves once
};

// The index in `texts` of the first move that reads `reading`: the first-edition move that the
// rewritten file's pick of that reading stands for.
size_t first_of_reading(const std::vector<std::string>& texts, const std::string& reading) {
  return static_cast<size_t>(std::find(texts.begin(), texts.end(), reading) - texts.begin());
}

std::vector<std::string> once_each(const std::vector<std::string>& texts) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (const auto& t : texts)
    if (seen.insert(t).second) out.push_back(t);
  return out;
}

// The fixed slots and every variable of the new file agree.
void require_same(const Pair& pr, const runtime::State& so, const runtime::State& sn) {
  const int fixed = compile::kPlaces + pr.new_p->num_players;
  for (int i = 0; i < fixed; ++i) REQUIRE(so[i] == sn[i]);
  for (const auto& [vo, vn] : pr.kept) {
    INFO("variable " << vn->name);
    REQUIRE(std::equal(so.begin() + vo->base, so.begin() + vo->base + vo->size(), sn.begin() + vn->base));
  }
}

void lockstep(const Pair& pr, uint64_t seed, const std::string& what) {
  runtime::Game a(pr.old_p), b(pr.new_p);
  runtime::Rng rng(seed);
  runtime::State sa = a.initial(), sb = b.initial();
  require_same(pr, sa, sb);
  for (int step = 0; step < max_steps() && !a.over(sa); ++step) {
    INFO(what << " seed " << seed << " step " << step);
    REQUIRE(a.chance(sa) == b.chance(sb));
    if (a.chance(sa)) {
      std::vector<int32_t> roll = a.sample_roll(sa, rng);
      a.apply_roll(sa, roll);
      b.apply_roll(sb, roll);
    } else {
      std::vector<runtime::Move> ma, mb;
      a.legal(sa, ma);
      b.legal(sb, mb);
      const std::vector<std::string> ta = offered(a, sa), tb = offered(b, sb);
      REQUIRE((pr.alike_once ? once_each(ta) : ta) == tb);
      const size_t pick = rng.below(mb.size());
      a.apply(sa, ma[pr.alike_once ? first_of_reading(ta, tb[pick]) : pick]);
      b.apply(sb, mb[pick]);
    }
    REQUIRE(note_texts(a, *pr.old_p) == note_texts(b, *pr.new_p));
    require_same(pr, sa, sb);
  }
  REQUIRE(a.over(sa) == b.over(sb));
}

// Pairs the variables: each of the new file's must be the old one's of that name (or the name it
// was renamed from) and size; the old file's others must be the plan's `dropped`.
Pair pair_up(std::shared_ptr<const compile::Program> o, std::shared_ptr<const compile::Program> n,
             const std::set<std::string>& dropped, const std::map<std::string, std::string>& renamed) {
  Pair pr{std::move(o), std::move(n), {}};
  std::map<std::string, std::string> old_name_of;
  for (const auto& [from, to] : renamed) old_name_of[to] = from;
  for (const auto& v : pr.new_p->vars) {
    INFO("variable " << v.name << " of the rewritten file");
    auto was = old_name_of.find(v.name);
    const compile::VarInfo* old = find_var(*pr.old_p, was == old_name_of.end() ? v.name : was->second);
    REQUIRE(old);
    REQUIRE(old->size() == v.size());
    pr.kept.emplace_back(old, &v);
  }
  for (const auto& v : pr.old_p->vars) {
    INFO("variable " << v.name << " of the first-edition file");
    auto now = renamed.find(v.name);
    CHECK((find_var(*pr.new_p, now == renamed.end() ? v.name : now->second) || dropped.count(v.name)));
  }
  return pr;
}

}  // namespace

TEST_CASE("rewritten games play exactly as their first-edition files", "[rewrite]") {
  YAML::Node plan = YAML::LoadFile(source_path("tests/first_edition/rewrites.yaml"));
  REQUIRE(plan["rewrites"].IsSequence());
  int sets = 0;
  for (const auto& r : plan["rewrites"]) {
    const std::string game = r["game"].as<std::string>();
    const std::string copy = "tests/first_edition/" + game;
    std::set<std::string> dropped;
    for (const auto& d : r["dropped"]) dropped.insert(d.as<std::string>());
    std::map<std::string, std::string> renamed;
    for (const auto& kv : r["renamed"]) renamed[kv.first.as<std::string>()] = kv.second.as<std::string>();
    auto file = GameFile::open(source_path(game));
    REQUIRE(file->ok());
    for (const compile::ParamSettings& settings : option_combinations(*file, battery_axes(source_path(game)))) {
      std::string what = game;
      for (const auto& [k, v] : settings) what += fmt::format(" {}={}", k, v);
      INFO(what);
      Pair pr = pair_up(compile(source_path(copy), settings), compile(source_path(game), settings), dropped, renamed);
      pr.alike_once = r["alike_once"].as<bool>(false);
      for (int g = 0; g < games_per_set(); ++g) lockstep(pr, 7000 + g, what);
      ++sets;
    }
  }
  CHECK(sets > 0);
}

}  // namespace keli::test
