// Error recovery for the grammar: the keyword tables and recover<Item, Level>, a rule that keeps
// parsing after a syntax error so that one run reports every syntax error of a file. It only moves
// the input past broken text; it builds nothing (parse.cpp turns the log into diagnostics).
#pragma once

#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include <tao/pegtl.hpp>

#include "keli_keywords.hpp"

namespace keli::grammar {
namespace p = tao::pegtl;

// Words that open a top-level declaration. A line starting with one at column 1 is where
// recovery resumes after a broken declaration, and a misspelt one gets a did-you-mean.
// Words that open a statement, and a rule of a phase: misspellings of them get a did-you-mean.
// All three come from the one keyword table (keli_keywords.hpp).
inline const std::vector<std::string> declaration_words = words_with(Declaration);
inline const std::vector<std::string> statement_words = words_with(Statement);
inline const std::vector<std::string> rule_words = words_with(Rule);

// How far a recovery skips: one statement, one rule of a phase, or to the next declaration.
enum class level { statement, rule, declaration };

// The syntax errors met while parsing, in order; handed to the parse as a state.
struct syntax_log {
  struct entry {
    std::string message;
    size_t byte, line, column;  // where the parser stopped
    size_t item;                // byte where the broken statement, rule or declaration starts
  };
  std::vector<entry> errors;
  int depth = 0, max_depth = 0;  // levels open now, and the most allowed (keli_nesting.hpp; 0: no bound)
  bool has(size_t byte) const {
    for (const auto& e : errors)
      if (e.byte == byte) return true;
    return false;
  }
};

namespace recovery {

inline bool word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}
inline std::string_view word_at(const char* s, const char* end) {
  const char* e = s;
  while (e < end && word_char(*e)) ++e;
  return {s, static_cast<size_t>(e - s)};
}
inline bool is_one_of(std::string_view w, const std::vector<std::string>& words) {
  for (const auto& k : words)
    if (w == k) return true;
  return false;
}
inline const char* skip_blanks(const char* s, const char* end) {
  while (s < end && (*s == ' ' || *s == '\t' || *s == '\r')) ++s;
  return s;
}
// A declaration starts here: a declaration word at column 1.
inline bool declaration_at(const char* s, const char* begin, const char* end) {
  if (s != begin && s[-1] != '\n') return false;
  return is_one_of(word_at(s, end), declaration_words);
}
// A rule of a phase starts here: `move NAME`, `otherwise NAME`, `override move|otherwise`.
inline bool rule_at(const char* s, const char* end) {
  std::string_view w = word_at(s, end);
  if (!is_one_of(w, rule_words)) return false;
  const char* n = skip_blanks(s + w.size(), end);
  return n < end && word_char(*n);
}

// Where parsing goes on after a syntax error at `from` in the item (statement, rule or declaration)
// that starts at `item`. Statements and rules end at the end of
// their line, or after the `}` that closes a brace opened in the broken text, or before a `}` that
// closes the enclosing block; a declaration ends where the next declaration starts at column 1.
// Strings and comments are passed over, so their braces do not count.
inline const char* skip(const char* from, const char* item, const char* begin, const char* end, level lv) {
  if (lv == level::rule && rule_at(from, end)) return from;  // the next rule starts right here
  // Stopped at the first word of a later line: what is missing belongs to the line before
  // (`site(1, 0` with no ')'), and the statement or rule on this line is whole: resume here.
  const char* line = from;
  while (line > begin && (line[-1] == ' ' || line[-1] == '\t')) --line;
  if (lv != level::declaration && line > item && (line == begin || line[-1] == '\n') && from < end && *from != '}')
    return from;
  int depth = 0;
  const char* s = from;
  while (s < end) {
    if (s != from && (s[-1] == '\n')) {
      if (declaration_at(s, begin, end)) return s;
      if (lv != level::declaration && depth == 0) return s;
      if (lv == level::statement && rule_at(skip_blanks(s, end), end)) return s;
    }
    char c = *s;
    if (c == '"') {
      ++s;
      while (s < end && *s != '"' && *s != '\n') s += (*s == '\\' && s + 1 < end && s[1] != '\n') ? 2 : 1;
      if (s < end && *s == '"') ++s;
      continue;
    }
    if (c == '#') {
      while (s < end && *s != '\n') ++s;
      continue;
    }
    if (c == '{') ++depth;
    if (c == '}') {
      if (depth == 0 && lv != level::declaration) return s;
      --depth;
    }
    ++s;
  }
  return s;
}

// Blanks, line ends and comments, as the grammar's `_` skips them after every token.
inline const char* skip_space(const char* s, const char* end) {
  while (s < end) {
    if (*s == '#') {
      while (s < end && *s != '\n') ++s;
    } else if (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n' || *s == '\f' || *s == '\v') {
      ++s;
    } else {
      break;
    }
  }
  return s;
}

template <typename... States>
syntax_log* find_log(States&... st) {
  syntax_log* out = nullptr;
  auto pick = [&](auto& s) {
    if constexpr (std::is_same_v<std::decay_t<decltype(s)>, syntax_log>) out = &s;
  };
  (pick(st), ...);
  return out;
}

}  // namespace recovery

// Matches Item. When Item raises a syntax error, records it in the syntax_log state, skips the
// broken text (see recovery::skip) and succeeds, so the enclosing list goes on with the next item.
// An error that belongs to an outer level (at the start of a declaration, or of a phase's rule
// for a statement) is passed on to that level. Without a syntax_log state errors pass through.
template <typename Item, level Lv>
struct recover {
  using rule_t = recover;
  using subs_t = p::type_list<Item>;

  template <p::apply_mode A, p::rewind_mode M, template <typename...> class Action,
            template <typename...> class Control, typename ParseInput, typename... States>
  static bool match(ParseInput& in, States&&... st) {
    auto m = in.template mark<p::rewind_mode::required>();
    const char* start = in.current();
    try {
      return m(Control<Item>::template match<A, p::rewind_mode::active, Action, Control>(in, st...));
    } catch (const p::parse_error& e) {
      syntax_log* log = recovery::find_log(st...);
      if (!log || e.positions().empty()) throw;
      const auto& pos = e.positions().front();
      const char* at = in.begin() + pos.byte;
      if (Lv != level::declaration && recovery::declaration_at(at, in.begin(), in.end())) throw;
      if (Lv == level::statement && recovery::rule_at(at, in.end())) throw;
      if (!log->has(pos.byte))
        log->errors.push_back(
            {std::string(e.message()), pos.byte, pos.line, pos.column, static_cast<size_t>(start - in.begin())});
      const char* to = recovery::skip_space(recovery::skip(at, start, in.begin(), in.end(), Lv), in.end());
      if (to == start) {  // no progress: skip the rest of the line, or give up at the end
        while (to < in.end() && *to != '\n') ++to;
        if (to < in.end()) ++to;
        if (to == start) return m(false);
      }
      in.restart(m);
      in.bump(static_cast<size_t>(to - in.current()));
      return m(true);
    }
  }
};

}  // namespace keli::grammar
