// Code generation: checked AST bodies to compact nodes (compile/program.hpp). One CodeGen serves
// one stage: building the board (where constant tables are writable) or play.
#pragma once

#include <functional>
#include <map>

#include "check/checker.hpp"
#include "compile/program.hpp"

namespace keli::compile {

class CodeGen {
 public:
  // `params` holds each parameter symbol's value; `phase_ids` maps phase symbols to phase numbers.
  CodeGen(Program& out, const check::Checked& ck, const std::map<int, int64_t>& params)
      : out_(out), ck_(ck), params_(params) {}

  int callable_for(const ast::Decl& d);  // defs and shapes, compiled on first use
  int new_callable(const std::string& name, int frame_size);
  int expr(const ast::Expr& e, int base);
  int domain(const ast::Expr& e, int base);
  int block(const ast::Block& b, int base);
  lang::ValueKind value_kind(const ast::Expr& domain_expr) const;  // for notation: Int, Site or Player

  std::map<int, int> phase_ids;  // phase symbol -> phase number
  std::map<int, int> event_ids;  // event symbol -> event number
  // The lowest value and the capacity of what a `let NAME: list of T` holds (set by the compiler,
  // which knows the board); without it, one value from 0.
  std::function<std::pair<int64_t, int64_t>(const ast::Stmt&)> collection_domain;
  // Counts `slots` more local slots of collections and searches against kMaxCollectionSlots,
  // reporting the first use past it at `at` (set by the compiler; without it, nothing counted).
  std::function<void(int64_t slots, Span at, const std::string& what)> reserve_slots;

 private:
  int node(Op op, Span span);
  int stmt(const ast::Stmt& s, int base);
  // one function per kind of expression and statement
  int immediate(int32_t value, Span span);
  int name(const ast::Expr& e, int base);
  int call(const ast::Expr& e, int base);
  int geometry(const ast::Expr& e, const std::vector<int>& args);
  int search_domain(const ast::Expr& e, int base);  // group(T, s), border(T, s)
  int unary(const ast::Expr& e, int base);
  int binary(const ast::Expr& e, int base);
  int conditional(const ast::Expr& e, int base);
  int aggregate(const ast::Expr& e, int base);
  int let_statement(const ast::Stmt& s, int base);
  int assign(const ast::Stmt& s, int base);
  int if_statement(const ast::Stmt& s, int base);
  int while_statement(const ast::Stmt& s, int base);
  int for_statement(const ast::Stmt& s, int base);
  int return_statement(const ast::Stmt& s, int base);
  int emit_statement(const ast::Stmt& s, int base);
  int call_statement(const ast::Stmt& s, int base);
  int note_statement(const ast::Stmt& s);
  int add_statement(const ast::Stmt& s, int base);
  int finish_statement(const ast::Stmt& s, int base);
  int end_game_statement(const ast::Stmt& s);
  // Where end_game reads a number per player: a state table or a callable (symbol -1: Plain).
  std::pair<lang::EndBy, int> per_player(int sym_index);
  int access(const ast::Expr& e, int base);
  // local collections (collections.cpp)
  struct Collection {
    lang::CollKind kind = lang::CollKind::List;
    int storage = 0;  // its first local slot
    int64_t low = 0, cap = 1;
  };
  int let_collection(const ast::Stmt& s, int base);
  int collection_node(Op op, int slot, Span span);
  int change_collection(const ast::Stmt& s, int base);
  int collection_call(const ast::Expr& e, int base);
  int collection_read(Op op, const ast::Expr& coll, int operand, Span span, int base);
  static bool names_collection(const ast::Expr& e);
  int args(const std::vector<int>& nodes);
  int table_index(const std::vector<VarInfo>& tables, int sym_decl_index) const;

  Program& out_;
  const check::Checked& ck_;
  const std::map<int, int64_t>& params_;
  std::map<const ast::Decl*, int> callables_;
  std::map<int, Collection> collections_;  // by the absolute slot of the local that names it
};

}  // namespace keli::compile
