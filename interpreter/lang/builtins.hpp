// The one table of built-in functions, variables and domains, with their types and where they may
// be used. Adding a built-in means a row here and a case in each engine's evaluator
// (runtime/machine.cpp; the native emitter).
#pragma once

#include <iterator>
#include <string_view>

#include "lang/types.hpp"

namespace keli::lang {

// Where a name may be used: anywhere, only while building the board, or only during play.
enum class Where : uint8_t { Any, Build, Play };

// X(id, name, arity, result, arg0, arg1, where, doc, words); `words` is the call in a rulebook's
// English (keli rules), {0} and {1} its arguments.
#define KELI_BUILTIN_FUNCTIONS(X)                                                                                      \
  X(size, "size", 1, Int, Region, Void, Any, "the number of sites in a region or track", "the number of sites in {0}") \
  X(index, "index", 2, Int, Region, Site, Any, "where a site first stands in a track (-1: absent)",                    \
    "the place of {1} in {0} (counting from 0; -1 when it is not there)")                                              \
  X(next, "next", 2, Site, Region, Site, Any, "the site after s in a track, wrapping round",                           \
    "the site after {1} in {0}")                                                                                       \
  X(next_seat, "next_seat", 1, Player, Player, Void, Any, "the next seat in turn order", "the player after {0}")       \
  X(abs, "abs", 1, Int, Int, Void, Any, "absolute value", "the absolute value of {0}")                                 \
  X(min, "min", 2, Int, Int, Int, Any, "the smaller of two numbers", "the smaller of {0} and {1}")                     \
  X(max, "max", 2, Int, Int, Int, Any, "the larger of two numbers", "the larger of {0} and {1}")                       \
  X(new_site, "site", 2, Site, Int, Int, Build, "a new site, drawn at column x, row y",                                \
    "a new site at column {0}, row {1}")                                                                               \
  X(step, "step", 2, SiteOrNone, Site, Direction, Play, "the site one step from s in direction d, or none",            \
    "the site one step from {0} toward {1} (none off the board)")                                                      \
  X(ray, "ray", 2, Region, Site, Direction, Play, "the sites beyond s in direction d, nearest first",                  \
    "the sites in a line from {0} toward {1}, nearest first")                                                          \
  X(neighbours, "neighbours", 1, Region, Site, Void, Play, "the sites one step from s, in direction order",            \
    "the sites next to {0}")                                                                                           \
  X(group, "group", 2, Domain, Void, Site, Play, "the sites joined to s through like cells of a table",                \
    "the sites joined to {1} through sites of the same {0}")                                                           \
  X(border, "border", 2, Domain, Void, Site, Play, "the sites next to group(T, s), outside it",                        \
    "the sites bordering the group of sites of the same {0} as {1}")

enum class Builtin : uint8_t {
#define KELI_BUILTIN_ENUM(id, name, arity, res, a0, a1, where, doc, words) id,
  KELI_BUILTIN_FUNCTIONS(KELI_BUILTIN_ENUM)
#undef KELI_BUILTIN_ENUM
      count_
};

struct BuiltinInfo {
  Builtin id;
  const char* name;
  int arity;
  Type result;
  Type args[2];
  Where where;
  const char* doc;
  const char* words;
};
const BuiltinInfo& builtin_info(Builtin b);
int find_builtin(std::string_view name);  // -1 if none

// Built-in variables and domains: always in scope.
// X(id, name, type, writable, where, doc, words); `words`: the name in a rulebook's English.
#define KELI_BUILTIN_VARIABLES(X)                                                                                      \
  X(mover, "mover", Player, true, Play, "the seat whose decision it is", "the mover")                                  \
  X(phase, "phase", Phase, true, Play, "the phase the game is in", "the phase being played")                           \
  X(roll, "roll", Int, false, Play, "the values thrown, roll[0] .. (chance phases only)", "the dice thrown")           \
  X(ply, "ply", Int, false, Play, "decisions and chance events so far", "the number of decisions and throws so far")   \
  X(repetitions, "repetitions", Int, false, Play, "times this position stood before",                                  \
    "the number of times this position has stood before")                                                              \
  X(most_dice, "most_dice", Int, false, Any, "the most dice a set of the game throws", "the most dice thrown at once") \
  X(sites, "sites", Domain, false, Any, "every site of the board", "the sites of the board")                           \
  X(seats, "seats", Domain, false, Any, "every seat (player), in turn order", "the players")                           \
  X(pieces, "pieces", Domain, false, Any, "every piece", "the pieces")                                                 \
  X(directions, "directions", Domain, false, Any, "every direction the game declares, in order", "the directions")

enum class BuiltinVar : uint8_t {
#define KELI_BUILTIN_VAR_ENUM(id, name, type, writable, where, doc, words) id,
  KELI_BUILTIN_VARIABLES(KELI_BUILTIN_VAR_ENUM)
#undef KELI_BUILTIN_VAR_ENUM
      count_
};

struct BuiltinVarInfo {
  BuiltinVar id;
  const char* name;
  Type type;
  bool writable;
  Where where;
  const char* doc;
  const char* words;
};
const BuiltinVarInfo& builtin_var_info(BuiltinVar v);
int find_builtin_var(std::string_view name);

// The board's geometry (docs/language.md, "Directions and coordinates"): built-ins only in a game
// that declares `directions`; elsewhere, and wherever a game defines the name itself, ordinary
// names (so files written before them keep their own `ray` or `step`).
inline bool is_geometry_name(std::string_view name) {
  return name == "step" || name == "ray" || name == "neighbours" || name == "directions" || name == "group" ||
         name == "border";
}
// The searches, whose first argument names a table of the state with a cell per site (its `Void`
// above), and whose result is a domain of sites, for loops and aggregates only.
inline bool is_search(Builtin b) { return b == Builtin::group || b == Builtin::border; }

// Limits a game may declare with `limit NAME N` (at most one of each per file; a variant's wins).
#define KELI_GAME_LIMITS(X)                                                                            \
  X(moves, "moves", "decisions in a whole game; reaching it ends the game unfinished")                 \
  X(work, "work", "units of work in one step (loop rounds, domain elements, calls); more is an error") \
  X(history, "history", "positions `repetitions` remembers in one game; more is an error")             \
  X(points, "points", "the most points a seat scores, or loses, in one game (a game with points must say)")

enum class GameLimit : uint8_t {
#define KELI_GAME_LIMIT_ENUM(id, name, doc) id,
  KELI_GAME_LIMITS(KELI_GAME_LIMIT_ENUM)
#undef KELI_GAME_LIMIT_ENUM
};
inline constexpr std::string_view kGameLimitNames[] = {
#define KELI_GAME_LIMIT_NAME(id, name, doc) name,
    KELI_GAME_LIMITS(KELI_GAME_LIMIT_NAME)
#undef KELI_GAME_LIMIT_NAME
};
// The limit called `name`, or -1.
inline int find_game_limit(std::string_view name) {
  for (size_t i = 0; i < std::size(kGameLimitNames); ++i)
    if (kGameLimitNames[i] == name) return static_cast<int>(i);
  return -1;
}

}  // namespace keli::lang
