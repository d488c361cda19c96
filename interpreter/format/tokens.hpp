// The formatter's view of a Keli file: its tokens (a lexer following grammar/keli_grammar.hpp),
// and what the parser knows that a lexer cannot: where statements and declarations start,
// whether a `-` is unary, whether `(` opens a call's arguments or a parenthesised expression.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace keli::format {

enum class TokKind : uint8_t { Word, Number, String, Op, Comment };

struct Token {
  TokKind kind;
  std::string_view text;  // into the source; a comment without its trailing blanks
  size_t offset = 0;      // byte offset in the source
  uint32_t line = 1;      // 1-based line in the source
  uint32_t breaks = 0;    // line breaks between the previous token and this one
};

// Splits `src` into tokens. Never fails: a character the grammar does not know becomes a
// one-character Op token (the parser reports such files before the layout runs).
std::vector<Token> lex(std::string_view src);

// Where two token sequences first differ (comparing kind and text only), or -1 if they are the
// same; the formatter's self-check that its output says exactly what its input said.
long first_token_difference(const std::vector<Token>& a, const std::vector<Token>& b);

enum Role : uint8_t {
  kStarts = 1,    // first token of a declaration, statement, `about` entry, move or otherwise
  kUnary = 2,     // a `-` that negates (no space after it)
  kTight = 4,     // `(` of arguments or parameters, `[` of an index: no space before
  kGrouping = 8,  // `(` of a parenthesised expression, `[` of a list: a space before
};

struct Roles {
  std::unordered_map<size_t, uint8_t> at;  // by byte offset of the token
  uint8_t of(size_t offset) const {
    auto it = at.find(offset);
    return it == at.end() ? 0 : it->second;
  }
};

// Parses `text` (named `path` in messages). On a syntax error returns false and sets `error` to
// the positioned diagnostic as `keli validate` prints it (file:line:col, source line, caret).
bool find_roles(const std::string& path, const std::string& text, Roles& roles, std::string& error);

}  // namespace keli::format
