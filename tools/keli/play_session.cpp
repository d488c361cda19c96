// keli play's history: steps with the states before them (undo), traces written from the history
// (save), and the explanation of a legal move. (Saved traces are read back by trace::Reader.)
#include "play_session.hpp"

#include <fmt/format.h>

#include <fstream>

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
    undone_ = true;
    steps_.resize(k);
    before_.resize(k);
    return true;
  }
  return false;
}

std::string PlaySession::save(const std::string& path, const std::string& file, uint64_t seed,
                              const std::vector<std::string>& players, const std::vector<std::string>& inputs,
                              bool seeded) const {
  util::OutputFile f;
  if (!f.open(path, inputs)) return f.error();
  std::ostream& out = f.stream();
  // Replayed on a game of its own so that every line carries the notes its step raised.
  runtime::Game g(p_);
  runtime::State s = g.initial();
  trace::Writer w(out, *p_);
  trace::Header h{p_->game_name, file, seed, players};
  // What undo took back had drawn from the generator too: the throws no longer follow the seed.
  h.seeded = seeded && !undone_;
  w.header(h);
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
