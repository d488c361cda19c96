// Scenario tests: YAML files that name a game, set a position, play moves and assert the state,
// the legal moves or the result (format in docs/scenarios.md). Every failure is a diagnostic at
// the YAML node that failed, so a test reads like a compiler error.
#include "scenario/scenario.hpp"

#include "compile/facts.hpp"
#include "lang/limits.hpp"
#include "rulebook/why_not.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "ast/files.hpp"
#include "ast/loader.hpp"
#include "runtime/game.hpp"
#include "scenario/yaml_read.hpp"
#include "session/game_file.hpp"

namespace keli::scenario {
namespace fs = std::filesystem;

namespace {

class Runner {
 public:
  Runner(int file, diag::Diagnostics& diags, Games& games) : file_(file), diags_(diags), games_(games) {}

  Span span(const YAML::Mark& m) const {
    return Span{file_, static_cast<uint32_t>(m.line + 1), static_cast<uint32_t>(m.column + 1), 1};
  }

  // A value in a position or expectation: a number, true/false, a seat name, a site label, or
  // (for `phase`) a phase's name.
  int32_t value(const compile::Program& p, const YAML::Node& n, lang::ValueKind kind, bool is_phase = false) {
    std::string t = text(n, "this value");
    if (t == "true") return 1;
    if (t == "false") return 0;
    if (kind == lang::ValueKind::Player)
      for (int i = 0; i < p.num_players; ++i)
        if (p.seat_names[i] == t) return i;
    if (is_phase)
      for (size_t i = 0; i < p.phases.size(); ++i)
        if (p.phases[i].name == t) return static_cast<int32_t>(i);
    if (int32_t v = 0; parse_number(t, v)) return v;
    if (t.find_first_not_of("+-0123456789") == std::string::npos && t.find_first_of("0123456789") != std::string::npos)
      number(n, "a value in the state");  // a number out of the 32-bit range: says so
    if (kind == lang::ValueKind::Site)
      for (int i = 0; i < p.num_sites; ++i)
        if (p.sites[i].label == t) return i;
    if (kind == lang::ValueKind::Direction)
      for (size_t i = 0; i < p.direction_names.size(); ++i)
        if (p.direction_names[i] == t) return static_cast<int32_t>(i);
    fail(n, fmt::format("'{}' is not a value here", t),
         kind == lang::ValueKind::Player ? fmt::format("seats: {}", fmt::join(p.seat_names, ", "))
                                         : "use a number, true or false");
  }

  // An entry of a variable: `none` where it may be absent, and then a site, seat or piece that exists.
  int32_t entry(const compile::Program& p, const YAML::Node& n, const compile::VarInfo& v) {
    if (!v.or_none) return value(p, n, v.kind);
    if (n.IsScalar() && n.Scalar() == "none") return lang::kNoneValue;
    int32_t x = value(p, n, v.kind);
    int32_t count = v.kind == lang::ValueKind::Site     ? p.num_sites
                    : v.kind == lang::ValueKind::Player ? p.num_players
                                                        : p.num_pieces;
    if (x < 0 || x >= count)
      fail(n,
           fmt::format("'{}' holds a {} or none, and {} is none of them", v.name,
                       v.kind == lang::ValueKind::Site     ? "site"
                       : v.kind == lang::ValueKind::Player ? "player"
                                                           : "piece",
                       x),
           fmt::format("give 0..{} or none", count - 1));
    return x;
  }

  std::vector<int32_t> values(const compile::Program& p, const YAML::Node& n, const compile::VarInfo& v) {
    std::vector<int32_t> out;
    if (v.dims.empty()) {
      out.push_back(entry(p, n, v));
      return out;
    }
    if (!n.IsSequence()) fail(n, fmt::format("'{}' holds {} values: give a list", v.name, v.size()));
    flatten(p, n, v, 1, out);
    if (static_cast<int>(out.size()) != v.size())
      fail(n, fmt::format("'{}' holds {} values, but {} are given", v.name, v.size(), out.size()));
    return out;
  }

