// Private to the compiler: the one pass from a checked game to a Program, shared by compiler.cpp
// (the driver and the bodies), compile_constants.cpp (constants, parameters) and
// compile_board.cpp (table layout, the board, dice).
#pragma once

#include <map>
#include <optional>

#include "compile/codegen.hpp"
#include "compile/compiler.hpp"
#include "lang/arith.hpp"

namespace keli::compile {

struct Compiler {
  const check::Checked& ck;
  const SourceSet& src;
  diag::Diagnostics& diags;
  const BoardRunner& run_board;
  std::map<int, int64_t> values;  // parameter symbol -> value
  bool optimized = true;
  int most_dice = -1;
  int64_t collection_slots = 0;  // the local slots of the collections compiled so far (kMaxCollectionSlots)  // the
                                 // most dice a set throws; -1 until build_dice has counted them all

  // compile_constants.cpp: constant expressions and parameter values
  std::optional<int64_t> constant(const ast::Expr& e);
  std::optional<int64_t> arith(const ast::Expr& e, lang::Result r);
  int64_t need_constant(const ast::Expr& e, const char* what);
  int64_t stored_constant(const ast::Expr& e, const char* what);
  bool set_params(const ParamSettings& settings, Program& out);
  std::string value_text(const ast::Decl& d, int64_t v);
  std::optional<int64_t> parse_value(const ast::Decl& d, const std::string& text);

  // compile_board.cpp: table layout, building the board, dice
  VarInfo layout(const ast::Decl& d, int base, const Program& out, bool building);
  void lay_out_tables(Program& out, bool building);
  bool build_board(Program& out);
  void build_dice(Program& out);
  int dice_choice(const ast::Expr& e);
  // geometry.cpp: the directions' steps, and (once the board is built) the sites' coordinates and
  // the tables `step`, `ray` and `neighbours` read
  void name_directions(Program& out);
  void build_geometry(Program& out);
  void label_sites(Program& out);
  // collections.cpp: what a local collection holds, as (lowest value, capacity)
  std::pair<int64_t, int64_t> collection_domain(const ast::Stmt& s, const Program& out, bool building);
  bool reserve_slots(int64_t slots, Span at, const std::string& what);  // false past kMaxCollectionSlots
  std::pair<int64_t, int64_t> collection_range(const ast::Stmt& s, const Program& out, bool building);
  // table_literals.cpp: initial values, one for every entry or a literal per dimension
  std::vector<int64_t> initial_entries(const ast::Decl& d, const VarInfo& t, bool building);
  void fill_rows(const ast::Decl& d, const ast::Expr& list, const VarInfo& t, size_t depth, int offset,
                 std::vector<int64_t>& data, bool building);
  void check_literal_sites(const ast::Decl& d, const ast::Expr& list, const VarInfo& t, size_t depth);

  // compiler.cpp: the driver and the bodies
  std::shared_ptr<Program> run(const ParamSettings& settings);
  bool count_players(Program& out);
  void count_pieces(Program& out);
  void lay_out_state(Program& out);
  void compile_handlers(CodeGen& gen, Program& out);
  void compile_phase(CodeGen& gen, Program& out, const ast::Decl& ph);
  Rule compile_rule(CodeGen& gen, Program& out, const ast::Move& m);
  void id_values(const ast::Expr& d, const Program& out, RuleParam& rp);
  void bound_move_tries(const ast::Move& m, const Program& out);
  void set_limits(Program& out);
  void lay_out_history(Program& out);
  void compile_display(CodeGen& gen, Program& out, const ast::Decl& d);
  int piece_function(CodeGen& gen, Program& out, const std::string& name);
  int agent_hook(CodeGen& gen, const std::string& name);
  void search_settings(CodeGen& gen, Program& out);
  void compile_facts(CodeGen& gen, Program& out);  // compile_facts.cpp: the declared facts, kept
  // effects.cpp: W007 and W008, from the compiled bodies of the main file's moves
  void warn_effects(const Program& out);
};

}  // namespace keli::compile
