// The checker's internal class, shared by the checker's files: checker.cpp (declarations),
// check_collect.cpp, check_expr.cpp, check_stmt.cpp, check_calls.cpp, check_scope.cpp,
// check_types.cpp, variants.cpp, warnings.cpp. Not part of the interpreter's public API.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "check/checker.hpp"
#include "lang/limits.hpp"

namespace keli::check {
// The AST and diagnostics names every part of the checker uses.
using ast::DeclKind;
using ast::Expr;
using ast::ExprKind;
using ast::Stmt;
using ast::StmtKind;
using ast::Type;
using diag::Code;

std::string count_of(size_t n, const char* noun);  // "1 argument", "2 arguments"
std::string count_is(size_t n);
ast::Type type_from_name(const std::string& n);  // int, bool, site, player, piece; Error otherwise // "1 is", "2 are"
                                                 // // the evaluator passes at most this many arguments

int find_coll_function(const std::string& name);  // lang::CollFunction, -1 if none

class Checker {
 public:
  Checker(Checked& c, const SourceSet& src, diag::Diagnostics& diags) : c_(c), src_(src), diags_(diags) {}
  void collect();
  void check_all();
  void warn_unused();  // warnings.cpp: unused and never-applying definitions, unread parameters

 private:
  struct Local {
    std::string name;
    ast::Type type;
    int enum_id;
    int slot;
    Span span;
    mutable bool read = false;          // a formal never read is warned about (W003)
    ast::Type elem = ast::Type::Error;  // a list or set: what it holds
  };

  // variants (variants.cpp): `override`, `extend phase`, plain redeclarations that replace
  void replace_decl(ast::Decl& d, Symbol& old);
  void override_missing(ast::Decl& d, bool from_variant);
  void add_replacing(std::vector<ast::Decl*>& list, ast::Decl& d, bool from_variant);
  void remove_decl(ast::Decl& d, bool from_variant);
  std::vector<std::string> base_names(const std::vector<ast::Decl*>& list, int file) const;
  void extend_phase(ast::Decl& d, bool from_variant);
  std::vector<std::string> names_of_kind(SymKind k) const;
  // After a syntax error the checker stays quiet about names the broken text may have declared.
  bool broken(const std::string& name) const { return broken_.count(name) > 0; }
  bool warn_in(int file) const;                           // warnings are given for the game's own file, once it parses
  std::optional<int64_t> fold(const ast::Expr& e) const;  // a value of literals only
  void warn_never(const ast::Expr* cond, const char* what, const std::string& rule);

  // collection (check_collect.cpp)
  void collect_decl(ast::Decl& d, bool from_variant);
  // the board's geometry (check_geometry.cpp)
  void collect_directions();
  void check_geometry();
  bool builtin_here(const std::string& name) const;
  void needs_directions(Span span, const std::string& what);
  ast::Type search_call(ast::Expr& e);   // `group(T, s)`, `border(T, s)`
  bool names_table(const ast::Expr& e);  // a geometry name is built in only with `directions`
  void set_once(ast::Decl*& slot, ast::Decl& d, bool from_variant);
  // declarations (checker.cpp)
  void type_symbols();
  void check_board(ast::Decl& d);
  void check_shape(ast::Decl& d);
  void check_limit(ast::Decl& d);
  void check_param(ast::Decl& d);
  void check_dims(ast::Decl& d);
  void check_table(ast::Decl& d, bool is_const);
  void initial_value(ast::Decl& d, ast::Expr& e, bool is_const);
  void table_literal(ast::Decl& d, ast::Expr& e, size_t depth, bool is_const);
  void check_dice(ast::Decl& d);
  void check_def(ast::Decl& d);
  void check_handler(ast::Decl& d);
  void check_phase(ast::Decl& d);
  void check_reads(ast::Move& m);  // a rule's `reads` text (check_reads.cpp)
  void check_dice_choice(ast::Expr& e);
  void check_display(ast::Decl& d);  // check_display.cpp
  void check_display_pieces(ast::Decl& d);
  void check_formals(ast::Decl& d);
  // A parameter's default: a literal of the parameter's type (its `type` set, Error when not).
  void check_default(const ast::Formal& f, ast::Type t);
  // Appends to a call of `d` (or an emit of the event `d`) that gives fewer arguments than `d`
  // has parameters the defaults of the rest, while each has one.
  void fill_defaults(ast::Expr& call, const ast::Decl& d);
  ast::Type declared_type(const std::string& name, Span span);
  static std::string hint_or(std::string hint, std::string fallback);
  // types and constants (check_types.cpp)
  bool compatible(ast::Type want, ast::Type got);
  void want_type(ast::Expr& e, ast::Type want, const char* what);
  void distinct_key(ast::Expr& e);
  std::optional<int64_t> literal_int(const ast::Expr& e);
  bool is_constant(const ast::Expr& e);
  void constant_int(ast::Expr& e, const char* what);
  void check_compared(ast::Decl& d);
  std::vector<std::string> global_names() const;
  bool always_returns(const ast::Block& b);

