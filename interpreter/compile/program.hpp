// The compact executable form of a game: numbered nodes instead of names, precomputed tables for
// sites, regions and tracks, and the layout of the flat state array. Built by compile/, run by
// runtime/. Nothing here refers back to the AST except spans, kept for runtime errors.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "lang/history.hpp"
#include "lang/limits.hpp"
#include "lang/nodes.hpp"
#include "lang/source.hpp"
#include "lang/types.hpp"

namespace keli::compile {

// The node kinds and the operands each uses are the vocabulary's table (lang/nodes.hpp).
using Op = lang::NodeKind;

// The child slots of a node: four for the widest expressions (loops: kLoopWhile), and one index per
// dimension for a table's cell.
inline constexpr int kNodeKids = lang::kMaxTableDims > 4 ? lang::kMaxTableDims : 4;
// A loop's kid that holds its `while` condition (For and Agg*: k0 domain, k1 body, k2 filter).
inline constexpr int kLoopWhile = 3;
static_assert(kLoopWhile < kNodeKids);

// One node; lang/nodes.hpp says which fields each kind uses.
struct Node {
  Op op;
  uint8_t aux = 0;
  int32_t a = 0, b = 0, c = 0, d = -1;
  int32_t k[kNodeKids] = {-1, -1, -1, -1};
  int32_t next = -1;
};

struct Callable {
  std::string name;
  int body = -1;  // first statement, or the expression for `def f() = expr`
  bool is_expr = false;
  int frame = 0;            // first local slot
  std::vector<int> params;  // absolute local slots of the parameters, in order
  // Writes no state and is worth caching: while moves are generated (the state frozen), its value
  // for the same arguments is remembered (runtime/machine.cpp). Set by the optimizer.
  bool memo = false;
};

struct RuleParam {
  std::string name;
  int domain = -1;  // a domain node
  int filter = -1;  // `where` on this parameter, or -1
  // `distinct by KEY`, or -1: of the values that pass `filter`, in domain order, a value whose KEY
  // an earlier one of this loop had is dropped (with the earlier parameters' values unchanged).
  int distinct = -1;
  int slot = -1;                                // absolute local slot
  lang::ValueKind kind = lang::ValueKind::Int;  // what the value is, for notation: Int, Site, Player or Piece
  // The values this parameter's digit of an action id stands for: id_low .. id_low+id_count-1
  // (runtime/actions.hpp; docs/actions.md). Sites, seats and pieces from 0; a constant range its
  // own; a range known only in play 0 .. lang::kOpenRangeIdValues-1.
  int64_t id_low = 0, id_count = 0;
  // The domain and filter as written, never indexed by the optimizer (which may move a filter
  // into the domain): for listing the values a person may have meant, and which test fails.
  int written_domain = -1, written_filter = -1;
};

// A piece of a rule's `reads` text (runtime/notation.cpp shows it): literal text, a value, or a
// value for each element of a domain, separated by `text`.
struct ReadPart {
  std::string text;  // literal text, or a `for` hole's separator
  int value = -1;    // the hole's expression, -1 for literal text
  lang::ValueKind kind = lang::ValueKind::Int;
  int domain = -1, filter = -1, slot = -1;  // a `for` hole: its domain, filter and variable's slot
  int cond = -1, skip = 0;                  // `{if ...}`, laid out as ast::ReadPart says: a test, or a jump
};

// A move rule (or a phase's `otherwise` rule) that players choose.
struct Rule {
  std::string name;
  int phase = 0;
  std::vector<RuleParam> params;
  int guard = -1;
  int body = -1;
  bool is_otherwise = false;
  std::vector<ReadPart> reads;  // `reads "..."`; empty: the default notation
  bool has_reads = false;
  Span span;  // the rule's name where it is declared (its comment is on the lines above)
};

struct Outcome {
  std::vector<int32_t> values;  // one per die
  int64_t weight = 1;           // probability = weight / total
};

struct DiceSet {
  std::string name;
  std::vector<std::vector<int32_t>> faces;
  std::vector<Outcome> outcomes;  // every distinct throw with its exact probability
  int64_t total = 1;
  bool identical = false;  // all dice alike and not `ordered`: a throw's values are sorted, smallest first
  bool ordered = false;    // declared `ordered`: each die's value stays in its place
};

struct PhaseInfo {
  std::string name;
  Span span;               // where the phase is declared, for errors
  int dice = -1;           // chance phase: which dice; -1 for a decision phase
  int chance_body = -1;    // chance phase: statements run after the throw
  std::vector<int> rules;  // decision phase: its rules; the otherwise rule last
  int otherwise = -1;
};

struct Handler {
  int callable = -1;
  int guard = -1;
};

struct VarInfo {
  std::string name;
  int base = 0;
  std::vector<int> dims;  // sizes
  std::vector<int> lows;  // the first index of each dimension (ranges may start anywhere)
  std::vector<lang::DimKind> dim_kinds;
  lang::ValueKind kind = lang::ValueKind::Int;  // what an element is
  bool or_none = false;                         // `site or none` ...: an element may be none (-1)
  int size() const {
    int n = 1;
    for (int x : dims) n *= x;
    return n;
  }
};

// A table's layout flattened for the evaluator's reads (up to kMaxTableDims index dimensions).
struct Access {
  int32_t base = 0;
  int32_t ndims = 0;
  int32_t low[lang::kMaxTableDims] = {};
  int32_t dim[lang::kMaxTableDims] = {1, 1, 1, 1};
};

// A domain filtered on a constant table, `x in D where T[x] == v`, precomputed by the optimizer:
// lists[v - low] holds the elements of D with T[x] == v, in D's order.
struct DomainIndex {
  int64_t low = 0;
  std::vector<std::vector<int32_t>> lists;
  std::vector<int32_t> none;  // for values outside the table's range
  bool ascending = false;     // D's elements were in increasing order (so is every list)
};

// A fact the engine keeps (compile/facts.cpp): for each position i of a state table's other index
// (one position for a one-dimensional table), how many positions x of [lo, hi] along the
// aggregate's index hold a cell with `cell op k`. Kept in hidden slots after the variables,
// updated on every write of the table; never part of traces, equality or invariants.
// A fact is found by the optimizer (Cells: cells of one table that pass a test, counted along one
// index) or declared by the rules (Tally: `fact NAME(KEYS) = count/sum(x in D where ...)`, each
// element x adding to the entry of its keys; compile/compile_facts.cpp).
enum class FactKind : uint8_t { Cells, Tally };
// One condition of a Tally, evaluated in written order for an element: a callable (x) -> value,
// a test (key < 0: false means x adds nothing) or the key of parameter `key`.
struct TallyStep {
  int callable = -1;
  int key = -1;
};
struct Fact {
  FactKind kind = FactKind::Cells;
  int var = 0;     // the state table (Cells over a state variable)
  int tally = -1;  // Cells over a declared fact's entries: that Tally fact (var unused)
  // Cells: the cells' values added up instead of those passing `op k` counted; only over a
  // declared count's entries, whose total stays within its elements (a 32-bit slot holds it).
  bool sums = false;
  int along = 0;       // the index the count runs over (0 or 1)
  int lo = 0, hi = 0;  // the positions counted (table offsets, 0-based)
  lang::Operator op = lang::Operator::Ne;
  int64_t k = 0;
  int base = 0;   // first hidden slot
  int slots = 1;  // one per position of the other index (Tally: per combination of its keys)
  // Tally only:
  int def = -1;                  // the fact's definition: what the slots must equal
  std::vector<TallyStep> steps;  // the conditions and keys, in written order
  std::vector<int> key_sizes;    // per parameter: how many values (sites, seats or pieces)
  int weight = -1;               // sum's callable (x) -> what x adds; -1: a count, x adds 1
  int elements = 0;              // how many elements x there are
  std::vector<int> feeds;        // the vars whose rows (first index x) the steps read
  VarInfo entries;               // the entries as a table of the keys (base: the first slot)
};
// What FactGet reads from a fact: the count, whether it is above zero, or whether it is all.
// Tally: the entry of the arguments (FactGet k[0..], one per key), 0 for arguments out of range.
enum class FactRead : uint8_t { Count, Any, All, Tally };

struct SiteInfo {
  int x = 0, y = 0;
  std::string label;
  // With `coordinates`: the label's column letters and row number (`e4`: e and 4), for margins.
  std::string column;
  int64_t row = 0;
};

// Fixed slots at the start of every state.
// kPly counts every step (decisions and throws), kMoves only decisions (what `limit moves` bounds).
enum StateSlot : int { kMover = 0, kPhase = 1, kOver = 2, kPly = 3, kMoves = 4, kNextPlace = 5, kPlaces = 6 };
enum Over : int32_t { kPlaying = 0, kEnded = 1, kLimit = 2 };

// A declared invariant: its text, the callable computing its condition, and where it is declared
// (in a base file, for a variant's inherited one), for the error when it fails.
struct InvariantInfo {
  std::string text;
  int callable = -1;
  Span span;
};

struct Program {
  std::string game_name;
  std::string file;
  std::vector<std::pair<std::string, std::string>> params;  // name, value as text, declared order
  std::vector<std::pair<std::string, std::string>> about;
  int num_players = 0, num_sites = 0, num_pieces = 0;
  // How many elements `sites`, `seats` or `pieces` has (a DomCount node's aux says which).
  int count_of(lang::DomainOf of) const {
    return of == lang::DomainOf::Sites ? num_sites : of == lang::DomainOf::Seats ? num_players : num_pieces;
  }
  // How many values a built-in domain of elements of type t has (`sites`, `seats`, `pieces`,
  // `directions`).
  int count_of(lang::Type t) const {
    return t == lang::Type::Site        ? num_sites
           : t == lang::Type::Player    ? num_players
           : t == lang::Type::Direction ? static_cast<int>(direction_names.size())
                                        : num_pieces;
  }
  // How many elements a table dimension of `kind` indexes: every site, seat or piece (0 for a range).
  int count_of(lang::DimKind kind) const {
    return kind == lang::DimKind::Site     ? num_sites
           : kind == lang::DimKind::Player ? num_players
           : kind == lang::DimKind::Piece  ? num_pieces
                                           : 0;
  }
  std::vector<std::string> seat_names;
  std::vector<SiteInfo> sites;
  // The board's geometry (compile/geometry.cpp): the declared directions, each a name and its step
  // between drawn points, and the tables `step`, `ray` and `neighbours` read (built once the board
  // is): a constant table (site or none per site per direction) and two region tables (per site
  // per direction; per site) after the game's own, -1 in a game without directions.
  bool hex_layout = false;   // `directions hex`: a row is drawn half a cell right of the one above
  bool coordinates = false;  // `coordinates`: site labels are a1, b1, ...; the text board has margins
  std::vector<std::string> direction_names;
  std::vector<std::pair<int, int>> direction_steps;
  int step_table = -1, ray_table = -1, neighbour_table = -1;
  // The region tables the game declares, before the geometry's (what a picture tints or draws).
  size_t declared_region_tables() const {
    return ray_table >= 0 ? static_cast<size_t>(ray_table) : region_tables.size();
  }
  std::vector<std::vector<int32_t>> regions;  // region/track instance -> sites in order
  // Instance -> site -> first position or -1, for the game's own regions only: the geometry's rays
  // and neighbours (numbered after them) are a handful of sites each, and a dense index of them
  // would grow as sites squared times directions (1.3 MB for a 19x19 board), so they are scanned.
  std::vector<std::vector<int16_t>> region_index;
  // Where site s first stands in region r, or -1.
  int64_t region_position(int r, int64_t s) const {
    if (s < 0 || s >= num_sites) return -1;
    if (static_cast<size_t>(r) < region_index.size())
      return region_index[static_cast<size_t>(r)][static_cast<size_t>(s)];
    const auto& list = regions[static_cast<size_t>(r)];
    for (size_t i = 0; i < list.size(); ++i)
      if (list[i] == s) return static_cast<int64_t>(i);
    return -1;
  }
  std::vector<int64_t> consts;
  std::vector<VarInfo> vars;  // state variables, declared order
  std::vector<VarInfo> const_tables;
  std::vector<VarInfo> region_tables;  // base = first instance id
  int state_size = 0;
  // A game whose `end_game` says what each seat scores (`points NAME`) keeps num_players slots of
  // points right after the places, 0 until the game ends; -1 in a game without points (whose
  // layout is then as it was before points existed).
  int points_base = -1;
  int32_t points_limit = 0;  // `limit points N`: each seat's points lie in -N..N
  // The first slot after the fixed ones, the places and the points: the first variable's.
  int first_var_slot() const { return kPlaces + num_players * (points_base >= 0 ? 2 : 1); }
  std::vector<int32_t> initial;  // the state before setup blocks run
  std::vector<Node> code;
  std::vector<Span> spans;    // per node
  std::vector<int32_t> args;  // argument node lists for calls, emits, finish
  std::vector<Callable> callables;
  std::vector<std::vector<Handler>> handlers;  // per event
  std::vector<Rule> rules;
  std::vector<PhaseInfo> phases;
  std::vector<DiceSet> dice;
  std::vector<int> setups;  // callables
  std::vector<InvariantInfo> invariants;
  std::vector<std::string> notes;
  int locals = 0;  // total local slots
  // The first slot of each local collection's storage (compile/collections.cpp): after the frame
  // of the body declaring it, in no callable's frame (the native engine keeps frames in C++ locals).
  std::vector<int> collection_storage;
  int move_limit = 0;  // 0: none
  // What `repetitions` compares (lang/history.hpp): kept only by a game that reads it
  // (history_reads: the first read; history.key -1 otherwise), at most `limit history` positions.
  // Writes of a compared slot keep the key: var_compared[v] for each variable, and the two below.
  lang::HistoryLayout history;
  std::vector<uint8_t> var_compared;
  bool mover_compared = false, phase_compared = false;
  Span history_reads;
  Span history_limit;                              // the `limit history` declaration, when there is one
  int64_t work_budget = lang::kDefaultWorkBudget;  // units of work a step may do (`limit work`)
  int display = -1;                                // var index shown on the board, -1 for none
  int display_marks = -1;                          // region instance whose empty sites are marked, -1 for none
  int display_stores = -1;                         // var index (int per player) drawn as a store per seat, -1 none
  int display_hand = -1;                           // var index (int table): the dice still to play, -1 for none
  int piece_site = -1, piece_owner = -1;           // callables (pc) -> site and (pc) -> seat, -1 for none
  int max_roll = 0;                                // the most dice any set throws
  // Filled by compile/optimize:
  std::vector<Access> var_access, const_access;  // per entry of vars / const_tables
  bool guards_write_state = true;                // some move guard or filter may write the state
  bool has_suppose = false;                      // some `suppose` block: its writes are logged and undone
  // Whether a write of the state may have to be undone: the engines log it then (native note()).
  bool logs_writes() const { return guards_write_state || has_suppose; }
  std::vector<DomainIndex> domain_indexes;       // DomIndex a=index k0=value
  std::vector<Fact> facts;                       // FactGet a=fact
  std::vector<std::vector<int>> facts_of_var;    // per entry of vars: the Cells facts it feeds
  std::vector<std::vector<int>> tallies_of_var;  // per entry of vars: the Tally facts it feeds
  std::vector<std::vector<int>> facts_of_tally;  // per fact: the Cells facts counting its entries
  int visible_size = 0;                          // slots before the facts' hidden ones
  // The most frames (calls, handlers) open at once in any step, or -1 when unbounded or not
  // worked out (compile/frames.cpp): within kMaxCallDepth, the depth check can never fail.
  int max_frames = -1;
  // Every declared `fact`, optimized or not (compile/compile_facts.cpp): its parameters laid out
  // as a table's dimensions (base unused) and its definition's callable, which gives each entry.
  std::vector<std::pair<VarInfo, int>> declared_facts;
  // For computer players (agents/): `def evaluate(p: player): int` (higher is better for p) and
  // `def team(p: player): int` (seats with equal values are partners); -1 when not declared.
  int evaluate = -1, team = -1;
  // The game's search settings (`ai { KEY VALUE }`, or `def search_KEY(): int`): KEY and the
  // callable that gives its value (docs/agents.md, "The game's settings").
  std::vector<std::pair<std::string, int>> search_settings;
};

}  // namespace keli::compile
