// A Description as plain text: one section per topic with a heading, aligned columns, long lines
// wrapped at the given width with a hanging indent.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "describe/describe.hpp"

namespace keli::describe {

namespace {

class Writer {
 public:
  explicit Writer(size_t width) : width_(width) {}

  void heading(const std::string& h) {
    if (!out_.empty()) out_ += '\n';
    out_ += h + '\n' + std::string(h.size(), '-') + '\n';
  }
  // `text` after `indent` spaces, wrapped at spaces; continuation lines indented by `hang` more.
  void line(const std::string& text, size_t indent = 2, size_t hang = 4) {
    std::string pad(indent, ' ');
    size_t limit = width_ > indent + 20 ? width_ - indent : 20;
    std::string rest = text;
    bool first = true;
    while (true) {
      size_t room = first ? limit : limit - std::min(limit - 10, hang);
      std::string lead = first ? pad : pad + std::string(hang, ' ');
      if (rest.size() <= room) {
        out_ += lead + rest + '\n';
        return;
      }
      size_t cut = rest.rfind(' ', room);
      if (cut == std::string::npos || cut == 0) cut = rest.find(' ', room);
      if (cut == std::string::npos) {
        out_ += lead + rest + '\n';
        return;
      }
      out_ += lead + rest.substr(0, cut) + '\n';
      rest = rest.substr(cut + 1);
      first = false;
    }
  }
  // `lead` then the items joined by ", ", broken only between items.
  void items(const std::string& lead, const std::vector<std::string>& parts, size_t indent = 4, size_t hang = 4) {
    std::string cur = lead;
    bool first = true;
    auto flush = [&] {
      out_ += std::string(indent + (first ? 0 : hang), ' ') + cur + '\n';
      first = false;
    };
    for (size_t i = 0; i < parts.size(); ++i) {
      std::string piece = parts[i] + (i + 1 < parts.size() ? "," : "");
      size_t room = width_ > indent + hang + 20 ? width_ - indent - (first ? 0 : hang) : 20;
      if (cur.empty()) {
        cur = piece;
      } else if (cur.size() + 1 + piece.size() > room) {
        flush();
        cur = piece;
      } else {
        cur += " " + piece;
      }
    }
    if (!cur.empty()) flush();
  }
  // Rows of cells, each column as wide as its widest cell; the last cell is wrapped.
  void table(const std::vector<std::vector<std::string>>& rows, size_t indent = 2) {
    std::vector<size_t> w;
    for (const auto& r : rows)
      for (size_t i = 0; i + 1 < r.size(); ++i) {
        if (w.size() <= i) w.push_back(0);
        w[i] = std::max(w[i], r[i].size());
      }
    for (const auto& r : rows) {
      std::string text;
      size_t used = 0;
      for (size_t i = 0; i < r.size(); ++i) {
        if (i + 1 < r.size()) {
          text += fmt::format("{:<{}}  ", r[i], w[i]);
          used += w[i] + 2;
        } else {
          text += r[i];
        }
      }
      while (!text.empty() && text.back() == ' ') text.pop_back();
      line(text, indent, used);
    }
  }
  std::string str() const { return out_; }

