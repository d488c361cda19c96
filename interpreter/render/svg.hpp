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
  // The label the moves name each site's first piece of each seat by (piece_labels): drawn on
  // the disc in place of the seat's initial. Empty: initials.
  std::vector<std::vector<std::string>> piece_labels;
};

// Every site is one element with class="site" and data-site="N" (its number).
std::string board_svg(const compile::Program& p, const runtime::State& s, const SvgOptions& options = {});

// The sites whose picture differs between two states: displayed value, flags or pieces.
std::vector<int> changed_sites(const compile::Program& p, const runtime::State& before, const runtime::State& after);

// Each site's first piece of each seat as the moves name it (Game::piece_label: "S1"), "" where
// none stands: [site][seat].
std::vector<std::vector<std::string>> piece_labels(runtime::Game& g, const runtime::State& s);

// The sites a move names (its site parameters) or, naming none (a piece, a die), those it changes:
// what a click on the board picks it by (the playground and the game site's page).
std::vector<int> move_sites(const compile::Program& p, runtime::Game& g, const runtime::State& s,
                            const runtime::Move& m);

}  // namespace keli::render
