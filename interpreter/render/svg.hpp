// The board as an SVG picture: one shape per site placed by the board's own coordinates, regions
// tinted, marked cells crossed, the first instance of each track as a faint line, the displayed
// counts or the pieces of a position, and a legend. Works for any board the language builds.
#pragma once

#include <string>
#include <vector>

#include "runtime/game.hpp"

namespace keli::render {

struct SvgOptions {
  // Region tables (Program::region_tables) from this index on are tracks; -1: none are. The
  // program does not say which are which, the checked game does (its `regions` come first).
  int first_track = -1;
  std::vector<int> highlight;  // sites drawn with a strong outline (those the last move named)
  std::string highlight_meaning = "named by the last move";  // the legend's words for them
  std::string caption;  // what the position is, e.g. "start position" or "after ply 40"
};

// Every site is one element with class="site" and data-site="N" (its number).
std::string board_svg(const compile::Program& p, const runtime::State& s, const SvgOptions& options = {});

// The sites whose picture differs between two states: displayed value, flags or pieces.
std::vector<int> changed_sites(const compile::Program& p, const runtime::State& before, const runtime::State& after);

}  // namespace keli::render
