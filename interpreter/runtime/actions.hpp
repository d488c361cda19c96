// Stable action ids (docs/actions.md): every move a game can make is one integer, from its rule
// and arguments; every outcome of a throw is one integer too. The one mapping the step protocol,
// moves files, describe and the Python module share; also returns from places.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compile/program.hpp"
#include "runtime/game.hpp"

namespace keli::runtime {

// A rule's ids: first .. first+count-1. Its id of arguments (a1, ..., an) is first plus a
// mixed-radix number, the first parameter most significant: each digit the argument less its
// parameter's id_low, the radix its id_count (compile/program.hpp).
struct RuleIds {
  int64_t first = 0, count = 0;
};

class ActionSpace {
 public:
  // Throws diag::Error (E209) when the game has more than kMaxActionIds distinct ids.
  explicit ActionSpace(const compile::Program& p);

  int64_t num_distinct_actions() const { return total_; }
  const RuleIds& rule(int r) const { return rules_[r]; }
  // The most outcomes of any dice set: chance outcome ids are 0 .. this-1.
  int64_t max_chance_outcomes() const { return max_outcomes_; }

  // The id of m. Throws diag::Error (E601) when an argument lies outside its parameter's id
  // values (a range known only in play, beyond kOpenRangeIdValues).
  int64_t id(const Move& m) const;
  // The rule and arguments id stands for; false when it is no id of this game.
  bool move(int64_t id, Move& out) const;

  // A throw's id is its outcome's index in the dice set's outcomes (describe lists them): the
  // index of `values`, or -1 when the dice cannot fall so.
  static int64_t outcome_id(const compile::DiceSet& d, const std::vector<int32_t>& values);

 private:
  const compile::Program& p_;
  std::vector<RuleIds> rules_;
  int64_t total_ = 0, max_outcomes_ = 0;
};

// Returns per seat from the final places, OpenSpiel's zero-sum shape (docs/actions.md): place k
// of n (k = 0 first) is worth 1 - 2k/(n-1); seats sharing places (partners, draws) share their
// mean, unplaced seats the places left; then all are scaled so that the largest in size is 1 or
// -1. They always sum to 0; all 0 while nobody is placed.
std::vector<double> returns_from_places(const std::vector<int>& places);
// What each seat's result is worth: its points when the game scores points (`points` not empty),
// else returns_from_places.
std::vector<double> returns(const std::vector<int>& places, const std::vector<int>& points);

}  // namespace keli::runtime
