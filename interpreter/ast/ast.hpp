// The Keli abstract syntax tree: every node carries the source span it came from.
// The checker annotates expressions in place (resolved symbol, type); nothing else mutates it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "lang/collections.hpp"
#include "lang/operators.hpp"
#include "lang/source.hpp"
#include "lang/types.hpp"

namespace keli::ast {

struct Expr;
struct Stmt;
using ExprPtr = std::unique_ptr<Expr>;
using StmtPtr = std::unique_ptr<Stmt>;
using Block = std::vector<StmtPtr>;

// What a name or expression denotes once checked (filled by the checker).
using lang::is_number;
using lang::Type;
using lang::type_name;

enum class ExprKind : uint8_t {
  Int,
  Bool,
  Str,
  Name,
  Call,
  Index,
  Neg,
  Not,
  Binary,
  Cond,
  Aggregate,
  List,
  Range,
};

struct Expr {
  ExprKind kind;
  Span span;
  std::string text;                            // Name: the name; Str: the unescaped text; Int: the digits as written
  int64_t value = 0;                           // Int/Bool literal
  lang::Operator op = lang::Operator::Add;     // Binary, Neg, Not: the operator (lang/operators.hpp)
  lang::Aggregate agg = lang::Aggregate::Sum;  // Aggregate: which
  std::vector<ExprPtr> kids;                   // operands, call arguments (kids[0] is the callee for Call/Index)
  // Aggregate: `var` ranges over kids[0] (a domain), kids[1] is the body, then the `where` filter
  // if there is one, then the `while` condition if `stops` (loop_filter and loop_while read them).
  std::string var;
  bool stops = false;
  Span var_span;
  int depth = 1;  // levels of this tree (1: a leaf), bounded by lang::kMaxNesting when parsed
  // Checker annotations.
  Type type = Type::Error;
  int enum_id = -1;  // for Type::Enum: which enumeration
  int sym = -1;      // resolved symbol (global table) or local slot
  bool is_local = false;
  int ref = -1;  // extra resolution data (builtin id, enum value, ...)
  // Call: a function on a local collection (lang::CollFunction: size, first, take_first, ...),
  // its one argument the collection's name; -1 for any other call.
  int coll_fn = -1;
};

enum class StmtKind : uint8_t {
  Let,
  Assign,
  If,
  While,
  For,
  Return,
  Emit,
  Note,
  Add,
  Remove,   // `remove X from C`: exprs are X, then C (a local collection)
  Clear,    // `clear C`: exprs is C
  Suppose,  // `suppose { ... }`: blocks[0] runs, then every write of the game in it is undone
  Finish,
  EndGame,
  Call,
};

// A statement the parser wrote for `end turn` or `pass turn` that only keeps `turns_due`: in a game
// without `extra turn` the loader drops it (ast/loader.cpp), so the game has no such variable.
enum class TurnPart : uint8_t {
  None,
  EndTurnIf,  // `if turns_due > 0 { ... } else { mover = next_turn(mover) }`: becomes its else branch
  DueReset,   // `turns_due = 0` before `pass turn`'s move to the next seat: dropped
};

// `per site`, `per player`, `per piece` or `per A..B`; also what a local collection holds.
struct Dim {
  Span span;
  std::string type;  // site | player | piece, or empty for a range
  ExprPtr lo, hi;
};

struct Stmt {
  StmtKind kind;
  TurnPart turn_part = TurnPart::None;
  Span span;
  std::string name;                         // Let/For: variable; Emit: event; EndGame: by
  lang::Assign assign = lang::Assign::Set;  // Assign: =, += or -=
  Span name_span;
  std::vector<ExprPtr> exprs;  // Let: value; Assign: target, value; If: conditions; For: domain, filter?, while?;
                               // Return: value?; Emit/Call: the call expr; Add: site, region; Finish: players
  std::vector<Block> blocks;   // If: one per condition, plus the else block; While/For/Suppose: body
  bool has_else = false;
  bool stops = false;  // For: the last of exprs is a `while` condition
  std::string text;    // Note: the message
  int slot = -1;       // Let/For: local slot (checker)
  int sym = -1;        // EndGame: score symbol; Emit: event symbol
  // EndGame's `points NAME` (empty without it) and its symbol (checker).
  std::string points;
  Span points_span;
  int points_sym = -1;
  // Let of a local collection, `let q: list of site` (no value): list or set, and what it holds.
  lang::CollKind coll = lang::CollKind::None;
  Dim elem;
};

// A declared parameter of a function, shape, event or handler.
struct Formal {
  std::string name;
  Span span;
  std::string type;  // empty for handler parameters (typed by the event)
  Span type_span;
  // `= 0`: what a call or emit that leaves the parameter out passes (a literal: the checker says so).
  std::shared_ptr<Expr> fallback;
};

struct MoveParam {
  std::string name;
  Span span;
  ExprPtr domain;
  ExprPtr filter;    // `where` on one parameter: tested as soon as it is bound
  ExprPtr distinct;  // `distinct by KEY`: a value whose KEY an earlier value passing `where` had is dropped
  int slot = -1;
};

// A piece of a move's `reads` text: literal text, a hole `{value}`, or a hole
// `{for var in domain where filter: value joined "sep"}` that shows value for each var.
struct ReadPart {
  std::string text;  // literal text (no value), or the separator of a `for` hole
  ExprPtr value;     // the hole's value, null for literal text
  std::string var;   // a `for` hole's variable, empty for a plain hole
  Span var_span;
  ExprPtr domain, filter;
  int slot = -1;  // the `for` variable's local slot (checker)
  // `{if COND: A|B}` is laid out flat: a part with `cond` whose `skip` passes over A and the jump
  // when COND is false, A's parts, a jump (no value, no cond, `skip` over B), then B's parts.
  ExprPtr cond;
  int skip = 0;  // parts passed over: always after a literal (a jump), when `cond` is false after a test
};

struct Move {
  std::string name;
  Span span;
  std::vector<MoveParam> params;
  std::vector<ReadPart> reads;  // `reads "..."`: how the move reads; empty for the default notation
  bool has_reads = false;
  Span reads_span;
  ExprPtr guard;
  Block body;
  bool is_otherwise = false;
  bool is_override = false;  // `override move` in `extend phase`: replaces the base phase's rule
  bool is_removal = false;   // `remove move NAME` in `extend phase`: drops the base phase's rule
  int frame = 0;             // local slots used (checker)
};

enum class DeclKind : uint8_t {
  Import,
  About,
  Param,
  Players,
  Pieces,
  Const,
  Var,
  Region,
  Track,
  Dice,
  Def,
  Shape,
  Board,
  Event,
  On,
  Setup,
  Phase,
  Invariant,
  Limit,
  Display,
  Repetitions,  // `repetitions compare PART, ...`: names the parts, part_when[i] part i's condition or null
  Directions,   // `directions ...`: names are the items, faces[i] the step (dx, dy) of item i or empty
  Coordinates,  // `coordinates from EDGE [without LETTER]`: names[0] the edge, names[1] the letter
  Extend,       // `extend phase NAME { ... }`: rules added to, or replacing rules of, a base's phase
  Remove,       // `remove on EVENT`, `remove invariant NAME`: drops the base's (`removes` says which kind)
};

enum class ParamType : uint8_t { Bool, Int, Enum };

struct Decl {
  DeclKind kind;
  Span span;
  std::string name;  // the declared name (Import: path; Limit: what is limited)
  Span name_span;
  int file = 0;                     // which source file declared it
  bool is_override = false;         // written `override ...`: replaces the base's declaration of this name
  bool broken = false;              // a syntax error was recovered from inside it: its body is incomplete
  DeclKind removes = DeclKind::On;  // Remove: the kind of declaration dropped (On or Invariant)
  // Def: declared in an `ai { }` block, read by the computer players and never by the rules;
  // ai_setting is the KEY of a setting `KEY VALUE` there (the Def is then search_KEY(): int).
  bool for_ai = false;
  std::string ai_setting;
  // Limit, Param: declared in a `safety { }` block, a bound of the engine's and no rule: it
  // means what it means outside the block, and `describe` lists it among the safety bounds.
  bool for_safety = false;
  // Def: declared `fact`, a count or sum the engine keeps up to date (check/facts.cpp).
  bool is_fact = false;
  // Param
  ParamType ptype = ParamType::Int;
  bool override_only = false;        // `param NAME = VALUE` in a variant: a new default only
  std::vector<std::string> choices;  // Enum
  std::vector<Span> choice_spans;
  ExprPtr lo, hi;                // int in A..B
  std::vector<ExprPtr> allowed;  // int in {..}
  std::string doc;
  // Param default, Players/Pieces count, Const/Var init, Invariant/Limit expr, Board call, Phase chance
  ExprPtr value;
  // Players: seat names; Directions: the items; Coordinates: the edge and the letter left out
  std::vector<std::string> names;
  std::vector<Span> name_spans;
  std::vector<ExprPtr> part_when;  // Repetitions: each part's `when` condition, or null
  // Const/Var: element type; Def: result type; Display: "hand" for `display hand VAR`
  std::string type;
  Span type_span;
  std::vector<Dim> dims;
  // About: entries
  std::vector<std::pair<std::string, std::string>> entries;
  // Dice: faces per die (copies already expanded by the checker); `ordered`: throws not sorted.
  // Directions: the step (dx, dy) of each item, empty for a named set such as `compass`.
  std::vector<std::vector<ExprPtr>> faces;
  ExprPtr copies;
  bool ordered = false;
  // Def/Shape/Event/On
  std::vector<Formal> formals;
  ExprPtr guard;
  Block body;
  bool has_body_block = false;
  // Phase
  std::vector<Move> moves;
  // Checker annotations: frame size for Def/Shape/On/Setup/Board, symbol index.
  int frame = 0;
  int sym = -1;
};

struct Module {
  int file = 0;
  std::string game_name;  // from `game "..."`
  Span game_span;
  std::string extends;  // base file, if a variant
  Span extends_span;
  std::vector<Decl> decls;
  // Syntax errors recovered from, and the words that began each broken piece (what it may have
  // declared): the checker keeps quiet about these names rather than report them unknown.
  size_t syntax_errors = 0;
  std::vector<std::string> broken_names;
  // Turn order: the file passes the turn with `end turn`, `pass turn` or `extra turn`, or declares
  // `turn order`; the loader then adds stdlib/turn_order.keli (ast/turn_order.hpp).
  bool uses_turns = false;
  bool declares_turn_order = false;
  bool uses_extra_turns = false;  // `extra turn`: the game keeps `turns_due`
};

const char* decl_kind_name(DeclKind k);

// A loop's `where` filter and `while` condition, or null: an aggregate's come after its body, a
// `for` statement's after its domain, the filter first.
inline Expr* loop_filter(const std::vector<ExprPtr>& parts, size_t first, bool stops) {
  return parts.size() > first + (stops ? 1 : 0) ? parts[first].get() : nullptr;
}
inline Expr* loop_while(const std::vector<ExprPtr>& parts, bool stops) { return stops ? parts.back().get() : nullptr; }
inline Expr* loop_filter(const Expr& agg) { return loop_filter(agg.kids, 2, agg.stops); }
inline Expr* loop_while(const Expr& agg) { return loop_while(agg.kids, agg.stops); }
inline Expr* loop_filter(const Stmt& s) { return loop_filter(s.exprs, 1, s.stops); }
inline Expr* loop_while(const Stmt& s) { return loop_while(s.exprs, s.stops); }

}  // namespace keli::ast