  // A table's entries in order, from a list nested at most one level per dimension (flat, or with
  // the first index outermost; a one-dimensional table may be given by rows); `depth` is n's level.
  void flatten(const compile::Program& p, const YAML::Node& n, const compile::VarInfo& v, size_t depth,
               std::vector<int32_t>& out) {
    for (const auto& x : n) {
      if (!x.IsSequence()) {
        out.push_back(entry(p, x, v));
      } else if (depth < std::max<size_t>(v.dims.size(), 2)) {  // a list by rows of a 1-D table: as ever
        flatten(p, x, v, depth + 1, out);
      } else {
        fail(x, fmt::format("'{}' has {} dimension{}: this list is nested too deep", v.name, v.dims.size(),
                            v.dims.size() == 1 ? "" : "s"));
      }
      if (out.size() > static_cast<size_t>(v.size())) break;  // the count check says so
    }
  }

  int32_t seat(const compile::Program& p, const YAML::Node& n) {
    int32_t m = value(p, n, lang::ValueKind::Player);
    if (m < 0 || m >= p.num_players)
      fail(n, fmt::format("seat {} does not exist", m),
           fmt::format("seats: 0..{} or {}", p.num_players - 1, fmt::join(p.seat_names, ", ")));
    return m;
  }

  int32_t phase(const compile::Program& p, const YAML::Node& n) {
    int32_t ph = value(p, n, lang::ValueKind::Int, true);
    if (ph < 0 || ph >= static_cast<int32_t>(p.phases.size())) {
      std::vector<std::string> names;
      for (const auto& x : p.phases) names.push_back(x.name);
      fail(n, fmt::format("there is no phase {}", n.Scalar()), fmt::format("phases: {}", fmt::join(names, ", ")));
    }
    return ph;
  }

  const compile::VarInfo* var(const compile::Program& p, const std::string& name) {
    for (const auto& v : p.vars)
      if (v.name == name) return &v;
    return nullptr;
  }

  // A declared fact: its parameters as a table, and its definition.
  const std::pair<compile::VarInfo, int>* fact(const compile::Program& p, const std::string& name) {
    for (const auto& f : p.declared_facts)
      if (f.first.name == name) return &f;
    return nullptr;
  }

  // Every entry of a fact in s, in table order: its definition called with the entry's arguments.
  std::vector<int32_t> fact_values(runtime::Game& g, const runtime::State& s,
                                   const std::pair<compile::VarInfo, int>& f) {
    const compile::VarInfo& t = f.first;
    std::vector<int32_t> out;
    int64_t args[lang::kMaxTableDims] = {0, 0, 0, 0};
    for (int slot = 0; slot < t.size(); ++slot) {
      int rest = slot;
      for (size_t i = t.dims.size(); i-- > 0;) {
        args[i] = rest % t.dims[i];
        rest /= t.dims[i];
      }
      out.push_back(static_cast<int32_t>(g.call(s, f.second, args, static_cast<int>(t.dims.size()))));
    }
    return out;
  }

  std::vector<std::string> state_keys(const compile::Program& p) {
    std::vector<std::string> k = {"mover", "phase"};
    for (const auto& v : p.vars) k.push_back(v.name);
    return k;
  }

  void set_position(const compile::Program& p, runtime::Game& g, runtime::State& s, const YAML::Node& pos) {
    need_map(pos, "'position'");
    for (const auto& kv : pos) {
      std::string key = kv.first.as<std::string>();
      if (key == "mover") {
        s[compile::kMover] = seat(p, kv.second);
      } else if (key == "phase") {
        s[compile::kPhase] = phase(p, kv.second);
      } else if (const auto* v = var(p, key)) {
        auto vals = values(p, kv.second, *v);
        std::copy(vals.begin(), vals.end(), s.begin() + v->base);
      } else if (fact(p, key)) {
        fail(kv.first, fmt::format("'{}' is a fact the engine keeps: a position sets the variables it counts", key),
             "leave it out; it may be expected after the play");
      } else {
      }
    }
    g.refresh_facts(s);  // the values the engine keeps follow the variables set here
  }

