// The board as text for the terminal: sites placed by their drawing coordinates, each with its
// label and the displayed variable, then the other variables and whose turn it is; and keli
// play's screen: the board fitted to the terminal's size and the state in words.
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

// The variables the board does not draw, one line each ("pos: 6 7 11 ..."), and with `turn`
// whose turn it is: what board_text writes under the board, and keli play --debug.
std::string variables_text(const compile::Program& p, const runtime::State& s, bool turn = true);

// The size of a terminal: columns, and lines (rows) of text.
struct Screen {
  int columns = 80, rows = 24;
};

// keli play's board, at most `box.columns` wide and, where the board allows, `box.rows` lines:
// board_text's grid when it fits; else a compact grid (narrower cells: a cell holding several
// pieces shows its first piece's label and '+', `S3+`, the stacks listed under the board);
// else, for a large board or one whose grid is still too wide, a picture of one character a
// cell beside (or above) the occupied cells by name. Pieces by their labels (Game::piece_label)
// and holes by the names the moves give them (`sow hole 3`: the moves' hole 3, with the seat
// whose row it is at the row's end). No variables: status_line says the state in words.
std::string terminal_board(runtime::Game& g, const runtime::State& s, const std::vector<int>& marked, bool bold,
                           const Screen& box);

// The state in words, wrapped to `columns`: whose turn it is and the phase, the dice in hand
// (the stdlib's `die`, or a `throw`), where the mover's pieces stand as the moves count (`S1 at
// 6`), the tables per seat (stores, points; yes/no tables name the seats that have yes) and the
// single values that are set; "Game over." at the end.
std::string status_line(runtime::Game& g, const runtime::State& s, int columns);

// keli play's list of the offered moves, "Your moves:  1) ...  2) ...", or its only move and how to
// play it, on lines of at most `columns`.
std::string moves_text(const std::vector<runtime::Game::Choice>& offered, int columns);

// keli play's screen after a move or at a decision: the board fitted to the lines `screen` leaves
// once the status line, `raw` (the variables' lines of --debug, or "") and `below` lines (the
// moves and the prompt) are counted, then `raw` and the status line.
std::string play_screen(runtime::Game& g, const runtime::State& s, const std::vector<int>& marked, bool bold,
                        const Screen& screen, const std::string& raw, int below);

// A text's words on lines of at most `columns`, the first after `head`, the others indented by two.
std::string wrap_words(const std::string& text, int columns, const std::string& head = "");

// Counts of each seat's pieces per site (an empty list where none stand), from the game's
// `display pieces at F by G`; every list empty when the game displays no pieces.
std::vector<std::vector<int>> pieces_by_site(const compile::Program& p, const runtime::State& s);

}  // namespace keli::render
