// The board as SVG. Layers, bottom to top: site shapes (tinted by region), marks and flags,
// tracks, labels and counts, pieces, then the legend under the board. Nothing here knows a game:
// shapes come from the sites' coordinates, meanings from the region, variable and seat names.
#include "render/svg.hpp"
#include "render/step_view.hpp"
#include "render/text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "render/svg_layout.hpp"
#include "render/svg_parts.hpp"
#include "runtime/machine.hpp"

namespace keli::render {
using compile::Program;
using svg::escape;
using svg::Key;
using svg::num;

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr const char* kCellFill = "#f6f0e4";
constexpr const char* kCellStroke = "#6b5b45";
constexpr const char* kHighlight = "#ff6a00";
// Tints for regions that are not one per seat, and colours and symbols for boolean flags.
const char* const kTints[] = {"#f5dc8c", "#bcd9ef", "#cfe8c4", "#ecc8e1", "#ddd3f3", "#f5cdb6"};
const char* const kFlagColours[] = {"#b03a2e", "#2874a6", "#1e8449", "#7d3c98", "#ba4a00"};
const char* const kFlagSymbols = "*+!~^";
constexpr int kMaxTinted = 6, kMaxFlags = 5, kMaxTracks = 4;

// A token's label: the seat's initial when the initials tell the seats apart, else its number.
std::vector<std::string> seat_labels(const Program& p) {
  auto initial = [](const std::string& name) {
    if (name.empty()) return std::string("?");
    size_t len = 1;
    while (len < name.size() && (static_cast<unsigned char>(name[len]) & 0xC0) == 0x80) ++len;  // one UTF-8 character
    return name.substr(0, len);
  };
  std::vector<std::string> out;
  for (const auto& n : p.seat_names) out.push_back(initial(n));
  std::vector<std::string> sorted = out;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
    for (size_t i = 0; i < out.size(); ++i) out[i] = std::to_string(i + 1);
  return out;
}

std::string value_text(const compile::VarInfo& v, int32_t x) {
  if (v.kind == lang::ValueKind::Bool) return x ? "yes" : "no";
  if (v.or_none && x == lang::kNoneValue) return "none";
  return std::to_string(x);
}

std::string ordinal(int n) {
  const char* suffix = (n % 100 >= 11 && n % 100 <= 13) ? "th"
                       : n % 10 == 1                    ? "st"
                       : n % 10 == 2                    ? "nd"
                       : n % 10 == 3                    ? "rd"
                                                        : "th";
  return std::to_string(n) + suffix;
}

// A point at offset (dx, dy) from a cell's centre, turned with the cell.
std::pair<double, double> turned(const SiteBox& b, double dx, double dy) {
  double a = b.angle * kPi / 180.0;
  return {b.cx + dx * std::cos(a) - dy * std::sin(a), b.cy + dx * std::sin(a) + dy * std::cos(a)};
}

struct Drawing {
  const Program& p;
  const runtime::State& s;
  const SvgOptions& o;
  Layout lay;
  svg::Legend legend;
  std::vector<std::string> fill;  // per site: its region tint, or empty
  std::string out;

