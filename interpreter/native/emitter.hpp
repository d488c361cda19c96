// The C++ emitter's internals: one Emitter per program writes one translation unit. Expressions
// become three-address code in sequenced locals (operands left to right, as the interpreter),
// statements become structured C++, each callable and body its own function.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "compile/program.hpp"

namespace keli::native {

extern const char* const kUndoHelpers;  // pasted after the other helpers (emit_stmt.cpp)

class Emitter {
 public:
  explicit Emitter(const compile::Program& p) : p_(p) {}
  std::string source();  // the whole translation unit, without its module table

 private:
  // Output (emit.cpp).
  void line(const std::string& s);
  void open(const std::string& s);  // a line ending in '{', indenting after it
  void close(const std::string& s = "}");
  std::string tmp();  // a fresh local name
  // The translation unit's parts (emit.cpp).
  void tables();
  void history_layout();
  void fixed_slot_set(int slot, bool compared, const std::string& v);
  void note_write(const std::string& off);
  void toggle_key(const std::string& slot, const std::string& before, const std::string& now);
  void callables();
  void bodies();
  void legal();
  void distinct(const compile::RuleParam& prm, size_t rule, const std::string& seen, const std::string& kept,
                const std::function<void()>& restore);
  void entries();
  void end_game(const compile::Node& n, int idx);
  void per_player(lang::EndBy from, int index, const char* into);
  // Expressions (emit_expr.cpp): emits what computes node idx; returns a name or a literal.
  std::string expr(int idx);
  std::string arith(const char* op, int node, const std::string& a, const std::string& b);
  std::string truth_op(const compile::Node& n);
  std::string builtin(const compile::Node& n, int idx);
  std::string call(const compile::Node& n, int idx);
  std::string aggregate(const compile::Node& n, int idx);
  std::string fact(const compile::Node& n, int idx);
  // Declared facts (emit_facts.cpp).
  std::string tally(const compile::Node& n);
  void tally_declarations();
  void tally_functions();
  void update_tallies(int var, const std::string& off, const std::string& before, const std::string& now, int idx);
  std::string region_checked(int node, int region_expr);
  std::string table_offset(const compile::VarInfo& t, const compile::Node& n, int node);
  std::string fault(int node, const char* kind, const std::string& a = "0", const std::string& b = "0",
                    const std::string& c = "0");
  // A domain opened at a loop's start: its size and the expression of element i.
  struct Dom {
    std::string size, list, lo;  // list empty: numbers lo + i
    std::string coll;            // a local collection: its storage, kind and capacity, as arguments
  };
  Dom domain(int dom);
  static std::string element(const Dom& d, const std::string& i);
  // Local collections (emit_collections.cpp): the functions of lang/collections.hpp on L's slots.
  static std::string collection_args(const compile::Node& n);
  Dom search_domain(const compile::Node& n, int idx, const std::string& size);  // group(T, s), border(T, s)
  std::string collection_expr(const compile::Node& n, int idx);
  void collection_stmt(const compile::Node& n, int idx);
  // Calls remembered while one rule's moves are listed (emit_memo.cpp).
  void plan_memo(const compile::Rule& rule, const std::vector<std::string>& counters);
  std::string memo_call(int idx, const std::string& call);
  // Statements (emit_stmt.cpp).
  void stmts(int first);
  void stmt(int idx);
  void state_set(const compile::Node& n, int idx);
  void update_cells(const std::vector<int>& ids, const compile::VarInfo& t, const std::string& off,
                    const std::string& before, const std::string& now);
  void set_local(const compile::Node& n, int idx);
  void while_loop(const compile::Node& n, int idx);
  void for_loop(const compile::Node& n, int idx);
  void open_domain_loop(const compile::Node& n, int idx, const std::string& counter);
  void emit_event(const compile::Node& n, int idx);
  void finish(const compile::Node& n, int idx);

  // Local slots (emit.cpp): a callable's or rule's frame becomes C++ locals l<slot> of the
  // function running it (parameters passed as arguments); other slots stay in the context's L.
  std::string slot(int s) const;
  bool counts_depth() const;             // whether calls and handlers count their depth (it may pass the limit)
  bool passes_args(int callable) const;  // its function takes its parameters as arguments
  std::pair<int, int> frame(int callable) const;
  std::pair<int, int> frame_of_slot(int s) const;
  void declare_frame(std::pair<int, int> f);
  std::string call_args(int callable, const std::vector<std::string>& args) const;

  // The calls of the rule being listed that are remembered: call node -> its arrays' name and
  // the key (the inner parameters' positions).
  struct MemoSite {
    std::string table, key;
  };
  std::map<int, MemoSite> memo_sites_;

  const compile::Program& p_;
  std::pair<int, int> frame_{0, 0};  // the slots the function being written keeps as C++ locals
  bool void_body_ = false;           // writing a move's or a throw's body: a C++ void function
  std::string out_;
  int indent_ = 0;
  int tmp_ = 0;
};

}  // namespace keli::native
