// Placing sites for a picture. The unit is the typical distance between a site and its nearest
// neighbour, so a board of 1-apart holes and a ring drawn 10 apart both come out with cells of
// the same size; a lone site (a centre square) gets a bigger cell, up to three units.
#include "render/svg_layout.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace keli::render {

namespace {

constexpr double kPi = 3.14159265358979323846;

struct Place {
  double x = 0, y = 0;
  std::vector<int> sites;
  double nearest = 0;  // distance to the nearest other place, 0 when there is none
  double angle = 0;
};

// Nearest neighbours: quadratic, but boards stop at a few thousand sites.
void find_nearest(std::vector<Place>& places) {
  for (auto& a : places) {
    double best = -1, bx = 0, by = 0;
    for (const auto& b : places) {
      if (&a == &b) continue;
      double d = std::hypot(b.x - a.x, b.y - a.y);
      if (best < 0 || d < best) best = d, bx = b.x - a.x, by = b.y - a.y;
    }
    if (best > 0) {
      a.nearest = best;
      // Squares are the same at every quarter turn: keep the angle in [-45, 45).
      double deg = std::atan2(by, bx) * 180.0 / kPi;
      a.angle = std::fmod(std::fmod(deg + 45.0, 90.0) + 90.0, 90.0) - 45.0;
      if (std::abs(a.angle) < 0.5) a.angle = 0;
    }
  }
}

// The picture's bounds: every shape's extent (a turned square reaches further), plus a margin.
void fit_bounds(Layout& out, double cell) {
  double lox = 1e300, loy = 1e300, hix = -1e300, hiy = -1e300;
  for (const auto& b : out.boxes) {
    double a = b.angle * kPi / 180.0, half = b.size / 2 * (std::abs(std::cos(a)) + std::abs(std::sin(a)));
    lox = std::min(lox, b.cx - half), hix = std::max(hix, b.cx + half);
    loy = std::min(loy, b.cy - half), hiy = std::max(hiy, b.cy + half);
  }
  double margin = std::max(10.0, cell * 0.5);
  for (auto& b : out.boxes) b.cx += margin - lox, b.cy += margin - loy;
  out.width = hix - lox + 2 * margin;
  out.height = hiy - loy + 2 * margin;
}

}  // namespace

Layout lay_out(const compile::Program& p, double max_px) {
  Layout out;
  out.boxes.resize(p.num_sites);
  if (p.num_sites == 0) {
    out.width = out.height = 2 * 20.0;
    return out;
  }
  // Sites grouped by their coordinates; a board that places every site at one point (or gives
  // no positions at all) is drawn as a grid in site order.
  std::map<std::pair<int, int>, int> index;
  std::vector<Place> places;
  for (int i = 0; i < p.num_sites; ++i) {
    auto key = std::make_pair(p.sites[i].x, p.sites[i].y);
    auto [it, fresh] = index.emplace(key, static_cast<int>(places.size()));
    // A hex grid's rows lean: each half a cell right of the one above, rows closer together.
    const double x = p.hex_layout ? key.first + key.second * 0.5 : key.first;
    const double y = p.hex_layout ? key.second * 0.866 : key.second;
    if (fresh) places.push_back({x, y, {}, 0, 0});
    places[it->second].sites.push_back(i);
  }
  if (places.size() == 1 && p.num_sites > 1) {
    out.no_positions = true;
    int cols = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(p.num_sites))));
    places.clear();
    for (int i = 0; i < p.num_sites; ++i)
      places.push_back({static_cast<double>(i % cols), static_cast<double>(i / cols), {i}, 0, 0});
  }
  find_nearest(places);
  std::vector<double> nn;
  for (const auto& pl : places)
    if (pl.nearest > 0) nn.push_back(pl.nearest);
  double unit = 1;
  if (!nn.empty()) {
    std::nth_element(nn.begin(), nn.begin() + nn.size() / 2, nn.end());
    unit = nn[nn.size() / 2];
  }
  double minx = places[0].x, maxx = minx, miny = places[0].y, maxy = miny;
  for (const auto& pl : places) {
    minx = std::min(minx, pl.x), maxx = std::max(maxx, pl.x);
    miny = std::min(miny, pl.y), maxy = std::max(maxy, pl.y);
  }
  // The scale leaves room for one cell beyond the outermost centres; enlarged cells at the
  // edge are made room for below, once every shape's extent is known.
  double span = std::max(maxx - minx, maxy - miny) / unit + 1;
  double cell = std::clamp(max_px / span, 4.0, 56.0);
  out.cell = cell;
  for (auto& pl : places) {
    // A site far from the others (a centre square) gets a larger cell, still clear of them.
    double units = pl.nearest > 0 ? std::clamp(2 * pl.nearest / unit - 1, 1.0, 6.0) : 1.0;
    double size = units * cell * 0.88;
    double angle = units > 1.5 ? 0 : pl.angle;
    double cx = (pl.x - minx) / unit * cell, cy = (pl.y - miny) / unit * cell;
    if (pl.sites.size() == 1) {
      out.boxes[pl.sites[0]] = {cx, cy, size, angle};
      continue;
    }
    // Several sites at one place: a small grid inside the cell, in site order.
    ++out.shared_places;
    int g = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(pl.sites.size()))));
    double sub = size / g;
    for (size_t k = 0; k < pl.sites.size(); ++k) {
      double ox = (static_cast<double>(k % g) - (g - 1) / 2.0) * sub;
      double oy = (static_cast<double>(k / g) - (g - 1) / 2.0) * sub;
      out.boxes[pl.sites[k]] = {cx + ox, cy + oy, sub * 0.92, 0};
    }
  }
  fit_bounds(out, cell);
  return out;
}

}  // namespace keli::render
