// Move notation: how a move reads (a rule's `reads` text, evaluated before the move, or the
// default built from the rule's name and its arguments as the rules name them), pieces' labels,
// and the legal moves as a person is offered them, one entry a distinct choice.
#include <fmt/format.h>

#include <cctype>
#include <cstring>
#include <set>

#include "runtime/game.hpp"

namespace keli::runtime {

void Game::find_piece_tables() {
  piece_tables_found_ = true;
  alike_known_ = p_->num_pieces > 0;
  auto by_piece = [](const compile::VarInfo& v) {
    return v.dims.size() == 1 && v.dim_kinds[0] == lang::DimKind::Piece;
  };
  auto mentions_pieces = [](const compile::VarInfo& v) {
    if (v.kind == lang::ValueKind::Piece) return true;
    for (auto k : v.dim_kinds)
      if (k == lang::DimKind::Piece) return true;
    return false;
  };
  for (const auto& v : p_->vars) {
    if (by_piece(v) && v.kind != lang::ValueKind::Piece)
      piece_vars_.push_back(&v);
    else if (mentions_pieces(v))
      alike_known_ = false;  // a table that names pieces otherwise: exchanging two may matter
  }
  for (const auto& v : p_->const_tables) {
    if (by_piece(v) && v.kind != lang::ValueKind::Piece)
      piece_consts_.push_back(&v);
    else if (mentions_pieces(v))
      alike_known_ = false;
  }
}

bool Game::alike(const State& s, int a, int b) const {
  if (!alike_known_) return a == b;
  for (const auto* v : piece_consts_)
    if (p_->consts[v->base + a] != p_->consts[v->base + b]) return false;
  for (const auto* v : piece_vars_)
    if (s[v->base + a] != s[v->base + b]) return false;
  return true;
}

int Game::stand_in(const State& s, int piece) {
  if (!piece_tables_found_) find_piece_tables();
  for (int q = 0; q < piece && alike_known_; ++q)
    if (alike(s, q, piece)) return q;
  return piece;
}

// Equal, or equal once alike pieces are exchanged: the slots outside the tables by piece agree,
// and each piece of a finds a piece of b with the same constants and values, one to one.
bool Game::same_up_to_alike(const State& a, const State& b) const {
  if (a == b) return true;
  if (!alike_known_ || a.size() != b.size()) return false;
  std::vector<char> in_piece_table(a.size(), 0);
  for (const auto* v : piece_vars_)
    for (int i = 0; i < v->size(); ++i) in_piece_table[v->base + i] = 1;
  for (int i = 0; i < p_->visible_size; ++i)
    if (!in_piece_table[i] && a[i] != b[i]) return false;
  std::vector<char> used(p_->num_pieces, 0);
  for (int x = 0; x < p_->num_pieces; ++x) {
    bool matched = false;
    for (int y = 0; y < p_->num_pieces && !matched; ++y) {
      if (used[y]) continue;
      bool same = true;
      for (const auto* v : piece_consts_) same = same && p_->consts[v->base + x] == p_->consts[v->base + y];
      for (const auto* v : piece_vars_) same = same && a[v->base + x] == b[v->base + y];
      if (same) used[y] = matched = true;
    }
    if (!matched) return false;
  }
  return true;
}

std::string Game::piece_label(const State& s, int piece) {
  if (piece_labels_.empty() && p_->num_pieces > 0) {
    std::vector<int> owner(p_->num_pieces, -1);
    for (int pc = 0; pc < p_->num_pieces; ++pc) {
      int64_t arg = pc;
      if (p_->piece_owner >= 0) owner[pc] = static_cast<int>(call(s, p_->piece_owner, &arg, 1));
    }
    // A seat's initial when no two seats share one (South, East...), else its whole name and a dot.
    std::set<char> initials;
    bool letters = true;
    for (const auto& name : p_->seat_names)
      letters = letters && !name.empty() && std::isalpha(static_cast<unsigned char>(name[0])) &&
                initials.insert(name[0]).second;
    std::vector<int> count(p_->num_players, 0);
    for (int pc = 0; pc < p_->num_pieces; ++pc) {
      int o = owner[pc];
      if (o < 0 || o >= p_->num_players) {
        piece_labels_.push_back(fmt::format("piece {}", pc + 1));
        continue;
      }
      const std::string& seat = p_->seat_names[o];
      piece_labels_.push_back(letters ? fmt::format("{}{}", seat[0], ++count[o])
                                      : fmt::format("{}.{}", seat, ++count[o]));
    }
  }
  if (piece < 0 || piece >= static_cast<int>(piece_labels_.size())) return fmt::format("piece {}", piece);
  return piece_labels_[stand_in(s, piece)];
}

std::string Game::value_text(const State& s, lang::ValueKind kind, int64_t v) {
  const bool names_one =
      kind == lang::ValueKind::Site || kind == lang::ValueKind::Player || kind == lang::ValueKind::Piece;
  if (names_one && v == lang::kNoneValue) return "";  // none: no site, seat or piece to name
  switch (kind) {
    case lang::ValueKind::Site:
      if (v >= 0 && v < p_->num_sites) return p_->sites[v].label;
      break;
    case lang::ValueKind::Player:
      if (v >= 0 && v < p_->num_players) return p_->seat_names[v];
      break;
    case lang::ValueKind::Piece: return piece_label(s, static_cast<int>(v));
    case lang::ValueKind::Direction:
      if (v >= 0 && v < static_cast<int64_t>(p_->direction_names.size())) return p_->direction_names[v];
      break;
    case lang::ValueKind::Bool: return v ? "yes" : "no";
    case lang::ValueKind::Int: break;
  }
  return std::to_string(v);
}

std::string Game::call_text(const Move& m) const {
  const compile::Rule& r = p_->rules.at(m.rule);
  std::string out = r.name;
  for (int i = 0; i < m.nargs; ++i) {
    const int32_t v = m.args[i];
    if (r.params[i].kind == lang::ValueKind::Site && v >= 0 && v < p_->num_sites)
      out += " " + p_->sites[v].label;
    else if (r.params[i].kind == lang::ValueKind::Player && v >= 0 && v < p_->num_players)
      out += " " + p_->seat_names[v];
    else if (r.params[i].kind == lang::ValueKind::Direction && v >= 0 &&
             v < static_cast<int32_t>(p_->direction_names.size()))
      out += " " + p_->direction_names[v];
    else
      out += " " + std::to_string(v);
  }
  return out;
}

std::string Game::notation(const State& s, const Move& m) {
  const compile::Rule& r = p_->rules.at(m.rule);
  if (!r.has_reads) {
    std::string out = r.name;
    for (int i = 0; i < m.nargs; ++i) out += " " + value_text(s, r.params[i].kind, m.args[i]);
    return out;
  }
  bind_reads(s, m);
  std::string out;
  for (size_t i = 0; i < r.reads.size(); ++i) {
    const compile::ReadPart& part = r.reads[i];
    if (part.cond >= 0) {  // `{if ...}`: past its first text when the test fails
      if (!m_.eval(part.cond)) i += static_cast<size_t>(part.skip);
    } else if (part.value < 0) {
      out += part.text;
      i += static_cast<size_t>(part.skip);  // a jump past `{if ...}`'s second text
    } else if (part.domain < 0) {
      out += value_text(s, part.kind, m_.eval(part.value));
    } else {
      Machine::Domain d = m_.open_domain(part.domain);
      bool first = true;
      for (int k = 0; k < d.size; ++k) {
        m_.set_local(part.slot, m_.domain_value(d, k));
        if (part.filter >= 0 && !m_.eval(part.filter)) continue;
        if (!first) out += part.text;
        first = false;
        out += value_text(s, part.kind, m_.eval(part.value));
      }
    }
  }
  return out;
}

void Game::bind_reads(const State& s, const Move& m) {
  const compile::Rule& r = p_->rules.at(m.rule);
  if (p_->num_pieces > 0) piece_label(s, 0);  // labels first: they use the scratch state
  if (!piece_tables_found_) find_piece_tables();
  // The holes read a copy, so a definition they call cannot change the real state.
  see(s);
  std::memcpy(scratch_.data(), s.data(), s.size() * sizeof(int32_t));
  m_.bind(scratch_.data());
  m_.reset_work();
  for (int i = 0; i < m.nargs && i < static_cast<int>(r.params.size()); ++i) m_.set_local(r.params[i].slot, m.args[i]);
}

std::string Game::read_part(const State& s, const Move& m, size_t part) {
  const compile::Rule& r = p_->rules.at(m.rule);
  if (part >= r.reads.size()) return "";
  const compile::ReadPart& hole = r.reads[part];
  if (hole.value < 0 || hole.domain >= 0 || hole.cond >= 0) return "";
  bind_reads(s, m);
  return value_text(s, hole.kind, m_.eval(hole.value));
}

std::vector<Game::Choice> Game::choices(const State& s, const std::vector<Move>& legal) {
  if (!piece_tables_found_) find_piece_tables();
  std::vector<Choice> out;
  std::vector<State> after;
  for (const Move& m : legal) {
    std::string text = notation(s, m);
    State next = s;
    bool applied = true;
    try {
      apply(next, m);
    } catch (const diag::Error&) {
      applied = false;  // a move that fails is offered; playing it reports the failure
    }
    bool same = false;
    for (size_t i = 0; i < out.size() && applied && !same; ++i)
      same = out[i].text == text && same_up_to_alike(after[i], next);
    if (same) continue;
    out.push_back({m, std::move(text)});
    after.push_back(applied ? std::move(next) : State{});
  }
  return out;
}

}  // namespace keli::runtime
