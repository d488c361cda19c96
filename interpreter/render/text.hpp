// The board as text for the terminal: sites placed by their drawing coordinates, each with its
// label and the displayed variable, then the other variables and whose turn it is.
#pragma once

#include <string>
#include <vector>

#include "runtime/game.hpp"

namespace keli::render {

// `marked` sites (for example those the last move touched) are drawn in brackets, and also in
// bold (ANSI escapes) with `bold`, for a terminal.
std::string board_text(const compile::Program& p, const runtime::State& s, const std::vector<int>& marked = {},
                       bool bold = false);
// The same with the pieces by their labels as the moves name them (Game::piece_label): on each
// cell the first piece of each seat standing there, and how many when more: `S3`, `S3x2`.
std::string board_text(runtime::Game& g, const runtime::State& s, const std::vector<int>& marked = {},
                       bool bold = false);

// Counts of each seat's pieces per site (an empty list where none stand), from the game's
// `display pieces at F by G`; every list empty when the game displays no pieces.
std::vector<std::vector<int>> pieces_by_site(const compile::Program& p, const runtime::State& s);

}  // namespace keli::render