  void tint_regions() {
    fill.assign(p.num_sites, "");
    int tinted = 0;
    for (size_t ti = 0; ti < p.declared_region_tables(); ++ti) {
      const auto& t = p.region_tables[ti];
      if (o.first_track >= 0 && static_cast<int>(ti) >= o.first_track) break;
      if (t.dims.empty() && t.base == p.display_marks) continue;  // drawn as crosses instead
      bool per_seat = t.dims.size() == 1 && t.dim_kinds[0] == lang::DimKind::Player;
      if (tinted == kMaxTinted) {
        legend.lines.push_back(fmt::format("region {} is not drawn (only {} regions are tinted)", t.name, kMaxTinted));
        continue;
      }
      bool any = false;
      for (int k = 0; k < t.size(); ++k) {
        std::string colour = per_seat ? svg::mix_white(svg::seat_colour(k, p.num_players), 0.7) : kTints[tinted];
        for (int site : p.regions[t.base + k])
          if (site >= 0 && site < p.num_sites && fill[site].empty()) fill[site] = colour, any = true;
        if (per_seat && t.size() <= 4)
          legend.keys.push_back({Key::Fill, colour, "", fmt::format("{}[{}]", t.name, p.seat_names[k])});
      }
      if (!any) continue;
      if (!per_seat)
        legend.keys.push_back({Key::Fill, kTints[tinted], "", t.dims.empty() ? t.name : t.name + "[...]"});
      else if (t.size() > 4)
        legend.keys.push_back({Key::Fill, svg::mix_white(svg::seat_colour(0, p.num_players), 0.7), "",
                               t.name + "[seat], in the seat's colour"});
      ++tinted;
    }
  }

  void sites() {
    bool holes = p.display >= 0;  // counters in holes: round cells
    out += "<g id=\"sites\" stroke=\"" + std::string(kCellStroke) + "\">\n";
    double stroke = std::max(0.8, lay.cell * 0.03);
    for (int i = 0; i < p.num_sites; ++i) {
      const SiteBox& b = lay.boxes[i];
      bool lit = std::find(o.highlight.begin(), o.highlight.end(), i) != o.highlight.end();
      std::string paint = fmt::format("fill=\"{}\" stroke-width=\"{}\"{}", fill[i].empty() ? kCellFill : fill[i],
                                      num(lit ? std::max(2.5, lay.cell * 0.09) : stroke),
                                      lit ? fmt::format(" stroke=\"{}\"", kHighlight) : "");
      std::string title = fmt::format("<title>{} (site {})</title>", escape(p.sites[i].label), i);
      if (holes)
        out += fmt::format("<circle class=\"site\" data-site=\"{}\" cx=\"{}\" cy=\"{}\" r=\"{}\" {}>{}</circle>\n", i,
                           num(b.cx), num(b.cy), num(b.size / 2), paint, title);
      else
        out += fmt::format(
            "<rect class=\"site\" data-site=\"{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"{}\"{} "
            "{}>{}</rect>\n",
            i, num(b.cx - b.size / 2), num(b.cy - b.size / 2), num(b.size), num(b.size), num(b.size * 0.1),
            b.angle != 0 ? fmt::format(" transform=\"rotate({} {} {})\"", num(b.angle), num(b.cx), num(b.cy)) : "",
            paint, title);
    }
    out += "</g>\n";
  }

  void marks_and_flags() {
    out += "<g id=\"marks\">\n";
    if (p.display_marks >= 0) {
      std::string name = "marked";
      for (const auto& t : p.region_tables)
        if (t.dims.empty() && t.base == p.display_marks) name = t.name;
      for (int site : p.regions[p.display_marks]) {
        if (site < 0 || site >= p.num_sites) continue;
        const SiteBox& b = lay.boxes[site];
        double h = b.size * 0.36;
        auto [x1, y1] = turned(b, -h, -h);
        auto [x2, y2] = turned(b, h, h);
        auto [x3, y3] = turned(b, -h, h);
        auto [x4, y4] = turned(b, h, -h);
        out += fmt::format(
            "<path d=\"M{} {}L{} {}M{} {}L{} {}\" stroke=\"#8b3a1a\" stroke-opacity=\"0.55\" stroke-width=\"{}\"/>\n",
            num(x1), num(y1), num(x2), num(y2), num(x3), num(y3), num(x4), num(y4), num(std::max(1.0, b.size * 0.05)));
      }
      legend.keys.push_back({Key::Cross, "#8b3a1a", "", name + " (marked cells)"});
    }
    int f = 0;
    for (const auto& v : p.vars) {
      if (f == kMaxFlags) break;
      if (v.kind != lang::ValueKind::Bool || v.dims.size() != 1 || v.dim_kinds[0] != lang::DimKind::Site) continue;
      std::string symbol(1, kFlagSymbols[f]);
      for (int i = 0; i < p.num_sites; ++i) {
        if (!s[v.base + i]) continue;
        const SiteBox& b = lay.boxes[i];
        double r = std::max(4.0, b.size * 0.13), x = b.cx + b.size * 0.38 - f * 2.2 * r, y = b.cy - b.size * 0.38;
        out += fmt::format(
            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\"/><text x=\"{}\" y=\"{}\" font-size=\"{}\" "
            "text-anchor=\"middle\" fill=\"#ffffff\">{}</text>\n",
            num(x), num(y), num(r), kFlagColours[f], num(x), num(y + r * 0.45), num(r * 1.4), escape(symbol));
      }
      legend.keys.push_back({Key::Badge, kFlagColours[f], symbol, v.name});
      ++f;
    }
    out += "</g>\n";
  }

