// Where game files may come from: look-ups held to a set of root folders (links followed before
// the test, so a link cannot lead out), and the test that a file's text is Keli source.
#include "ast/files.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#ifndef KELI_SOURCE_ROOT
#define KELI_SOURCE_ROOT "."
#endif

namespace keli::ast {
namespace fs = std::filesystem;

namespace {

std::vector<std::string>& search_path_dirs() {
  static std::vector<std::string> dirs;
  return dirs;
}

// Links and `..` resolved; a path that cannot be resolved (a loop) stays empty.
fs::path resolved(const fs::path& p) {
  std::error_code ec;
  fs::path out = fs::weakly_canonical(fs::absolute(p, ec), ec);
  return ec ? fs::path() : out;
}

bool inside(const fs::path& file, const fs::path& root) {
  if (file.empty() || root.empty()) return false;
  auto [r, f] = std::mismatch(root.begin(), root.end(), file.begin(), file.end());
  return r == root.end() || (std::next(r) == root.end() && r->empty());  // "dir/" ends in an empty part
}

std::string roots_hint() {
  return "games are read from the game's own folder and below, Keli's stdlib/ and games/, $KELI_PATH and the "
         "folders named with --path DIR";
}

}  // namespace

void set_search_path(std::vector<std::string> dirs) { search_path_dirs() = std::move(dirs); }

std::vector<std::string> library_roots() {
  std::vector<std::string> out = {(fs::path(KELI_SOURCE_ROOT) / "stdlib").string(),
                                  (fs::path(KELI_SOURCE_ROOT) / "games").string()};
  if (const char* kp = std::getenv("KELI_PATH"); kp && *kp) out.emplace_back(kp);
  for (const auto& d : search_path_dirs()) out.push_back(d);
  return out;
}

std::string own_games_folder() { return (fs::path(KELI_SOURCE_ROOT) / "games").string(); }

std::string own_library_file(const std::string& name) {
  return (fs::path(KELI_SOURCE_ROOT) / "stdlib" / name).string();
}

Located locate(const std::string& name, const Origin& from) {
  std::vector<fs::path> roots;
  for (const auto& r : from.roots) roots.push_back(resolved(r));
  for (const auto& r : library_roots()) roots.push_back(resolved(r));
  std::vector<fs::path> tries;
  if (fs::path(name).is_absolute()) {
    tries.emplace_back(name);
  } else {
    for (const auto& b : from.bases) tries.push_back(fs::path(b) / name);
    tries.push_back(fs::path(KELI_SOURCE_ROOT) / name);
  }
  Located out;
  for (const fs::path& cand : tries) {
    std::error_code ec;
    fs::file_status st = fs::status(cand, ec);
    if (ec && ec != std::errc::no_such_file_or_directory && ec != std::errc::not_a_directory) {
      out.error = fmt::format("'{}' cannot be opened: {}", name, ec.message());
      out.hint = "check the links and permissions along the path";
      return out;
    }
    if (!fs::exists(st) || fs::is_directory(st)) continue;
    if (std::none_of(roots.begin(), roots.end(), [&](const fs::path& r) { return inside(resolved(cand), r); })) {
      if (!out.outside) out.outside_folder = resolved(cand).parent_path().string();
      out.outside = true;
      continue;
    }
    out.path = fs::proximate(cand, ec).lexically_normal().string();
    if (ec || out.path.empty()) out.path = cand.lexically_normal().string();
    return out;
  }
  if (out.outside) {
    out.error = fmt::format("'{}' lies outside the folders games may be read from", name);
    out.hint = roots_hint();
  } else {
    out.error = fmt::format("cannot find '{}'", name);
    out.hint =
        "files are searched beside the file that names them, in its parent folders, in $KELI_PATH, in the "
        "--path folders and in Keli's own stdlib/ and games/";
  }
  return out;
}

Origin origin_of_import(const std::string& file, const std::string& root) {
  Origin o;
  std::error_code ec;
  fs::path dir = fs::absolute(file, ec).parent_path();
  for (;; dir = dir.parent_path()) {
    o.bases.push_back(dir.string());
    if (dir.empty() || dir == dir.parent_path()) break;
  }
  if (const char* kp = std::getenv("KELI_PATH"); kp && *kp) o.bases.emplace_back(kp);
  for (const auto& d : search_path_dirs()) o.bases.push_back(d);
  o.roots = {root};
  return o;
}

std::optional<NotSource> not_keli_source(const std::string& path, std::string_view text) {
  if (fs::path(path).extension() != ".keli")
    return NotSource{fmt::format("'{}' is not a Keli file: game files, imports and bases end in .keli", path), 0, 0};
  unsigned line = 1, col = 1;
  for (size_t i = 0; i < text.size();) {
    auto c = static_cast<unsigned char>(text[i]);
    size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    bool ok = n > 0 && i + n <= text.size();
    for (size_t k = 1; ok && k < n; ++k) ok = (static_cast<unsigned char>(text[i + k]) >> 6) == 0x2;
    if (ok && n == 1 && c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v') ok = false;
    if (ok && n == 1 && c == 0x7F) ok = false;
    if (!ok)
      return NotSource{
          fmt::format("'{}' is not Keli source: byte {} is not UTF-8 text (its content is not shown)", path, i + 1),
          line, col};
    if (c == '\n') {
      ++line;
      col = 1;
    } else {
      col += static_cast<unsigned>(n);  // columns count bytes, as in every diagnostic
    }
    i += n;
  }
  return std::nullopt;
}

}  // namespace keli::ast
