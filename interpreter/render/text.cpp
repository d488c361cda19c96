// The board as text: a grid by site coordinates, then variables and the turn.
#include "render/text.hpp"

#include "render/step_view.hpp"  // piece_places
#include "render/svg.hpp"        // piece_labels
#include "render/text_parts.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>

namespace keli::render {
using compile::Program;
using namespace text;

std::string text::var_value(const compile::VarInfo& v, int32_t x) {
  if (v.kind == lang::ValueKind::Bool) return x ? "yes" : "no";
  if (v.or_none && x == lang::kNoneValue) return "none";
  return std::to_string(x);
}

// Counts of each seat's pieces per site, from the game's `display pieces at F by G` functions
// (empty lists where nothing stands, and everywhere when the game displays no pieces).
std::vector<std::vector<int>> pieces_by_site(const Program& p, const runtime::State& s) {
  std::vector<std::vector<int>> held(p.num_sites);
  for (const PiecePlace& at : piece_places(p, s)) {
    if (at.site < 0) continue;
    if (held[at.site].empty()) held[at.site].assign(p.num_players, 0);
    ++held[at.site][at.owner];
  }
  return held;
}

// What each site shows: its label and the displayed variable (with flag marks), or the pieces
// on it by their owners' initials, or '.' / 'x' (a marked site). `held` gets the pieces by site.
static std::vector<std::string> site_texts(const Program& p, const runtime::State& s,
                                           std::vector<std::vector<int>>& held, const Labels* labels,
                                           const std::vector<std::string>* names) {
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
      const std::string& name = names ? (*names)[i] : p.sites[i].label;
      c = p.coordinates ? value : names && name.empty() ? value : fmt::format("{}:{}", name, value);
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

Extent text::extent_of(const Program& p) {
  Extent e;
  for (const auto& site : p.sites) {
    e.minx = std::min(e.minx, site.x);
    e.maxx = std::max(e.maxx, site.x);
    e.miny = std::min(e.miny, site.y);
    e.maxy = std::max(e.maxy, site.y);
  }
  return e;
}

Cells text::make_cells(const Program& p, const runtime::State& s, const std::vector<int>& marked, bool bold,
                       const Labels* labels, const std::vector<std::string>* names, bool brackets) {
  Cells c;
  c.bold = bold;
  c.text = site_texts(p, s, c.held, labels, names);
  c.marked.assign(p.num_sites, false);
  for (int i = 0; i < p.num_sites; ++i) {
    if (std::find(marked.begin(), marked.end(), i) != marked.end()) {
      if (brackets) c.text[i] = "[" + c.text[i] + "]";
      c.marked[i] = true;
    }
    c.width = std::max(c.width, c.text[i].size());
  }
  return c;
}

size_t text::shown_width(const std::string& line) {
  size_t n = 0;
  for (size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '\033') {  // an escape: up to its final letter
      while (i < line.size() && !std::isalpha(static_cast<unsigned char>(line[i]))) ++i;
      continue;
    }
    if ((static_cast<unsigned char>(line[i]) & 0xC0) != 0x80) ++n;  // UTF-8: one per character
  }
  return n;
}

// A large board (a ring of arms): a compact picture, one character a cell, seats lettered
// A, B, ... and '*' where pieces of several seats or several pieces stand; then a legend naming
// every occupied cell.
char text::cell_letter(const Program& p, const Cells& c, int i) {
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

namespace {

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

}  // namespace

std::string text::compact_board(const Program& p, const Cells& c, const Extent& e) {
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

std::string text::grid_board(const Program& p, const Cells& c, const Extent& e, const RowEnds* row_ends) {
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
    if (auto end = row_ends ? row_ends->find(y) : RowEnds::const_iterator{}; row_ends && end != row_ends->end())
      line += "  " + end->second;
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

std::string text::flags_legend(const Program& p) {
  std::vector<const compile::VarInfo*> flags;
  for (const auto& v : p.vars)
    if (v.kind == lang::ValueKind::Bool && v.dims.size() == 1 && v.dim_kinds[0] == lang::DimKind::Site)
      flags.push_back(&v);
  if (flags.empty() || p.display < 0) return "";
  const char* marks = "*+!~^";
  std::string out = "  (";
  for (size_t f = 0; f < flags.size() && f < 5; ++f)
    out += fmt::format("{}{} = {}", f ? ", " : "", marks[f], flags[f]->name);
  return out + ")\n";
}

std::string variables_text(const Program& p, const runtime::State& s, bool turn) {
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
  if (turn && s[compile::kOver] == compile::kPlaying)
    out += fmt::format("  {} to play ({})\n", p.seat_names[s[compile::kMover]], p.phases[s[compile::kPhase]].name);
  return out;
}

// The board with the pieces by label or, without labels, by their seats.
static std::string board_with(const Program& p, const runtime::State& s, const std::vector<int>& marked, bool bold,
                              const Labels* labels) {
  Extent e = extent_of(p);
  Cells c = make_cells(p, s, marked, bold, labels, nullptr, true);
  bool large = e.maxx - e.minx > kLargeSpan || e.maxy - e.miny > kLargeSpan;
  std::string out = large ? compact_board(p, c, e) : grid_board(p, c, e);
  return out + flags_legend(p) + variables_text(p, s);
}

std::string board_text(const Program& p, const runtime::State& s, const std::vector<int>& marked, bool bold) {
  return board_with(p, s, marked, bold, nullptr);
}

std::string board_text(runtime::Game& g, const runtime::State& s, const std::vector<int>& marked, bool bold) {
  Labels labels = piece_labels(g, s);
  return board_with(g.program(), s, marked, bold, &labels);
}

}  // namespace keli::render
