// The checker: resolves every name, types every expression, checks arities, parameter values,
// contexts and recursion, and reports every error it finds in one run. Its output, a Checked
// game, is what the compiler turns into tables and code.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "ast/ast.hpp"
#include "ast/loader.hpp"
#include "lang/builtins.hpp"
#include "lang/displays.hpp"
#include "diag/diagnostics.hpp"

namespace keli::check {
// The built-in table lives in the vocabulary (lang/builtins.hpp); the checker reads it unqualified.
using lang::Builtin;
using lang::builtin_info;
using lang::builtin_var_info;
using lang::BuiltinVar;
using lang::find_builtin;
using lang::find_builtin_var;
using lang::Where;

enum class SymKind : uint8_t {
  Param,
  Const,
  Var,
  Region,
  Track,
  Dice,
  Def,
  Shape,
  Event,
  Phase,
  Seat,
  Direction,
  BuiltinFn,
  BuiltinVar,
};
const char* sym_kind_name(SymKind k);

struct Symbol {
  std::string name;
  SymKind kind;
  ast::Decl* decl = nullptr;          // null for built-ins and seats
  ast::Type type = ast::Type::Error;  // element type for tables, result type for functions
  int enum_id = -1;
  int index = -1;  // built-in id, seat number, direction number
  bool used = false;
};

struct EnumInfo {
  std::string param;
  std::vector<std::string> choices;
};

// A declared `fact` the engine keeps (check/facts.cpp): the count, or the sum of `weight`, of the
// elements x of one kind whose conditions hold, each counted in the entry whose parameters equal
// its keys. Everything here reads only x's own cells: rows of the `feeds` tables.
struct FactShape {
  ast::Decl* decl = nullptr;
  const ast::Expr* aggregate = nullptr;  // count(x in D where ...: ...) or sum(...); x is its local
  lang::DimKind element = lang::DimKind::Piece;
  // The conditions in written order (`where` first): a test, or (with the parameter's index) the
  // KEY of `KEY == parameter`; every parameter has one key.
  std::vector<std::pair<const ast::Expr*, int>> parts;
  const ast::Expr* weight = nullptr;  // sum's value; null for a count
  std::vector<int> feeds;             // symbols of the state tables read, first index x
};

struct Checked {
  std::vector<ast::Module> modules;
  int main = -1;
  std::string game_name;
  std::string base_file;  // for a variant: the file it extends
  std::vector<Symbol> syms;
  std::unordered_map<std::string, int> by_name;
  std::vector<EnumInfo> enums;
  // Live declarations by kind, in the order they take effect (overridden ones left out).
  std::vector<ast::Decl*> params, consts, vars, regions, tracks, dice, defs, shapes, events, handlers, setups, phases,
      invariants, limits;
  ast::Decl* players = nullptr;
  ast::Decl* pieces = nullptr;
  ast::Decl* board = nullptr;
  std::vector<ast::Decl*> displays;  // what the text board shows
  ast::Decl* compared = nullptr;     // `repetitions compare ...`: what a repetition compares
  // The board's geometry (check_geometry.cpp): `directions`, each a name and its step, a named
  // set's expanded; `coordinates`. Null when the game declares none.
  ast::Decl* directions_decl = nullptr;
  ast::Decl* coordinates = nullptr;
  struct Direction {
    std::string name;
    Span span;
    ast::Expr* dx = nullptr;  // the written step, or null for a named set's (dx, dy) below
    ast::Expr* dy = nullptr;
    int set_dx = 0, set_dy = 0;
  };
  std::vector<Direction> directions;
  bool hex_directions = false;  // `directions hex`: pictures draw each row half a cell right of the one above
  std::vector<std::pair<std::string, std::string>> about;
  std::vector<FactShape> facts;
  // Some `end_game` says what each seat scores (`points NAME`): the game's results carry points.
  bool scores_points = false;
  Span points_at;  // the first `points NAME` clause, where a missing `limit points` is reported

  int lookup(const std::string& name) const {
    auto it = by_name.find(name);
    return it == by_name.end() ? -1 : it->second;
  }
};

// Which form a checked `display` line is (check_display.cpp): by its words, and for
// `display NAME` by what the name is (a variable per site or per player, or a region).
lang::Display display_form(const Checked& ck, const ast::Decl& d);

// Checks a loaded game. Diagnostics go to `diags`; the result is usable only without errors.
Checked check_game(ast::Loaded&& loaded, const SourceSet& src, diag::Diagnostics& diags);

// Frame size of a decl whose body is executed: the number of local slots.
int frame_size(const ast::Decl& d);

// A checked name that reads the built-in `most_dice` (no global of that name hides it): a number
// known before play, once the dice sets are built.
bool is_most_dice(const ast::Expr& e);

}  // namespace keli::check
