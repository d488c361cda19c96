// The HTML page and SVG picture of keli report (see report_html.hpp): plain SVG elements written
// with fmt, one chart a function, each bar carrying its numbers as data- attributes.
#include "util/xml.hpp"
#include "sim/report_html.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace keli::sim {

namespace {

constexpr int kLengthBins = 30;  // bars of the length histogram, about
constexpr int kWidth = 720;      // of every chart, in pixels
constexpr int kLabelWidth = 150, kBarWidth = 400, kRowHeight = 26;
// Colours of places 1, 2, ... (cycled): first place darkest.
const char* const kPlaceColours[] = {"#1b5e20", "#43a047", "#9ccc65", "#fdd835",
                                     "#fb8c00", "#e53935", "#8e24aa", "#3949ab"};

std::string xml(const std::string& s) { return util::xml_escape(s); }

std::string pct(double x) { return fmt::format("{:.1f}%", 100 * x); }

std::string svg_open(int height, const std::string& title) {
  return fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
      "font-family=\"sans-serif\" font-size=\"13\" role=\"img\"><title>{2}</title>\n",
      kWidth, height, xml(title));
}

// Horizontal bars of rates with their intervals as whiskers, one row each.
std::string rate_chart(const std::string& title, const std::vector<std::pair<std::string, Rate>>& rows) {
  int height = kRowHeight * static_cast<int>(rows.size()) + 30;
  std::string out = svg_open(height, title);
  out += fmt::format("<line x1=\"{0}\" y1=\"4\" x2=\"{0}\" y2=\"{1}\" stroke=\"#888\"/>\n", kLabelWidth, height - 24);
  for (int tick = 0; tick <= 4; ++tick) {
    int x = kLabelWidth + kBarWidth * tick / 4;
    out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"#555\">{}%</text>\n", x, height - 8,
                       25 * tick);
  }
  for (size_t i = 0; i < rows.size(); ++i) {
    const auto& [label, r] = rows[i];
    int y = 6 + kRowHeight * static_cast<int>(i);
    auto at = [](double v) { return kLabelWidth + v * kBarWidth; };
    out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\n", kLabelWidth - 6, y + 15, xml(label));
    out += fmt::format(
        "<rect class=\"rate\" data-label=\"{}\" data-count=\"{}\" data-games=\"{}\" data-rate=\"{:.4f}\" "
        "data-lo=\"{:.4f}\" data-hi=\"{:.4f}\" x=\"{}\" y=\"{}\" width=\"{:.1f}\" height=\"18\" fill=\"#4878a8\"/>\n",
        xml(label), r.hits, r.trials, r.rate, r.lo, r.hi, kLabelWidth, y, r.rate * kBarWidth);
    out += fmt::format("<path d=\"M{0:.1f} {2}v12M{0:.1f} {3}H{1:.1f}M{1:.1f} {2}v12\" stroke=\"#222\"/>\n", at(r.lo),
                       at(r.hi), y + 3, y + 9);
    out += fmt::format("<text x=\"{:.1f}\" y=\"{}\">{} [{}, {}]</text>\n", at(r.hi) + 6, y + 15, pct(r.rate), pct(r.lo),
                       pct(r.hi));
  }
  return out + "</svg>\n";
}

std::string length_chart(const ReportData& d) {
  const int left = 60, right = kWidth - 20, top = 16, bottom = 210, height = 250;
  std::vector<LengthBin> bins = length_bins(d.lengths);
  int64_t most = 1;
  for (const auto& b : bins) most = std::max(most, b.games);
  std::string out = svg_open(height, "game length in decisions");
  out += fmt::format("<path d=\"M{0} {1}V{2}H{3}\" stroke=\"#888\" fill=\"none\"/>\n", left, top, bottom, right);
  double w = bins.empty() ? 0 : static_cast<double>(right - left) / static_cast<double>(bins.size());
  for (size_t i = 0; i < bins.size(); ++i) {
    double h = static_cast<double>(bins[i].games) / static_cast<double>(most) * (bottom - top);
    out += fmt::format(
        "<rect class=\"bin\" data-from=\"{}\" data-to=\"{}\" data-games=\"{}\" x=\"{:.1f}\" y=\"{:.1f}\" "
        "width=\"{:.1f}\" height=\"{:.1f}\" fill=\"#4878a8\" stroke=\"#fff\"><title>{} to {} decisions: {} "
        "games</title></rect>\n",
        bins[i].from, bins[i].to, bins[i].games, left + w * static_cast<double>(i), bottom - h, w, h, bins[i].from,
        bins[i].to, bins[i].games);
  }
  if (!bins.empty()) {
    out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"start\">{}</text>\n", left, bottom + 16, bins[0].from);
    out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\n", right, bottom + 16, bins.back().to);
  }
  out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"#555\">decisions a game</text>\n",
                     (left + right) / 2, bottom + 34);
  out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"end\" fill=\"#555\">{}</text>\n", left - 4, top + 10, most);
  out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"end\" fill=\"#555\">games</text>\n", left - 4, top + 26);
  return out + "</svg>\n";
}

