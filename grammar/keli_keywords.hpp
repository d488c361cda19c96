// The one list of the language's words. The grammar makes a rule kw_ID of each, the reserved
// rule of the Reserved ones, and error recovery its lists of declaration, statement and rule
// words from the roles; the editor files and docs are checked against it (tests/unit).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace keli::grammar {

// What a word does, as flags: a word may have several roles (`override` opens a declaration and
// a rule). Reserved words can never name anything; the others stay usable as names.
enum WordRole : uint8_t {
  Declaration = 1,  // opens a top-level declaration
  Statement = 2,    // opens a statement
  Rule = 4,         // opens a rule of a phase
  Reserved = 8,     // never a name
  Other = 16,       // a word inside a construct (named, per, of, types, aggregates, ...)
};

// X(id, text, roles)
#define KELI_KEYWORDS(X)                              \
  X(game, "game", Declaration)                        \
  X(extends, "extends", Other)                        \
  X(import, "import", Declaration)                    \
  X(about, "about", Declaration)                      \
  X(param, "param", Declaration)                      \
  X(players, "players", Declaration)                  \
  X(named, "named", Other)                            \
  X(pieces, "pieces", Declaration)                    \
  X(const, "const", Declaration)                      \
  X(var, "var", Declaration)                          \
  X(per, "per", Other)                                \
  X(region, "region", Declaration)                    \
  X(track, "track", Declaration)                      \
  X(dice, "dice", Declaration)                        \
  X(of, "of", Other)                                  \
  X(ordered, "ordered", Other)                        \
  X(def, "def", Declaration)                          \
  X(fact, "fact", Declaration)                        \
  X(shape, "shape", Declaration)                      \
  X(board, "board", Declaration)                      \
  X(event, "event", Declaration)                      \
  X(on, "on", Declaration)                            \
  X(when, "when", Reserved)                           \
  X(setup, "setup", Declaration)                      \
  X(phase, "phase", Declaration)                      \
  X(chance, "chance", Other)                          \
  X(move, "move", Rule | Reserved)                    \
  X(otherwise, "otherwise", Rule | Reserved)          \
  X(reads, "reads", Other)                            \
  X(joined, "joined", Other)                          \
  X(invariant, "invariant", Declaration)              \
  X(limit, "limit", Declaration)                      \
  X(display, "display", Declaration)                  \
  X(hand, "hand", Other)                              \
  X(repetitions, "repetitions", Declaration)          \
  X(compare, "compare", Other)                        \
  X(directions, "directions", Declaration)            \
  X(coordinates, "coordinates", Declaration)          \
  X(without, "without", Other)                        \
  X(ai, "ai", Declaration)                            \
  X(safety, "safety", Declaration)                    \
  X(turn, "turn", Declaration)                        \
  X(order, "order", Other)                            \
  X(backwards, "backwards", Other)                    \
  X(skips, "skips", Other)                            \
  X(end, "end", Other)                                \
  X(pass, "pass", Other)                              \
  X(extra, "extra", Other)                            \
  X(distinct, "distinct", Other)                      \
  X(let, "let", Statement | Reserved)                 \
  X(if, "if", Statement | Reserved)                   \
  X(elif, "elif", Statement | Reserved)               \
  X(else, "else", Statement | Reserved)               \
  X(then, "then", Reserved)                           \
  X(while, "while", Statement | Reserved)             \
  X(for, "for", Statement | Reserved)                 \
  X(in, "in", Reserved)                               \
  X(where, "where", Reserved)                         \
  X(return, "return", Statement | Reserved)           \
  X(emit, "emit", Statement | Reserved)               \
  X(note, "note", Statement | Reserved)               \
  X(add, "add", Statement)                            \
  X(to, "to", Other)                                  \
  X(clear, "clear", Statement)                        \
  X(suppose, "suppose", Statement)                    \
  X(from, "from", Other)                              \
  X(list, "list", Other)                              \
  X(set, "set", Other)                                \
  X(finish, "finish", Statement)                      \
  X(end_game, "end_game", Statement)                  \
  X(by, "by", Other)                                  \
  X(points, "points", Other)                          \
  X(and, "and", Reserved)                             \
  X(or, "or", Reserved)                               \
  X(not, "not", Reserved)                             \
  X(true, "true", Reserved)                           \
  X(false, "false", Reserved)                         \
  X(int, "int", Other)                                \
  X(bool, "bool", Other)                              \
  X(sum, "sum", Other)                                \
  X(count, "count", Other)                            \
  X(any, "any", Other)                                \
  X(all, "all", Other)                                \
  X(min, "min", Other)                                \
  X(max, "max", Other)                                \
  X(at, "at", Other)                                  \
  X(override, "override", Declaration | Rule)         \
  X(remove, "remove", Declaration | Rule | Statement) \
  X(extend, "extend", Declaration)

struct Keyword {
  const char* text;
  unsigned roles;
};

inline const std::vector<Keyword>& keywords() {
  static const std::vector<Keyword> table = {
#define KELI_KEYWORD_ROW(id, text, roles) {text, static_cast<unsigned>(roles)},
      KELI_KEYWORDS(KELI_KEYWORD_ROW)
#undef KELI_KEYWORD_ROW
  };
  return table;
}

// The words with a role, in the table's order.
inline std::vector<std::string> words_with(WordRole role) {
  std::vector<std::string> out;
  for (const auto& k : keywords())
    if (k.roles & role) out.push_back(k.text);
  return out;
}

}  // namespace keli::grammar
