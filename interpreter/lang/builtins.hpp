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

// X(id, name, arity, result, arg0, arg1, where, doc)
#define KELI_BUILTIN_FUNCTIONS(X)                                                                           \
  X(size, "size", 1, Int, Region, Void, Any, "the number of sites in a region or track")                    \
  X(index, "index", 2, Int, Region, Site, Any, "where a site first stands in a track (-1: absent)")         \
  X(next, "next", 2, Site, Region, Site, Any, "the site after s in a track, wrapping round")                \
  X(next_seat, "next_seat", 1, Player, Player, Void, Any, "the next seat in turn order")                    \
  X(abs, "abs", 1, Int, Int, Void, Any, "absolute value")                                                   \
  X(min, "min", 2, Int, Int, Int, Any, "the smaller of two numbers")                                        \
  X(max, "max", 2, Int, Int, Int, Any, "the larger of two numbers")                                         \
  X(new_site, "site", 2, Site, Int, Int, Build, "a new site, drawn at column x, row y")                     \
  X(step, "step", 2, SiteOrNone, Site, Direction, Play, "the site one step from s in direction d, or none") \
  X(ray, "ray", 2, Region, Site, Direction, Play, "the sites beyond s in direction d, nearest first")       \
  X(neighbours, "neighbours", 1, Region, Site, Void, Play, "the sites one step from s, in direction order") \
  X(group, "group", 2, Domain, Void, Site, Play, "the sites joined to s through like cells of a table")     \
  X(border, "border", 2, Domain, Void, Site, Play, "the sites next to group(T, s), outside it")

enum class Builtin : uint8_t {
#define KELI_BUILTIN_ENUM(id, name, arity, res, a0, a1, where, doc) id,
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
};
const BuiltinInfo& builtin_info(Builtin b);
int find_builtin(std::string_view name);  // -1 if none

// Built-in variables and domains: always in scope.
// X(id, name, type, writable, where, doc)
#define KELI_BUILTIN_VARIABLES(X)                                                         \
  X(mover, "mover", Player, true, Play, "the seat whose decision it is")                  \
  X(phase, "phase", Phase, true, Play, "the phase the game is in")                        \
  X(roll, "roll", Int, false, Play, "the values thrown, roll[0] .. (chance phases only)") \
  X(ply, "ply", Int, false, Play, "decisions and chance events so far")                   \
  X(repetitions, "repetitions", Int, false, Play, "times this position stood before")     \
  X(most_dice, "most_dice", Int, false, Any, "the most dice a set of the game throws")    \
  X(sites, "sites", Domain, false, Any, "every site of the board")                        \
  X(seats, "seats", Domain, false, Any, "every seat (player), in turn order")             \
  X(pieces, "pieces", Domain, false, Any, "every piece")                                  \
  X(directions, "directions", Domain, false, Any, "every direction the game declares, in order")

enum class BuiltinVar : uint8_t {
#define KELI_BUILTIN_VAR_ENUM(id, name, type, writable, where, doc) id,
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