// Per seat, one bar split by the share of games it ended in each place.
std::string places_chart(const RunHeader& h, const ReportData& d) {
  int max_place = 0;
  for (const auto& seat : d.places)
    for (const auto& [place, n] : seat) max_place = std::max(max_place, place);
  int height = kRowHeight * static_cast<int>(h.seats.size()) + 34;
  std::string out = svg_open(height, "places by seat");
  for (size_t s = 0; s < h.seats.size(); ++s) {
    int y = 4 + kRowHeight * static_cast<int>(s);
    int64_t games = 0;
    for (const auto& [place, n] : d.places[s]) games += n;
    out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\n", kLabelWidth - 6, y + 15,
                       xml(h.seats[s]));
    double x = kLabelWidth;
    for (const auto& [place, n] : d.places[s]) {
      double w = games ? static_cast<double>(n) / static_cast<double>(games) * kBarWidth : 0;
      const char* colour = place <= 0 ? "#bbb" : kPlaceColours[(place - 1) % std::size(kPlaceColours)];
      out += fmt::format(
          "<rect class=\"place\" data-seat=\"{}\" data-place=\"{}\" data-games=\"{}\" x=\"{:.1f}\" y=\"{}\" "
          "width=\"{:.1f}\" height=\"18\" fill=\"{}\"><title>{}: place {}, {} games</title></rect>\n",
          xml(h.seats[s]), place, n, x, y, w, colour, xml(h.seats[s]), place, n);
      x += w;
    }
  }
  int y = height - 12;
  for (int place = 1; place <= max_place; ++place) {
    int x = kLabelWidth + (place - 1) * 60;
    out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"12\" height=\"12\" fill=\"{}\"/>", x, y - 10,
                       kPlaceColours[(place - 1) % std::size(kPlaceColours)]);
    out += fmt::format("<text x=\"{}\" y=\"{}\">{}</text>\n", x + 16, y, fmt::format("place {}", place));
  }
  return out + "</svg>\n";
}

std::vector<std::pair<std::string, Rate>> win_rows(const RunHeader& h, const Report& r) {
  std::vector<std::pair<std::string, Rate>> rows;
  for (size_t s = 0; s < h.seats.size(); ++s) rows.emplace_back(h.seats[s], r.seat_wins[s]);
  for (const auto& t : r.team_wins) {
    std::string name;
    for (int s : t.seats) name += (name.empty() ? "" : "+") + h.seats[static_cast<size_t>(s)];
    rows.emplace_back(name, t.wins);
  }
  rows.emplace_back("draws", r.draws);
  return rows;
}

std::string natural_chart(const Report& r) {
  return rate_chart("ended by the rules", {{"ended by the rules", r.natural_end}});
}

std::string html_tables(const RunHeader& h, const Report& r, const ReportData& d) {
  std::string out =
      "<h2>Figures</h2>\n<table id=\"wins\"><tr><th>seat</th><th>wins</th><th>games</th><th>rate</th>"
      "<th>95% low</th><th>95% high</th></tr>\n";
  for (const auto& [label, x] : win_rows(h, r))
    out += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{:.4f}</td><td>{:.4f}</td><td>{:.4f}</td></tr>\n",
                       xml(label), x.hits, x.trials, x.rate, x.lo, x.hi);
  out += "</table>\n<table id=\"places\"><tr><th>seat</th><th>place</th><th>games</th></tr>\n";
  for (size_t s = 0; s < h.seats.size(); ++s)
    for (const auto& [place, n] : d.places[s])
      out += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td></tr>\n", xml(h.seats[s]), place, n);
  out += "</table>\n";
  if (!r.seat_points.empty()) {
    out += "<table id=\"points\"><tr><th>seat</th><th>mean points</th><th>median</th><th>min</th><th>max</th></tr>\n";
    for (size_t s = 0; s < h.seats.size() && s < r.seat_points.size(); ++s) {
      const Summary& x = r.seat_points[s];
      out += fmt::format("<tr><td>{}</td><td>{:.2f}</td><td>{:.1f}</td><td>{:.0f}</td><td>{:.0f}</td></tr>\n",
                         xml(h.seats[s]), x.mean, x.median, x.min, x.max);
    }
    out += "</table>\n";
  }
  return out;
}

}  // namespace

