// The semantics corpus (tests/semantics/*.keli, described in tests/semantics/README.md): reading a
// file's case groups and `# expect` lines, and writing the games that evaluate one group in each
// context (a variable's initial value, the board code, a setup block; a move is the file itself).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "session/game_file.hpp"

namespace keli::test::semantics {

// How early a group's statements can be computed, from its rule's name prefix.
enum class Kind { Constant, Board, Play };

// `# expect: TARGET = VALUE` or `# expect error: TEXT`.
struct Expect {
  int line = 0;        // in the corpus file
  std::string target;  // as written: `a`, `t[2]`, `t[-1][0]`; empty for an error
  std::string name;    // the table or variable
  std::vector<int64_t> indices;
  int64_t value = 0;
  std::string value_text;  // as written
  std::string error;       // the text the error's message must contain
  bool is_error() const { return target.empty(); }
};

// `NAME = EXPR` at the top level of a constant group: EXPR becomes NAME's initial value.
struct Assignment {
  std::string var;
  std::string expr;  // one line, comments removed
};

// One case group: a parameterless move named constant_*, board_* or play_*, or a chance phase
// named play_*. Each group is evaluated on its own, from the start position, in every context
// its kind allows.
struct Group {
  std::string name;
  Kind kind = Kind::Play;
  bool chance = false;
  std::string phase;  // the phase holding it (itself for a chance phase)
  int first_line = 0, last_line = 0;
  size_t begin = 0, end = 0;             // its whole text (`move` or `phase` .. `}`)
  size_t body_open = 0, body_close = 0;  // its `{` and `}`
  std::vector<Expect> expects;
  std::vector<std::string> assigned;    // variables its statements assign (not through calls)
  std::vector<Assignment> assignments;  // constant groups only
  bool expects_error() const { return expects.size() == 1 && expects[0].is_error(); }
};

// A variable declared in the file, by its one line of code.
struct VarDecl {
  std::string name, type;
  size_t begin = 0, end = 0;      // `var` .. the end of its code on that line
  size_t after_name = 0;          // where its type (`: int ...`) starts
  std::vector<std::string> dims;  // each dimension as a domain: `sites`, `seats`, `pieces`, `0..3`
};

struct CaseFile {
  std::string path, text;
  std::unique_ptr<GameFile> game;  // the file itself, checked
  std::vector<Group> groups;
  std::vector<Expect> top;  // outside every group: checked in the start position
  std::vector<VarDecl> vars;
  size_t board_close = std::string::npos;  // the `}` of `board { ... }`
  std::vector<std::string> problems;       // what makes the file unusable as a case file
  const VarDecl* var(const std::string& name) const;
};

CaseFile read_case_file(const std::string& path);

// The name under which the board context's copy of variable NAME is kept in the state.
std::string board_copy(const std::string& name);

// The file with the group's assignments as initial values (constant groups).
std::string constant_game(const CaseFile& f, const Group& g);
// The file with the group's statements at the end of the board code, its variables turned into
// constants, and a setup block that stores each into a variable NAME__board (constant and board
// groups).
std::string board_game(const CaseFile& f, const Group& g);
// The file with a phase `semantics_guards` holding, for each assignment NAME = EXPR of a constant
// group that expects values, a rule `guard_rule(NAME)` guarded by `(EXPR) == VALUE`: legal exactly
// when EXPR gives the expected VALUE (and never warned about as always false).
std::string guard_rule(const std::string& var);
std::string guard_game(const CaseFile& f, const Group& g);
// The file with the group's statements as its last setup block (constant and board groups).
std::string setup_game(const CaseFile& f, const Group& g);

}  // namespace keli::test::semantics
