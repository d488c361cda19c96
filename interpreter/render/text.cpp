// The board as text: a grid by site coordinates, then variables and the turn.
#include "render/text.hpp"

#include "runtime/machine.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace keli::render {
using compile::Program;

static std::string var_value(const compile::VarInfo& v, int32_t x) {
  if (v.kind == lang::ValueKind::Bool) return x ? "yes" : "no";
  if (v.or_none && x == lang::kNoneValue) return "none";
  return std::to_string(x);
}

// Counts of each seat's pieces per site, from the game's `display pieces at F by G` functions
// (empty lists where nothing stands, and everywhere when the game displays no pieces).
std::vector<std::vector<int>> pieces_by_site(const Program& p, const runtime::State& s) {
  std::vector<std::vector<int>> held(p.num_sites);
  if (p.piece_site < 0 || p.piece_owner < 0) return held;
  runtime::State copy = s;
  runtime::Machine m(p);
  m.bind(copy.data());
  for (int pc = 0; pc < p.num_pieces; ++pc) {
    int64_t arg = pc;
    int64_t site = m.call(p.piece_site, &arg, 1), owner = m.call(p.piece_owner, &arg, 1);
    if (site < 0 || site >= p.num_sites || owner < 0 || owner >= p.num_players) continue;
    if (held[site].empty()) held[site].assign(p.num_players, 0);
    ++held[site][owner];
  }
  return held;
}

// What each site shows: its label and the displayed variable (with flag marks), or the pieces
// on it by their owners' initials, or '.' / 'x' (a marked site). `held` gets the pieces by site.
static std::vector<std::string> site_texts(const Program& p, const runtime::State& s,
                                           std::vector<std::vector<int>>& held,
                                           const std::vector<std::vector<std::string>>* labels) {
  std::vector<const compile::VarInfo*> flags;
  for (const auto& v : p.vars)
    if (v.kind == lang::ValueKind::Bool && v.dims.size() == 1 && v.dim_kinds[0] == lang::DimKind::Site)
      flags.push_back(&v);
  const char* marks = "*+!~^";
  held = pieces_by_site(p, s);
  // Seats are shown by their initials when those tell them apart, else by their names.
  bool distinct_initials = true;
  for (int a = 0; a < p.num_players; ++a)
    for (int b = a + 1; b < p.num_players; ++b)
      if (p.seat_names[a].substr(0, 1) == p.seat_names[b].substr(0, 1)) distinct_initials = false;
  std::vector<std::string> cells(p.num_sites);
  for (int i = 0; i < p.num_sites; ++i) {
    std::string c;
    if (p.display >= 0) {
      const compile::VarInfo& shown = p.vars[p.display];
      const int32_t x = s[shown.base + i];
      // none is an empty point; a seat is its initial (or its name), as pieces are shown.
      std::string value = shown.or_none && x == lang::kNoneValue ? "."
                          : shown.kind == lang::ValueKind::Player && x >= 0 && x < p.num_players
                              ? (distinct_initials ? p.seat_names[x].substr(0, 1) : p.seat_names[x])
                              : std::to_string(x);
      for (size_t f = 0; f < flags.size() && f < 5; ++f)
        if (s[flags[f]->base + i]) value += marks[f];
      // With coordinates the margins name the squares; else each cell says which site it is.
      c = p.coordinates ? value : fmt::format("{}:{}", p.sites[i].label, value);
    } else if (!held[i].empty() && labels) {
      for (int o = 0; o < p.num_players; ++o) {
        if (held[i][o] == 0) continue;
        c += (c.empty() ? "" : "+") + (*labels)[i][o] + (held[i][o] > 1 ? "x" + std::to_string(held[i][o]) : "");
      }
    } else if (!held[i].empty()) {
      for (int o = 0; o < p.num_players; ++o) {
        if (held[i][o] == 0) continue;
        if (distinct_initials)
          c += p.seat_names[o].substr(0, 1) + (held[i][o] > 1 ? std::to_string(held[i][o]) : "");
        else
          c += (c.empty() ? "" : "+") + p.seat_names[o] + (held[i][o] > 1 ? "x" + std::to_string(held[i][o]) : "");
      }
    } else {
      bool marked_site = p.display_marks >= 0 && p.region_position(p.display_marks, i) >= 0;
      c = marked_site ? "x" : ".";
    }
    cells[i] = c;
  }
  return cells;
}

