// Loading a game: files, imports (searched beside the importer, then up its folders, then
// $KELI_PATH, then the source tree's stdlib), and a variant's base game.
#include "ast/loader.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "ast/parse.hpp"

#ifndef KELI_SOURCE_ROOT
#define KELI_SOURCE_ROOT "."
#endif

namespace keli::ast {
namespace fs = std::filesystem;

bool read_file(const std::string& path, std::string& out) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return false;
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return false;
  out = ss.str();
  return true;
}

namespace {

class Loader {
 public:
  Loader(SourceSet& src, diag::Diagnostics& diags) : src_(src), diags_(diags) {}

  std::string resolve(const std::string& name, const std::string& from_file) {
    std::error_code ec;
    fs::path base = fs::absolute(from_file, ec).parent_path();
    for (fs::path dir = base;; dir = dir.parent_path()) {
      fs::path cand = dir / name;
      if (fs::is_regular_file(cand, ec)) return fs::proximate(cand, ec).lexically_normal().string();
      if (dir.empty() || dir == dir.parent_path()) break;
    }
    if (const char* kp = std::getenv("KELI_PATH")) {
      fs::path cand = fs::path(kp) / name;
      if (fs::is_regular_file(cand, ec)) return fs::proximate(cand, ec).lexically_normal().string();
    }
    fs::path cand = fs::path(KELI_SOURCE_ROOT) / name;
    if (fs::is_regular_file(cand, ec)) return fs::proximate(cand, ec).lexically_normal().string();
    return {};
  }

  // Loads `path` and everything it needs; returns the module index or -1.
  int load(const std::string& path, Span from, Loaded& out) {
    std::string key = fs::weakly_canonical(path).string();
    for (size_t i = 0; i < keys_.size(); ++i)
      if (keys_[i] == key) return done_[i];
    std::string text;
    if (!read_file(path, text)) {
      diags_.report(diag::Code::unreadable_file, from, fmt::format("cannot read '{}'", path),
                    from.valid() ? "imports are searched beside the importing file, in its parent folders, "
                                   "in $KELI_PATH and in Keli's own stdlib"
                                 : "check the path and that the file is readable");
      return -1;
    }
    int file = src_.add(path, std::move(text));
    keys_.push_back(key);
    done_.push_back(-1);
    size_t slot = keys_.size() - 1;
    auto mod = parse_module(src_, file, diags_);
    if (!mod) return -1;
    bool ok = true;
    if (!mod->extends.empty()) {
      std::string base = resolve(mod->extends, path);
      if (base.empty()) base = (fs::path(path).parent_path() / mod->extends).string();
      ok = load(base, mod->extends_span, out) >= 0 && ok;
    }
    for (auto& d : mod->decls) {
      if (d.kind != DeclKind::Import) continue;
      std::string found = resolve(d.name, path);
      if (found.empty()) {
        diags_.report(diag::Code::unreadable_file, d.name_span, fmt::format("cannot find import '{}'", d.name),
                      "imports are searched beside the importing file, in its parent folders, in $KELI_PATH "
                      "and in Keli's own stdlib");
        ok = false;
        continue;
      }
      ok = load(found, d.name_span, out) >= 0 && ok;
    }
    out.modules.push_back(std::move(*mod));
    done_[slot] = static_cast<int>(out.modules.size()) - 1;
    return ok ? done_[slot] : -1;
  }

 private:
  SourceSet& src_;
  diag::Diagnostics& diags_;
  std::vector<std::string> keys_;
  std::vector<int> done_;
};

}  // namespace

Loaded load_game(const std::string& path, SourceSet& src, diag::Diagnostics& diags) {
  Loaded out;
  Loader loader(src, diags);
  out.main = loader.load(path, Span{}, out);
  out.ok = out.main >= 0 && !diags.has_errors();
  return out;
}

}  // namespace keli::ast