  // the context of a body (check_scope.cpp)
  void begin(ast::Decl* owner, Where where);
  int end();  // returns the frame size
  int declare(const std::string& name, ast::Type t, int enum_id, Span span);
  const Local* find_local(const std::string& name) const;
  bool resolvable(const ast::Expr& e) const;
  bool could_be_choice(const ast::Expr& e) const;
  void misplaced(Span span, const std::string& what, Where needed);
  void needs_play(Span span, const std::string& what);
  // expressions (check_expr.cpp): one function per kind
  ast::Type expr(ast::Expr& e, ast::Type want = ast::Type::Error, int want_enum = -1);
  ast::Type int_literal(ast::Expr& e);
  ast::Type string_literal(ast::Expr& e);
  ast::Type list_literal(ast::Expr& e);
  ast::Type range_literal(ast::Expr& e);
  ast::Type negate(ast::Expr& e);
  ast::Type logical_not(ast::Expr& e);
  ast::Type conditional(ast::Expr& e, ast::Type want, int want_enum);
  ast::Type name(ast::Expr& e, ast::Type want, int want_enum);
  ast::Type global_name(ast::Expr& e, int g);
  ast::Type builtin_name(ast::Expr& e, int b);
  ast::Type choice_or_unknown(ast::Expr& e, ast::Type want, int want_enum);
  ast::Type access(ast::Expr& e);
  ast::Type binary(ast::Expr& e);
  ast::Type logic_operands(ast::Expr& e);
  ast::Type membership_operands(ast::Expr& e);
  ast::Type equality_operands(ast::Expr& e);
  ast::Type number_operands(ast::Expr& e);
  ast::Type aggregate(ast::Expr& e);
  // `none` (check_none.cpp): the literal, unchecked uses, narrowing by a test
  bool none_literal(ast::Expr& e, ast::Type want);
  void mismatch(const ast::Expr& e, ast::Type want, ast::Type got, const std::string& message);
  void none_facts(const ast::Expr& c, bool when, std::vector<int>& out) const;
  std::set<int> narrow(const ast::Expr& c, bool when);
  void restore(std::set<int> saved, size_t assigned_mark);
  void assigned(int slot);
  void unnarrow_assigned(const ast::Block& b);
  ast::Type domain(ast::Expr& e);
  // statements (check_stmt.cpp): one function per kind
  void block(ast::Block& b);
  void stmt(ast::Stmt& s);
  void let_statement(ast::Stmt& s);
  void assign(ast::Stmt& s);
  void if_statement(ast::Stmt& s);
  void while_statement(ast::Stmt& s);
  void suppose_statement(ast::Stmt& s);
  // A loop's `while` condition and `where` filter (either null), in the order they are tested;
  // each narrows what follows it.
  void loop_conditions(ast::Expr* stop, ast::Expr* filter);
  void for_statement(ast::Stmt& s);
  void return_statement(ast::Stmt& s);
  void emit_statement(ast::Stmt& s);
  void add_statement(ast::Stmt& s);
  void finish_statement(ast::Stmt& s);
  void end_game_statement(ast::Stmt& s);
  // local collections (check_collections.cpp)
  void let_collection(ast::Stmt& s);
  const Local* local_collection(const ast::Expr& e) const;
  const Local* collection(ast::Expr& e, const char* what);
  void changes_collection(const Local& l, Span span);
  void remove_statement(ast::Stmt& s);
  void clear_statement(ast::Stmt& s);
  bool collection_call(ast::Expr& e, ast::Type& result);
  ast::Type collection_element(ast::Expr& e);
  ast::Type collection_index(ast::Expr& e, const ast::Expr& root, const std::vector<ast::Expr*>& idx, ast::Type elem);
  void iterate(const ast::Expr& domain, bool begin);
  static const char* collection_hint();
  // The symbol of NAME when it gives a number per player (end_game's `by` and `points`), else -1
  // after reporting why.
  int number_per_player(const std::string& name, const Span& at, const char* clause);
  // calls and the call graph (check_calls.cpp)
  ast::Type check_call(ast::Expr& e, bool as_statement);
  void check_recursion();
  void check_build_calls();
  void check_roll_calls();
  void roll_outside_chance(Span span);
  void check_facts();                           // facts.cpp: each `fact` of a shape the engine keeps
  bool fact_shape(ast::Decl& d, FactShape& f);  // facts.cpp
  void check_ai_block();    // agent_defs.cpp: the rules never call the `ai` block, which changes nothing
  void check_agent_defs();  // agent_defs.cpp: `evaluate` and `team`, looked up by the computer players