  std::string show(const std::vector<int32_t>& v) { return fmt::format("[{}]", fmt::join(v, ", ")); }

  void check(const GameFile& gf, const compile::Program& p, runtime::Game& g, const runtime::State& s,
             const YAML::Node& expect, const std::vector<std::string>& last_notes) {
    need_map(expect, "'expect'");
    std::vector<runtime::Move> legal;
    for (const auto& kv : expect) {
      std::string key = kv.first.as<std::string>();
      const YAML::Node& want = kv.second;
      if (key == "legal" || key == "illegal") {
        g.legal(s, legal);
        // A move may be named by its notation or as a call (RULE ARG...): either is in `have`.
        std::set<std::string> have;
        std::vector<std::string> extra;
        std::vector<std::string> listed = texts(want, fmt::format("'{}'", key));
        std::set<std::string> wanted(listed.begin(), listed.end());
        for (const auto& m : legal) {
          std::string text = g.notation(s, m), call = g.call_text(m);
          if (!wanted.count(text) && !wanted.count(call)) extra.push_back(text);
          have.insert(text);
          have.insert(call);
        }
        std::vector<std::string> missing;
        for (const auto& w : wanted)
          if (!have.count(w)) missing.push_back(w);
        if (key == "legal" && (!missing.empty() || !extra.empty())) {
          fail(want, "the legal moves differ",
               fmt::format("missing: [{}]; not expected: [{}]", fmt::join(missing, ", "), fmt::join(extra, ", ")));
        }
        if (key == "illegal")
          for (const auto& w : wanted)
            if (have.count(w)) fail(want, fmt::format("'{}' is legal, but is expected not to be", w));
      } else if (key == "mover") {
        int32_t m = seat(p, want);
        if (m != s[compile::kMover])
          fail(want, fmt::format("mover: expected {}, found {}", p.seat_names[m], p.seat_names[s[compile::kMover]]));
      } else if (key == "phase") {
        int32_t ph = phase(p, want);
        if (ph != s[compile::kPhase])
          fail(want, fmt::format("phase: expected {}, found {}", want.Scalar(), p.phases[s[compile::kPhase]].name));
      } else if (key == "over") {
        bool w = boolean(want, "'over'");
        if (w != g.over(s))
          fail(want, w ? "the game is expected to be over, but it goes on" : "the game is over, but expected to go on");
      } else if (key == "ended") {
        std::string how = !g.over(s) ? "not" : g.ended_by_limit(s) ? "limit" : "rules";
        std::string w = text(want, "'ended'");
        if (w != "not" && w != "limit" && w != "rules")
          unreadable(want, fmt::format("'ended' is not, limit or rules, not '{}'", w));
        if (w != how) fail(want, fmt::format("ended: expected {}, found {}", w, how));
      } else if (key == "places") {
        need_list(want, "'places'");
        std::vector<int32_t> w;
        for (const auto& x : want) w.push_back(number(x, "a place"));
        auto pl = g.places(s);
        std::vector<int32_t> have(pl.begin(), pl.end());
        if (w != have) fail(want, fmt::format("places: expected {}, found {}", show(w), show(have)));
      } else if (key == "points" && !var(p, key)) {  // a variable named `points` is read as itself
        need_list(want, "'points'");
        if (!g.scores_points()) unreadable(want, "this game scores no points: no 'end_game' of it says 'points NAME'");
        std::vector<int32_t> w;
        for (const auto& x : want) w.push_back(number(x, "a number of points"));
        auto have = g.points(s);
        if (w != have) fail(want, fmt::format("points: expected {}, found {}", show(w), show(have)));
      } else if (key == "why_not" || key == "why_not_at") {
        why_not(gf, g, s, want, key == "why_not_at");
      } else if (key == "notes") {
        std::vector<std::string> w = texts(want, "'notes'");
        if (w != last_notes)
          fail(want, fmt::format("notes of the last step: expected [{}], found [{}]", fmt::join(w, "; "),
                                 fmt::join(last_notes, "; ")));
      } else if (const auto* v = var(p, key)) {
        auto w = values(p, want, *v);
        std::vector<int32_t> have(s.begin() + v->base, s.begin() + v->base + v->size());
        if (w != have) fail(want, fmt::format("{}: expected {}, found {}", key, show(w), show(have)));
      } else if (const auto* f = fact(p, key)) {
        auto w = values(p, want, f->first);
        auto have = fact_values(g, s, *f);
        if (w != have) fail(want, fmt::format("{}: expected {}, found {}", key, show(w), show(have)));
      } else {
        auto keys = state_keys(p);
        keys.insert(keys.end(),
                    {"legal", "illegal", "over", "ended", "places", "points", "notes", "why_not", "why_not_at"});
        for (const auto& df : p.declared_facts) keys.push_back(df.first.name);
        fail(kv.first, fmt::format("unknown expectation '{}'", key), diag::suggest(key, keys));
      }
    }
  }

