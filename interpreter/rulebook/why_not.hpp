// "Why not?": for a move written in the game's notation, each rule that could have produced it
// and the first of its tests that fails, in words, with its position and the values involved; for
// text no rule reads, what the rules accept instead. The engine's own move listing decides what is
// legal (either engine); the failing test is found by the interpreter's machine on the same
// program (runtime::Game::why_not), and said in the rulebook's words.
#pragma once

#include <string>
#include <vector>

#include "check/checker.hpp"
#include "runtime/game.hpp"

namespace keli::rulebook {

struct FailedTest {
  std::string move;       // the candidate as the rules write it
  std::string rule;       // its rule's name
  std::string anchor;     // its rule's section in the rulebook ("move-PHASE-RULE")
  std::string test;       // "domain", "where", "distinct" or "guard"
  std::string param;      // the parameter, for a domain, where or distinct test
  std::string where;      // FILE:LINE:COL of the deciding condition
  std::string condition;  // that condition in words
  std::string values;     // the values it read: "the number of counters in h is 0"
  std::string message;    // one sentence saying all of it
};

struct WhyNot {
  bool legal = false;                // the text is a legal move now
  std::vector<FailedTest> failed;    // each rule's candidate that reads so, and why it is not legal
  std::vector<std::string> instead;  // when no rule reads the text: moves the rules accept now
  std::string message;               // the answer in words, one line per candidate
};

// Edits (insertions, deletions, changes) from a to b: how near a text is to a move's.
size_t edit_distance(const std::string& a, const std::string& b);
// The text in lower case (ASCII letters; how a typed move is compared with the moves offered).
std::string lower(const std::string& s);

WhyNot why_not(const check::Checked& ck, const SourceSet& src, runtime::Game& g, const runtime::State& s,
               const std::string& text);

// Why nothing starts at a site now (a tapped piece or cell): each move whose first site or piece
// parameter is the site or a piece on it, and the test it fails; a rule whose first parameter can
// never be it, by its domain; else what the rules accept. `legal` when some move starts there.
WhyNot why_not_at(const check::Checked& ck, const SourceSet& src, runtime::Game& g, const runtime::State& s, int site);

}  // namespace keli::rulebook