  void tracks() {
    if (o.first_track < 0) return;
    out += "<g id=\"tracks\" fill=\"none\" stroke-linejoin=\"round\" stroke-linecap=\"round\">\n";
    int drawn = 0;
    for (size_t ti = o.first_track; ti < p.declared_region_tables() && drawn < kMaxTracks; ++ti) {
      const auto& t = p.region_tables[ti];
      if (t.size() == 0 || p.regions[t.base].size() < 2) continue;
      bool per_seat = t.dims.size() == 1 && t.dim_kinds[0] == lang::DimKind::Player;
      std::string colour = per_seat ? svg::seat_colour(0, p.num_players) : "#444444";
      std::string points;
      std::vector<std::pair<double, double>> pts;
      for (int site : p.regions[t.base]) {
        if (site < 0 || site >= p.num_sites) continue;
        pts.push_back({lay.boxes[site].cx, lay.boxes[site].cy});
        points += fmt::format("{}{},{}", points.empty() ? "" : " ", num(pts.back().first), num(pts.back().second));
      }
      if (pts.size() < 2) continue;
      double w = std::max(1.5, lay.cell * 0.08);
      out += fmt::format("<polyline points=\"{}\" stroke=\"{}\" stroke-opacity=\"0.4\" stroke-width=\"{}\"/>\n", points,
                         colour, num(w));
      out += fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\" fill-opacity=\"0.6\" stroke=\"none\"/>\n",
                         num(pts[0].first), num(pts[0].second), num(w * 1.6), colour);
      // Arrowheads halfway along some steps (about a dozen in all, always the last one) show
      // the direction of travel without hiding what the cells hold.
      size_t every = std::max<size_t>(1, (pts.size() - 1) / 12);
      for (size_t k = pts.size() - 1; k >= 1; --k) {
        double dx = pts[k].first - pts[k - 1].first, dy = pts[k].second - pts[k - 1].second, len = std::hypot(dx, dy);
        if ((pts.size() - 1 - k) % every != 0 || len < 1e-6) continue;
        dx /= len, dy /= len;
        double a = std::min(w * 3.2, len * 0.4), ax = pts[k - 1].first + (len + a) / 2 * dx,
               ay = pts[k - 1].second + (len + a) / 2 * dy;
        out += fmt::format("<path d=\"M{} {}L{} {}L{} {}Z\" fill=\"{}\" fill-opacity=\"0.6\" stroke=\"none\"/>\n",
                           num(ax), num(ay), num(ax - a * dx + a * 0.6 * dy), num(ay - a * dy - a * 0.6 * dx),
                           num(ax - a * dx - a * 0.6 * dy), num(ay - a * dy + a * 0.6 * dx), colour);
      }
      int used = 0;  // instances with sites: a table declared per 0..15 may fill only some
      for (int k = 0; k < t.size(); ++k) used += !p.regions[t.base + k].empty();
      std::string which =
          t.size() == 1
              ? t.name
              : fmt::format("{}[{}] (the first of {})", t.name,
                            per_seat ? p.seat_names[0] : std::to_string(t.lows.empty() ? 0 : t.lows[0]), used);
      legend.keys.push_back({Key::Line, colour, "", "track " + which + ": from the dot, arrows show the way"});
      ++drawn;
    }
    out += "</g>\n";
  }

