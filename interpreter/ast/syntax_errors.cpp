// Syntax errors the grammar recovered from, turned into E001 diagnostics: the message says what
// was expected, the hint what was found, with a did-you-mean when the word found is a misspelt
// keyword. Also notes what each broken piece may have declared, so the checker does not report
// those names as unknown (a cascade of errors caused by one typo).
#include <fmt/format.h>

#include <algorithm>

#include "ast/parse.hpp"
#include "ast/syntax_habits.hpp"
#include "keli_errors.hpp"

namespace keli::ast {
namespace g = keli::grammar;

namespace {

// Words of other languages for what Keli spells otherwise: "function" is a misspelt 'def'.
struct Foreign {
  const char* word;
  const char* keli;
};
constexpr Foreign kForeign[] = {{"function", "def"}, {"func", "def"},       {"fn", "def"},      {"procedure", "def"},
                                {"variable", "var"}, {"constant", "const"}, {"elseif", "elif"}, {"elsif", "elif"},
                                {"foreach", "for"},  {"import_", "import"}};

// Statements of two words, as they are often run together: `endturn`, `pass_turn`.
constexpr const char* kPhrases[] = {"end turn", "pass turn", "extra turn"};

// The two-word statement a word found where a statement may stand was meant to be, or "".
std::string phrase_for(const std::string& found) {
  std::vector<std::string> joined;  // each phrase run together, then joined by '_'
  for (std::string p : kPhrases) {
    const size_t gap = p.find(' ');
    joined.push_back(p.substr(0, gap) + p.substr(gap + 1));
    joined.push_back(p.substr(0, gap) + "_" + p.substr(gap + 1));
  }
  auto it = std::find(joined.begin(), joined.end(), found);
  if (it == joined.end()) {  // misspelt as well: `endtrun`
    const std::string hint = diag::suggest(found, joined);
    const size_t q = hint.find('\'');
    if (q == std::string::npos) return {};
    it = std::find(joined.begin(), joined.end(), hint.substr(q + 1, hint.find('\'', q + 1) - q - 1));
    if (it == joined.end()) return {};
  }
  return kPhrases[(it - joined.begin()) / 2];
}

// Whether a line ends by opening a block (a rule's or a declaration's `{`).
bool opens_block(std::string_view line) {
  const size_t last = line.find_last_not_of(" \t\r");
  return last != std::string_view::npos && line[last] == '{';
}

bool one_of(const std::string& w, const std::vector<std::string>& words) {
  return std::find(words.begin(), words.end(), w) != words.end();
}

std::string word_at(std::string_view line, size_t col) {
  if (col == 0 || col > line.size()) return {};
  size_t i = col - 1, j = i;
  while (j < line.size() && g::recovery::word_char(line[j])) ++j;
  return std::string(line.substr(i, j - i));
}

// The keyword a misspelt word was meant to be, for the place it was found; "" if none is close.
std::string keyword_for(const std::string& found, const std::string& message) {
  if (found.empty()) return {};
  std::vector<std::string> words;
  if (message == g::error_message<g::declaration_expected>) words = g::declaration_words;
  if (message == g::error_message<g::statement_expected>) words = g::statement_words;
  if (message == g::error_message<g::rule_expected>) words = g::rule_words;
  // "expected 'then' in ...": the keyword the message names.
  if (words.empty() && message.rfind("expected '", 0) == 0) {
    size_t end = message.find('\'', 10);
    std::string kw = message.substr(10, end == std::string::npos ? 0 : end - 10);
    if (!kw.empty() && std::all_of(kw.begin(), kw.end(), g::recovery::word_char)) words.push_back(kw);
  }
  if (words.empty() || std::find(words.begin(), words.end(), found) != words.end()) return {};
  std::vector<std::string> cands = words;
  if (message == g::error_message<g::declaration_expected> || message == g::error_message<g::statement_expected>)
    for (const auto& f : kForeign)
      if (std::find(words.begin(), words.end(), f.keli) != words.end()) cands.push_back(f.word);
  std::string hint = diag::suggest(found, cands);
  if (hint.empty()) return {};
  std::string pick = hint.substr(hint.find('\'') + 1);
  pick = pick.substr(0, pick.find('\''));
  for (const auto& f : kForeign)
    if (pick == f.word) return f.keli;
  return pick;
}

}  // namespace

void report_syntax_errors(const SourceSet& src, int file, const g::syntax_log& log, Module& m,
                          diag::Diagnostics& diags) {
  const std::string& text = src.file(file).text;
  for (const auto& e : log.errors) {
    Span sp{file, static_cast<uint32_t>(e.line), static_cast<uint32_t>(e.column), 1};
    std::string hint;
    std::string_view line = src.line_text(sp);
    std::string found_word = word_at(line, sp.col);
    if (sp.col <= line.size()) {
      std::string_view rest = line.substr(sp.col - 1);
      size_t w = 0;
      while (w < rest.size() && !isspace(static_cast<unsigned char>(rest[w]))) ++w;
      if (w > 0) hint = fmt::format("found '{}'", rest.substr(0, w));
      sp.len = static_cast<uint32_t>(std::max<size_t>(w, 1));
    } else {
      hint = "found the end of the line";
    }
    std::string keyword = keyword_for(found_word, e.message);
    const bool in_block =
        e.message == g::error_message<g::rbrace> || e.message == g::error_message<g::statement_expected>;
    if (keyword.empty() && in_block) keyword = phrase_for(found_word);
    if (!keyword.empty()) {
      hint = fmt::format("found '{}': did you mean '{}'?", found_word, keyword);
      sp.len = static_cast<uint32_t>(found_word.size());
    }
    std::string message = e.message;
    const bool after_condition = message == g::error_message<g::block> || message == g::error_message<g::kw_then> ||
                                 message == g::error_message<g::lbrace>;
    if (auto h = habit_at(line, sp.col, after_condition)) {
      message = h->message;
      hint = h->hint;
      sp.col = static_cast<uint32_t>(h->col);
      sp.len = static_cast<uint32_t>(h->len);
    } else if (sp.col > line.size() &&
               (message == g::error_message<g::rbrace> || message == g::error_message<g::statement_expected> ||
                message == g::error_message<g::ai_entry> || message == g::error_message<g::safety_entry>)) {
      if (auto o = unclosed_opener(text)) {  // the end of the file: say where the block began
        hint = fmt::format("the file ends at line {} before its '}}'", sp.line);
        sp = Span{file, static_cast<uint32_t>(o->line), static_cast<uint32_t>(o->col), 1};
        message = "this '{' is never closed: expected '}' before the end of the file";
      }
    } else if (message == g::error_message<g::rbrace> && opens_block(line) &&
               (one_of(found_word, g::declaration_words) || one_of(found_word, g::rule_words))) {
      // A rule or declaration that opens a block where a statement was wanted: a block left open
      // before it, if the braces do not balance. Said at the brace that began it.
      if (auto o = unclosed_opener(text); o && static_cast<uint32_t>(o->line) < sp.line) {
        hint = fmt::format("'{}' on line {} begins a new {}, so the block before it must be closed first", found_word,
                           sp.line, one_of(found_word, g::rule_words) ? "rule" : "declaration");
        message = fmt::format("this '{{' is never closed: expected '}}' before '{}' on line {}", found_word, sp.line);
        sp = Span{file, static_cast<uint32_t>(o->line), static_cast<uint32_t>(o->col), 1};
      }
    }
    diags.report(diag::Code::syntax, sp, message, hint);
    ++m.syntax_errors;
    // The first two words of the broken piece: `var NAME`, `let NAME`, `phse NAME`, `players`.
    const char* begin = text.data();
    const char* end = begin + text.size();
    const char* s = begin + std::min(e.item, text.size());
    for (int k = 0; k < 2 && s < end; ++k) {
      while (s < end && !g::recovery::word_char(*s)) {
        if (*s == '#')
          while (s < end && *s != '\n') ++s;
        else if (*s == '{' || *s == '(' || *s == '=')
          s = end;
        else
          ++s;
      }
      std::string_view w = g::recovery::word_at(s, end);
      if (w.empty()) break;
      m.broken_names.emplace_back(w);
      if (k == 0) {  // a misspelt declaration word stands for the real one
        std::string meant = keyword_for(std::string(w), e.message);
        if (!meant.empty()) m.broken_names.push_back(meant);
      }
      s += w.size();
    }
  }
}

}  // namespace keli::ast
