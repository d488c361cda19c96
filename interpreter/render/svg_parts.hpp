// Pieces shared by the SVG board's drawing, its legend and its stores: escaping, numbers, seat
// colours, the legend itself and the stores' wells. Internal to interpreter/render/.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "render/svg_layout.hpp"
#include "runtime/past.hpp"

namespace keli::render::svg {

std::string escape(std::string_view text);  // for XML text and attribute values
std::string num(double x);                  // a coordinate: at most two decimals, no trailing zeros

// Seat colours: a palette of distinct hues, then evenly spaced hues for very many seats.
std::string seat_colour(int seat, int seats);
std::string mix_white(const std::string& hex, double white);  // 0: the colour, 1: white
bool dark(const std::string& hex);                            // white text reads better on it

// One entry of the legend's key: a small sample drawn as the board draws it, then its meaning.
struct Key {
  enum Kind { Fill, Cross, Badge, Line, Outline, Token, Text } kind = Fill;
  std::string colour;  // fill, stroke or token colour
  std::string symbol;  // Badge: the character shown; Token: the seat's label; Text: the text
  std::string text;
};

struct Legend {
  std::string title;               // the game's name
  std::string caption;             // what the position is
  std::vector<Key> seats;          // one Token key per seat
  std::vector<Key> keys;           // regions, marks, flags, tracks, highlights
  std::vector<std::string> lines;  // variables, notes, whose turn or the result
};

// The legend's elements from `top` down, `width` wide; `height` gets how far down it reaches.
std::string legend(const Legend& l, double top, double width, double& height);

// The wells of `display VAR` (an int per player), one a seat (class="store", data-seat), beside
// the board (svg_stores.cpp): the layout's boxes move and it grows to make room. "" without one.
std::string stores(const compile::Program& p, const runtime::State& s, int first_track, Layout& lay);

}  // namespace keli::render::svg
