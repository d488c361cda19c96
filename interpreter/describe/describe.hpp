// keli describe: what a game file defines, in plain words, for a rule author or a player. A
// Description is built once from the checked file and the program compiled with the chosen
// parameters, then printed as text (sections, aligned columns) or as one JSON object.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "runtime/observation.hpp"

#include "ast/ast.hpp"
#include "compile/program.hpp"
#include "runtime/observation.hpp"
#include "session/game_file.hpp"

namespace keli::describe {

// One thing a variant changes from its base.
struct Change {
  std::string action;    // "sets" (a parameter's default), "replaces" or "adds"
  std::string kind;      // parameter, def, phase, var, board, handler, setup, invariant, ...
  std::string name;      // may be empty (a setup block)
  std::string from, to;  // "sets": the base's default and the new one
};

struct Param {
  std::string name;
  std::string type;                       // bool, choice, int, "int in 3..12", "int in {4, 8, 16}"
  std::string range;                      // "3..12" for an int in a range
  std::string default_value, value, doc;  // value: the one in effect
  std::vector<std::string> allowed;       // every allowed value; empty for an int (see range)
  bool safety = false;                    // declared in the `safety { }` block: a bound, not a rule
};

struct Region {
  std::string name;
  bool track = false;
  std::string dims;        // "per 0..15", "per player", or empty
  std::vector<int> sizes;  // sites in each instance
  bool marked = false;     // `display NAME`: its empty sites are drawn marked
};

struct Throw {
  std::vector<int32_t> values;
  int64_t weight = 0;
};

struct Dice {
  std::string name;
  std::vector<std::vector<int32_t>> faces;          // one list per die
  bool identical = false;                           // throws are sorted, equal ones merged
  bool ordered = false;                             // declared `ordered`: each die's value in place
  int64_t total_weight = 1;                         // a throw's probability is weight / total_weight
  std::vector<Throw> throws;                        // every distinct throw
  std::vector<std::pair<int64_t, int64_t>> totals;  // sum of the values -> weight, ascending
  std::vector<std::string> thrown_in;               // chance phases that throw this set now
};

struct Rule {
  std::string name;
  std::vector<std::string> params;  // "pc in pieces where owner[pc] == mover"
};

struct Phase {
  std::string name;
  std::string dice;       // chance phase: the set thrown with these parameters
  std::string dice_expr;  // chance phase: the dice as written, when it depends on parameters
  std::vector<Rule> rules;
  std::string otherwise;  // the otherwise rule's name, or empty
};

struct Event {
  std::string name;
  std::vector<std::string> formals;   // "h: site"
  std::vector<std::string> handlers;  // "on dropped(h) when counters[h] == 4"
};

struct Var {
  std::string name, type, shape;  // shape: "per site per player", or empty
  int slots = 0;
};

// The game's action ids (runtime/actions.hpp, docs/actions.md): each rule's block of ids.
struct ActionParam {
  std::string name;
  int64_t low = 0, count = 0;  // the values its digit stands for: low .. low+count-1
};
struct ActionRule {
  std::string name, phase;
  int64_t first = 0, count = 0;
  std::vector<ActionParam> params;
};
struct Actions {
  int64_t num_distinct_actions = 0;
  int64_t max_chance_outcomes = 0;  // chance outcome ids: a throw's index in its dice's throws
  std::vector<ActionRule> rules;
  std::string error;  // the game has more ids than kMaxActionIds: why, and no rules
};

struct Description {
  std::string game, file;
  std::vector<std::pair<std::string, std::string>> about;
  bool variant = false;
  std::string base_file, base_game;
  std::vector<Change> changes;

  std::vector<std::string> seats;
  std::vector<std::vector<std::string>> teams;  // empty when every seat plays alone
  int pieces = 0;
  std::vector<int> pieces_per_seat;  // by owner at the start; empty when unknown
  bool points = false;               // the game scores points (`end_game ... points NAME`)
  int32_t points_limit = 0;          // `limit points N`: they lie in -N..N

  int sites = 0;
  std::vector<std::string> shapes;   // shapes the board code calls, in order
  std::vector<Region> regions;       // regions, then tracks, in declared order
  std::vector<std::string> display;  // what the text board shows, one line each
  // The board's geometry: each direction as `NAME (dx, dy)`, and how sites are named
  // (`coordinates from top`), empty without.
  std::vector<std::string> directions;
  std::string coordinates;

  std::vector<Dice> dice;
  std::vector<Param> params;

  std::vector<Phase> phases;
  Actions actions;
  std::vector<Event> events;
  int setups = 0;
  std::vector<Var> vars;
  int fixed_slots = 0;  // mover, phase, counters, places (and points) kept in every state
  // The observation tensor (runtime/observation.hpp): its parts in order, its size, and whether
  // each seat sees the board turned to its side.
  std::vector<runtime::ObservationPart> observation;
  int observation_size = 0;
  bool observation_turns_board = false;
  int state_slots = 0;  // all of them
  std::vector<std::string> invariants;
  // The safety bounds (`limit` lines, in the `safety { }` block or outside it): what the game
  // declares, else Keli's own; the history only for a game that keeps one.
  int move_limit = 0;
  bool limit_declared = false;  // false: Keli's own bound
  int64_t work_budget = 0;
  bool work_declared = false;
  int64_t history = 0;  // positions remembered; 0: the game keeps no history
};

// Builds the description of `g` compiled as `p`. Never throws for a compiled game.
Description describe(const GameFile& g, const std::shared_ptr<const compile::Program>& p);

// The changes a variant makes to its base, from the AST modules of a fresh load of `path`
// (checking moves a variant's parameter values into its base, so the checked AST no longer
// shows the base's defaults). Empty for a game that extends nothing.
std::vector<Change> variant_changes(const std::string& path, std::string& base_game);

// An expression as Keli source, with only the parentheses it needs.
std::string expr_text(const ast::Expr& e);

// A probability weight/total as a reduced fraction, e.g. "1/8".
std::string fraction(int64_t weight, int64_t total);
std::string join_ints(const std::vector<int32_t>& v, const char* sep = ", ");

std::string to_text(const Description& d, size_t width = 100);
std::string to_json(const Description& d);

}  // namespace keli::describe