 private:
  size_t width_;
  std::string out_;
};

std::string join(const std::vector<std::string>& v, const char* sep = ", ") {
  return fmt::format("{}", fmt::join(v, sep));
}

std::string plural(size_t n, const std::string& one, const std::string& many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

std::string percent(int64_t w, int64_t total) {
  return fmt::format("{:.2f}%", 100.0 * static_cast<double>(w) / static_cast<double>(total));
}

// "16 tracks of 85 sites", or "16 tracks: 4 of 85 sites, 12 empty".
std::string sizes_text(const Region& r) {
  const char* noun = r.track ? "track" : "region";
  std::string n = plural(r.sizes.size(), noun, std::string(noun) + "s");
  if (r.sizes.empty()) return n;
  if (std::all_of(r.sizes.begin(), r.sizes.end(), [&](int s) { return s == r.sizes[0]; }))
    return n + " of " + plural(r.sizes[0], "site", "sites");
  std::vector<std::pair<int, int>> groups;  // size, count, in order of first appearance
  for (int s : r.sizes) {
    auto it = std::find_if(groups.begin(), groups.end(), [&](auto& g) { return g.first == s; });
    if (it == groups.end())
      groups.push_back({s, 1});
    else
      ++it->second;
  }
  std::vector<std::string> parts;
  for (auto& [size, count] : groups)
    parts.push_back(size == 0 ? fmt::format("{} empty", count)
                              : fmt::format("{} of {}", count, plural(size, "site", "sites")));
  return n + ": " + join(parts);
}

void game_section(Writer& w, const Description& d) {
  w.heading(d.game);
  // The rules themselves are in words in the rulebook (keli rules; docs/games/NAME.md for games/).
  std::vector<std::vector<std::string>> rows = {{"file", d.file}, {"rules", "in words: keli rules " + d.file}};
  if (d.variant)
    rows.push_back({"variant of", d.base_file + (d.base_game.empty() ? "" : " (\"" + d.base_game + "\")")});
  for (const auto& [key, value] : d.about) rows.push_back({key, value});
  w.table(rows);
  if (!d.variant) return;
  w.heading("Changes from " + d.base_file);
  if (d.changes.empty()) w.line("none: the variant only renames the game");
  rows.clear();
  for (const auto& c : d.changes) {
    std::string detail = c.action == "sets" ? (c.from.empty() ? c.to : c.from + " -> " + c.to) : c.to;
    rows.push_back({c.action, c.kind, c.name, detail});
  }
  w.table(rows);
}

void players_section(Writer& w, const Description& d) {
  w.heading("Players");
  w.line(fmt::format("{}: {}", plural(d.seats.size(), "seat", "seats"), join(d.seats)));
  if (!d.teams.empty()) {
    std::vector<std::string> teams;
    for (const auto& t : d.teams) teams.push_back(join(t, " + "));
    w.line(fmt::format("teams ({}): {}", d.teams.size(), join(teams, "; ")));
  }
  w.line(d.points ? fmt::format("results: places, and each seat's points, -{0}..{0} (limit points)", d.points_limit)
                  : "results: places");
  if (d.pieces == 0) {
    w.line("no pieces");
    return;
  }
  std::string per;
  if (!d.pieces_per_seat.empty()) {
    bool even = std::all_of(d.pieces_per_seat.begin(), d.pieces_per_seat.end(),
                            [&](int n) { return n == d.pieces_per_seat[0]; });
    if (even) {
      per = fmt::format(", {} per seat", d.pieces_per_seat[0]);
    } else {
      std::vector<std::string> parts;
      for (size_t i = 0; i < d.seats.size(); ++i)
        parts.push_back(fmt::format("{} {}", d.seats[i], d.pieces_per_seat[i]));
      per = ": " + join(parts);
    }
  }
  w.line(fmt::format("pieces: {} in all{}", d.pieces, per));
}

void board_section(Writer& w, const Description& d) {
  w.heading("Board");
  std::string shapes = d.shapes.empty() ? "" : ", built by " + join(d.shapes);
  w.line(fmt::format("{}{}", plural(d.sites, "site", "sites"), shapes));
  std::vector<std::vector<std::string>> rows;
  for (const auto& r : d.regions)
    rows.push_back({r.track ? "track" : "region", r.name + (r.dims.empty() ? "" : " " + r.dims),
                    sizes_text(r) + (r.marked ? " (marked on the board)" : "")});
  w.table(rows);
  for (const auto& x : d.display) w.line("shows: " + x);
  if (!d.directions.empty()) w.line("directions: " + join(d.directions));
  if (!d.coordinates.empty()) w.line("sites named by " + d.coordinates);
}

void dice_section(Writer& w, const Description& d) {
  if (d.dice.empty()) return;
  w.heading("Dice");
  for (const auto& x : d.dice) {
    std::string faces;
    if (x.identical && x.faces.size() > 1) {
      faces = fmt::format("{} identical dice [{}]", x.faces.size(), join_ints(x.faces[0]));
    } else {
      std::vector<std::string> each;
      for (const auto& f : x.faces) each.push_back("[" + join_ints(f) + "]");
      faces = plural(x.faces.size(), "die", "dice") + " " + join(each);
      if (x.ordered && x.faces.size() > 1) faces += ", ordered (each die's value kept in its place)";
    }
    std::string where =
        x.thrown_in.empty() ? "not thrown with these parameters" : "thrown in phase " + join(x.thrown_in);
    w.line(fmt::format("{}: {}; {}", x.name, faces, where));
    bool uniform =
        std::all_of(x.throws.begin(), x.throws.end(), [&](const Throw& t) { return t.weight == x.throws[0].weight; });
    if (x.faces.size() > 1) {
      if (uniform && x.throws.size() > 12) {
        w.line(fmt::format("{} throws, each {}", x.throws.size(), fraction(x.throws[0].weight, x.total_weight)), 4, 4);
      } else {
        std::vector<std::string> parts;
        for (const auto& t : x.throws)
          parts.push_back(fmt::format("{} {}", join_ints(t.values, "+"), fraction(t.weight, x.total_weight)));
        w.items(plural(x.throws.size(), "throw", "throws") + ":", parts);
      }
    }
    std::vector<std::string> parts;
    for (const auto& [total, weight] : x.totals)
      parts.push_back(
          fmt::format("{}: {} ({})", total, fraction(weight, x.total_weight), percent(weight, x.total_weight)));
    w.items(x.faces.size() > 1 ? "totals:" : "values:", parts);
  }
}

// The table of the parameters that are (`safety` false) or are not (true) rules, and their texts.
void params_table(Writer& w, const Description& d, bool safety) {
  std::vector<std::vector<std::string>> rows = {{"name", "type", "default", "in effect", "allowed"}};
  for (const auto& p : d.params) {
    if (p.safety != safety) continue;
    std::string allowed = !p.allowed.empty() ? join(p.allowed) : !p.range.empty() ? p.range : "any whole number";
    rows.push_back({p.name, p.type.rfind("int in", 0) == 0 ? "int" : p.type, p.default_value,
                    p.value + (p.value != p.default_value ? " (set)" : ""), allowed});
  }
  if (rows.size() == 1) return w.line("none");
  w.table(rows);
  for (const auto& p : d.params)
    if (p.safety == safety && !p.doc.empty()) w.line(p.name + ": " + p.doc, 2, 4);
}

void params_section(Writer& w, const Description& d) {
  w.heading("Parameters");
  params_table(w, d, false);
}

// One line: the id space, each rule's block (docs/actions.md).
void actions_lines(Writer& w, const Actions& a) {
  if (!a.error.empty()) {
    w.line("action ids: none (" + a.error + ")");
    return;
  }
  std::vector<std::string> parts;
  for (const auto& r : a.rules)
    parts.push_back(r.count == 1   ? fmt::format("{} {}", r.name, r.first)
                    : r.count == 0 ? r.name + " none"
                                   : fmt::format("{} {}..{}", r.name, r.first, r.first + r.count - 1));
  w.line(fmt::format("action ids: {} ({}){}", a.num_distinct_actions, join(parts),
                     a.max_chance_outcomes > 0
                         ? fmt::format("; throws 0..{} (index in the dice's throws)", a.max_chance_outcomes - 1)
                         : ""));
}

void rules_section(Writer& w, const Description& d) {
  w.heading("Phases (play starts in the first)");
  for (const auto& ph : d.phases) {
    if (!ph.dice.empty()) {
      w.line(fmt::format("{}: chance, throws {}{}", ph.name, ph.dice,
                         ph.dice_expr.empty() ? "" : " (" + ph.dice_expr + ")"));
    } else {
      w.line(ph.name + ":");
    }
    for (const auto& r : ph.rules) w.line(fmt::format("move {}({})", r.name, join(r.params)), 4, 6);
    if (!ph.otherwise.empty()) w.line("otherwise " + ph.otherwise, 4, 6);
  }
  actions_lines(w, d.actions);
  if (d.setups > 0) w.line(fmt::format("setup: {}, run before the first move", plural(d.setups, "block", "blocks")));
  if (!d.events.empty()) {
    w.heading("Events and handlers");
    for (const auto& e : d.events) {
      w.line(
          fmt::format("event {}({}): {}", e.name, join(e.formals), plural(e.handlers.size(), "handler", "handlers")));
      for (const auto& h : e.handlers) w.line(h, 4, 6);
    }
  }
}

// The observation tensor a learner gets (docs/python.md, "Observations"), part by part.
void observation_section(Writer& w, const Description& d) {
  if (d.observation.empty()) return;
  w.heading(fmt::format(
      "Observation tensor ({} numbers, from any seat's side; {})", d.observation_size,
      d.observation_turns_board ? "the board turned to the observer's side" : "sites as numbered for every seat"));
  std::vector<std::vector<std::string>> rows = {{"part", "shape", "offset", "numbers"}};
  for (const auto& part : d.observation)
    rows.push_back({part.name, part.shape.empty() ? "one value" : fmt::format("{}", fmt::join(part.shape, " x ")),
                    std::to_string(part.offset), part.what});
  w.table(rows);
}

void state_section(Writer& w, const Description& d) {
  w.heading("State (4 bytes a slot)");
  std::vector<std::vector<std::string>> rows = {{"variable", "type", "shape", "slots", "bytes"}};
  for (const auto& v : d.vars)
    rows.push_back({v.name, v.type, v.shape.empty() ? "one value" : v.shape, std::to_string(v.slots),
                    std::to_string(4 * v.slots)});
  rows.push_back({"(fixed)", "int", d.points ? "mover, phase, counts, places, points" : "mover, phase, counts, places",
                  std::to_string(d.fixed_slots), std::to_string(4 * d.fixed_slots)});
  rows.push_back({"total", "", "", std::to_string(d.state_slots), std::to_string(4 * d.state_slots)});
  w.table(rows);
  observation_section(w, d);
  w.heading("Checks");
  if (d.invariants.empty()) w.line("no invariants");
  for (const auto& i : d.invariants) w.line("invariant: " + i, 2, 4);
}

// What the engine stops, apart from the rules: the limits, then the `safety` block's parameters.
void safety_section(Writer& w, const Description& d) {
  constexpr const char* kOwn = " (Keli's own bound; the game declares none)";
  w.heading("Safety bounds (the engine's, not rules)");
  w.line(fmt::format("moves: {} decisions, then the game ends by limit{}", d.move_limit, d.limit_declared ? "" : kOwn));
  w.line(fmt::format("work: {} units a step (loop rounds, domain elements, calls), then an error{}", d.work_budget,
                     d.work_declared ? "" : kOwn));
  if (d.history > 0) w.line(fmt::format("history: {} positions remembered for 'repetitions'", d.history));
  if (std::any_of(d.params.begin(), d.params.end(), [](const Param& p) { return p.safety; })) {
    w.line("parameters of the 'safety' block:");
    params_table(w, d, true);
  }
}

}  // namespace

std::string join_ints(const std::vector<int32_t>& v, const char* sep) {
  std::vector<std::string> s;
  for (int32_t x : v) s.push_back(std::to_string(x));
  return fmt::format("{}", fmt::join(s, sep));
}

std::string to_text(const Description& d, size_t width) {
  Writer w(width);
  game_section(w, d);
  players_section(w, d);
  board_section(w, d);
  dice_section(w, d);
  params_section(w, d);
  rules_section(w, d);
  state_section(w, d);
  safety_section(w, d);
  return w.str();
}

}  // namespace keli::describe