  // Each seat's stack on the site as one disc: `stacks[seat]` the pieces' numbers (data-piece the
  // first, data-pieces all), or {-1} for a seat's token that is no piece.
  void tokens(int site, const std::vector<std::vector<int>>& stacks, const std::vector<std::string>& labels) {
    const SiteBox& b = lay.boxes[site];
    std::vector<int> seats;
    for (int o2 = 0; o2 < p.num_players; ++o2)
      if (!stacks[o2].empty()) seats.push_back(o2);
    int g = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(seats.size()))));
    double step = b.size * 0.9 / g, r = step * 0.42;
    for (size_t k = 0; k < seats.size(); ++k) {
      int seat = seats[k];
      auto [x, y] = turned(b, (static_cast<double>(k % g) - (g - 1) / 2.0) * step,
                           (static_cast<double>(k / g) - (g - 1) / 2.0) * step);
      std::string colour = svg::seat_colour(seat, p.num_players);
      const std::vector<int>& stack = stacks[seat];
      std::string ids =
          stack[0] < 0 ? "" : fmt::format(" data-piece=\"{}\" data-pieces=\"{}\"", stack[0], fmt::join(stack, " "));
      out += fmt::format(
          "<g class=\"piece\" data-seat=\"{}\" data-count=\"{}\"{}><circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\" "
          "stroke=\"#222222\" stroke-width=\"{}\"/>",
          seat, stack.size(), ids, num(x), num(y), num(r), colour, num(std::max(0.5, r * 0.1)));
      const std::string& label =
          o.piece_labels.empty() || o.piece_labels[site][seat].empty() ? labels[seat] : o.piece_labels[site][seat];
      double font = r * (label.size() > 2 ? 0.7 : label.size() > 1 ? 0.95 : 1.2);
      if (font >= 4)
        out +=
            fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"middle\" fill=\"{}\">{}</text>", num(x),
                        num(y + font * 0.36), num(font), svg::dark(colour) ? "#ffffff" : "#000000", escape(label));
      if (stack.size() > 1) {
        // A stack: its size on a white badge at the token's lower right.
        std::string n = std::to_string(stack.size());
        double br = std::max(3.5, r * (n.size() > 1 ? 0.62 : 0.5)), bx = x + r * 0.75, by = y + r * 0.75;
        out += fmt::format(
            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"#ffffff\" stroke=\"#222222\" stroke-width=\"{}\"/><text "
            "x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"middle\" font-weight=\"bold\">{}</text>",
            num(bx), num(by), num(br), num(std::max(0.4, br * 0.12)), num(bx), num(by + br * 0.4),
            num(br * (n.size() > 1 ? 1.0 : 1.3)), n);
      }
      out += "</g>\n";
    }
  }

  void contents() {
    std::vector<std::vector<std::vector<int>>> held(p.num_sites);  // [site][seat]: the pieces' numbers
    const std::vector<PiecePlace> places = piece_places(p, s);
    for (size_t pc = 0; pc < places.size(); ++pc) {
      if (places[pc].site < 0) continue;
      auto& at = held[places[pc].site];
      if (at.empty()) at.resize(p.num_players);
      at[places[pc].owner].push_back(static_cast<int>(pc));
    }
    auto labels = seat_labels(p);
    bool show_labels = p.display >= 0 || p.piece_site < 0;
    out += "<g id=\"contents\" font-family=\"DejaVu Sans, Arial, sans-serif\">\n";
    for (int i = 0; i < p.num_sites; ++i) {
      const SiteBox& b = lay.boxes[i];
      const std::string& label = p.sites[i].label;
      double lf = std::max(6.0, b.size * 0.2);
      if (show_labels && label.size() * lf * 0.6 <= b.size * 0.8 && lf <= b.size * 0.35)
        out +=
            fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"middle\" fill=\"#7a6a55\">{}</text>\n",
                        num(b.cx), num(b.cy - b.size * 0.22), num(lf), escape(label));
      const int32_t value = p.display >= 0 ? s[p.vars[p.display].base + i] : 0;
      if (p.display >= 0 && seats_shown()) {  // a seat per site: its token, none nothing
        if (value >= 0 && value < p.num_players) {
          std::vector<std::vector<int>> one(static_cast<size_t>(p.num_players));
          one[static_cast<size_t>(value)] = {-1};
          tokens(i, one, labels);
        }
      } else if (p.display >= 0 && !(p.vars[p.display].or_none && value == lang::kNoneValue)) {
        std::string v = std::to_string(value);
        double font = std::min(b.size * 0.42, b.size * 0.8 / (0.6 * v.size()));
        out += fmt::format(
            "<text class=\"value\" data-site=\"{}\" x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"middle\" "
            "font-weight=\"bold\" fill=\"#2b2118\">{}</text>\n",
            i, num(b.cx), num(b.cy + b.size * (show_labels ? 0.2 : 0.15)), num(font), v);
      }
      if (!held[i].empty()) tokens(i, held[i], labels);
    }
    out += "</g>\n";
    if ((p.piece_site >= 0 && p.piece_owner >= 0) || (p.display >= 0 && seats_shown()))
      for (int i = 0; i < p.num_players; ++i)
        legend.seats.push_back({Key::Token, svg::seat_colour(i, p.num_players), labels[i], p.seat_names[i]});
    if (p.display >= 0 && !seats_shown())
      legend.keys.push_back({Key::Text, "#2b2118", "12", "numbers: " + p.vars[p.display].name});
  }

  // The displayed variable holds a seat (or none) per site: drawn as the seats' tokens.
  bool seats_shown() const { return p.display >= 0 && p.vars[p.display].kind == lang::ValueKind::Player; }

  void text_lines() {
    if (!o.highlight.empty()) legend.keys.push_back({Key::Outline, kHighlight, "", o.highlight_meaning});
    std::string params;
    for (const auto& [name, value] : p.params)
      params += fmt::format("{}{}={}", params.empty() ? "" : ", ", name, value);
    if (!params.empty()) legend.lines.insert(legend.lines.begin(), "parameters: " + params);
    for (size_t vi = 0; vi < p.vars.size(); ++vi) {
      const auto& v = p.vars[vi];
      if (static_cast<int>(vi) == p.display || static_cast<int>(vi) == p.display_stores) continue;  // drawn
      if (std::find(v.dim_kinds.begin(), v.dim_kinds.end(), lang::DimKind::Site) != v.dim_kinds.end())
        continue;                                                                  // per site: on the board
      if (v.dims.size() == 1 && v.dim_kinds[0] == lang::DimKind::Piece) continue;  // per piece: the pieces show it
      std::string line = v.name + ":";
      if (v.dims.empty())
        line += " " + value_text(v, s[v.base]);
      else if (v.dims.size() == 1 && v.dim_kinds[0] == lang::DimKind::Player)
        for (int i = 0; i < v.dims[0]; ++i)
          line += fmt::format(" {} {}{}", p.seat_names[i], value_text(v, s[v.base + i]), i + 1 < v.dims[0] ? "," : "");
      else
        for (int i = 0; i < v.size() && i < 64; ++i) line += " " + value_text(v, s[v.base + i]);
      legend.lines.push_back(line);
    }
    if (lay.no_positions)
      legend.lines.push_back("the board gives every site the same position: sites are drawn in order");
    else if (lay.shared_places > 0)
      legend.lines.push_back(
          fmt::format("{} place(s) hold several sites: they are drawn side by side there", lay.shared_places));
    if (s[compile::kOver] == compile::kPlaying) {
      legend.lines.push_back(
          fmt::format("{} to play ({})", p.seat_names[s[compile::kMover]], p.phases[s[compile::kPhase]].name));
    } else {
      std::string places;
      for (int i = 0; i < p.num_players; ++i) {
        int place = s[compile::kPlaces + i];
        places += fmt::format("{}{} {}", i ? ", " : "", p.seat_names[i], place > 0 ? ordinal(place) : "unplaced");
      }
      legend.lines.push_back(
          fmt::format("game over{}: {}", s[compile::kOver] == compile::kLimit ? " (move limit)" : "", places));
    }
  }
};

}  // namespace