void ReportData::add(const RecordRow& r) {
  if (!r.error.empty()) return;
  for (size_t s = 0; s < places.size() && s < r.places.size(); ++s) ++places[s][r.places[s]];
  ++lengths[r.decisions];
}

std::vector<LengthBin> length_bins(const std::map<int64_t, int64_t>& lengths) {
  std::vector<LengthBin> bins;
  if (lengths.empty()) return bins;
  int64_t lo = lengths.begin()->first, hi = lengths.rbegin()->first;
  int64_t width = std::max<int64_t>(1, (hi - lo + kLengthBins) / kLengthBins);
  for (int64_t from = lo; from <= hi; from += width) bins.push_back({from, std::min(hi, from + width - 1), 0});
  for (const auto& [length, n] : lengths) bins[static_cast<size_t>((length - lo) / width)].games += n;
  return bins;
}

std::string report_svg(const RunHeader& h, const Report& r, const ReportData& d) {
  // The four charts stacked in one picture, each a nested <svg> moved down by the ones above.
  std::vector<std::string> charts = {rate_chart("wins by seat", win_rows(h, r)), natural_chart(r), length_chart(d),
                                     places_chart(h, d)};
  std::string body;
  int y = 30;
  for (auto& c : charts) {
    int height = std::stoi(c.substr(c.find("height=\"") + 8));
    c.insert(4, fmt::format(" y=\"{}\"", y));
    body += c;
    y += height + 20;
  }
  return svg_open(y, h.game + ": " + std::to_string(r.games) + " games") +
         fmt::format("<text x=\"10\" y=\"20\" font-size=\"16\">{} ({}): {} games, seed {}</text>\n", xml(h.game),
                     xml(h.file), r.games, h.seed) +
         body + "</svg>\n";
}

std::string report_html(const RunHeader& h, const Report& r, const ReportData& d) {
  std::string params;
  for (const auto& [k, v] : h.params) params += (params.empty() ? "" : ", ") + k + "=" + v;
  std::string out = fmt::format(
      "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head><meta charset=\"utf-8\"/>"
      "<title>{0}: {1} games</title>\n<style>body{{font-family:sans-serif;max-width:760px;margin:2em auto}}"
      "table{{border-collapse:collapse;margin:1em 0}}td,th{{border:1px solid #ccc;padding:2px 8px;text-align:right}}"
      "</style></head>\n<body>\n<h1>{0}</h1>\n<p id=\"run\" data-games=\"{1}\" data-errors=\"{2}\">{3}: {1} games "
      "({2} stopped by an error, not counted below), seed {4}, players {5}; parameters: {6}</p>\n",
      xml(h.game), r.games, r.errors, xml(h.file), h.seed, xml(fmt::format("{}", fmt::join(h.players, ","))),
      xml(params.empty() ? "none" : params));
  out +=
      "<h2>Wins by seat</h2>\n<p>Games in which the seat shared first place (a team: all its seats did), with the "
      "95% Wilson interval as a whisker.</p>\n" +
      rate_chart("wins by seat", win_rows(h, r));
  out += fmt::format(
             "<h2>Ended by the rules</h2>\n<p id=\"natural\" data-count=\"{}\" data-games=\"{}\">{} of {} "
             "games ended by the rules, not by the move limit.</p>\n",
             r.natural_end.hits, r.natural_end.trials, r.natural_end.hits, r.natural_end.trials) +
         natural_chart(r);
  out += fmt::format(
             "<h2>Game length</h2>\n<p>Decisions a game: mean {:.1f}, median {:.1f}, 95th percentile {:.0f}, "
             "min {:.0f}, max {:.0f}.</p>\n",
             r.length.mean, r.length.median, r.length.p95, r.length.min, r.length.max) +
         length_chart(d);
  out += "<h2>Places by seat</h2>\n" + places_chart(h, d) + html_tables(h, r, d);
  return out + "</body>\n</html>\n";
}

}  // namespace keli::sim
