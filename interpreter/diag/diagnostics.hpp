// Diagnostics: errors and warnings with a position, a code and a hint, and their rendering
// as `file:line:col: error: message [code]`, the source line, a caret and the hint.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "lang/source.hpp"
#include "diag/codes.hpp"

namespace keli::diag {

struct Diagnostic {
  Code code;
  Span span;
  std::string message;
  std::string hint;  // may be empty
};

class Diagnostics {
 public:
  void report(Code code, Span span, std::string message, std::string hint = {});
  bool has_errors() const;
  size_t error_count() const;
  size_t warning_count() const;
  const std::vector<Diagnostic>& all() const { return list_; }
  void sort_by_position();

 private:
  std::vector<Diagnostic> list_;
};

// Human form: what the terminal shows. JSON form: one object per diagnostic, for editors.
std::string render(const SourceSet& src, const Diagnostic& d);
std::string render_json(const SourceSet& src, const std::vector<Diagnostic>& ds);

// "did you mean 'x'?" for the closest candidate within a small edit distance, else "".
std::string suggest(std::string_view wrong, const std::vector<std::string>& candidates);

// Thrown for errors that stop a stage (unreadable file, failed evaluation at run time).
struct Error {
  Code code;
  Span span;
  std::string message;
  std::string hint;
};

}  // namespace keli::diag
