// Fuzz target: the game front end (parse, check, compile with the default parameters) on a game
// text held in memory. Imports and bases resolve only to Keli's own stdlib/ and games/ files,
// read once at start, so no input can make the target read any other file.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <set>
#include <string>

#include "ast/loader.hpp"
#include "ast/parse.hpp"
#include "check/checker.hpp"
#include "compile/compiler.hpp"
#include "runtime/machine.hpp"

namespace {
namespace fs = std::filesystem;
using namespace keli;

// stdlib/NAME.keli under that name; games/NAME.keli as NAME.keli and games/NAME.keli.
const std::map<std::string, std::string>& library() {
  static const std::map<std::string, std::string> files = [] {
    std::map<std::string, std::string> out;
    for (const char* dir : {"stdlib", "games"})
      for (const auto& e : fs::directory_iterator(fs::path(KELI_SOURCE_DIR) / dir)) {
        std::string text;
        if (e.path().extension() != ".keli" || !ast::read_file(e.path().string(), text)) continue;
        std::string name = e.path().filename().string();
        out[std::string(dir) + "/" + name] = text;
        if (std::string(dir) == "games") out[name] = text;
      }
    return out;
  }();
  return files;
}

// Parses `text` and, first, what it imports or extends from the library; false when a file could
// not be parsed at all or names a file outside the library. Syntax errors recovered from do not
// stop it: the checker runs on what parsed, as GameFile::open has it do.
bool load(const std::string& name, const std::string& text, SourceSet& src, diag::Diagnostics& d, ast::Loaded& out,
          std::set<std::string>& seen) {
  if (!seen.insert(name).second) return true;  // a cycle or a second import: loaded once
  int file = src.add(name, text);
  auto mod = ast::parse_module(src, file, d);
  if (!mod) return false;
  std::vector<std::string> needs;
  if (!mod->extends.empty()) needs.push_back(mod->extends);
  for (const auto& decl : mod->decls)
    if (decl.kind == ast::DeclKind::Import) needs.push_back(decl.name);
  for (const auto& n : needs) {
    auto it = library().find(n);
    if (it == library().end() || !load(n, it->second, src, d, out, seen)) return false;
  }
  out.modules.push_back(std::move(*mod));
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  SourceSet src;
  diag::Diagnostics d;
  ast::Loaded loaded;
  std::set<std::string> seen;
  if (!load("fuzz.keli", std::string(reinterpret_cast<const char*>(data), size), src, d, loaded, seen)) return 0;
  loaded.main = static_cast<int>(loaded.modules.size()) - 1;
  loaded.ok = !d.has_errors();
  check::Checked checked = check::check_game(std::move(loaded), src, d);
  if (d.has_errors()) return 0;
  diag::Diagnostics cd;
  compile::compile_game(checked, {}, src, cd, runtime::run_board);
  return 0;
}
