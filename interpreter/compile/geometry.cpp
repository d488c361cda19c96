// The compiler on the board's geometry: each direction's step, the sites' coordinate names
// (`coordinates`), and the tables the geometry built-ins read, built once the board is: `step`
// (the site one step away, or none), `ray` (the sites beyond, nearest first) and `neighbours`.
#include <fmt/format.h>

#include <map>

#include "compile/compiler_impl.hpp"

namespace keli::compile {

using diag::Code;

void Compiler::name_directions(Program& out) {
  out.hex_layout = ck.hex_directions;
  for (const auto& d : ck.directions) {
    out.direction_names.push_back(d.name);
    int64_t dx = d.dx ? need_constant(*d.dx, "a direction's step") : d.set_dx;
    int64_t dy = d.dy ? need_constant(*d.dy, "a direction's step") : d.set_dy;
    if (!lang::fits_state(dx) || !lang::fits_state(dy)) {  // as a site's coordinates, 32-bit numbers
      diags.report(Code::eval_error, d.span,
                   fmt::format("the step ({}, {}) of '{}' is too large: its numbers are 32-bit", dx, dy, d.name));
      dx = dy = 0;
    } else if (dx == 0 && dy == 0)
      diags.report(Code::eval_error, d.span,
                   fmt::format("the direction '{}' does not move: its step is (0, 0)", d.name));
    out.direction_steps.emplace_back(static_cast<int>(dx), static_cast<int>(dy));
  }
}

namespace {

// Column letters as spreadsheets have them: a .. z, then aa, ab, ...; `skip` is left out.
std::string column_name(int64_t column, char skip) {
  std::string letters;
  for (char c = 'a'; c <= 'z'; ++c)
    if (c != skip) letters += c;
  const auto base = static_cast<int64_t>(letters.size());
  std::string out;
  for (int64_t n = column + 1; n > 0; n = (n - 1) / base)
    out.insert(out.begin(), letters[static_cast<size_t>((n - 1) % base)]);
  return out;
}

}  // namespace

// `coordinates from EDGE [without LETTER]`: each site is named by its column (lettered from the
// leftmost drawn column) and its row (numbered from 1 at the bottom or the top drawn row).
void Compiler::label_sites(Program& out) {
  const ast::Decl* k = ck.coordinates;
  if (!k || out.sites.empty()) return;
  const bool from_top = k->names[0] == "top";
  const char skip = k->names.size() > 1 ? k->names[1][0] : '\0';
  // In 64 bits: a board may draw sites anywhere in the 32-bit plane.
  int64_t min_x = out.sites[0].x, min_y = out.sites[0].y, max_y = out.sites[0].y;
  for (const auto& s : out.sites) {
    min_x = std::min<int64_t>(min_x, s.x);
    min_y = std::min<int64_t>(min_y, s.y);
    max_y = std::max<int64_t>(max_y, s.y);
  }
  out.coordinates = true;
  std::map<std::string, int> named;
  for (size_t i = 0; i < out.sites.size(); ++i) {
    SiteInfo& s = out.sites[i];
    s.column = column_name(s.x - min_x, skip);
    s.row = from_top ? s.y - min_y + 1 : max_y - s.y + 1;
    s.label = s.column + std::to_string(s.row);
    if (auto [it, fresh] = named.emplace(s.label, static_cast<int>(i)); !fresh) {
      diags.report(Code::eval_error, k->span,
                   fmt::format("sites {} and {} are both drawn at ({}, {}): coordinates would name both {}", it->second,
                               i, s.x, s.y, s.label),
                   "draw each site at a point of its own");
      return;
    }
  }
}

// The tables of `step`, `ray` and `neighbours`, after the game's own: a site's step in direction
// d is the site drawn at (x + dx, y + dy), if there is one.
void Compiler::build_geometry(Program& out) {
  label_sites(out);
  if (ck.directions.empty() || diags.has_errors()) return;
  const int sites = out.num_sites, dirs = static_cast<int>(out.direction_steps.size());
  std::map<std::pair<int64_t, int64_t>, int> at;
  for (int i = 0; i < sites; ++i)
    if (auto [it, fresh] = at.emplace(std::pair<int64_t, int64_t>{out.sites[i].x, out.sites[i].y}, i); !fresh) {
      diags.report(Code::eval_error, ck.directions_decl->span,
                   fmt::format("sites {} and {} are both drawn at ({}, {}), so a step to there is not one site",
                               it->second, i, out.sites[i].x, out.sites[i].y),
                   "directions need each site drawn at a point of its own");
      return;
    }
  auto step = [&](int s, int d) {
    auto it = at.find({int64_t{out.sites[s].x} + out.direction_steps[d].first,
                       int64_t{out.sites[s].y} + out.direction_steps[d].second});
    return it == at.end() ? lang::kNoneValue : it->second;
  };
  // `step`: site or none per site per direction.
  VarInfo t;
  t.name = "step";
  t.base = static_cast<int>(out.consts.size());
  t.dims = {sites, dirs};
  t.lows = {0, 0};
  t.dim_kinds = {lang::DimKind::Site, lang::DimKind::Range};
  t.kind = lang::ValueKind::Site;
  t.or_none = true;
  for (int s = 0; s < sites; ++s)
    for (int d = 0; d < dirs; ++d) out.consts.push_back(step(s, d));
  out.step_table = static_cast<int>(out.const_tables.size());
  out.const_tables.push_back(t);
  // `ray`: per site per direction, the sites stepped to until the edge, nearest first (a step
  // moves, so a ray never comes back: at most as many sites as the board has).
  VarInfo r = t;
  r.name = "ray";
  r.base = static_cast<int>(out.regions.size());
  r.or_none = false;
  // The rays' sites together, with the neighbours' (at most one a direction), are bounded as a
  // table's cells are: a board of long lines in many directions grows as sites times lines.
  int64_t cells = int64_t{sites} * dirs;
  for (int s = 0; s < sites; ++s)
    for (int d = 0; d < dirs; ++d) {
      std::vector<int32_t> ray;
      for (int n = step(s, d); n != lang::kNoneValue && static_cast<int>(ray.size()) < sites; n = step(n, d))
        ray.push_back(n);
      cells += static_cast<int64_t>(ray.size());
      if (cells > lang::kMaxTableCells) {
        diags.report(Code::too_large, ck.directions_decl->span,
                     fmt::format("{} sites and {} directions make more than {} sites of rays and neighbours "
                                 "(kMaxTableCells)",
                                 sites, dirs, lang::kMaxTableCells),
                     "declare fewer directions, or a board of shorter lines");
        return;
      }
      out.regions.push_back(std::move(ray));
    }
  out.ray_table = static_cast<int>(out.region_tables.size());
  out.region_tables.push_back(r);
  // `neighbours`: per site, its steps in direction order (each site once).
  VarInfo nb = r;
  nb.name = "neighbours";
  nb.base = static_cast<int>(out.regions.size());
  nb.dims = {sites};
  nb.lows = {0};
  nb.dim_kinds = {lang::DimKind::Site};
  for (int s = 0; s < sites; ++s) {
    std::vector<int32_t> near;
    for (int d = 0; d < dirs; ++d)
      if (int n = step(s, d); n != lang::kNoneValue && std::find(near.begin(), near.end(), n) == near.end())
        near.push_back(n);
    out.regions.push_back(std::move(near));
  }
  out.neighbour_table = static_cast<int>(out.region_tables.size());
  out.region_tables.push_back(nb);  // no region_index entries: Program::region_position scans these
}

}  // namespace keli::compile
