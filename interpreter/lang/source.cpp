// Source files and spans: storage and the line look-ups diagnostics need.
#include "lang/source.hpp"

#include <fmt/format.h>

namespace keli {

int SourceSet::add(std::string path, std::string text) {
  files_.push_back({std::move(path), std::move(text)});
  return static_cast<int>(files_.size()) - 1;
}

int SourceSet::find(const std::string& path) const {
  for (size_t i = 0; i < files_.size(); ++i)
    if (files_[i].path == path) return static_cast<int>(i);
  return -1;
}

std::string_view SourceSet::line_text(const Span& s) const {
  if (!s.valid() || s.file >= static_cast<int>(files_.size())) return {};
  std::string_view t = files_[s.file].text;
  size_t pos = 0;
  for (uint32_t l = 1; l < s.line && pos != std::string_view::npos; ++l) {
    pos = t.find('\n', pos);
    if (pos != std::string_view::npos) ++pos;
  }
  if (pos == std::string_view::npos || pos > t.size()) return {};
  size_t end = t.find('\n', pos);
  std::string_view line = t.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

std::string SourceSet::where(const Span& s) const {
  if (!s.valid()) return "<keli>";
  return fmt::format("{}:{}:{}", files_.at(s.file).path, s.line, s.col);
}

}  // namespace keli
