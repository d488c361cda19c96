// Private to the parser: the builder that turns PEGTL's parse tree into ast::Module, shared by
// parse.cpp (driver, spans, the module), parse_expr.cpp, parse_stmt.cpp and parse_decl.cpp.
#pragma once

#include <fmt/format.h>

#include <cctype>
#include <stdexcept>
#include <tao/pegtl/contrib/parse_tree.hpp>
#include <vector>

#include "ast/ast.hpp"
#include "ast/parse_node.hpp"
#include "diag/diagnostics.hpp"
#include "keli_grammar.hpp"

namespace keli::ast::parse_detail {
namespace g = keli::grammar;

// Children are read by the rule that made them, so a change to the grammar's order of optional
// parts cannot silently shift which child is which. A missing child the grammar promised is a bug
// in the grammar or the selector: an internal error, never a guess.
template <typename Rule>
const Node* optional_child(const Node& n) {
  for (const auto& k : n.children)
    if (k->is_type<Rule>()) return k.get();
  return nullptr;
}
template <typename Rule>
const Node& child(const Node& n) {
  if (const Node* k = optional_child<Rule>(n)) return *k;
  throw std::logic_error(fmt::format("a {} node lacks its {} child", n.type, tao::pegtl::demangle<Rule>()));
}
template <typename Rule>
std::vector<const Node*> children(const Node& n) {
  std::vector<const Node*> out;
  for (const auto& k : n.children)
    if (k->is_type<Rule>()) out.push_back(k.get());
  return out;
}
// Expressions come from many rules (the selector folds expression levels away), so they are read
// as the i-th child that is an expression.
bool is_expression(const Node& n);
const Node& expression(const Node& n, size_t i = 0);
// Text with its escapes undone (`\n` a line break, `\X` the character X); with `to_quote`, up
// to the first '"' that is not escaped (a string literal's text after its opening quote).
std::string unescaped(std::string_view raw, bool to_quote);
std::vector<const Node*> expressions(const Node& n);

// An expression deeper than lang::kMaxNesting: thrown by the builder, reported by parse_module
// (walks of the tree recurse, so its depth is bounded once, here).
struct TooDeep {
  Span span;
  int depth;
};

class Builder {
 public:
  Builder(int file, const std::vector<size_t>& error_bytes) : file_(file), error_bytes_(error_bytes) {}

  Module module(const Node& root, diag::Diagnostics& diags);

 private:
  // Spans and token text (parse.cpp).
  Span span_of(const Node& n) const;
  std::pair<size_t, size_t> extent(const Node& n) const;
  static size_t content_length(std::string_view s);
  static std::string word(const Node& n);
  static std::string type_word(const Node& n);
  static std::string op(const Node& n);
  static std::string string_value(const Node& n);
  // A word the grammar accepted must be in the vocabulary's table; one that is not is a bug in
  // the grammar or the table, reported as an internal error rather than guessed.
  template <typename T>
  static T known(std::optional<T> v, const Node& n) {
    if (!v) throw std::logic_error(fmt::format("'{}' is not in the vocabulary's tables", op(n)));
    return *v;
  }

  // Expressions (parse_expr.cpp): one function per kind of node.
  ExprPtr make(ExprKind k, const Node& n);
  ExprPtr finish(ExprPtr e);  // its depth from its operands', or TooDeep
  ExprPtr expr(const Node& n);
  void reading(const Node& n, Move& m);  // a rule's `reads` text
  void read_parts(const Node& n, std::vector<ReadPart>& out);
  void read_if(const Node& n, std::vector<ReadPart>& out);
  ExprPtr expr_node(const Node& n);
  ExprPtr int_literal(const Node& n);
  ExprPtr bool_literal(const Node& n);
  ExprPtr string_literal(const Node& n);
  ExprPtr name(const Node& n);
  ExprPtr list_literal(const Node& n);
  ExprPtr range(const Node& n);
  ExprPtr conditional(const Node& n);
  ExprPtr aggregate(const Node& n);
  ExprPtr postfix(const Node& n);
  ExprPtr negate(const Node& n);
  ExprPtr logical_not(const Node& n);
  ExprPtr binary_chain(const Node& n);
  ExprPtr call(const Node& callee, const Node& suffix, Span span);

  // Statements (parse_stmt.cpp).
  Block block(const Node& n);
  StmtPtr mk(StmtKind k, const Node& n);
  StmtPtr stmt(const Node& n);
  StmtPtr let_statement(const Node& n);
  StmtPtr assign_statement(const Node& n);
  StmtPtr if_statement(const Node& n);
  StmtPtr while_statement(const Node& n);
  StmtPtr for_statement(const Node& n);
  StmtPtr return_statement(const Node& n);
  StmtPtr call_statement(const Node& n, StmtKind kind);
  StmtPtr note_statement(const Node& n);
  StmtPtr add_statement(const Node& n);
  StmtPtr remove_statement(const Node& n);
  StmtPtr clear_statement(const Node& n);
  StmtPtr suppose_statement(const Node& n);
  StmtPtr finish_statement(const Node& n);
  StmtPtr end_statement(const Node& n);
  // Turn order (parse_turns.cpp): statements over stdlib/turn_order.keli's names.
  StmtPtr end_turn(const Node& n);
  void pass_turn(const Node& n, Block& out);
  StmtPtr extra_turn(const Node& n);
  void turn_order_decl(const Node& n, Module& mod, bool is_override, Span whole);

  // Declarations (parse_decl.cpp): each fills the Decl that decl() opened.
  void decl(const Node& node, Module& mod);
  void ai_decl(const Node& node, Module& mod);      // one Def per definition or setting of the block
  void safety_decl(const Node& node, Module& mod);  // one Limit or Param per entry of the block
  void declaration(const Node& n, Decl& d);
  void named(const Node& n, Decl& d);
  void import_decl(const Node& n, Decl& d);
  void about_decl(const Node& n, Decl& d);
  void param_decl(const Node& n, Decl& d);
  void param_type(const Node& t, Decl& d);
  void count_decl(const Node& n, Decl& d);
  void storage_decl(const Node& n, Decl& d);
  void place_decl(const Node& n, Decl& d);
  void dice_decl(const Node& n, Decl& d);
  void def_decl(const Node& n, Decl& d);
  void board_decl(const Node& n, Decl& d);
  void event_decl(const Node& n, Decl& d);
  void on_decl(const Node& n, Decl& d);
  void setup_decl(const Node& n, Decl& d);
  void phase_decl(const Node& n, Decl& d);
  void invariant_decl(const Node& n, Decl& d);
  void remove_decl(const Node& n, Decl& d);
  void limit_decl(const Node& n, Decl& d);
  void geometry_decl(const Node& n, Decl& d);
  void display_decl(const Node& n, Decl& d);
  void repetitions_decl(const Node& n, Decl& d);
  void body(const Node& n, Decl& d);
  std::vector<Formal> formals(const Node& n);
  void dims(const Node& n, const Node* own_type, Decl& d);
  Move move(const Node& node);

  int file_;
  const std::vector<size_t>& error_bytes_;  // where recovered syntax errors stopped the parser
  bool uses_turns_ = false;                 // a turn statement was read (Module::uses_turns)
  bool declares_turn_order_ = false;        // `turn order` was read (Module::declares_turn_order)
  bool uses_extra_turns_ = false;           // `extra turn` was read (Module::uses_extra_turns)
};

}  // namespace keli::ast::parse_detail
