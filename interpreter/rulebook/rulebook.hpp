// keli rules: the rulebook of a game in English, generated from the checked program (never from
// hand-written text): provenance, equipment, set-up, the turn, each move, triggers, definitions,
// the end and the options. A Book is built once, then printed as text, Markdown or HTML.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "compile/program.hpp"
#include "session/game_file.hpp"

namespace keli::rulebook {

// One paragraph of a section. Steps nest: `depth` 0 is a paragraph, 1 and deeper are list items.
struct Para {
  enum class Kind : uint8_t {
    Text,     // generated prose
    Gloss,    // the author's comment on the rule below it, quoted
    Heading,  // a rule's own heading inside a section ("Sow")
  };
  Kind kind = Kind::Text;
  int depth = 0;
  std::string text;
  std::string anchor;  // Heading: its id in Markdown and HTML ("move-sow")
};

struct Section {
  std::string title;
  std::string anchor;
  std::vector<Para> paras;
};

// A construct the words could only give as code: counted, and a test requires none in games/.
struct Fallback {
  std::string where;  // path:line:col
  std::string code;
};

struct Book {
  std::string title;
  std::vector<Section> sections;
  std::vector<Fallback> fallbacks;
};

// The rulebook of `g` compiled as `p` (the parameter values in effect are those of `p`). Never
// throws for a compiled game.
Book build(const GameFile& g, const std::shared_ptr<const compile::Program>& p);

enum class Format : uint8_t { Text, Markdown, Html };
std::string print(const Book& b, Format f, size_t width = 100);

}  // namespace keli::rulebook
