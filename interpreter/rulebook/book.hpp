// Building a rulebook, section by section (book.cpp, book_more.cpp): the builder holds the game,
// its description (equipment, dice odds, parameters in effect) and the words that render rules.
#pragma once

#include <string>
#include <vector>

#include "describe/describe.hpp"
#include "rulebook/words.hpp"

namespace keli::rulebook {

class BookBuilder {
 public:
  BookBuilder(const GameFile& g, const std::shared_ptr<const compile::Program>& p);
  Book build();

 private:
  // A rule of the book, for the sections that gather from every rule (the end, the options).
  struct Rule {
    std::string name;  // as the end and the options name it: "*sow*", "the set-up"
    const ast::Block* body = nullptr;
    const ast::Expr* guard = nullptr;
    const ast::Decl* decl = nullptr;  // a definition or declaration the rule is, if any
  };

  void text(Section& s, std::string t, int depth = 0);
  void gloss(Section& s, const Span& at, int depth);
  void heading(Section& s, const std::string& title, const std::string& anchor);

  void about();
  void equipment();
  void players(Section& s);
  void board(Section& s);
  void dice(Section& s);
  void setup();
  void play();
  void move(Section& s, const ast::Move& m, const std::string& phase);
  void triggers();
  void definitions(Section& s);  // the terms named so far and not yet defined
  void definition(Section& s, const ast::Decl& d);
  void ending();
  void ends_in(const ast::Block& b, const std::string& rule, std::vector<std::string>& path, Section& s);
  void options();
  void safety();

  const check::Checked& ck_;
  const SourceSet& src_;
  describe::Description d_;
  Words words_;
  std::vector<Rule> rules_;
  size_t defined_ = 0;  // words_.terms written into the definitions
  Book book_;
};

}  // namespace keli::rulebook