  Checked& c_;
  const SourceSet& src_;
  diag::Diagnostics& diags_;
  // the body being checked
  ast::Decl* owner_ = nullptr;
  Where where_ = Where::Any;
  std::vector<Local> scope_;
  std::vector<size_t> marks_;
  int next_slot_ = 0;
  int max_slot_ = 0;
  bool in_def_ = false;
  bool in_chance_ = false;
  bool negated_min_ = false;  // the literal under '-' is 2147483648, which is allowed there
  ast::Type result_ = ast::Type::Void;
  std::vector<std::tuple<ast::Decl*, ast::Decl*, Span>> calls_;  // caller, callee (def, shape, event)
  std::map<ast::Decl*, std::pair<Span, std::string>> play_use_;  // functions that need play-time state
  std::map<ast::Decl*, Span> roll_use_;                          // functions that read `roll`: their first read
  int supposing_ = 0;                 // inside `suppose` blocks: what they change is given back
  std::vector<bool> supposed_calls_;  // per entry of calls_: made inside a `suppose` block
  std::map<ast::Decl*, std::pair<Span, std::string>> changes_;  // bodies that change the state: the first change
  std::set<std::string> broken_;                             // names in text that did not parse (Module::broken_names)
  std::set<int> syntax_files_;                               // files with syntax errors
  std::set<int> entered_;                                    // phases some statement names (`phase = NAME`)
  std::vector<std::pair<const ast::Decl*, size_t>> unread_;  // formals never read (W003, once no errors)
  std::vector<std::tuple<const ast::Expr*, const char*, std::string>> never_;  // guards and filters to fold
  std::set<int> narrowed_;      // `T or none` locals proved not none here (check_none.cpp)
  std::vector<int> assigned_;   // locals written, in order: a narrowed region ends where one is
  std::vector<int> iterating_;  // collections a loop or aggregate being checked runs over (slots)
  int formals_ = 0;             // slots below this are formals: a duplicate formal is E102, not W002
};

}  // namespace keli::check
