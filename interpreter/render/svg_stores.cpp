// The stores of a picture (`display VAR`, VAR an int per player): one well a seat beside the
// board, as a mancala board's end stores, tinted in the seat's colour with its count in large type.
// A seat's well stands beyond the end its own row runs to (the first region per seat, its sites
// in order) when each seat's row runs to an end of its own; else the wells stand in a line right
// of the board. Nothing here knows a game: the rows are the game's region, the names its own.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "render/svg_parts.hpp"

namespace keli::render::svg {
using compile::Program;

namespace {

constexpr double kPi = 3.14159265358979323846;

struct Box {
  double lox = 1e300, loy = 1e300, hix = -1e300, hiy = -1e300;
  void add(double x0, double y0, double x1, double y1) {
    lox = std::min(lox, x0), loy = std::min(loy, y0), hix = std::max(hix, x1), hiy = std::max(hiy, y1);
  }
};

struct Well {
  int seat = 0;
  double cx = 0, cy = 0, w = 0, h = 0;
};

enum Side { Right, Left, Down, Up };

// Which end of the board each seat's row runs to, or empty when the game has no region per seat
// whose instances run to one end each (two seats' rows to one end, a row of one site).
std::vector<Side> row_ends(const Program& p, int first_track, const Layout& lay) {
  for (size_t ti = 0; ti < p.declared_region_tables(); ++ti) {
    if (first_track >= 0 && static_cast<int>(ti) >= first_track) break;
    const auto& t = p.region_tables[ti];
    if (t.dims.size() != 1 || t.dim_kinds[0] != lang::DimKind::Player) continue;
    std::vector<Side> sides;
    for (int k = 0; k < t.size(); ++k) {
      std::vector<int> in;
      for (int site : p.regions[static_cast<size_t>(t.base + k)])
        if (site >= 0 && site < p.num_sites) in.push_back(site);
      if (in.size() < 2) return {};
      const SiteBox &a = lay.boxes[in.front()], &b = lay.boxes[in.back()];
      const double dx = b.cx - a.cx, dy = b.cy - a.cy;
      Side side = std::abs(dx) >= std::abs(dy) ? (dx > 0 ? Right : Left) : (dy > 0 ? Down : Up);
      if (std::find(sides.begin(), sides.end(), side) != sides.end()) return {};
      sides.push_back(side);
    }
    return sides;
  }
  return {};
}

// Where the wells go around the sites' extent `b`, `thick` across.
std::vector<Well> place_wells(const Program& p, int first_track, const Layout& lay, const Box& b) {
  const double thick = lay.cell * 0.95, gap = lay.cell * 0.3;
  const double tall = std::max(b.hiy - b.loy, thick * 1.6), wide = std::max(b.hix - b.lox, thick * 1.6);
  const double mx = (b.lox + b.hix) / 2, my = (b.loy + b.hiy) / 2;
  std::vector<Well> out;
  std::vector<Side> ends = row_ends(p, first_track, lay);
  if (ends.size() == static_cast<size_t>(p.num_players)) {
    for (int k = 0; k < p.num_players; ++k) {
      switch (ends[static_cast<size_t>(k)]) {
        case Right: out.push_back({k, b.hix + gap + thick / 2, my, thick, tall}); break;
        case Left: out.push_back({k, b.lox - gap - thick / 2, my, thick, tall}); break;
        case Down: out.push_back({k, mx, b.hiy + gap + thick / 2, wide, thick}); break;
        case Up: out.push_back({k, mx, b.loy - gap - thick / 2, wide, thick}); break;
      }
    }
    return out;
  }
  const double h = std::min(tall, thick * 3);  // in a line right of the board
  for (int k = 0; k < p.num_players; ++k) out.push_back({k, b.hix + gap + thick / 2 + k * (thick + gap), my, thick, h});
  return out;
}

// Text centred at (x, y) in at most `width`, `font` pixels high or smaller.
std::string label(double x, double y, double width, double font, const std::string& text, const char* extra) {
  font = std::min(font, width / (0.62 * static_cast<double>(std::max<size_t>(text.size(), 1))));
  return fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"middle\"{}>{}</text>", num(x),
                     num(y + font * 0.36), num(font), extra, escape(text));
}

std::string draw(const Program& p, const compile::VarInfo& v, int32_t count, const Well& w, double stroke) {
  const std::string colour = seat_colour(w.seat, p.num_players), name = p.seat_names[static_cast<size_t>(w.seat)];
  const std::string n = std::to_string(count);
  std::string out = fmt::format(
      "<g class=\"store\" data-seat=\"{}\" data-count=\"{}\"><title>{}[{}]: {}</title><rect x=\"{}\" y=\"{}\" "
      "width=\"{}\" height=\"{}\" rx=\"{}\" fill=\"{}\" stroke=\"{}\" stroke-width=\"{}\"/>",
      w.seat, count, escape(v.name), escape(name), n, num(w.cx - w.w / 2), num(w.cy - w.h / 2), num(w.w), num(w.h),
      num(std::min(w.w, w.h) / 2), mix_white(colour, 0.62), colour, num(stroke));
  const double across = std::min(w.w, w.h), small = std::clamp(across * 0.24, 6.0, 13.0);
  const char* quiet = " fill=\"#4a3f33\"";
  if (w.h >= w.w) {  // upright: the seat's name at the top, the count, the variable's name below
    out += label(w.cx, w.cy - w.h / 2 + across * 0.45, w.w * 0.8, small, name, quiet);
    out += label(w.cx, w.cy, w.w * 0.86, across * 0.5, n, " class=\"store-count\" font-weight=\"bold\"");
    out += label(w.cx, w.cy + w.h / 2 - across * 0.45, w.w * 0.8, small, v.name, quiet);
  } else {  // lying: the names at its ends, the count between
    out += label(w.cx - w.w / 2 + w.w * 0.18, w.cy, w.w * 0.3, small, name, quiet);
    out += label(w.cx, w.cy, w.w * 0.3, across * 0.6, n, " class=\"store-count\" font-weight=\"bold\"");
    out += label(w.cx + w.w / 2 - w.w * 0.18, w.cy, w.w * 0.3, small, v.name, quiet);
  }
  return out + "</g>\n";
}

}  // namespace

