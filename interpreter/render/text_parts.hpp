// Pieces shared by the text boards: board_text's drawing (text.cpp) and keli play's drawing fitted
// to the terminal (terminal.cpp). Internal to interpreter/render/.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "runtime/game.hpp"

namespace keli::render::text {

// A board spanning more units than this either way is drawn as a picture, one character a cell.
constexpr int kLargeSpan = 120;

struct Extent {
  int minx = INT32_MAX, maxx = INT32_MIN, miny = INT32_MAX, maxy = INT32_MIN;
};
Extent extent_of(const compile::Program& p);

// The pieces by label the moves use: labels[site][seat] is that seat's first piece on the site
// (render::piece_labels, svg.hpp).
using Labels = std::vector<std::vector<std::string>>;

// Each site's text, whether it is marked, the pieces on it, and the widest text.
struct Cells {
  std::vector<std::string> text;
  std::vector<bool> marked;
  std::vector<std::vector<int>> held;
  size_t width = 1;
  bool bold = false;
  // Bold (ANSI) around a marked cell, added after padding so that columns stay aligned.
  std::string shown(int i, const std::string& padded) const {
    return bold && marked[i] ? "\033[1m" + padded + "\033[0m" : padded;
  }
};

// What each site shows (site_texts in text.cpp), `marked` sites flagged and, with `brackets`, in
// brackets. `labels` names the pieces (else their seats do); `names` replaces the site labels
// that display games write before their values ("" there: the value alone).
Cells make_cells(const compile::Program& p, const runtime::State& s, const std::vector<int>& marked, bool bold,
                 const Labels* labels, const std::vector<std::string>* names, bool brackets);

// A board that fits: every site at its column and row, texts right-aligned; with coordinates,
// the rows' numbers on the left and the columns' letters below. `row_ends` (by the row's y, when
// given): words written after a drawn row, such as the seat whose row it is.
using RowEnds = std::map<int, std::string>;
std::string grid_board(const compile::Program& p, const Cells& c, const Extent& e, const RowEnds* row_ends = nullptr);

// A large board: one character a cell (cell_letter), then the occupied cells named (board_text's).
std::string compact_board(const compile::Program& p, const Cells& c, const Extent& e);
char cell_letter(const compile::Program& p, const Cells& c, int i);

// The line naming the flags' marks ("(* = closed)") of a game that displays a variable, or "".
std::string flags_legend(const compile::Program& p);

// A value as the variables' lines write it: yes/no, none, or the number.
std::string var_value(const compile::VarInfo& v, int32_t x);

// Items on lines of at most `width` columns (the first line starting with `head`, the others with
// `indent`), separated by `sep`; an item too long for a line is broken after a space or before
// a '+', or else cut.
std::vector<std::string> wrap_items(const std::vector<std::string>& items, size_t width, const std::string& head,
                                    const std::string& indent, const std::string& sep);

// How many columns a drawn line takes: its characters without the ANSI escapes of bold.
size_t shown_width(const std::string& line);

}  // namespace keli::render::text