  // `why_not: {MOVE: TEXT}`: the answer to "why is MOVE not legal?" (rulebook/why_not.hpp) holds
  // TEXT; `why_not_at: {SITE: TEXT}`: the answer to "why does nothing start at SITE?" (a tap) does.
  void why_not(const GameFile& gf, runtime::Game& g, const runtime::State& s, const YAML::Node& want, bool at) {
    need_map(want, at ? "'why_not_at'" : "'why_not'");
    for (const auto& kv : want) {
      std::string what = text(kv.first, at ? "a site" : "a move"), expected = text(kv.second, "the reason expected");
      rulebook::WhyNot w = at ? rulebook::why_not_at(gf.checked(), gf.sources(), g, s,
                                                     value(g.program(), kv.first, lang::ValueKind::Site))
                              : rulebook::why_not(gf.checked(), gf.sources(), g, s, what);
      if (w.message.find(expected) == std::string::npos)
        fail(kv.second,
             fmt::format("why not '{}': expected a reason with \"{}\", found \"{}\"", what, expected, w.message));
    }
  }

  void play(const compile::Program& p, runtime::Game& g, runtime::State& s, const YAML::Node& moves,
            std::vector<std::string>& notes, bool check_invariants) {
    need_list(moves, "'play'");
    std::vector<runtime::Move> legal;
    for (const auto& mv : moves) {
      std::string text = scenario::text(mv, "a move");
      if (g.over(s)) fail(mv, fmt::format("the game is over before '{}'", text));
      if (g.chance(s)) {
        if (text.rfind("roll", 0) != 0)
          fail(mv, fmt::format("dice must be thrown here: write 'roll V1 V2 ...', not '{}'", text));
        std::vector<int32_t> vals = roll_values(mv, text);
        const auto& d = g.dice(s);
        if (vals.size() != d.faces.size()) fail(mv, fmt::format("'{}' throws {} dice", d.name, d.faces.size()));
        for (size_t i = 0; i < vals.size(); ++i)
          if (std::find(d.faces[i].begin(), d.faces[i].end(), vals[i]) == d.faces[i].end())
            fail(mv, fmt::format("die {} of '{}' has no face {}", i + 1, d.name, vals[i]));
        g.apply_roll(s, vals);
      } else {
        g.legal(s, legal);
        const runtime::Move* found = nullptr;
        std::vector<std::string> names;
        for (const auto& m : legal) {  // by its notation, or as a call
          names.push_back(g.notation(s, m));
          if (!found && (names.back() == text || g.call_text(m) == text)) found = &m;
        }
        if (!found)
          fail(mv, fmt::format("'{}' is not a legal move here", text),
               fmt::format("legal: {}", fmt::join(names, ", ")));
        runtime::Move m = *found;
        g.apply(s, m);
      }
      notes.clear();
      for (int n : g.notes()) notes.push_back(p.notes[n]);
      if (check_invariants) {
        auto bad = g.failed_invariants(s);
        if (!bad.empty()) fail(mv, fmt::format("after '{}' the invariant \"{}\" does not hold", text, bad[0]));
      }
    }
  }

