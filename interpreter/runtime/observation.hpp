// The observation tensor (docs/python.md, "Observations"): a state's visible slots as numbers
// from one seat's point of view, laid out in named parts derived from the game file's tables, so
// that no game needs a hand-written encoding. The observer is turned to seat 0's place: seats
// counted from the observer, its pieces first, and the board rotated where the game's per-seat
// regions, tracks and site tables agree on one rotation.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compile/program.hpp"
#include "runtime/game.hpp"

namespace keli::runtime {

// One named part of the tensor: its place in the flat tensor and its shape (row-major).
struct ObservationPart {
  std::string name;
  int offset = 0;
  std::vector<int> shape;
  std::string what;  // how its numbers read, for describe and the docs
};

class Observer {
 public:
  // The layout of `g`'s program, its pieces' owners read from the initial state.
  explicit Observer(Game& g);
  // `piece_owner[pc]`: the seat owning each piece in the initial state (-1: none or unknown).
  Observer(const compile::Program& p, std::vector<int> piece_owner);

  const std::vector<ObservationPart>& parts() const { return parts_; }
  int size() const { return size_; }
  // Whether a seat's view turns the board (else sites keep their order for every seat).
  bool rotates_board() const { return !site_map_.empty(); }
  // Writes the tensor of `slots` (a state's visible slots) as `seat` sees it: size() numbers.
  void write(const int32_t* slots, int seat, float* out) const;

 private:
  void build(const std::vector<int>& piece_owner);
  void find_site_rotation();
  void order_pieces(const std::vector<int>& piece_owner);
  void lay_out();
  // Where the observer `seat` sees element `index` of a dimension of `kind` (`n` elements).
  int seen_at(lang::DimKind kind, int index, int seat) const;
  // The element of a dimension of `kind` shown at `place` for `seat`: seen_at's inverse.
  int shown_from(lang::DimKind kind, int place, int seat) const;
  void write_var(const compile::VarInfo& v, const int32_t* slots, int seat, float* out) const;

  const compile::Program& p_;
  // site_map_[seat][site]: the site that plays `site`'s part for `seat` (seat 0: itself);
  // site_seen_[seat] its inverse. Empty when the board has no rotation.
  std::vector<std::vector<int>> site_map_, site_seen_;
  // piece_map_[seat][k]: the piece shown k-th to `seat` (its own first, then the next seat's...);
  // piece_seen_[seat] its inverse.
  std::vector<std::vector<int>> piece_map_, piece_seen_;
  std::vector<ObservationPart> parts_;
  int size_ = 0;
};

}  // namespace keli::runtime
