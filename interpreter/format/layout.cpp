// The layout engine. Three passes over the tokens: classify braces (a block's `{ }` or the
// `{a, b}` of a parameter's allowed values), cut the tokens into lines (the author's breaks,
// plus the breaks the canonical layout requires, minus the ones it forbids), then print each
// line with its indentation and spacing and align the trailing comments of adjacent lines.
#include "format/layout.hpp"

#include <algorithm>

namespace keli::format {

namespace {

constexpr int kIndent = 2;  // spaces per level of brace depth and per continuation

struct Line {
  std::vector<size_t> code;   // indices of the code tokens on the line
  long comment = -1;          // its trailing comment, or (for a comment line) the comment
  bool comment_line = false;  // a line holding only a comment
  bool blank_before = false;  // one blank line above it
  int indent = 0;             // in spaces; comment lines get theirs from the next code line
  bool closes = false;        // the line opens with a block's `}`
};

bool is_op(const Token& t, std::string_view s) { return t.kind == TokKind::Op && t.text == s; }
bool is_word(const Token& t, std::string_view s) { return t.kind == TokKind::Word && t.text == s; }
bool is_opener(const Token& t) { return is_op(t, "(") || is_op(t, "[") || is_op(t, "{"); }
bool is_closer(const Token& t) { return is_op(t, ")") || is_op(t, "]") || is_op(t, "}"); }

size_t width(std::string_view s) {  // in code points
  size_t n = 0;
  for (unsigned char c : s)
    if ((c & 0xC0) != 0x80) ++n;
  return n;
}

class Layout {
 public:
  Layout(const std::vector<Token>& t, const Roles& r) : t_(t), roles_(r), block_(t.size(), false) {}

  std::string run() {
    mark_blocks();
    cut_lines();
    indent_comments();
    return print();
  }

 private:
  const std::vector<Token>& t_;
  const Roles& roles_;
  std::vector<bool> block_;  // this `{` or `}` delimits a block (not a set of values)
  std::vector<Line> lines_;

  uint8_t role(size_t k) const { return roles_.of(t_[k].offset); }

  // `{` after `:` (a choice parameter's type) or after `in` (`int in {4, 8}`) lists values;
  // every other `{` opens a block. A `}` is whatever its `{` is.
  void mark_blocks() {
    std::vector<size_t> open;
    long prev = -1;
    for (size_t k = 0; k < t_.size(); ++k) {
      if (t_[k].kind == TokKind::Comment) continue;
      if (is_op(t_[k], "{")) {
        bool values = prev >= 0 && (is_op(t_[prev], ":") || is_word(t_[prev], "in"));
        block_[k] = !values;
        open.push_back(k);
      } else if (is_op(t_[k], "}") && !open.empty()) {
        block_[k] = block_[open.back()];
        open.pop_back();
      }
      prev = static_cast<long>(k);
    }
  }

  bool block_open(long k) const { return k >= 0 && block_[k] && is_op(t_[k], "{"); }
  bool block_close(long k) const { return k >= 0 && block_[k] && is_op(t_[k], "}"); }

  void cut_lines() {
    int depth = 0, groups = 0;  // open blocks; open ( [ and value braces
    long prev = -1, prev_code = -1;
    for (size_t k = 0; k < t_.size(); ++k) {
      const Token& tok = t_[k];
      bool after_comment = prev >= 0 && t_[prev].kind == TokKind::Comment;
      if (tok.kind == TokKind::Comment) {
        if (tok.breaks == 0 && !lines_.empty() && !after_comment) {
          lines_.back().comment = static_cast<long>(k);  // a trailing comment
        } else {
          Line l;
          l.comment = static_cast<long>(k);
          l.comment_line = true;
          l.blank_before = blank_before(k);
          lines_.push_back(l);
        }
        prev = static_cast<long>(k);
        continue;
      }
      bool closing = block_close(static_cast<long>(k));
      bool empty_block = closing && prev == prev_code && block_open(prev_code);
      bool follows_close = block_close(prev_code) && !after_comment && (is_word(tok, "else") || is_word(tok, "elif"));
      bool joins = (block_open(static_cast<long>(k)) && !after_comment) || follows_close || empty_block;
      bool forced = lines_.empty() || after_comment || closing || block_open(prev_code) || block_close(prev_code) ||
                    ((role(k) & kStarts) && !is_op(tok, ";"));
      bool breaks = !joins && (forced || tok.breaks > 0);
      if (breaks) {
        if (closing) --depth;
        Line l;
        l.blank_before = !closing && blank_before(k);
        l.closes = closing;
        bool statement = (role(k) & kStarts) || closing || is_word(tok, "else") || is_word(tok, "elif");
        if (statement && (is_word(tok, "else") || is_word(tok, "elif"))) statement = block_close(prev_code);
        // A continuation is one level deeper, and one more for each bracket still open.
        int extra = 1 + std::max(0, groups - (is_closer(tok) ? 1 : 0));
        l.indent = kIndent * (depth + (statement ? 0 : extra));
        lines_.push_back(l);
      } else if (closing) {
        --depth;
      }
      lines_.back().code.push_back(k);
      if (block_[k] && is_op(tok, "{")) {
        ++depth;
      } else if (is_opener(tok)) {
        ++groups;
      } else if (is_closer(tok) && !block_[k]) {
        groups = std::max(0, groups - 1);
      }
      depth = std::max(depth, 0);
      prev = prev_code = static_cast<long>(k);
    }
  }