  Report run(const std::string& path, const SourceSet& src) {
    Report rep;
    YAML::Node root;
    try {
      root = YAML::Load(src.file(file_).text);
    } catch (const YAML::Exception& e) {
      diags_.report(diag::Code::bad_scenario, span(e.mark), fmt::format("this is not valid YAML: {}", e.msg));
      rep.failed = 1;
      return rep;
    }
    try {
      check_document(root);
      if (!root.IsMap() || !root["game"] || !root["scenarios"])
        fail(root, "a scenario file needs 'game:' and 'scenarios:'");
      only_keys(root, {"game", "params", "scenarios"}, "top-level", true);
      std::string game = text(root["game"], "'game'");
      // Beside the scenario, or in the folder above (NAME.tests/ sits beside NAME.keli), or the
      // library: the same resolver as imports (ast/files.hpp), so `game:` cannot name any file.
      std::error_code ec;
      fs::path dir = fs::absolute(path, ec).parent_path();
      ast::Located found = ast::locate(game, {{dir.string()}, {dir.string(), dir.parent_path().string()}});
      if (found.path.empty()) fail(root["game"], found.error, found.hint);
      fs::path gp = found.path;
      std::shared_ptr<const GameFile> gf = games_.open(gp.string());
      if (!gf->ok()) {
        const auto& d = gf->diagnostics().all();
        std::string why;
        for (const auto& x : d)
          if (diag::info(x.code).severity == diag::Severity::Error) {
            why = diag::render(gf->sources(), x);
            break;
          }
        fail(root["game"], fmt::format("the game '{}' has errors", gp.string()), why);
      }
      compile::ParamSettings base;
      if (root["params"]) read_params(root["params"], base);
      need_list(root["scenarios"], "'scenarios'");
      for (const auto& sc : root["scenarios"]) {
        std::string name = sc.IsMap() && sc["name"] && sc["name"].IsScalar() ? sc["name"].Scalar() : "a scenario";
        try {
          one(*gf, base, sc);
          ++rep.passed;
        } catch (const Failure& f) {
          ++rep.failed;
          diags_.report(f.unreadable ? diag::Code::bad_scenario : diag::Code::scenario_failed, span(f.mark),
                        fmt::format("scenario '{}': {}", name, f.message), f.hint);
        } catch (const YAML::Exception& e) {  // a value of the wrong kind: this scenario fails, the rest run
          ++rep.failed;
          diags_.report(diag::Code::bad_scenario, span(e.mark),
                        fmt::format("scenario '{}': cannot read this value: {}", name, e.msg));
        }
      }
    } catch (const Failure& f) {
      ++rep.failed;
      diags_.report(diag::Code::bad_scenario, span(f.mark), f.message, f.hint);
    } catch (const YAML::Exception& e) {
      ++rep.failed;
      diags_.report(diag::Code::bad_scenario, span(e.mark), fmt::format("cannot read this value: {}", e.msg));
    }
    return rep;
  }

  // A map of parameter names to single values, as `--param NAME=VALUE` takes them.
  static void read_params(const YAML::Node& n, compile::ParamSettings& out) {
    need_map(n, "'params'");
    for (const auto& kv : n)
      out.emplace_back(kv.first.Scalar(), text(kv.second, fmt::format("the value of '{}'", kv.first.Scalar())));
  }

