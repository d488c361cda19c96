// The formatter's lexer and the parser's roles for tokens.
//
// The lexer mirrors the lexical layer of grammar/keli_grammar.hpp: blanks and `#` comments
// between tokens, names, decimal numbers, one-line strings with \" \\ \n escapes, and operators
// matched longest first (so `<=` is one token, `< =` two). The layout only moves blanks, so
// comparing the token lists of input and output proves it changed nothing else.
//
// The roles come from running the real grammar with actions that record them by byte offset.
// A rule may succeed in an alternative that is later abandoned (PEGTL backtracks); the parse
// that is kept runs last at any position, so for `-`, `(` and `[` the last role recorded wins.
// Statement and declaration starts are recorded only once their rule has succeeded, and those
// rules are never abandoned afterwards (their closers are must<>).
#include "format/tokens.hpp"

#include <tao/pegtl.hpp>

#include <array>

#include "ast/parse.hpp"
#include "diag/diagnostics.hpp"
#include "keli_errors.hpp"

namespace keli::format {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }
bool is_first(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_other(char c) { return is_first(c) || is_digit(c); }

// Two-character operators of the grammar; every other operator is one character.
constexpr std::array<std::string_view, 7> kPairs = {"..", "==", "!=", "<=", ">=", "+=", "-="};

}  // namespace

std::vector<Token> lex(std::string_view src) {
  std::vector<Token> out;
  size_t i = 0;
  uint32_t line = 1, breaks = 0;
  while (i < src.size()) {
    char c = src[i];
    if (c == '\n') {
      ++i;
      ++line;
      ++breaks;
      continue;
    }
    if (is_space(c)) {
      ++i;
      continue;
    }
    Token t{TokKind::Op, {}, i, line, breaks};
    size_t n = 1;
    if (c == '#') {
      t.kind = TokKind::Comment;
      while (i + n < src.size() && src[i + n] != '\n') ++n;
      size_t keep = n;  // trailing blanks are not part of the comment
      while (keep > 1 && is_space(src[i + keep - 1])) --keep;
      t.text = src.substr(i, keep);
    } else if (is_first(c)) {
      t.kind = TokKind::Word;
      while (i + n < src.size() && is_other(src[i + n])) ++n;
    } else if (is_digit(c)) {
      t.kind = TokKind::Number;
      while (i + n < src.size() && is_digit(src[i + n])) ++n;
    } else if (c == '"') {
      // A `reads` text is one token, strings inside its {holes} included, kept as written.
      const bool reading = !out.empty() && out.back().kind == TokKind::Word && out.back().text == "reads";
      t.kind = TokKind::String;
      int depth = 0;
      while (i + n < src.size() && (src[i + n] != '"' || depth > 0) && src[i + n] != '\n') {
        if (src[i + n] == '\\' && i + n + 1 < src.size() && src[i + n + 1] != '\n') {
          n += 2;
          continue;
        }
        if (reading && src[i + n] == '{') ++depth;
        if (reading && src[i + n] == '}' && depth > 0) --depth;
        if (depth > 0 && src[i + n] == '"') {  // a string inside a hole
          ++n;
          while (i + n < src.size() && src[i + n] != '"' && src[i + n] != '\n') n += src[i + n] == '\\' ? 2 : 1;
        }
        ++n;
      }
      if (i + n < src.size() && src[i + n] == '"') ++n;
    } else {
      for (auto p : kPairs)
        if (src.substr(i, 2) == p) n = 2;
      if (n == 1 && (static_cast<unsigned char>(c) & 0x80)) {  // keep a stray UTF-8 character whole
        while (i + n < src.size() && (static_cast<unsigned char>(src[i + n]) & 0xC0) == 0x80) ++n;
      }
    }
    if (t.kind != TokKind::Comment) t.text = src.substr(i, n);
    out.push_back(t);
    i += n;
    breaks = 0;
  }
  return out;
}

long first_token_difference(const std::vector<Token>& a, const std::vector<Token>& b) {
  size_t n = std::min(a.size(), b.size());
  for (size_t k = 0; k < n; ++k)
    if (a[k].kind != b[k].kind || a[k].text != b[k].text) return static_cast<long>(k);
  return a.size() == b.size() ? -1 : static_cast<long>(n);
}

namespace {
namespace g = keli::grammar;
namespace p = tao::pegtl;

struct State {
  const char* base;
  Roles* roles;
  void add(const char* at, uint8_t r) { roles->at[static_cast<size_t>(at - base)] |= r; }
  void set(const char* at, uint8_t r) {  // replaces the unary/tight/grouping reading
    auto& v = roles->at[static_cast<size_t>(at - base)];
    v = static_cast<uint8_t>((v & kStarts) | r);
  }
};

template <typename Rule>
struct action : p::nothing<Rule> {};

template <uint8_t R>
struct starts {
  template <typename In>
  static void apply(const In& in, State& s) {
    s.add(in.begin(), R);
  }
};
template <uint8_t R>
struct reads {
  template <typename In>
  static void apply(const In& in, State& s) {
    s.set(in.begin(), R);
  }
};

template <>
struct action<g::header> : starts<kStarts> {};
template <>
struct action<g::decl> : starts<kStarts> {};
template <>
struct action<g::stmt> : starts<kStarts> {};
template <>
struct action<g::about_entry> : starts<kStarts> {};
template <>
struct action<g::phase_item> : starts<kStarts> {};
template <>
struct action<g::ai_item> : starts<kStarts> {};
template <>
struct action<g::safety_item> : starts<kStarts> {};
template <>
struct action<g::neg_op> : reads<kUnary> {};
template <>
struct action<g::add_op> : reads<0> {};
template <>
struct action<g::call_suffix> : reads<kTight> {};
template <>
struct action<g::index_suffix> : reads<kTight> {};
template <>
struct action<g::formals> : reads<kTight> {};
template <>
struct action<g::handler_params> : reads<kTight> {};
template <>
struct action<g::move_params> : reads<kTight> {};
template <>
struct action<g::paren_expr> : reads<kGrouping> {};
template <>
struct action<g::list_lit> : reads<kGrouping> {};
template <>
struct action<g::faces> : reads<kGrouping> {};

// An aggregate's `(` has no role: it follows a word, which makes it tight by default.

}  // namespace

bool find_roles(const std::string& path, const std::string& text, Roles& roles, std::string& error) {
  // The interpreter's own parser decides whether the file is well formed and words the error.
  SourceSet src;
  int id = src.add(path, text);
  diag::Diagnostics diags;
  ast::parse_module(src, id, diags);
  // A syntax error, or nesting past kMaxNesting, leaves the file alone; the second parse below
  // then never meets nesting the first one refused (it has no depth guard of its own).
  for (const auto& d : diags.all())
    if (d.code == diag::Code::syntax || d.code == diag::Code::too_deep) {
      error = diag::render(src, d);
      return false;
    }
  roles.at.clear();
  p::memory_input in(text, path);
  State s{text.data(), &roles};
  try {
    if (!p::parse<g::file, action, g::control>(in, s)) {
      error = path + ": error: the file could not be parsed";
      return false;
    }
  } catch (const p::parse_error& e) {
    error = path + ": error: " + std::string(e.message());
    return false;
  }
  return true;
}

}  // namespace keli::format
