// Every bound the language and its engines enforce, named once. docs/language.md's table of
// safety bounds lists each by name and value; a test (tests/unit/vocabulary_test.cpp) checks
// that the two agree.
#pragma once

#include <cstdint>

namespace keli::lang {

// X(type, name, value, what it bounds)
#define KELI_LIMITS(X)                                                                                          \
  /* definitions and calls */                                                                                   \
  X(int, kMaxArgs, 8, "parameters of a def, shape, event or handler")                                           \
  X(int, kMaxMoveParams, 4, "parameters of one move rule")                                                      \
  X(int, kMaxMemoArgs, 3, "arguments of a definition whose values are remembered during move generation")       \
  X(int, kMemoSlots, 256, "values remembered per remembered definition")                                        \
  X(int, kMaxInlineNodes, 64, "nodes of an expression definition the optimizer inlines")                        \
  X(int, kMaxCallDepth, 200, "nested calls, and separately nested event handlers")                              \
  X(int, kMaxNesting, 200, "brackets, blocks and prefix operators inside one another; levels of an expression") \
  /* tables and dice */                                                                                         \
  X(int, kMaxTableDims, 4, "index dimensions of a table")                                                       \
  X(int, kMaxDice, 8, "dice in one set")                                                                        \
  X(int, kMaxDiceCopies, 8, "copies in `N of {...}`")                                                           \
  X(int64_t, kMaxThrows, 1'000'000, "ways one set of dice can fall (the product of its face counts)")           \
  X(int, kMaxTableCells, 16'777'216, "cells of one table, and of all state (or constant) tables together")      \
  /* the game */                                                                                                \
  X(int, kMaxSites, 4096, "sites a board may make")                                                             \
  X(int, kMaxPlayers, 64, "seats of one game")                                                                  \
  X(int, kMaxDirections, 16, "directions a game declares")                                                      \
  X(int, kMaxPieces, 4096, "pieces of one game")                                                                \
  /* play */                                                                                                    \
  X(int64_t, kMaxLoopIterations, 10'000'000, "rounds of one while loop, or values of one range")                \
  X(int, kDefaultMoveLimit, 1'000'000, "decisions in a game that declares no `limit moves`")                    \
  X(int64_t, kMaxMoveTries, 20'000'000, "parameter values one move rule tries in one listing of the moves")     \
  X(int, kDefaultHistory, 100'000, "positions `repetitions` remembers in a game without `limit history`")       \
  X(int, kMaxHistory, 1'000'000, "the largest `limit history`")                                                 \
  X(int64_t, kMaxCollectionValues, 65'536, "values a local list or set may hold (its range's size)")            \
  X(int64_t, kMaxCollectionSlots, 1'048'576, "local slots the local lists and sets of one game take together")  \
  X(int, kMaxDistinctKeys, 4096, "different keys of one `distinct by` parameter in one listing of the moves")   \
  /* work per step: loop rounds, domain elements, calls (runtime/machine.hpp says what counts) */               \
  X(int64_t, kDefaultWorkBudget, 100'000'000, "units of work in one step of a game without `limit work`")       \
  X(int64_t, kMaxWorkBudget, 1'000'000'000, "the largest budget `limit work` or --budget may set")              \
  /* numbers: literals and state slots are 32-bit */                                                            \
  X(int64_t, kMaxLiteral, 2147483647, "the largest integer literal (-2147483648 is allowed)")                   \
  /* the command line and its files */                                                                          \
  X(int64_t, kMaxGames, 1'000'000'000'000, "games of one simulate, match or bench run (-n, --games)")           \
  X(int, kMaxThreads, 1024, "threads of one simulate or match run (--threads)")                                 \
  X(int, kMaxShards, 1'000'000, "shards one simulate run may be split into (--shard I/N)")                      \
  X(int64_t, kMaxMpiChunk, 16, "games an MPI rank is handed at once (fewer near the end of a run)")             \
  X(int64_t, kMaxSeconds, 1'000'000, "seconds of one bench run (--seconds)")                                    \
  X(int, kMaxSymlinkHops, 40, "symbolic links followed to reach an output file")                                \
  X(int64_t, kMaxSourceBytes, 4'194'304, "bytes of one game, library, scenario or parameters file")             \
  X(int, kMaxTempFiles, 16, "output files being written at once that a stopping signal cleans up")              \
  X(int64_t, kOutputChunkBytes, 65'536, "bytes of whole lines an output file gathers before writing them")      \
  X(int64_t, kOutputFlushMs, 1'000, "milliseconds whole lines may wait in an output file before written")       \
  X(int64_t, kMaxYamlNodes, 1'000'000, "values of one scenario file, each use of an alias counted")             \
  /* the native engine's build of a game's module */                                                            \
  X(int, kMaxCompileSeconds, 600, "seconds the C++ compiler may take to build one game's native module")        \
  X(int64_t, kMaxToolOutput, 65'536, "bytes of the compiler's messages kept when a build fails")                \
  /* programs driving a game: action ids, the step protocol, moves files */                                     \
  X(int64_t, kOpenRangeIdValues, 65'536, "values an action id gives a move parameter known only in play")       \
  X(int64_t, kMaxActionIds, 9'007'199'254'740'992, "distinct action ids of one game (2^53: exact as a double)") \
  X(int64_t, kMaxStepLine, 1'048'576, "bytes of one line of a step session or moves file")                      \
  X(int, kMaxStepHandles, 10'000, "states one step session keeps by handle (clone)")                            \
  X(int64_t, kMaxStepMemory, 1'073'741'824, "bytes one step session keeps for undo and for its clones")         \
  X(int, kMaxJsonDepth, 64, "arrays and objects inside one another in any JSON Keli reads")                     \
  /* the game site (keli serve) */                                                                              \
  X(int64_t, kMaxServeMessage, 65'536, "bytes of one WebSocket message or HTTP request to keli serve")          \
  X(int, kMaxServeMessagesPerSecond, 20, "messages one connection may send a second (a burst of as many)")      \
  X(int, kMaxServeRoomsPerAddress, 20, "rooms being played one network address may hold at once")               \
  X(int, kMaxServeRooms, 10'000, "rooms being played one server holds")                                         \
  X(int, kMaxServeConnections, 4'096, "connections one server holds open at once")                              \
  X(int, kMaxServeName, 40, "characters of a player's name")

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