  void one(const GameFile& gf, const compile::ParamSettings& base, const YAML::Node& sc) {
    if (!sc.IsMap()) fail(sc, "each scenario must be a map with 'name', 'play' and 'expect'");
    only_keys(sc, {"name", "rule", "params", "position", "play", "expect", "check_invariants"}, "scenario");
    if (sc["name"]) text(sc["name"], "'name'");
    if (sc["rule"]) text(sc["rule"], "'rule'");
    compile::ParamSettings settings = base;
    if (sc["params"]) read_params(sc["params"], settings);
    std::string key;
    for (auto& [k, v] : settings) key += k + "=" + v + ";";
    auto it = programs_.find(key);
    if (it == programs_.end()) {
      diag::Diagnostics d;
      auto prog = games_.compile(gf, settings, d);
      if (!prog)
        fail(sc["params"] ? sc["params"] : sc, "these parameters do not compile",
             d.all().empty()
                 ? ""
                 : d.all().front().message + (d.all().front().hint.empty() ? "" : "; " + d.all().front().hint));
      it = programs_.emplace(key, prog).first;
    }
    const compile::Program& p = *it->second;
    runtime::Game g(it->second);
    bool inv = !sc["check_invariants"] || boolean(sc["check_invariants"], "'check_invariants'");
    try {
      runtime::State s = g.initial();
      if (sc["position"]) set_position(p, g, s, sc["position"]);
      std::vector<std::string> notes;
      if (sc["play"]) play(p, g, s, sc["play"], notes, inv);
      if (sc["expect"]) check(gf, p, g, s, sc["expect"], notes);
    } catch (const diag::Error& e) {
      fail(sc, fmt::format("the game failed: {} (at {})", e.message, gf.sources().where(e.span)));
    }
  }

 private:
  int file_;
  diag::Diagnostics& diags_;
  Games& games_;
  std::map<std::string, std::shared_ptr<const compile::Program>> programs_;
};

}  // namespace

std::shared_ptr<const GameFile> Games::open(const std::string& path) { return GameFile::open(path); }

std::shared_ptr<const compile::Program> Games::compile(const GameFile& game, const compile::ParamSettings& settings,
                                                       diag::Diagnostics& diags) {
  return game.compile(settings, diags);
}

Report run_file(const std::string& path, SourceSet& src, diag::Diagnostics& diags) {
  Games games;
  return run_file(path, src, diags, games);
}

Report run_file(const std::string& path, SourceSet& src, diag::Diagnostics& diags, Games& games) {
  std::string text;
  if (std::string why; !ast::read_file(path, text, why)) {
    diags.report(diag::Code::bad_scenario, Span{}, fmt::format("cannot read '{}': {}", path, why));
    return {0, 1};
  }
  int file = src.add(path, std::move(text));
  Runner r(file, diags, games);
  return r.run(path, src);
}

// Scenario files live in folders named NAME.tests (beside games/NAME.keli); other YAML files
// (battery plans, parameter files) are not scenarios.
std::vector<std::string> find_files(const std::string& path) {
  std::vector<std::string> out;
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    for (auto it = fs::recursive_directory_iterator(path, ec); it != fs::recursive_directory_iterator();
         it.increment(ec)) {
      const fs::path& f = it->path();
      bool yaml = f.extension() == ".yaml" || f.extension() == ".yml";
      bool in_tests = false;
      for (const auto& part : fs::relative(f, path, ec).parent_path())
        in_tests = in_tests || part.extension() == ".tests";
      if (fs::path(path).lexically_normal().filename().extension() == ".tests" ||
          fs::path(path).lexically_normal().parent_path().extension() == ".tests")
        in_tests = true;
      if (it->is_regular_file() && yaml && in_tests) out.push_back(f.string());
    }
    std::sort(out.begin(), out.end());
  } else {
    out.push_back(path);
  }
  return out;
}

}  // namespace keli::scenario
