// Every bound the language and its engines enforce, named once. docs/language.md's table of
// safety bounds lists each by name and value; a test (tests/unit/vocabulary_test.cpp) checks
// that the two agree.
#pragma once

#include <cstdint>

namespace keli::lang {

// X(type, name, value, what it bounds)
#define KELI_LIMITS(X)                                                                                    \
  /* definitions and calls */                                                                             \
  X(int, kMaxArgs, 8, "parameters of a def, shape, event or handler")                                     \
  X(int, kMaxMoveParams, 4, "parameters of one move rule")                                                \
  X(int, kMaxMemoArgs, 3, "arguments of a definition whose values are remembered during move generation") \
  X(int, kMemoSlots, 256, "values remembered per remembered definition")                                  \
  X(int, kMaxInlineNodes, 64, "nodes of an expression definition the optimizer inlines")                  \
  X(int, kMaxCallDepth, 200, "nested calls, and separately nested event handlers")                        \
  /* tables and dice */                                                                                   \
  X(int, kMaxTableDims, 2, "index dimensions of a table")                                                 \
  X(int, kMaxDice, 8, "dice in one set")                                                                  \
  X(int, kMaxDiceCopies, 8, "copies in `N of {...}`")                                                     \
  /* the game */                                                                                          \
  X(int, kMaxSites, 4096, "sites a board may make")                                                       \
  X(int, kMaxPlayers, 64, "seats of one game")                                                            \
  X(int, kMaxPieces, 4096, "pieces of one game")                                                          \
  /* play */                                                                                              \
  X(int64_t, kMaxLoopIterations, 10'000'000, "rounds of one while loop, or values of one range")          \
  X(int, kDefaultMoveLimit, 1'000'000, "decisions in a game that declares no `limit moves`")              \
  /* work per step: loop rounds, elements visited, calls (runtime/machine.hpp says what counts) */        \
  X(int64_t, kDefaultWorkBudget, 100'000'000, "units of work in one step of a game without `limit work`") \
  X(int64_t, kMaxWorkBudget, 1'000'000'000, "the largest budget `limit work` or --budget may set")        \
  /* numbers: literals and state slots are 32-bit */                                                      \
  X(int64_t, kMaxLiteral, 2147483647, "the largest integer literal (-2147483648 is allowed)")

#define KELI_LIMIT_CONSTANT(type, name, value, what) inline constexpr type name = value;
KELI_LIMITS(KELI_LIMIT_CONSTANT)
#undef KELI_LIMIT_CONSTANT

struct LimitInfo {
  const char* name;
  int64_t value;
  const char* what;
};
inline constexpr LimitInfo kLimits[] = {
#define KELI_LIMIT_ROW(type, name, value, what) {#name, value, what},
    KELI_LIMITS(KELI_LIMIT_ROW)
#undef KELI_LIMIT_ROW
};

}  // namespace keli::lang
