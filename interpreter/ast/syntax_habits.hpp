// What a syntax error means when it is a habit from another language, and where an unclosed
// block opened (used by syntax_errors.cpp).
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace keli::ast {

// A habit found at 1-based byte column `col` of a line: the message naming Keli's form, a hint,
// and the columns the habit's text covers. `after_condition`: the parser wanted a block or 'then'
// (where `=` for `==`, `else if` and `if x:` show up).
struct Habit {
  const char* message;
  const char* hint;
  size_t col, len;
};
std::optional<Habit> habit_at(std::string_view line, size_t col, bool after_condition);

// The opening brace (1-based line and column) a file never closes, if it has one.
struct Opener {
  int line;
  size_t col;
};
std::optional<Opener> unclosed_opener(std::string_view text);

}  // namespace keli::ast