std::vector<int> changed_sites(const Program& p, const runtime::State& before, const runtime::State& after) {
  auto held_before = pieces_by_site(p, before), held_after = pieces_by_site(p, after);
  std::vector<int> out;
  for (int i = 0; i < p.num_sites; ++i) {
    bool changed = held_before[i] != held_after[i];
    for (const auto& v : p.vars)  // the displayed variable and the flags: one value a site
      if (v.dims.size() == 1 && v.dim_kinds[0] == lang::DimKind::Site &&
          (&v - p.vars.data() == p.display || v.kind == lang::ValueKind::Bool))
        changed = changed || before[v.base + i] != after[v.base + i];
    if (changed) out.push_back(i);
  }
  return out;
}

std::vector<std::vector<std::string>> piece_labels(runtime::Game& g, const runtime::State& s) {
  const Program& p = g.program();
  std::vector<std::vector<std::string>> labels(p.num_sites, std::vector<std::string>(p.num_players));
  if (p.piece_site < 0 || p.piece_owner < 0) return labels;
  for (int pc = p.num_pieces - 1; pc >= 0; --pc) {  // downwards: the first piece's label stays
    int64_t arg = pc;
    int64_t site = g.call(s, p.piece_site, &arg, 1), owner = g.call(s, p.piece_owner, &arg, 1);
    if (site >= 0 && site < p.num_sites && owner >= 0 && owner < p.num_players)
      labels[site][owner] = g.piece_label(s, pc);
  }
  return labels;
}

