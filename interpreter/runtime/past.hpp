// A game's state as the runtime keeps it: the flat slots the compiler lays out, and the positions
// before it that `repetitions` compares with (lang/history.hpp), kept outside the slots. Copies
// share those positions (each is remembered once and never changed), so a copy of a long game
// costs one pointer, its slots never grow with the game, and no author sizes a history table.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "lang/history.hpp"

namespace keli::runtime {

// One remembered position: its key and compared slots (view, for both engines) and the one before.
struct Past {
  Past() = default;
  Past(const Past&) = delete;
  Past& operator=(const Past&) = delete;
  ~Past();  // lets go of a long chain one link at a time, never by a recursion as deep as the game

  lang::PastView view{};
  std::vector<int32_t> parts;
  mutable std::shared_ptr<const Past> before;
};
using PastPtr = std::shared_ptr<const Past>;

inline const lang::PastView* view_of(const PastPtr& p) { return p ? &p->view : nullptr; }

// The chain with s's position after `before`'s; once the history holds h.capacity positions, a
// link that says it overflowed (reading `repetitions` is then an error), without the ones before.
PastPtr remember_position(const int32_t* s, const lang::HistoryLayout& h, const PastPtr& before);

// The memory p's newest link holds (the step protocol charges each step's).
int64_t link_bytes(const PastPtr& p);

// Whether two chains remember the same positions, in the same order.
bool same_past(const PastPtr& a, const PastPtr& b);

class State : public std::vector<int32_t> {
 public:
  using std::vector<int32_t>::vector;
  State() = default;
  State(const std::vector<int32_t>& v) : std::vector<int32_t>(v) {}        // NOLINT: slots alone, no past
  State(std::vector<int32_t>&& v) : std::vector<int32_t>(std::move(v)) {}  // NOLINT

  // The positions before this one, newest first; null for a game that keeps none, or at its start.
  PastPtr past;
};

}  // namespace keli::runtime
