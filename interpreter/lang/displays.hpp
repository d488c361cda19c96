// The forms of the `display` line, what each names and what it shows: the checker tells them
// apart by their words and by what the name is, describe words them, and docs/language.md's
// display table lists each (tests/unit/step_view_test.cpp checks that the two agree).
#pragma once

#include <cstdint>

namespace keli::lang {

// X(id, syntax, what the name must be, what it shows)
#define KELI_DISPLAYS(X)                                                                                       \
  X(Values, "display VAR", "a variable per site", "its value in each cell")                                    \
  X(Pieces, "display pieces at F by G", "a piece's site and owner (functions or tables per piece)",            \
    "the pieces on their cells, in their seats' colours")                                                      \
  X(Marks, "display REGION", "a region or track without dimensions", "its empty cells marked")                 \
  X(Stores, "display VAR", "an int variable per player", "a store for each seat beside the board (its count)") \
  X(Hand, "display hand VAR", "an int table per a range of numbers",                                           \
    "the dice still to play (0 once used): the views mark the dice of the throw already used")

enum class Display : uint8_t {
#define KELI_DISPLAY_ID(id, syntax, names, shows) id,
  KELI_DISPLAYS(KELI_DISPLAY_ID)
#undef KELI_DISPLAY_ID
      count_
};

struct DisplayInfo {
  const char* syntax;
  const char* names;  // what the line's name must be
  const char* shows;
};

inline const DisplayInfo& display_info(Display d) {
  static constexpr DisplayInfo kTable[] = {
#define KELI_DISPLAY_ROW(id, syntax, names, shows) {syntax, names, shows},
      KELI_DISPLAYS(KELI_DISPLAY_ROW)
#undef KELI_DISPLAY_ROW
  };
  return kTable[static_cast<int>(d)];
}

}  // namespace keli::lang
