// keli play's texts: the status line (the state in words: whose turn, the dice in hand, where the
// mover's pieces stand as the moves count, the tables per seat) instead of the variables' raw
// values, the move list, and the screen put together to fit the terminal.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "render/text.hpp"
#include "render/text_parts.hpp"

namespace keli::render {
using compile::Program;
using namespace text;

namespace {

// The variables that hold a throw still to be played: that of `display hand VAR` (as the stdlib's
// `die`, dice.keli: one entry a die, 0 once used), and a single `die` or `throw` (the throw to play).
constexpr const char* kThrowNames[] = {"die", "throw"};

// A variable's name as words: `in_hand` is "in hand".
std::string words(const std::string& name) {
  std::string out = name;
  std::replace(out.begin(), out.end(), '_', ' ');
  return out;
}

bool is_throw(const Program& p, const compile::VarInfo& v) {
  if (&v - p.vars.data() == p.display_hand) return true;  // `display hand VAR`
  return v.kind == lang::ValueKind::Int && v.dims.size() <= 1 &&
         (v.dims.empty() || v.dim_kinds[0] == lang::DimKind::Range) &&
         std::find(std::begin(kThrowNames), std::end(kThrowNames), v.name) != std::end(kThrowNames);
}

// The throw in hand: `dice 4 6` (the values not yet used), `throw 3`; "" when none is left.
std::string throw_text(const compile::VarInfo& v, const runtime::State& s) {
  if (v.dims.empty()) return fmt::format("{} {}", v.name, s[v.base]);
  std::vector<int32_t> left;
  for (int i = 0; i < v.size(); ++i)
    if (s[v.base + i] != 0) left.push_back(s[v.base + i]);
  if (left.empty()) return "";
  return fmt::format("{} {}", left.size() == 1 ? "die" : "dice", fmt::join(left, " "));
}

// The rule whose `reads` begins `{pc} {WHERE}`, a piece then a number: WHERE is where the piece
// stands as the moves count (`S1 6-10`: S1 at 6); -1 when no rule reads so.
int place_rule(const Program& p) {
  for (size_t ri = 0; ri < p.rules.size(); ++ri) {
    const compile::Rule& r = p.rules[ri];
    if (!r.has_reads || r.params.empty() || r.params[0].kind != lang::ValueKind::Piece || r.reads.size() < 3) continue;
    const auto &piece = r.reads[0], &between = r.reads[1], &where = r.reads[2];
    auto single = [](const compile::ReadPart& part) { return part.value >= 0 && part.domain < 0 && part.cond < 0; };
    if (single(piece) && piece.kind == lang::ValueKind::Piece && between.value < 0 && between.cond < 0 &&
        between.skip == 0 && single(where) && where.kind == lang::ValueKind::Int)
      return static_cast<int>(ri);
  }
  return -1;
}

// Where the mover's pieces stand, alike ones together: `S1 at 6, S2 at 7, S3 x2 at 11`.
std::string places_text(runtime::Game& g, const runtime::State& s) {
  const Program& p = g.program();
  const int rule = place_rule(p);
  if (rule < 0 || p.piece_owner < 0) return "";
  runtime::Move m;
  m.rule = static_cast<int16_t>(rule);
  m.nargs = static_cast<uint8_t>(p.rules[rule].params.size());
  std::vector<std::pair<std::string, std::string>> seen;  // label and place, in piece order
  std::vector<int> count;
  for (int pc = 0; pc < p.num_pieces; ++pc) {
    int64_t arg = pc;
    if (g.call(s, p.piece_owner, &arg, 1) != s[compile::kMover]) continue;
    m.args[0] = pc;
    std::pair<std::string, std::string> at;
    try {
      at = {g.piece_label(s, pc), g.read_part(s, m, 2)};
    } catch (const diag::Error&) {
      return "";  // the notation cannot be read here: say nothing rather than something wrong
    }
    auto it = std::find(seen.begin(), seen.end(), at);
    if (it != seen.end()) {
      ++count[it - seen.begin()];
    } else {
      seen.push_back(at);
      count.push_back(1);
    }
  }
  std::vector<std::string> out;
  for (size_t k = 0; k < seen.size(); ++k)
    out.push_back(count[k] > 1 ? fmt::format("{} x{} at {}", seen[k].first, count[k], seen[k].second)
                               : fmt::format("{} at {}", seen[k].first, seen[k].second));
  return fmt::format("{}", fmt::join(out, ", "));
}

// A table by seat: every seat's number (`store: South 0, North 7`), the seats with yes (`done:
// East`), or the seats whose value is set (`tuzdyk: White 5`); "" when nothing is to be said.
std::string seat_table(runtime::Game& g, const compile::VarInfo& v, const runtime::State& s) {
  const Program& p = g.program();
  std::vector<std::string> said;
  for (int i = 0; i < v.dims[0] && i < p.num_players; ++i) {
    const int32_t x = s[v.base + i];
    if (v.kind == lang::ValueKind::Int && !v.or_none)
      said.push_back(fmt::format("{} {}", p.seat_names[i], x));
    else if (v.kind == lang::ValueKind::Bool && x)
      said.push_back(p.seat_names[i]);
    else if (v.kind != lang::ValueKind::Bool && x != lang::kNoneValue)
      said.push_back(fmt::format("{} {}", p.seat_names[i], g.value_text(s, v.kind, x)));
  }
  return said.empty() ? "" : fmt::format("{}: {}", words(v.name), fmt::join(said, ", "));
}

// A single value when it says something: a number other than 0, yes (the name alone), a set
// site, seat or piece.
std::string single_value(runtime::Game& g, const compile::VarInfo& v, const runtime::State& s) {
  const int32_t x = s[v.base];
  if (v.kind == lang::ValueKind::Bool) return x ? words(v.name) : "";
  if (x == 0 && v.kind == lang::ValueKind::Int) return "";
  if (v.or_none && x == lang::kNoneValue) return "";
  return fmt::format("{} {}", words(v.name), g.value_text(s, v.kind, x));
}

}  // namespace

std::string status_line(runtime::Game& g, const runtime::State& s, int columns) {
  const Program& p = g.program();
  std::vector<std::string> parts;
  if (s[compile::kOver] != compile::kPlaying) {
    parts.push_back("Game over");
  } else {
    parts.push_back(
        fmt::format("{} to play ({})", p.seat_names[s[compile::kMover]], p.phases[s[compile::kPhase]].name));
    if (!g.chance(s))  // a throw still to come has no values yet
      for (const auto& v : p.vars)
        if (is_throw(p, v))
          if (std::string t = throw_text(v, s); !t.empty()) parts.push_back(t);
    if (std::string at = places_text(g, s); !at.empty()) parts.push_back(at);
  }
  for (size_t vi = 0; vi < p.vars.size(); ++vi) {
    const auto& v = p.vars[vi];
    if (static_cast<int>(vi) == p.display || is_throw(p, v)) continue;
    std::string said = v.dims.empty()                                                  ? single_value(g, v, s)
                       : v.dims.size() == 1 && v.dim_kinds[0] == lang::DimKind::Player ? seat_table(g, v, s)
                                                                                       : "";
    if (!said.empty()) parts.push_back(said);
  }
  // Sentences: each part begins with a capital and ends with a full stop.
  for (auto& part : parts) {
    part[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(part[0])));
    part += ".";
  }
  std::string out;
  for (const auto& line : wrap_items(parts, static_cast<size_t>(columns), "  ", "  ", " ")) out += line + "\n";
  return out;
}

