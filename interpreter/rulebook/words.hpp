// The rulebook's English for expressions and statements (keli rules). Every construct of the
// language has a rendering here, read from the vocabulary's tables (operators, aggregates,
// assignments, built-ins, collection functions: their `words` column) and from the `In words:`
// line of a definition's doc comment; whatever still comes out as code is recorded as a fallback.
// Conditions and numbers that depend only on parameters are folded to the values in effect, so
// a branch the options rule out is left out of the book.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ast/ast.hpp"
#include "check/checker.hpp"
#include "rulebook/rulebook.hpp"

namespace keli::rulebook {

// The comment block written directly above a declaration, rule or statement: its prose (`gloss`)
// and its `In words:` phrase, a template whose {NAME} holes are the declaration's parameters.
struct DocComment {
  std::string gloss;
  std::string phrase;
};
DocComment doc_comment(const SourceSet& src, const Span& at);
// The comment after the code on the line `at` starts on, or empty.
std::string trailing_comment(const SourceSet& src, const Span& at);

// `s` with its first letter (after a term's opening `*`) a capital.
std::string sentence_case(std::string s);
// `name` with its underscores as spaces: the way a rulebook names a game's own definitions.
std::string spoken(const std::string& name);
// `tmpl` with each {KEY} replaced by the value keyed KEY ({0}, {1}, ... or a parameter's name).
std::string fill(const std::string& tmpl, const std::map<std::string, std::string>& values);

class Words {
 public:
  Words(const check::Checked& ck, const SourceSet& src, const compile::Program& prog);

  std::string value(const ast::Expr& e);  // a noun phrase: "the counters of h"
  std::string holds(const ast::Expr& e);  // a clause true when e is: "h is not closed"
  // The steps of a block, one Para each, nested blocks one level deeper.
  void steps(const ast::Block& b, int depth, std::vector<Para>& out);
  // The value of e when it depends on parameters and constants alone.
  std::optional<int64_t> constant(const ast::Expr& e) const;

  // A move parameter, `h in row[mover] where ...`, as "h, one of the mover's row, where ...".
  std::string choice(const ast::MoveParam& p);
  // The phrase of an event happening with these argument phrases.
  std::string event_phrase(const ast::Decl& event, const std::vector<std::string>& args);
  // A definition's phrase, its parameters as holes filled with `args`; empty when it has none.
  // `exprs` are the arguments as written, for the phrase's `{if NAME: A|B}` choices.
  std::string def_phrase(const ast::Decl& def, const std::vector<const ast::Expr*>& exprs,
                         const std::vector<std::string>& args);
  bool is_library(const ast::Decl& d) const;

  // A statement as one sentence (an `if` has none: its branches are steps).
  std::string statement(const ast::Stmt& s);
  // A clause true when e is false: "h is not closed".
  std::string fails(const ast::Expr& e);

  std::vector<Fallback> fallbacks;
  std::vector<const ast::Decl*> terms;  // the game's own definitions the words named, first use first

 private:
  std::string name(const ast::Expr& e);
  std::string call(const ast::Expr& e, bool as_statement);
  std::string index(const ast::Expr& e);
  std::string table_entry(const check::Symbol& s, const std::vector<std::string>& args);
  // The table an index reads, with its arguments in words (`t[a][b]`: a, then b).
  const ast::Expr& indexed(const ast::Expr& e, std::vector<std::string>& args);
  // An entry of a yes/no table as a clause, "h is closed", `how` after the verb (" not", " now",
  // " no longer"); none for any other expression.
  std::optional<std::string> flag(const ast::Expr& e, const std::string& how);
  static std::string flag_words(const std::vector<std::string>& args, const std::string& how, const std::string& name);
  std::string aggregate(const ast::Expr& e);
  std::string binary(const ast::Expr& e);
  std::string operand(const ast::Expr& e);  // a value, parenthesised when it is a clause
  std::string code(const ast::Expr& e);     // the fallback: the source text, recorded
  std::string phrase_choices(std::string tmpl, const ast::Decl& def, const std::vector<const ast::Expr*>& args);
  void if_steps(const ast::Stmt& s, int depth, std::vector<Para>& out);
  void step(const ast::Stmt& s, int depth, std::vector<Para>& out);
  const check::Symbol* global(const ast::Expr& e) const;

  const check::Checked& ck_;
  const SourceSet& src_;
  const compile::Program& prog_;
  std::map<std::string, int64_t> param_values_;
};

}  // namespace keli::rulebook
