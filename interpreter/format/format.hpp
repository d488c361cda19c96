// `keli fmt` as a library: one canonical layout for Keli files (see docs/language.md, "Layout"),
// with the checks that make it safe to run over a tree: syntax first, then a proof that the
// output holds the same tokens as the input, and atomic writes.
#pragma once

#include <string>
#include <vector>

namespace keli::format {

struct Result {
  enum Status { Ok, SyntaxError, InternalError } status = Ok;
  std::string text;     // the formatted file (when Ok)
  std::string message;  // a syntax error as `keli validate` prints it, or the internal error
};

// Formats the text of one file (`path` names it in messages). A file that does not parse is a
// SyntaxError; output whose tokens differ from the input's is refused as an InternalError.
Result format_text(const std::string& path, const std::string& text);

// The first line (1-based) where two texts differ, with that line of each ("" past the end);
// line 0 when they are equal.
struct LineDiff {
  size_t line = 0;
  std::string before, after;
};
LineDiff first_difference(const std::string& before, const std::string& after);

// The .keli files named in `paths`, folders searched recursively, sorted and without repeats.
// Paths that do not exist are added to `missing`.
std::vector<std::string> collect_files(const std::vector<std::string>& paths, std::vector<std::string>& missing);

// Replaces the file's contents by writing a temporary file beside it and renaming it over the
// file (util::OutputFile), so a reader never sees half a file. The file keeps its permissions; a
// symbolic link is written through (the link stays a link). Returns "" or why not.
std::string write_atomically(const std::string& path, const std::string& text);

}  // namespace keli::format
