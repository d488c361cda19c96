// The SVG board's helpers and its legend: a title, the seats with their token colours, a key of
// what the tints, crosses, badges and lines mean, then text lines (variables, whose turn).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "render/svg_parts.hpp"
#include "util/xml.hpp"

namespace keli::render::svg {

std::string escape(std::string_view text) { return util::xml_escape(text); }

std::string num(double x) {
  std::string s = fmt::format("{:.2f}", x);
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s == "-0" ? "0" : s;
}

std::string seat_colour(int seat, int seats) {
  // Distinct, print-safe hues; the first four are the usual red, blue, green and gold of race
  // games so that small games look familiar.
  static const char* kPalette[] = {"#d62728", "#1f77b4", "#2ca02c", "#e6a100", "#9467bd", "#17becf",
                                   "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#ff7f0e", "#393b79",
                                   "#637939", "#843c39", "#7b4173", "#3182bd"};
  constexpr int kSize = sizeof(kPalette) / sizeof(kPalette[0]);
  if (seats <= kSize) return kPalette[seat % kSize];
  // Many seats: hues round the circle, alternating two lightnesses so neighbours differ.
  double h = 360.0 * seat / seats, l = seat % 2 ? 0.35 : 0.55, c = (1 - std::abs(2 * l - 1)) * 0.8;
  double hp = h / 60.0, xx = c * (1 - std::abs(std::fmod(hp, 2.0) - 1));
  double r = 0, g = 0, b = 0;
  if (hp < 1)
    r = c, g = xx;
  else if (hp < 2)
    r = xx, g = c;
  else if (hp < 3)
    g = c, b = xx;
  else if (hp < 4)
    g = xx, b = c;
  else if (hp < 5)
    r = xx, b = c;
  else
    r = c, b = xx;
  double m = l - c / 2;
  auto byte = [&](double v) { return std::clamp(static_cast<int>(std::lround((v + m) * 255)), 0, 255); };
  return fmt::format("#{:02x}{:02x}{:02x}", byte(r), byte(g), byte(b));
}

static void rgb(const std::string& hex, int& r, int& g, int& b) {
  r = g = b = 0;
  if (hex.size() == 7) std::sscanf(hex.c_str() + 1, "%2x%2x%2x", &r, &g, &b);
}

std::string mix_white(const std::string& hex, double white) {
  int r, g, b;
  rgb(hex, r, g, b);
  auto m = [&](int v) { return static_cast<int>(std::lround(v + (255 - v) * white)); };
  return fmt::format("#{:02x}{:02x}{:02x}", m(r), m(g), m(b));
}

bool dark(const std::string& hex) {
  int r, g, b;
  rgb(hex, r, g, b);
  return 0.299 * r + 0.587 * g + 0.114 * b < 150;
}

namespace {

constexpr double kLine = 20, kFont = 13, kCharWidth = 7.2;  // legend text metrics, roughly (kCharWidth at kFont)

// The sample drawn for a key entry, 14 px square at (x, y) its top left corner.
std::string sample(const Key& k, double x, double y) {
  double cx = x + 7, cy = y + 7;
  switch (k.kind) {
    case Key::Fill:
      return fmt::format(
          "<rect x=\"{}\" y=\"{}\" width=\"14\" height=\"14\" fill=\"{}\" stroke=\"#6b5b45\" stroke-width=\"0.8\"/>",
          num(x), num(y), k.colour);
    case Key::Cross:
      return fmt::format(
          "<rect x=\"{0}\" y=\"{1}\" width=\"14\" height=\"14\" fill=\"#f6f0e4\" stroke=\"#6b5b45\" "
          "stroke-width=\"0.8\"/>"
          "<path d=\"M{2} {3}L{4} {5}M{2} {5}L{4} {3}\" stroke=\"{6}\" stroke-width=\"1.6\"/>",
          num(x), num(y), num(x + 2.5), num(y + 2.5), num(x + 11.5), num(y + 11.5), k.colour);
    case Key::Badge:
      return fmt::format(
          "<circle cx=\"{}\" cy=\"{}\" r=\"7\" fill=\"{}\"/><text x=\"{}\" y=\"{}\" font-size=\"10\" "
          "text-anchor=\"middle\" fill=\"#ffffff\">{}</text>",
          num(cx), num(cy), k.colour, num(cx), num(cy + 3.5), escape(k.symbol));
    case Key::Line:
      return fmt::format("<path d=\"M{} {}L{} {}\" stroke=\"{}\" stroke-width=\"3\" stroke-opacity=\"0.6\"/>", num(x),
                         num(cy), num(x + 14), num(cy), k.colour);
    case Key::Outline:
      return fmt::format(
          "<rect x=\"{}\" y=\"{}\" width=\"13\" height=\"13\" fill=\"none\" stroke=\"{}\" stroke-width=\"2.5\"/>",
          num(x + 0.5), num(y + 0.5), k.colour);
    case Key::Text:
      return fmt::format(
          "<text x=\"{}\" y=\"{}\" font-size=\"12\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"{}\">{}</text>",
          num(cx), num(cy + 4.5), k.colour, escape(k.symbol));
    case Key::Token:
      return fmt::format(
          "<circle cx=\"{}\" cy=\"{}\" r=\"7\" fill=\"{}\" stroke=\"#222222\" stroke-width=\"0.8\"/><text x=\"{}\" "
          "y=\"{}\" font-size=\"{}\" text-anchor=\"middle\" fill=\"{}\">{}</text>",
          num(cx), num(cy), k.colour, num(cx), num(cy + 3.5), k.symbol.size() > 1 ? 7 : 10,
          dark(k.colour) ? "#ffffff" : "#000000", escape(k.symbol));
  }
  return {};
}

std::string clip(const std::string& text, double width) {
  size_t most = static_cast<size_t>(std::max(8.0, width / kCharWidth));
  if (text.size() <= most) return text;
  size_t cut = most - 3;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // whole UTF-8 characters
  return text.substr(0, cut) + "...";
}

// A long line broken at spaces into lines that fit; at most four, the last clipped.
std::vector<std::string> wrap(const std::string& text, double width) {
  size_t most = static_cast<size_t>(std::max(16.0, width / (kCharWidth * 0.93)));
  std::vector<std::string> out;
  std::string rest = text;
  while (rest.size() > most && out.size() < 3) {
    size_t cut = rest.rfind(' ', most);
    if (cut == std::string::npos || cut == 0) break;
    out.push_back(rest.substr(0, cut));
    rest = "    " + rest.substr(cut + 1);
  }
  out.push_back(clip(rest, width));
  return out;
}

}  // namespace

std::string legend(const Legend& l, double top, double width, double& height) {
  std::string out = fmt::format("<g id=\"legend\" font-size=\"{}\">\n", num(kFont));
  double left = 12, y = top + kLine;
  out += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"15\" font-weight=\"bold\">{}</text>\n", num(left), num(y),
                     escape(clip(l.title, width - 2 * left)));
  if (!l.caption.empty()) {
    y += kLine;
    out += fmt::format("<text x=\"{}\" y=\"{}\">{}</text>\n", num(left), num(y),
                       escape(clip(l.caption, width - 2 * left)));
  }
  // Seats and keys flow left to right, wrapping at the picture's width.
  auto flow = [&](const std::vector<Key>& keys) {
    if (keys.empty()) return;
    double x = left;
    y += kLine + 4;
    for (const auto& k : keys) {
      std::string text = clip(k.text, width - 2 * left - 20);
      double w = 20 + text.size() * kCharWidth + 14;
      if (x > left && x + w > width - left) x = left, y += kLine;
      out +=
          sample(k, x, y - 11) + fmt::format("<text x=\"{}\" y=\"{}\">{}</text>\n", num(x + 20), num(y), escape(text));
      x += w;
    }
  };
  flow(l.seats);
  flow(l.keys);
  y += 4;
  for (const auto& line : l.lines)
    for (const auto& part : wrap(line, width - 2 * left)) {
      y += kLine - 2;
      out += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"12\" fill=\"#333333\">{}</text>\n", num(left), num(y),
                         escape(part));
    }
  height = y + 12 - top;
  return out + "</g>\n";
}

}  // namespace keli::render::svg
