// Source files and spans: every diagnostic and runtime error points into one of these.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace keli {

// A position in a loaded file: 1-based line and column, length in bytes (0 = a point).
struct Span {
  int file = -1;
  uint32_t line = 0, col = 0, len = 0;
  bool valid() const { return file >= 0; }
};

struct SourceFile {
  std::string path;  // as the user named it (or as an import resolved it)
  std::string text;
};

// All files loaded for one game (the game, its imports, its base when a variant).
class SourceSet {
 public:
  int add(std::string path, std::string text);
  const SourceFile& file(int id) const { return files_.at(id); }
  int find(const std::string& path) const;
  std::string_view line_text(const Span& s) const;  // the whole line the span starts on
  std::string where(const Span& s) const;           // "path:line:col"
  size_t size() const { return files_.size(); }

 private:
  std::vector<SourceFile> files_;
};

}  // namespace keli
