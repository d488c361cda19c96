// Where each site of any board goes in a picture: its centre, size and turn in pixels, worked
// out from the sites' own coordinates alone (the language gives no cell sizes or shapes).
#pragma once

#include <vector>

#include "compile/program.hpp"

namespace keli::render {

struct SiteBox {
  double cx = 0, cy = 0;  // centre, pixels
  double size = 0;        // side of the cell's square, pixels
  double angle = 0;       // degrees: the cell is turned to line up with its nearest neighbour
};

struct Layout {
  std::vector<SiteBox> boxes;    // per site
  double cell = 0;               // pixels for the usual distance between neighbouring sites
  double width = 0, height = 0;  // of the board area, margins included
  int shared_places = 0;         // places holding more than one site (drawn side by side there)
  bool no_positions = false;     // every site at one point: laid out in index order instead
};

// `max_px`: the longer side of the board area is scaled to at most this many pixels.
Layout lay_out(const compile::Program& p, double max_px);

}  // namespace keli::render