std::string wrap_words(const std::string& text, int columns, const std::string& head) {
  std::vector<std::string> words;
  for (size_t at = 0; at < text.size();) {
    size_t end = text.find(' ', at);
    if (end == std::string::npos) end = text.size();
    if (end > at) words.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  std::string out;
  for (const auto& line : wrap_items(words, static_cast<size_t>(columns), head, "  ", " ")) out += line + "\n";
  return out;
}

std::string moves_text(const std::vector<runtime::Game::Choice>& offered, int columns) {
  if (offered.size() == 1)
    return wrap_words(fmt::format("Your only move: {}. Press Enter to play it ('?' explains it).", offered[0].text),
                      columns);
  std::vector<std::string> items;
  for (size_t i = 0; i < offered.size(); ++i) items.push_back(fmt::format("{}) {}", i + 1, offered[i].text));
  std::string out;
  for (const auto& line : wrap_items(items, static_cast<size_t>(columns), "Your moves:  ", "  ", "  "))
    out += line + "\n";
  return out;
}

std::string play_screen(runtime::Game& g, const runtime::State& s, const std::vector<int>& marked, bool bold,
                        const Screen& screen, const std::string& raw, int below) {
  const std::string status = status_line(g, s, screen.columns);
  auto lines = [](const std::string& text) { return static_cast<int>(std::count(text.begin(), text.end(), '\n')); };
  Screen box = screen;
  box.rows = screen.rows - below - lines(status) - lines(raw);
  return terminal_board(g, s, marked, bold, box) + raw + status;
}

}  // namespace keli::render