std::string stores(const Program& p, const runtime::State& s, int first_track, Layout& lay) {
  if (p.display_stores < 0 || p.num_sites == 0) return "";
  const compile::VarInfo& v = p.vars[static_cast<size_t>(p.display_stores)];
  Box sites;
  for (const auto& b : lay.boxes) {
    double a = b.angle * kPi / 180.0, half = b.size / 2 * (std::abs(std::cos(a)) + std::abs(std::sin(a)));
    sites.add(b.cx - half, b.cy - half, b.cx + half, b.cy + half);
  }
  std::vector<Well> wells = place_wells(p, first_track, lay, sites);
  // Room for the wells: the board moves right and down, the picture grows, margins kept.
  Box all = sites;
  for (const auto& w : wells) all.add(w.cx - w.w / 2, w.cy - w.h / 2, w.cx + w.w / 2, w.cy + w.h / 2);
  const double margin = std::max(10.0, lay.cell * 0.5), dx = margin - all.lox, dy = margin - all.loy;
  for (auto& b : lay.boxes) b.cx += dx, b.cy += dy;
  for (auto& w : wells) w.cx += dx, w.cy += dy;
  lay.width = all.hix - all.lox + 2 * margin;
  lay.height = all.hiy - all.loy + 2 * margin;
  std::string out = "<g id=\"stores\" font-family=\"DejaVu Sans, Arial, sans-serif\">\n";
  for (const auto& w : wells)
    out += draw(p, v, s[static_cast<size_t>(v.base + w.seat)], w, std::max(1.0, lay.cell * 0.04));
  return out + "</g>\n";
}

}  // namespace keli::render::svg
