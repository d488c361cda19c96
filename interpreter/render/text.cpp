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
                                           std::vector<std::vector<int>>& held) {
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
      std::string value = std::to_string(s[p.vars[p.display].base + i]);
      for (size_t f = 0; f < flags.size() && f < 5; ++f)
        if (s[flags[f]->base + i]) value += marks[f];
      c = fmt::format("{}:{}", p.sites[i].label, value);
    } else if (!held[i].empty()) {
      for (int o = 0; o < p.num_players; ++o) {
        if (held[i][o] == 0) continue;
        if (distinct_initials)
          c += p.seat_names[o].substr(0, 1) + (held[i][o] > 1 ? std::to_string(held[i][o]) : "");
        else
          c += (c.empty() ? "" : "+") + p.seat_names[o] + (held[i][o] > 1 ? "x" + std::to_string(held[i][o]) : "");
      }
    } else {
      bool marked_site = p.display_marks >= 0 && p.region_index[p.display_marks][i] >= 0;
      c = marked_site ? "x" : ".";
    }
    cells[i] = c;
  }
  return cells;
}

std::string board_text(const Program& p, const runtime::State& s, const std::vector<int>& marked, bool bold) {
  std::string out;
  int minx = INT32_MAX, maxx = INT32_MIN, miny = INT32_MAX, maxy = INT32_MIN;
  for (const auto& site : p.sites) {
    minx = std::min(minx, site.x);
    maxx = std::max(maxx, site.x);
    miny = std::min(miny, site.y);
    maxy = std::max(maxy, site.y);
  }
  std::vector<const compile::VarInfo*> flags;
  for (const auto& v : p.vars)
    if (v.kind == lang::ValueKind::Bool && v.dims.size() == 1 && v.dim_kinds[0] == lang::DimKind::Site)
      flags.push_back(&v);
  const char* marks = "*+!~^";
  std::vector<std::vector<int>> held;
  std::vector<std::string> cells = site_texts(p, s, held);
  std::vector<bool> is_marked(p.num_sites, false);
  size_t width = 1;
  for (int i = 0; i < p.num_sites; ++i) {
    if (std::find(marked.begin(), marked.end(), i) != marked.end()) {
      cells[i] = "[" + cells[i] + "]";
      is_marked[i] = true;
    }
    width = std::max(width, cells[i].size());
  }
  // Bold (ANSI) around a marked cell, added after padding so that columns stay aligned.
  auto shown = [&](int i, const std::string& padded) {
    return bold && is_marked[i] ? "\033[1m" + padded + "\033[0m" : padded;
  };
  if (maxx - minx > 120 || maxy - miny > 120) {
    // A large board (a ring of arms): a compact picture, one character a cell, seats lettered
    // A, B, ... and '*' where pieces of several seats or several pieces stand; then a legend
    // naming every occupied cell.
    int span = std::max(maxx - minx, maxy - miny);
    double scale = span / 46.0;
    int w = static_cast<int>((maxx - minx) / scale) + 1, h = static_cast<int>((maxy - miny) / scale) + 1;
    std::vector<std::string> grid(h, std::string(w, ' '));
    auto letter = [&](int i) -> char {
      char c = '.';
      int seats = 0, total = 0, who = -1;
      if (!held[i].empty())
        for (int o = 0; o < p.num_players; ++o)
          if (held[i][o] > 0) ++seats, total += held[i][o], who = o;
      if (seats == 1 && total == 1)
        c = static_cast<char>('A' + who % 26);
      else if (seats == 1)
        c = static_cast<char>('a' + who % 26);
      else if (seats > 1)
        c = '*';
      else if (p.display_marks >= 0 && p.region_index[p.display_marks][i] >= 0)
        c = 'x';
      return c;
    };
    for (int i = 0; i < p.num_sites; ++i) {
      int gx = static_cast<int>((p.sites[i].x - minx) / scale), gy = static_cast<int>((p.sites[i].y - miny) / scale);
      char c = letter(i);
      char& cell = grid[gy][gx];
      if (cell == ' ' || cell == '.' || cell == 'x') cell = c;  // an occupied cell wins a shared character
    }
    for (auto& line : grid) {
      std::string spaced;
      for (char c : line) spaced += std::string(1, c) + " ";
      while (!spaced.empty() && spaced.back() == ' ') spaced.pop_back();
      if (!spaced.empty()) out += "  " + spaced + "\n";
    }
    out += "  (A, B, ...: one piece of seat 1, 2, ...; a, b, ...: several; *: several seats; x: marked)\n";
    std::string legend;
    for (int i = 0; i < p.num_sites; ++i)
      if (!held[i].empty() || is_marked[i]) legend += "  " + shown(i, fmt::format("{}:{}", p.sites[i].label, cells[i]));
    if (!legend.empty()) out += "  pieces by cell:" + legend + "\n";
  } else {
    std::map<std::pair<int, int>, int> at;
    for (int i = 0; i < p.num_sites; ++i) at[{p.sites[i].x, p.sites[i].y}] = i;
    for (int y = miny; y <= maxy; ++y) {
      std::string line = "  ";
      for (int x = minx; x <= maxx; ++x) {
        auto it = at.find({x, y});
        std::string c = it == at.end() ? "" : cells[it->second];
        line += it == at.end() ? fmt::format("{:>{}} ", c, width)
                               : shown(it->second, fmt::format("{:>{}}", c, width)) + " ";
      }
      while (!line.empty() && line.back() == ' ') line.pop_back();
      out += line + "\n";
    }
  }
  if (!flags.empty() && p.display >= 0) {
    out += "  (";
    for (size_t f = 0; f < flags.size() && f < 5; ++f)
      out += fmt::format("{}{} = {}", f ? ", " : "", marks[f], flags[f]->name);
    out += ")\n";
  }
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
    out += line + "\n";
  }
  if (s[compile::kOver] == compile::kPlaying)
    out += fmt::format("  {} to play ({})\n", p.seat_names[s[compile::kMover]], p.phases[s[compile::kPhase]].name);
  return out;
}

}  // namespace keli::render
