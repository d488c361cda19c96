// keli play's history: steps with the states before them (undo), traces written from the history
// (save), saved traces read back and replayed (resume), and the explanation of a legal move.
#include "play_session.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <fstream>
#include <sstream>

#include "ast/loader.hpp"
#include "trace/trace.hpp"
#include "util/output_file.hpp"

namespace keli::cli {

PlaySession::PlaySession(std::shared_ptr<const compile::Program> p) : p_(std::move(p)), g_(p_) { s_ = g_.initial(); }

void PlaySession::move(int mover, const runtime::Move& m, bool human) {
  before_.push_back(s_);
  g_.apply(s_, m);
  steps_.push_back({false, mover, m, {}, human});
}

void PlaySession::roll(const std::vector<int32_t>& values) {
  before_.push_back(s_);
  std::vector<int32_t> v = values;  // a copy: `values` may be the game's own sample buffer
  g_.apply_roll(s_, v);
  steps_.push_back({true, -1, {}, v, false});
}

bool PlaySession::undo() {
  for (size_t k = steps_.size(); k-- > 0;) {
    if (!steps_[k].human) continue;
    s_ = before_[k];
    steps_.resize(k);
    before_.resize(k);
    return true;
  }
  return false;
}

std::string PlaySession::save(const std::string& path, const std::string& file, uint64_t seed,
                              const std::vector<std::string>& players, const std::vector<std::string>& inputs) const {
  util::OutputFile f;
  if (!f.open(path, inputs)) return f.error();
  std::ostream& out = f.stream();
  // Replayed on a game of its own so that every line carries the notes its step raised.
  runtime::Game g(p_);
  runtime::State s = g.initial();
  trace::Writer w(out, *p_);
  w.header({p_->game_name, file, seed, players});
  for (const auto& st : steps_) {
    if (st.chance) {
      g.apply_roll(s, st.roll);
      w.roll(g, st.roll, s);
    } else {
      g.apply(s, st.move);
      w.move(g, st.mover, st.move, s);
    }
  }
  if (g.over(s)) w.result(g, s);
  return f.commit() ? "" : f.error();
}

bool read_saved(const std::string& path, SavedGame& out, std::string& error) {
  std::string text;
  if (!ast::read_file(path, text)) {
    error = "cannot read the file";
    return false;
  }
  std::istringstream in(text);
  std::string line;
  int ln = 0;
  try {
    while (std::getline(in, line)) {
      ++ln;
      if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
      YAML::Node n = YAML::Load(line);
      if (!n.IsMap()) {
        error = fmt::format("{}: this line is not a JSON object", ln);
        return false;
      }
      if (ln == 1) {
        if (!n["file"] || !n["params"]) {
          error = "1: the first line is not a trace header (it needs \"file\" and \"params\")";
          return false;
        }
        out.file = n["file"].as<std::string>();
        for (const auto& kv : n["params"])
          out.params.emplace_back(kv.first.as<std::string>(), kv.second.as<std::string>());
        if (n["seed"]) out.seed = n["seed"].as<uint64_t>();
        for (const auto& x : n["players"]) out.players.push_back(x.as<std::string>());
        continue;
      }
      if (n["result"]) break;  // a finished game: resuming shows its end
      SavedGame::Step st;
      st.line = ln;
      if (n["chance"]) {
        st.chance = true;
        for (const auto& x : n["roll"]) st.roll.push_back(x.as<int32_t>());
      } else {
        if (!n["rule"]) {
          error = fmt::format("{}: this step has neither \"chance\" nor \"rule\"", ln);
          return false;
        }
        st.rule = n["rule"].as<std::string>();
        for (const auto& x : n["args"]) st.args.push_back(x.as<int32_t>());
      }
      out.steps.push_back(std::move(st));
    }
  } catch (const YAML::Exception& e) {
    error = fmt::format("{}: this line cannot be read: {}", ln, e.msg);
    return false;
  }
  if (ln == 0) {
    error = "the trace is empty";
    return false;
  }
  return true;
}

bool replay_saved(const SavedGame& saved, PlaySession& session, std::string& error) {
  runtime::Game& g = session.game();
  const compile::Program& p = g.program();
  std::vector<runtime::Move> legal;
  for (const auto& st : saved.steps) {
    const runtime::State& s = session.state();
    if (g.over(s)) {
      error = fmt::format("{}: the game is already over here, but the trace goes on", st.line);
      return false;
    }
    if (st.chance != g.chance(s)) {
      error =
          fmt::format("{}: the trace {} where the game {}", st.line, st.chance ? "throws dice" : "records a decision",
                      g.chance(s) ? "throws dice" : "expects a decision");
      return false;
    }
    if (st.chance) {
      const auto& d = g.dice(s);
      bool possible = st.roll.size() == d.faces.size();
      for (size_t k = 0; possible && k < st.roll.size(); ++k)
        possible = std::find(d.faces[k].begin(), d.faces[k].end(), st.roll[k]) != d.faces[k].end();
      if (!possible) {
        error =
            fmt::format("{}: the throw {} is not possible with dice '{}'", st.line, g.roll_notation(st.roll), d.name);
        return false;
      }
      session.roll(st.roll);
      continue;
    }
    g.legal(s, legal);
    const runtime::Move* found = nullptr;
    for (const auto& m : legal) {
      bool same = p.rules[m.rule].name == st.rule && m.nargs == st.args.size();
      for (int k = 0; same && k < m.nargs; ++k) same = m.args[k] == st.args[k];
      if (same) found = &m;
    }
    if (!found) {
      std::string shown = st.rule;
      for (int32_t a : st.args) shown += " " + std::to_string(a);
      error = fmt::format("{}: the move '{}' is not legal here", st.line, shown);
      return false;
    }
    runtime::Move m = *found;
    session.move(g.mover(s), m, true);  // a person may take back a resumed decision too
  }
  return true;
}

namespace {

std::string value_text(const compile::Program& p, lang::DimKind kind, int64_t v) {
  if (kind == lang::DimKind::Site && v >= 0 && v < p.num_sites) return p.sites[v].label;
  if (kind == lang::DimKind::Player && v >= 0 && v < p.num_players) return p.seat_names[v];
  return std::to_string(v);
}

std::string value_text(const compile::Program& p, lang::ValueKind kind, int64_t v) {
  return value_text(p,
                    kind == lang::ValueKind::Site     ? lang::DimKind::Site
                    : kind == lang::ValueKind::Player ? lang::DimKind::Player
                                                      : lang::DimKind::Range,
                    v);
}

// An entry of a table by its indices: sites by label, seats by name.
std::string entry_name(const compile::Program& p, const compile::VarInfo& v, int flat) {
  std::vector<std::string> idx(v.dims.size());
  for (size_t d = v.dims.size(); d-- > 0;) {
    int i = flat % v.dims[d];
    flat /= v.dims[d];
    idx[d] = value_text(p, v.dim_kinds[d], v.lows[d] + i);
  }
  std::string out = v.name;
  for (const auto& x : idx) out += "[" + x + "]";
  return out;
}

}  // namespace

std::string explain_move(runtime::Game& g, const runtime::State& s, const runtime::Move& m) {
  const compile::Program& p = g.program();
  const compile::Rule& r = p.rules[m.rule];
  std::vector<std::string> parts;
  for (int i = 0; i < m.nargs; ++i)
    parts.push_back(fmt::format("{}={}", r.params[i].name, value_text(p, r.params[i].kind, m.args[i])));
  std::string out = r.name;
  if (!parts.empty()) out += " " + fmt::format("{}", fmt::join(parts, ", "));
  if (r.is_otherwise) out += " (nothing else can be done)";
  // What it changes, on a copy: each changed variable briefly.
  runtime::State after = s;
  g.apply(after, m);
  std::vector<std::string> changes;
  for (const auto& v : p.vars) {
    std::vector<int> changed;
    for (int i = 0; i < v.size(); ++i)
      if (s[v.base + i] != after[v.base + i]) changed.push_back(i);
    if (changed.empty()) continue;
    if (changed.size() <= 2) {
      for (int i : changed)
        changes.push_back(fmt::format("{} {}->{}", entry_name(p, v, i), s[v.base + i], after[v.base + i]));
    } else {
      changes.push_back(fmt::format("{} entries of {}", changed.size(), v.name));
    }
  }
  if (g.over(after))
    changes.push_back("ends the game");
  else if (g.mover(after) != g.mover(s))
    changes.push_back(fmt::format("then {} to play", p.seat_names[g.mover(after)]));
  for (int n : g.notes()) changes.push_back(fmt::format("\"{}\"", p.notes[n]));
  if (!changes.empty()) out += ": " + fmt::format("{}", fmt::join(changes, "; "));
  return out;
}

}  // namespace keli::cli
