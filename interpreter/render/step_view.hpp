// What a view of a game says of its last steps besides the picture: the dice of the last throw
// and which of them are used, and the way each piece went in the last step. One place for the
// game site's rooms (serve/room.cpp) and the playground (web/src/playground.cpp), which write the
// same fields (docs/serve.md, "The protocol").
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <vector>

#include "check/checker.hpp"
#include "compile/program.hpp"
#include "runtime/past.hpp"

namespace keli::render {

// The region tables from this index on are the game's tracks (SvgOptions::first_track); -1: none.
int first_track(const check::Checked& ck);

// Where each piece of `display pieces at F by G` stands: its site and owner, both -1 when either
// is out of range (a piece not on the board is not drawn). Empty without `display pieces`.
struct PiecePlace {
  int site = -1, owner = -1;
};
std::vector<PiecePlace> piece_places(const compile::Program& p, const runtime::State& s);

// A piece that changed site in a step and the sites it went through, its old site first and its
// new one last: along a track instance that holds both, the old one first (the owner's instance
// when several do, else the one giving the shortest way); else just the two sites. A piece the
// step's mover does not own (one sent back) jumps; one taken off or put on the board has a path
// of its one site on the board.
struct Slide {
  int piece = 0;
  std::vector<int> path;
};
std::vector<Slide> slides(const compile::Program& p, int first_track, const runtime::State& before,
                          const runtime::State& after);

// The dice a view shows for the last throw: with `display hand VAR`, the dice VAR held right after
// the throw (a double played four times is four dice), a die used when VAR no longer holds its
// value (the first of equal dice used first); else the thrown values, all used once a move has
// been made since the throw (`moved`): which die a move used is not known then.
struct ShownDice {
  std::vector<int32_t> values;
  std::vector<bool> used;
};
ShownDice shown_dice(const compile::Program& p, const std::vector<int32_t>& thrown, const runtime::State& after_throw,
                     const runtime::State& now, bool moved);

// A view's fields: "dice" and "dice_used"; "slides" ([{"piece", "path"}]), left out when empty.
void write_dice(nlohmann::json& view, const ShownDice& dice);
void write_slides(nlohmann::json& view, const std::vector<Slide>& slides);

}  // namespace keli::render
