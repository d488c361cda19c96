// keli play's history: steps with the states before them (undo), traces written from the history
// (save), and the explanation of a legal move. (Saved traces are read back by trace::Reader.)
#include "play_session.hpp"

#include <fmt/format.h>

#include <filesystem>
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
  // The game as seen from the trace's folder, so that --resume finds it from any folder.
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path game = fs::weakly_canonical(fs::absolute(file, ec), ec);
  fs::path beside = game.lexically_relative(fs::weakly_canonical(fs::absolute(path, ec).parent_path(), ec));
  trace::Header h{p_->game_name, beside.empty() || ec ? file : beside.generic_string(), seed, players};
  // What undo took back had drawn from the generator too: the throws no longer follow the seed.
  h.seeded = seeded && !undone_;
  w.header(h);
  for (const auto& st : steps_) {
    if (st.chance) {
      g.apply_roll(s, st.roll);
      w.roll(g, st.roll, s);
    } else {
      std::string text = g.notation(s, st.move);
      g.apply(s, st.move);
      w.move(g, st.mover, st.move, text, s);
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

}  // namespace

std::string rule_comment(const SourceSet& src, const Span& span) {
  if (!span.valid() || span.file >= static_cast<int>(src.size())) return "";
  const std::string& text = src.file(span.file).text;
  std::vector<std::string> lines;
  size_t at = 0;
  while (at <= text.size() && lines.size() + 1 < span.line) {
    size_t end = text.find('\n', at);
    lines.push_back(text.substr(at, end == std::string::npos ? std::string::npos : end - at));
    if (end == std::string::npos) break;
    at = end + 1;
  }
  std::vector<std::string> comment;
  for (size_t i = lines.size(); i-- > 0;) {
    size_t b = lines[i].find_first_not_of(" \t");
    if (b == std::string::npos || lines[i][b] != '#') break;
    size_t c = lines[i].find_first_not_of(" #", b);
    comment.insert(comment.begin(), c == std::string::npos ? "" : lines[i].substr(c));
  }
  return fmt::format("{}", fmt::join(comment, " "));
}

namespace {

// What the move does to the tables, in words: pieces first (captures named), then the rest.
std::vector<std::string> changes_in_words(runtime::Game& g, const runtime::State& s, const runtime::State& after) {
  const compile::Program& p = g.program();
  std::vector<std::string> out;
  const int mover = g.mover(s);
  auto team = [&](int seat) -> int64_t {
    int64_t arg = seat;
    return p.team >= 0 ? g.call(s, p.team, &arg, 1) : seat;
  };
  std::vector<const compile::VarInfo*> by_piece;
  for (const auto& v : p.vars)
    if (v.dims.size() == 1 && v.dim_kinds[0] == lang::DimKind::Piece) by_piece.push_back(&v);
  for (int pc = 0; pc < p.num_pieces; ++pc) {
    std::vector<std::string> moved;
    for (const auto* v : by_piece)
      if (s[v->base + pc] != after[v->base + pc])
        moved.push_back(fmt::format("{} {} -> {}", v->name, s[v->base + pc], after[v->base + pc]));
    if (moved.empty()) continue;
    int64_t arg = pc;
    int owner = p.piece_owner >= 0 ? static_cast<int>(g.call(s, p.piece_owner, &arg, 1)) : mover;
    bool theirs = owner >= 0 && owner < p.num_players && team(owner) != team(mover);
    out.push_back(fmt::format("{}{} ({})", theirs ? "captures " : "", g.piece_label(s, pc) + (theirs ? "" : " moves"),
                              fmt::join(moved, ", ")));
  }
  int others = 0;
  for (const auto& v : p.vars) {
    if (v.dims.size() == 1 && v.dim_kinds[0] == lang::DimKind::Piece) continue;
    std::vector<std::string> changed;
    for (int i = 0; i < v.size(); ++i) {
      if (s[v.base + i] == after[v.base + i]) continue;
      if (v.dims.size() > 1) {
        ++others;
        continue;
      }
      std::string where = v.dims.empty() ? "" : " " + value_text(p, v.dim_kinds[0], v.lows[0] + i);
      auto shown = [&](int32_t x) { return v.kind == lang::ValueKind::Bool ? (x ? "yes" : "no") : std::to_string(x); };
      changed.push_back(fmt::format("{}{} -> {}", where.empty() ? "" : where.substr(1) + ": ", shown(s[v.base + i]),
                                    shown(after[v.base + i])));
    }
    if (changed.size() > 4)
      out.push_back(fmt::format("{} change on {} {}", v.name, changed.size(),
                                v.dim_kinds.empty() || v.dim_kinds[0] != lang::DimKind::Site ? "entries" : "cells"));
    else if (!changed.empty())
      out.push_back(fmt::format("{} {}", v.name, fmt::join(changed, ", ")));
  }
  if (others > 0) out.push_back(fmt::format("{} counts kept by cell change", others));
  return out;
}

}  // namespace

std::string explain_move(runtime::Game& g, const runtime::State& s, const runtime::Move& m) {
  const compile::Program& p = g.program();
  const compile::Rule& r = p.rules[m.rule];
  runtime::State after = s;
  g.apply(after, m);
  std::vector<std::string> notes;
  for (int n : g.notes()) notes.push_back(fmt::format("\"{}\"", p.notes[n]));
  std::vector<std::string> words = changes_in_words(g, s, after);
  if (r.is_otherwise) words.insert(words.begin(), "nothing else can be done");
  words.insert(words.end(), notes.begin(), notes.end());
  std::string next;
  if (g.over(after))
    next = "the game ends";
  else if (g.chance(after))
    next = fmt::format("then {} throws", p.seat_names[g.mover(after)]);
  else if (g.mover(after) == g.mover(s))
    next = fmt::format("then {} moves again", p.seat_names[g.mover(after)]);
  else
    next = fmt::format("then {} to play", p.seat_names[g.mover(after)]);
  words.push_back(next);
  return fmt::format("{}", fmt::join(words, "; "));
}

}  // namespace keli::cli
