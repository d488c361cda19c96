// How `end_game` ranks the seats not yet placed (docs/language.md, "Ending the game"): one meaning
// for both engines. The interpreter calls it; the native engine's generated C++ pastes this header
// and calls it too. Header-only and free of other Keli headers, so generated code can include it.
#pragma once

#include <cstdint>

namespace keli::lang {

// Every seat whose place is 0 (not yet placed) gets `next` plus the number of such seats with a
// higher score: equal scores share a place and the places after them are skipped; without a
// score (all 0) the unplaced seats share `next`. Seats already placed keep their places and do
// not compete. `places` and `score` have `players` entries, at most 64 (kMaxPlayers): one bit of
// `open` a seat, so the ranking needs no other storage.
inline void place_unplaced(int32_t* places, int players, int32_t next, const int64_t* score) {
  uint64_t open = 0;
  for (int pl = 0; pl < players; ++pl)
    if (places[pl] == 0) open |= uint64_t{1} << pl;
  for (int pl = 0; pl < players; ++pl) {
    if (!(open >> pl & 1)) continue;
    int32_t better = 0;
    for (int q = 0; q < players; ++q)
      if ((open >> q & 1) && score[q] > score[pl]) ++better;
    places[pl] = next + better;
  }
}

}  // namespace keli::lang
