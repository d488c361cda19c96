// Every bound the language and its engines enforce, named once. docs/language.md's table of
// limits lists each with the error that reports it; a test checks the two agree.
#pragma once

#include <cstdint>

namespace keli::lang {

// Definitions and calls.
inline constexpr int kMaxArgs = 8;            // parameters of a def, shape, event or handler
inline constexpr int kMaxMoveParams = 4;      // parameters of one move rule
inline constexpr int kMaxMemoArgs = 3;        // a definition with more arguments is never memoised
inline constexpr int kMemoSlots = 256;        // remembered values per memoised definition
inline constexpr int kMaxInlineNodes = 64;    // the optimizer inlines expression defs up to this size
inline constexpr int kMaxCallDepth = 200;     // nested calls, and separately nested event handlers

// Tables and dice.
inline constexpr int kMaxTableDims = 2;       // index dimensions of a table
inline constexpr int kMaxDice = 8;            // dice in one set
inline constexpr int kMaxDiceCopies = 8;      // `N of {...}`

// Play.
inline constexpr int64_t kMaxLoopIterations = 10'000'000;  // rounds of one loop, or one range's length
inline constexpr int kMaxSites = 4096;                     // sites a board may make
inline constexpr int kDefaultMoveLimit = 1'000'000;        // decisions in a game with no `limit moves`

// Numbers: literals and state slots are 32-bit.
inline constexpr int64_t kMaxLiteral = INT32_MAX;

}  // namespace keli::lang
