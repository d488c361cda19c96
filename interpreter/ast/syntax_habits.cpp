// Syntax errors that are habits from other languages (`&&`, `//`, `else if`, `if x:`, `=` in a
// condition) get a message naming the Keli form instead of "expected ...", and a block never
// closed is reported at its opening brace, not at the end of the file where the parser noticed.
#include "ast/syntax_habits.hpp"

#include <cctype>
#include <vector>

namespace keli::ast {

namespace {

// One habit: the text found where the error is (`at`), or just before it (the parser may fail on
// the second character of a two-character token), and what Keli writes instead.
struct HabitRule {
  const char* spelled;
  const char* message;
  const char* hint;
};
constexpr HabitRule kHabits[] = {
    {"&&", "'&&' is not Keli: conditions combine with 'and'", "write 'a and b'; 'or' and 'not' are words too"},
    {"||", "'||' is not Keli: conditions combine with 'or'", "write 'a or b'; 'and' and 'not' are words too"},
    {"//", "'//' does not start a comment in Keli: comments start with '#'",
     "a comment runs from '#' to the end of the line"},
    {"/*", "'/*' does not start a comment in Keli: comments start with '#'",
     "put '#' at the start of each line of a longer comment"},
};

bool starts(std::string_view s, size_t at, std::string_view what) {
  return at < s.size() && s.substr(at, what.size()) == what;
}

// The word ending just before byte `at` of the line (skipping blanks), or "".
std::string_view word_before(std::string_view line, size_t at) {
  size_t j = std::min(at, line.size());
  while (j > 0 && (line[j - 1] == ' ' || line[j - 1] == '\t')) --j;
  size_t i = j;
  while (i > 0 && (std::isalnum(static_cast<unsigned char>(line[i - 1])) || line[i - 1] == '_')) --i;
  return line.substr(i, j - i);
}

int indent_of(std::string_view text, size_t line_start) {
  int n = 0;
  while (line_start + n < text.size() && (text[line_start + n] == ' ' || text[line_start + n] == '\t')) ++n;
  return n;
}

}  // namespace

std::optional<Habit> habit_at(std::string_view line, size_t col, bool after_condition) {
  if (col == 0 || col > line.size()) return std::nullopt;
  const size_t at = col - 1;
  for (const HabitRule& h : kHabits) {
    const std::string_view s = h.spelled;
    for (size_t back = 0; back < s.size() && back <= at; ++back)
      if (starts(line, at - back, s)) return Habit{h.message, h.hint, at - back + 1, s.size()};
  }
  if (line[at] == '!' && !starts(line, at, "!="))
    return Habit{"'!' is not Keli: a condition is negated with 'not'", "write 'not x'", col, 1};
  if (!after_condition) return std::nullopt;
  if (line[at] == '=' && !starts(line, at, "==") && (at == 0 || line[at - 1] != '='))
    return Habit{"'=' assigns a value; to compare two values, write '=='",
                 "'a == b' is true when they are equal; 'a != b' when they differ", col, 1};
  if (starts(line, at, "if") && word_before(line, at) == "else")
    return Habit{"'else if' is written 'elif' in Keli", "} elif CONDITION {", col - 5, 7};
  if (line[at] == ':' && at + 1 >= line.find_last_not_of(" \t\r") + 1)
    return Habit{"a block opens with '{' in Keli, not ':' at the end of the line",
                 "if CONDITION { ... } (indentation does not make a block)", col, 1};
  return std::nullopt;
}

// Braces are matched in order, skipping strings and comments. The first pair whose closing brace
// starts a line indented unlike the opener's line is where the writer lost one; failing that, the
// innermost brace left open.
std::optional<Opener> unclosed_opener(std::string_view text) {
  struct Open {
    size_t at, line_start;
    int line;
  };
  std::vector<Open> stack;
  std::optional<Opener> first_mismatch;
  int line = 1;
  size_t line_start = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char ch = text[i];
    if (ch == '\n') {
      ++line;
      line_start = i + 1;
      in_string = false;
      continue;
    }
    if (in_string) {
      if (ch == '\\')
        ++i;
      else if (ch == '"')
        in_string = false;
      continue;
    }
    if (ch == '"') in_string = true;
    if (ch == '#')
      while (i + 1 < text.size() && text[i + 1] != '\n') ++i;
    if (ch == '{') stack.push_back({i, line_start, line});
    if (ch == '}' && !stack.empty()) {
      const Open o = stack.back();
      stack.pop_back();
      const bool starts_line = static_cast<int>(i - line_start) == indent_of(text, line_start);
      if (!first_mismatch && starts_line && indent_of(text, line_start) != indent_of(text, o.line_start))
        first_mismatch = Opener{o.line, o.at - o.line_start + 1};
    }
  }
  if (stack.empty()) return std::nullopt;
  if (first_mismatch) return first_mismatch;
  return Opener{stack.back().line, stack.back().at - stack.back().line_start + 1};
}

}  // namespace keli::ast