std::vector<int> move_sites(const Program& p, runtime::Game& g, const runtime::State& s, const runtime::Move& m) {
  std::vector<int> out;
  const auto& rule = p.rules[m.rule];
  for (int k = 0; k < m.nargs && k < static_cast<int>(rule.params.size()); ++k)
    if (rule.params[k].kind == lang::ValueKind::Site) out.push_back(m.args[k]);
  if (!out.empty()) return out;
  runtime::State after = s;
  g.apply(after, m);
  return changed_sites(p, s, after);
}

std::string board_svg(const Program& p, const runtime::State& s, const SvgOptions& o) {
  Drawing d{p, s, o, lay_out(p, p.num_sites > 150 ? 1100 : 820), {}, {}, {}};
  d.legend.title = p.game_name;
  d.legend.caption = o.caption;
  const std::string stores = svg::stores(p, s, o.first_track, d.lay);  // moves the board to make room
  d.tint_regions();
  d.sites();
  d.out += stores;
  d.marks_and_flags();
  d.tracks();
  d.contents();
  d.text_lines();
  double width = std::max(d.lay.width, 640.0), legend_height = 0;
  double offset = (width - d.lay.width) / 2;  // a narrow board is centred above its legend
  std::string legend = svg::legend(d.legend, d.lay.height, width, legend_height);
  double height = d.lay.height + legend_height;
  return fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
      "font-family=\"DejaVu Sans, Arial, sans-serif\">\n<title>{2}</title>\n"
      "<rect width=\"{0}\" height=\"{1}\" fill=\"#fffdf8\"/>\n<g id=\"board\" transform=\"translate({3} "
      "0)\">\n{4}</g>\n{5}</svg>\n",
      num(std::ceil(width)), num(std::ceil(height)), escape(p.game_name + (o.caption.empty() ? "" : ": " + o.caption)),
      num(offset), d.out, legend);
}

}  // namespace keli::render