  // One blank line is kept where the author left one or more, never first in the file or
  // first in a block.
  bool blank_before(size_t k) const {
    if (t_[k].breaks < 2 || lines_.empty()) return false;
    const Line& last = lines_.back();
    return last.comment_line || last.code.empty() || !block_open(static_cast<long>(last.code.back()));
  }

  // A comment line takes the indentation of the code line below it, one level deeper when that
  // line closes a block (the comment belongs inside it).
  void indent_comments() {
    int next = 0;
    bool next_closes = false;
    for (size_t i = lines_.size(); i-- > 0;) {
      Line& l = lines_[i];
      if (!l.comment_line) {
        next = l.indent;
        next_closes = l.closes;
        continue;
      }
      l.indent = next + (next_closes ? kIndent : 0);
    }
  }

  bool space_between(size_t a, size_t b) const {
    const Token &x = t_[a], &y = t_[b];
    if (is_op(x, "(") || is_op(x, "[") || is_op(y, ")") || is_op(y, "]")) return false;
    if (is_op(y, ",") || is_op(y, ";") || is_op(y, ":")) return false;
    if (is_op(x, "..") || is_op(y, "..")) return false;
    if (is_op(x, "-") && (role(a) & kUnary)) return false;
    if (is_op(y, "(") || is_op(y, "[")) {
      if (role(b) & kTight) return false;
      if (role(b) & kGrouping) return true;
      return x.kind != TokKind::Word;
    }
    if (is_op(x, "{") && !block_[a]) return false;
    if (is_op(y, "}") && (!block_[b] || is_op(x, "{"))) return false;
    return true;
  }

  std::string print() {
    std::vector<std::string> text(lines_.size());
    for (size_t i = 0; i < lines_.size(); ++i) {
      const Line& l = lines_[i];
      std::string s(static_cast<size_t>(l.indent), ' ');
      for (size_t j = 0; j < l.code.size(); ++j) {
        if (j > 0 && space_between(l.code[j - 1], l.code[j])) s += ' ';
        s += t_[l.code[j]].text;
      }
      if (l.comment_line) s += t_[l.comment].text;
      text[i] = s;
    }
    align_comments(text);
    std::string out;
    for (size_t i = 0; i < lines_.size(); ++i) {
      if (lines_[i].blank_before && i > 0) out += '\n';
      out += text[i];
      out += '\n';
    }
    return out;
  }

  // Adjacent code lines with trailing comments form a group whose comments share one column,
  // one space after the longest line's code (a lone trailing comment: one space after its code).
  // The author's columns are not consulted, so the layout depends on the tokens alone.
  void align_comments(std::vector<std::string>& text) const {
    auto trailing = [&](size_t i) { return !lines_[i].comment_line && lines_[i].comment >= 0; };
    for (size_t i = 0; i < lines_.size();) {
      if (!trailing(i)) {
        ++i;
        continue;
      }
      size_t end = i + 1;
      while (end < lines_.size() && trailing(end) && !lines_[end].blank_before) ++end;
      size_t column = 0;
      for (size_t j = i; j < end; ++j) column = std::max(column, width(text[j]) + 1);
      for (size_t j = i; j < end; ++j) {
        text[j] += std::string(column - width(text[j]), ' ');
        text[j] += t_[lines_[j].comment].text;
      }
      i = end;
    }
  }
};

}  // namespace

std::string layout(const std::vector<Token>& tokens, const Roles& roles) { return Layout(tokens, roles).run(); }

}  // namespace keli::format