namespace {

struct Extent {
  int minx = INT32_MAX, maxx = INT32_MIN, miny = INT32_MAX, maxy = INT32_MIN;
};

Extent extent_of(const Program& p) {
  Extent e;
  for (const auto& site : p.sites) {
    e.minx = std::min(e.minx, site.x);
    e.maxx = std::max(e.maxx, site.x);
    e.miny = std::min(e.miny, site.y);
    e.maxy = std::max(e.maxy, site.y);
  }
  return e;
}

// Each site's text, whether it is marked, the pieces on it, and the widest text.
struct Cells {
  std::vector<std::string> text;
  std::vector<bool> marked;
  std::vector<std::vector<int>> held;
  size_t width = 1;
  bool bold = false;
  // Bold (ANSI) around a marked cell, added after padding so that columns stay aligned.
  std::string shown(int i, const std::string& padded) const {
    return bold && marked[i] ? "\033[1m" + padded + "\033[0m" : padded;
  }
};

// A large board (a ring of arms): a compact picture, one character a cell, seats lettered
// A, B, ... and '*' where pieces of several seats or several pieces stand; then a legend naming
// every occupied cell.
char cell_letter(const Program& p, const Cells& c, int i) {
  int seats = 0, total = 0, who = -1;
  if (!c.held[i].empty())
    for (int o = 0; o < p.num_players; ++o)
      if (c.held[i][o] > 0) ++seats, total += c.held[i][o], who = o;
  if (seats == 1 && total == 1) return static_cast<char>('A' + who % 26);
  if (seats == 1) return static_cast<char>('a' + who % 26);
  if (seats > 1) return '*';
  if (p.display_marks >= 0 && p.region_position(p.display_marks, i) >= 0) return 'x';
  return '.';
}

// The compact picture's rows: with the legend, the tables and a move list it fits a terminal of
// 120 columns and 40 lines.
constexpr int kCompactRows = 26;
constexpr size_t kColumns = 118;  // a line of text drawn for the terminal, at most

// Words separated by two spaces, on lines of at most kColumns after `indent`.
std::string wrapped(const std::string& head, const std::vector<std::string>& items, const std::string& indent) {
  std::string out = head, line;
  size_t width = head.size();
  for (const auto& it : items) {
    if (width + 2 + it.size() > kColumns && width > indent.size()) {
      out += "\n" + indent;
      width = indent.size();
    }
    out += "  " + it;
    width += 2 + it.size();
  }
  return out + "\n";
}

std::string compact_board(const Program& p, const Cells& c, const Extent& e) {
  std::string out;
  int span = std::max(e.maxx - e.minx, e.maxy - e.miny);
  double scale = span / static_cast<double>(kCompactRows);
  int w = static_cast<int>((e.maxx - e.minx) / scale) + 1, h = static_cast<int>((e.maxy - e.miny) / scale) + 1;
  std::vector<std::string> grid(h, std::string(w, ' '));
  for (int i = 0; i < p.num_sites; ++i) {
    int gx = static_cast<int>((p.sites[i].x - e.minx) / scale), gy = static_cast<int>((p.sites[i].y - e.miny) / scale);
    char& cell = grid[gy][gx];
    if (cell == ' ' || cell == '.' || cell == 'x') cell = cell_letter(p, c, i);  // an occupied cell wins
  }
  for (auto& line : grid) {
    std::string spaced;
    for (char ch : line) spaced += std::string(1, ch) + " ";
    while (!spaced.empty() && spaced.back() == ' ') spaced.pop_back();
    if (!spaced.empty()) out += "  " + spaced + "\n";
  }
  out += "  (A, B, ...: one piece of seat 1, 2, ...; a, b, ...: several; *: several seats; x: marked)\n";
  std::vector<std::string> legend;
  for (int i = 0; i < p.num_sites; ++i)
    if (!c.held[i].empty() || c.marked[i])
      legend.push_back(c.shown(i, fmt::format("{}:{}", p.sites[i].label, c.text[i])));
  if (!legend.empty()) out += wrapped("  pieces by cell:", legend, "   ");
  return out;
}

// A board that fits: every site at its column and row, texts right-aligned; with coordinates,
// the rows' numbers on the left and the columns' letters below.
std::string grid_board(const Program& p, const Cells& c, const Extent& e) {
  std::string out;
  std::map<std::pair<int, int>, int> at;
  std::map<int, std::string> row_of, column_of;
  size_t margin = 0;
  for (int i = 0; i < p.num_sites; ++i) {
    at[{p.sites[i].x, p.sites[i].y}] = i;
    if (!p.coordinates) continue;
    row_of[p.sites[i].y] = std::to_string(p.sites[i].row);
    column_of[p.sites[i].x] = p.sites[i].column;
    margin = std::max(margin, row_of[p.sites[i].y].size());
  }
  size_t width = c.width;  // a column as wide as its widest text, or its letters (aa, ab, ...)
  for (const auto& [x, letters] : column_of) width = std::max(width, letters.size());
  for (int y = e.miny; y <= e.maxy; ++y) {
    std::string line = p.coordinates ? fmt::format("  {:>{}} ", row_of[y], margin) : "  ";
    if (p.hex_layout) line += std::string((y - e.miny) * (width + 1) / 2, ' ');  // a hex grid's rows lean
    for (int x = e.minx; x <= e.maxx; ++x) {
      auto it = at.find({x, y});
      std::string t = it == at.end() ? "" : c.text[it->second];
      line += it == at.end() ? fmt::format("{:>{}} ", t, width)
                             : c.shown(it->second, fmt::format("{:>{}}", t, width)) + " ";
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  if (p.coordinates) {
    std::string line = std::string(margin + 3, ' ');
    for (int x = e.minx; x <= e.maxx; ++x) line += fmt::format("{:>{}} ", column_of[x], width);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

// The variables not drawn on the board, one line each, then whose turn it is.
std::string variables_text(const Program& p, const runtime::State& s) {
  std::string out;
  for (size_t vi = 0; vi < p.vars.size(); ++vi) {
    const auto& v = p.vars[vi];
    if (static_cast<int>(vi) == p.display) continue;
    if (v.dims.size() == 1 && v.dim_kinds[0] == lang::DimKind::Site) continue;  // per-site: on the board already
    std::string line = "  " + v.name + ":";
    if (v.dims.empty()) {
      line += " " + var_value(v, s[v.base]);
    } else if (v.dims.size() == 1 && v.dim_kinds[0] == lang::DimKind::Player) {
      for (int i = 0; i < v.dims[0]; ++i)
        line += fmt::format(" {} {}{}", p.seat_names[i], var_value(v, s[v.base + i]), i + 1 < v.dims[0] ? "," : "");
    } else {
      for (int i = 0; i < v.size() && i < 64; ++i) line += " " + var_value(v, s[v.base + i]);
    }
    if (line.size() > kColumns) line = line.substr(0, kColumns - 4) + " ...";  // fits the terminal
    out += line + "\n";
  }
  if (s[compile::kOver] == compile::kPlaying)
    out += fmt::format("  {} to play ({})\n", p.seat_names[s[compile::kMover]], p.phases[s[compile::kPhase]].name);
  return out;
}

}  // namespace

// The board with the pieces by label (labels[site][seat]) or, without labels, by their seats.
static std::string board_with(const Program& p, const runtime::State& s, const std::vector<int>& marked, bool bold,
                              const std::vector<std::vector<std::string>>* labels);

std::string board_text(const Program& p, const runtime::State& s, const std::vector<int>& marked, bool bold) {
  return board_with(p, s, marked, bold, nullptr);
}

std::string board_text(runtime::Game& g, const runtime::State& s, const std::vector<int>& marked, bool bold) {
  const Program& p = g.program();
  // Each cell's first piece of each seat: the label the moves use for it.
  std::vector<std::vector<std::string>> labels(p.num_sites, std::vector<std::string>(p.num_players));
  if (p.piece_site >= 0 && p.piece_owner >= 0)
    for (int pc = p.num_pieces - 1; pc >= 0; --pc) {
      int64_t arg = pc;
      int64_t site = g.call(s, p.piece_site, &arg, 1), owner = g.call(s, p.piece_owner, &arg, 1);
      if (site >= 0 && site < p.num_sites && owner >= 0 && owner < p.num_players)
        labels[site][owner] = g.piece_label(s, pc);
    }
  return board_with(p, s, marked, bold, &labels);
}

static std::string board_with(const Program& p, const runtime::State& s, const std::vector<int>& marked, bool bold,
                              const std::vector<std::vector<std::string>>* labels) {
  Extent e = extent_of(p);
  std::vector<const compile::VarInfo*> flags;
  for (const auto& v : p.vars)
    if (v.kind == lang::ValueKind::Bool && v.dims.size() == 1 && v.dim_kinds[0] == lang::DimKind::Site)
      flags.push_back(&v);
  const char* marks = "*+!~^";
  Cells c;
  c.bold = bold;
  c.text = site_texts(p, s, c.held, labels);
  c.marked.assign(p.num_sites, false);
  for (int i = 0; i < p.num_sites; ++i) {
    if (std::find(marked.begin(), marked.end(), i) != marked.end()) {
      c.text[i] = "[" + c.text[i] + "]";
      c.marked[i] = true;
    }
    c.width = std::max(c.width, c.text[i].size());
  }
  bool large = e.maxx - e.minx > 120 || e.maxy - e.miny > 120;
  std::string out = large ? compact_board(p, c, e) : grid_board(p, c, e);
  if (!flags.empty() && p.display >= 0) {
    out += "  (";
    for (size_t f = 0; f < flags.size() && f < 5; ++f)
      out += fmt::format("{}{} = {}", f ? ", " : "", marks[f], flags[f]->name);
    out += ")\n";
  }
  return out + variables_text(p, s);
}

}  // namespace keli::render
