// keli play's board fitted to the terminal: board_text's grid when it fits, else a compact grid
// of narrower cells, else a picture of one character a cell beside the occupied cells by name;
// pieces and holes named as the moves name them.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <numeric>

#include "render/svg.hpp"  // piece_labels
#include "render/text.hpp"
#include "render/text_parts.hpp"

namespace keli::render {
using compile::Program;
using namespace text;

namespace {

// The picture's rows at most (a ring of sixteen arms reads at this size), and the narrowest
// column of names beside it (else the names go under it).
constexpr int kPictureRows = 27;
constexpr int kMinLegendWidth = 24;
constexpr int kMinPictureRows = 8;  // a picture smaller than this says too little: the rows overflow
constexpr const char* kIndent = "  ";

// The common spacing of the sites' coordinates along one axis (1 when they share none).
int spacing(const Program& p, bool along_x, int low) {
  int g = 0;
  for (const auto& site : p.sites) g = std::gcd(g, (along_x ? site.x : site.y) - low);
  return g > 0 ? g : 1;
}

// Holes as the moves name them: for a rule of one site whose `reads` begins with literal text
// and then a value that is not the site itself (`sow hole {index(row[mover], h) + 1}`), each
// seat's candidate moves of that rule give the names of the holes they sow, and the seat.
struct Names {
  std::vector<std::string> name;
  std::vector<int> seat;
  bool renamed = false;
};

size_t first_value_part(const compile::Rule& r) {
  for (size_t k = 0; k < r.reads.size(); ++k) {
    const compile::ReadPart& part = r.reads[k];
    if (part.cond >= 0 || part.skip != 0 || part.domain >= 0) return r.reads.size();
    if (part.value >= 0) return k;
  }
  return r.reads.size();
}

// One seat's names for the holes rule `ri` sows (its `reads` part k); none when two of its holes
// would share a name (then the value names something else than the hole).
bool name_holes(runtime::Game& g, const runtime::State& s, size_t ri, size_t k, int seat, Names& n) {
  const Program& p = g.program();
  runtime::State as = s;
  as[compile::kMover] = seat, as[compile::kPhase] = p.rules[ri].phase, as[compile::kOver] = compile::kPlaying;
  std::vector<std::pair<int, std::string>> named;
  try {
    auto moves = g.candidates(
        as, [&](const runtime::Move& m) { return m.rule == static_cast<int>(ri); }, p.num_sites);
    for (const auto& m : moves)
      if (m.args[0] >= 0 && m.args[0] < p.num_sites && n.name[m.args[0]].empty())
        named.emplace_back(m.args[0], g.read_part(as, m, k));
  } catch (const diag::Error&) {
    return false;  // a domain that fails in this position names nothing
  }
  for (size_t a = 0; a < named.size(); ++a)
    for (size_t b = a + 1; b < named.size(); ++b)
      if (named[a].second == named[b].second) return false;
  for (const auto& [site, name] : named) n.name[site] = name, n.seat[site] = seat;
  return !named.empty();
}

Names site_names(runtime::Game& g, const runtime::State& s) {
  const Program& p = g.program();
  Names n;
  n.name.assign(p.num_sites, "");
  n.seat.assign(p.num_sites, -1);
  if (p.display < 0 || p.coordinates) return n;  // only cells that write `name:value`
  for (size_t ri = 0; ri < p.rules.size(); ++ri) {
    const compile::Rule& r = p.rules[ri];
    if (!r.has_reads || r.params.size() != 1 || r.params[0].kind != lang::ValueKind::Site) continue;
    size_t k = first_value_part(r);
    if (k == r.reads.size() || r.reads[k].kind == lang::ValueKind::Site) continue;
    for (int o = 0; o < p.num_players; ++o)  // the mover's names first
      if (name_holes(g, s, ri, k, (s[compile::kMover] + o) % p.num_players, n)) n.renamed = true;
  }
  return n;
}

// The seat at the end of each drawn row whose named holes are all that seat's.
RowEnds row_owners(const Program& p, const Names& n) {
  std::map<int, int> owner;  // y -> seat, -2 for several
  for (int i = 0; i < p.num_sites; ++i) {
    if (n.seat[i] < 0) continue;
    auto [it, added] = owner.emplace(p.sites[i].y, n.seat[i]);
    if (!added && it->second != n.seat[i]) it->second = -2;
  }
  RowEnds ends;
  for (const auto& [y, seat] : owner)
    if (seat >= 0) ends[y] = p.seat_names[seat];
  return ends;
}

// A cell's text in the compact grid: its first piece's label and '+' when more stand there.
std::string short_text(const Program& p, const Cells& c, const Labels& labels, int i) {
  if (c.held[i].empty()) return c.text[i];
  int total = 0, first = -1;
  for (int o = 0; o < p.num_players; ++o) {
    total += c.held[i][o];
    if (c.held[i][o] > 0 && first < 0) first = o;
  }
  return first < 0 ? c.text[i] : labels[i][first] + (total > 1 ? "+" : "");
}

// Lines of characters with a bold flag each, written out with ANSI escapes around bold runs.
struct Canvas {
  std::vector<std::string> rows;
  std::vector<std::vector<bool>> bold;
  void put(size_t row, size_t at, const std::string& text, bool strong) {
    if (rows[row].size() < at + text.size())
      rows[row].resize(at + text.size(), ' '), bold[row].resize(at + text.size());
    for (size_t k = 0; k < text.size(); ++k) rows[row][at + k] = text[k], bold[row][at + k] = strong;
  }
  std::string line(size_t row) const {
    std::string out, r = rows[row];
    while (!r.empty() && r.back() == ' ') r.pop_back();
    for (size_t k = 0; k < r.size(); ++k) {
      if (bold[row][k] && (k == 0 || !bold[row][k - 1])) out += "\033[1m";
      out += r[k];
      if (bold[row][k] && (k + 1 == r.size() || !bold[row][k + 1])) out += "\033[0m";
    }
    return out;
  }
};

// The compact grid: a column for each distinct x of the sites and a row for each distinct y (no
// blank rows or columns), cells as wide as the widest short text; a marked cell's brackets go in
// the gaps beside it.
std::string compact_grid(const Program& p, const Cells& c, const std::vector<std::string>& shorts,
                         const RowEnds& ends) {
  std::map<int, std::string> row_of, column_of;
  std::map<int, int> row_index, column_index;  // y -> drawn row, x -> drawn column
  size_t w = 1, margin = 0;
  for (int i = 0; i < p.num_sites; ++i) {
    row_index[p.sites[i].y] = column_index[p.sites[i].x] = 0;
    w = std::max(w, shorts[i].size());
    if (!p.coordinates) continue;
    row_of[p.sites[i].y] = std::to_string(p.sites[i].row);
    column_of[p.sites[i].x] = p.sites[i].column;
    margin = std::max(margin, row_of[p.sites[i].y].size());
    w = std::max(w, p.sites[i].column.size());
  }
  int drawn = 0, across = 0;
  for (auto& [y, row] : row_index) row = drawn++;
  for (auto& [x, column] : column_index) column = across++;
  const size_t left = 2 + (p.coordinates ? margin + 1 : 0);
  auto column_at = [&](int x, int row) {
    size_t lean = p.hex_layout ? static_cast<size_t>(row) * (w + 1) / 2 : 0;  // a hex grid's rows lean
    return left + lean + static_cast<size_t>(column_index[x]) * (w + 1);
  };
  Canvas canvas{std::vector<std::string>(drawn), std::vector<std::vector<bool>>(drawn)};
  for (int i = 0; i < p.num_sites; ++i) {
    const int row = row_index[p.sites[i].y];
    const size_t at = column_at(p.sites[i].x, row), start = at + w - shorts[i].size();
    canvas.put(row, start, shorts[i], c.bold && c.marked[i]);
    if (!c.marked[i]) continue;
    if (start > 0 && (canvas.rows[row].size() <= start - 1 || canvas.rows[row][start - 1] == ' '))
      canvas.put(row, start - 1, "[", false);
    canvas.put(row, at + w, "]", false);
  }
  std::string out;
  for (const auto& [y, row] : row_index) {
    std::string line = canvas.line(row);
    if (p.coordinates) line.replace(0, std::min(line.size(), left), fmt::format("  {:>{}} ", row_of[y], margin));
    if (auto end = ends.find(y); end != ends.end()) line += "  " + end->second;
    out += line + "\n";
  }
  if (p.coordinates) {
    std::string line(left, ' ');
    for (const auto& [x, letters] : column_of) {
      line.resize(column_at(x, 0), ' ');
      line += fmt::format("{:>{}}", letters, w);
    }
    out += line + "\n";
  }
  return out;
}

// Each entry of a legend naming the cells: `name:text`, `name` the site's (or its hole's) name
// unless the text has it already (a displayed value without coordinates: `3:7`).
std::vector<std::string> cell_entries(const Program& p, const Cells& c, const Names& n, const std::vector<int>& sites) {
  std::vector<std::string> out;
  const bool named = p.display >= 0 && !p.coordinates;
  for (int i : sites) {
    const std::string name = named ? "" : n.renamed ? n.name[i] : p.sites[i].label;
    std::string text = c.bold && c.marked[i] ? c.text[i] : c.marked[i] ? "[" + c.text[i] + "]" : c.text[i];
    out.push_back(c.shown(i, name.empty() ? text : name + ":" + text));
  }
  return out;
}

}  // namespace

std::vector<std::string> text::wrap_items(const std::vector<std::string>& items, size_t width, const std::string& head,
                                          const std::string& indent, const std::string& sep) {
  std::vector<std::string> lines{head};
  bool fresh = true;  // nothing yet on the last line after its head or indent
  for (std::string item : items) {
    while (true) {
      std::string& line = lines.back();
      const std::string gap = fresh ? "" : sep;
      const size_t used = shown_width(line) + gap.size();
      const size_t room = width > used ? width - used : 0;
      if (shown_width(item) <= room) {
        line += gap + item;
        fresh = false;
        break;
      }
      if (!fresh && shown_width(indent) + shown_width(item) <= width) {  // whole on the next line
        lines.push_back(indent);
        fresh = true;
        continue;
      }
      // The last place that fits to break the item: after a space, or before a '+'.
      size_t cut = 0, shown = 0;
      for (size_t k = 0; k < item.size() && shown <= room; ++k) {
        if (item[k] == '\033') {  // an escape's bytes take no room
          while (k < item.size() && !std::isalpha(static_cast<unsigned char>(item[k]))) ++k;
          continue;
        }
        if (k > 0 && (item[k - 1] == ' ' || item[k] == '+')) cut = k;
        if ((static_cast<unsigned char>(item[k]) & 0xC0) != 0x80) ++shown;
      }
      if (cut == 0 && !fresh) {
        lines.push_back(indent);
        fresh = true;
        continue;
      }
      if (cut == 0) cut = std::max<size_t>(room, 1);  // no place to break: cut at the width
      line += gap + item.substr(0, cut);
      while (!line.empty() && line.back() == ' ') line.pop_back();
      item = item.substr(item.find_first_not_of(' ', cut) == std::string::npos ? item.size()
                                                                               : item.find_first_not_of(' ', cut));
      lines.push_back(indent);
      fresh = true;
      if (item.empty()) break;
    }
  }
  return lines;
}

namespace {

// The key to the picture's letters: A-D: a piece of South-West; a-d: several; ...
std::vector<std::string> picture_key(const Program& p, size_t columns) {
  const int n = p.num_players;
  const char last = static_cast<char>('A' + (n - 1) % 26);
  std::string key = n == 1 ? "(A: a piece; a: several"
                           : fmt::format("(A-{}: a piece of {}-{}; a-{}: several", last, p.seat_names[0],
                                         p.seat_names[n - 1], static_cast<char>(last - 'A' + 'a'));
  return wrap_items({key + "; *: several seats; x: marked)"}, columns, kIndent, kIndent, " ");
}

// The picture's rows: one character a cell (two columns, so that it keeps its shape), each
// character standing for the cells `scale` units around it, blank rows left out.
std::vector<std::string> picture_rows(const Program& p, const Cells& c, const Extent& e, double scale) {
  const int w = static_cast<int>((e.maxx - e.minx) / scale) + 1, h = static_cast<int>((e.maxy - e.miny) / scale) + 1;
  std::vector<std::string> grid(h, std::string(w, ' '));
  for (int i = 0; i < p.num_sites; ++i) {
    int gx = static_cast<int>((p.sites[i].x - e.minx) / scale), gy = static_cast<int>((p.sites[i].y - e.miny) / scale);
    char& cell = grid[gy][gx];
    if (cell == ' ' || cell == '.' || cell == 'x') cell = cell_letter(p, c, i);  // an occupied cell wins
  }
  std::vector<std::string> lines;
  for (auto& row : grid) {
    std::string spaced;
    for (char ch : row) spaced += std::string(1, ch) + " ";
    while (!spaced.empty() && spaced.back() == ' ') spaced.pop_back();
    if (!spaced.empty()) lines.push_back(kIndent + spaced);
  }
  return lines;
}

// A large board (or one whose grid is too wide): the picture, the occupied cells by name beside it
// (or under it, in a narrow terminal), and the key to its letters. Names that do not fit the
// rows end in "...".
std::string picture(const Program& p, const Cells& c, const Extent& e, const std::vector<std::string>& entries,
                    const Screen& box) {
  const std::vector<std::string> key = picture_key(p, box.columns);
  const double step = std::max(spacing(p, true, e.minx), spacing(p, false, e.miny));
  const int span_x = e.maxx - e.minx, span_y = e.maxy - e.miny;
  auto scale_for = [&](int rows, int cells_across) {
    return std::max({step, span_y / std::max(1.0, rows - 1.0), span_x / std::max(1.0, cells_across - 1.0)});
  };
  const int rows = std::max(kMinPictureRows, std::min(kPictureRows, box.rows - static_cast<int>(key.size())));
  // Beside the names: as tall as the box allows, and narrow enough to leave them their column.
  std::vector<std::string> lines = picture_rows(p, c, e, scale_for(rows, (box.columns - 5 - kMinLegendWidth) / 2));
  size_t picture_width = 0;
  for (const auto& l : lines) picture_width = std::max(picture_width, l.size());
  const int legend_width = box.columns - static_cast<int>(picture_width) - 3;
  std::string out;
  if (legend_width >= kMinLegendWidth) {
    std::vector<std::string> legend = wrap_items(entries, legend_width, "", "", "  ");
    if (entries.empty()) legend.clear();
    const size_t room = std::max(lines.size(), static_cast<size_t>(rows));
    if (legend.size() > room) legend.resize(room), legend.back() = "... (more in a larger terminal)";
    for (size_t k = 0; k < std::max(lines.size(), legend.size()); ++k) {
      std::string line = k < lines.size() ? lines[k] : "";
      if (k < legend.size()) line += std::string(picture_width + 3 - line.size(), ' ') + legend[k];
      out += line + "\n";
    }
  } else {
    std::vector<std::string> legend = wrap_items(entries, box.columns, kIndent, kIndent, "  ");
    if (entries.empty()) legend.clear();
    const int left = box.rows - static_cast<int>(key.size() + legend.size());
    lines = picture_rows(p, c, e, scale_for(std::max(kMinPictureRows, left), (box.columns - 2) / 2));
    for (const auto& l : lines) out += l + "\n";
    for (const auto& l : legend) out += l + "\n";
  }
  for (const auto& k : key) out += k + "\n";
  return out;
}

// Whether every line of `text` fits the box's columns and, with `rows_too`, all its lines its rows.
bool fits(const std::string& text, const Screen& box, bool rows_too) {
  int lines = 0;
  for (size_t at = 0; at < text.size();) {
    size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    if (shown_width(text.substr(at, end - at)) > static_cast<size_t>(box.columns)) return false;
    ++lines;
    at = end + 1;
  }
  return !rows_too || lines <= box.rows;
}

// The compact grid and, under it, the cells holding several pieces written out: `S3+ = S3x2`.
std::string compact_with_stacks(const Program& p, const Cells& plain, const Labels& labels, const RowEnds& ends,
                                const Screen& box) {
  std::vector<std::string> shorts(p.num_sites), stacks;
  for (int i = 0; i < p.num_sites; ++i) {
    shorts[i] = short_text(p, plain, labels, i);
    if (shorts[i] != plain.text[i]) stacks.push_back(shorts[i] + " = " + plain.text[i]);
  }
  std::string out = compact_grid(p, plain, shorts, ends);
  if (!stacks.empty())
    for (const auto& l : wrap_items(stacks, box.columns, "  stacks: ", "   ", ", ")) out += l + "\n";
  return out;
}

}  // namespace

std::string terminal_board(runtime::Game& g, const runtime::State& s, const std::vector<int>& marked, bool bold,
                           const Screen& box) {
  const Program& p = g.program();
  const Extent e = extent_of(p);
  const Labels labels = piece_labels(g, s);
  const Names n = site_names(g, s);
  const RowEnds ends = n.renamed ? row_owners(p, n) : RowEnds{};
  const Cells plain = make_cells(p, s, marked, bold, &labels, n.renamed ? &n.name : nullptr, false);
  const std::string flags = flags_legend(p);
  if (e.maxx - e.minx <= kLargeSpan && e.maxy - e.miny <= kLargeSpan) {
    Cells full = plain;  // board_text's cells: marked ones in brackets
    for (int i = 0; i < p.num_sites; ++i) {
      if (full.marked[i]) full.text[i] = "[" + full.text[i] + "]";
      full.width = std::max(full.width, full.text[i].size());
    }
    const std::string grid = grid_board(p, full, e, &ends) + flags;
    if (fits(grid, box, true)) return grid;
    const std::string compact = compact_with_stacks(p, plain, labels, ends, box) + flags;
    if (fits(compact, box, true)) return compact;
    // Too tall for the rows but narrow enough: a grid still reads better than a picture.
    if (fits(grid, box, false)) return grid;
    if (fits(compact, box, false)) return compact;
  }
  std::vector<int> shown;
  for (int i = 0; i < p.num_sites; ++i)
    if (!plain.held[i].empty() || plain.marked[i]) shown.push_back(i);
  return picture(p, plain, e, cell_entries(p, plain, n, shown), box) + flags;
}

}  // namespace keli::render
