// Fuzz target: the game front end (parse, check, compile with the default parameters) on a game
// text held in memory. Imports and bases resolve only to Keli's own stdlib/ and games/ files,
// read and parsed once at start, so no input can make the target read any other file, and each
// input parses only its own text: the library files it needs are copies of the trees parsed then.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "ast/copy.hpp"
#include "ast/loader.hpp"
#include "ast/parse.hpp"
#include "check/checker.hpp"
#include "compile/compiler.hpp"
#include "runtime/machine.hpp"

namespace {
namespace fs = std::filesystem;
using namespace keli;

// What a module imports or extends, by name, in the order the loader loads them.
std::vector<std::string> needs_of(const ast::Module& m) {
  std::vector<std::string> needs;
  if (!m.extends.empty()) needs.push_back(m.extends);
  for (const auto& decl : m.decls)
    if (decl.kind == ast::DeclKind::Import) needs.push_back(decl.name);
  return needs;
}

// One file of Keli's library, parsed once. The checker annotates the tree it checks, so each
// input gets a copy; a file whose parse reports anything is parsed anew for each input instead,
// so that its diagnostics are reported as the loader would report them.
struct LibraryFile {
  std::string text;
  std::optional<ast::Module> parsed;
  std::vector<std::string> needs;
};

std::shared_ptr<const LibraryFile> parse_once(const std::string& name, std::string text) {
  auto f = std::make_shared<LibraryFile>();
  f->text = std::move(text);
  SourceSet src;
  diag::Diagnostics d;
  auto mod = ast::parse_module(src, src.add(name, f->text), d);
  if (mod && d.all().empty()) {
    f->needs = needs_of(*mod);
    f->parsed = std::move(*mod);
  }
  return f;
}

// stdlib/NAME.keli under that name; games/NAME.keli as NAME.keli and games/NAME.keli (one file).
const std::map<std::string, std::shared_ptr<const LibraryFile>>& library() {
  static const std::map<std::string, std::shared_ptr<const LibraryFile>> files = [] {
    std::map<std::string, std::shared_ptr<const LibraryFile>> out;
    for (const char* dir : {"stdlib", "games"})
      for (const auto& e : fs::directory_iterator(fs::path(KELI_SOURCE_DIR) / dir)) {
        std::string text;
        if (e.path().extension() != ".keli" || !ast::read_file(e.path().string(), text)) continue;
        std::string name = e.path().filename().string();
        auto f = parse_once(std::string(dir) + "/" + name, std::move(text));
        out[std::string(dir) + "/" + name] = f;
        if (std::string(dir) == "games") out[name] = f;
      }
    return out;
  }();
  return files;
}

// One input's load: its sources, the modules in the loader's order, the library files taken.
struct Load {
  SourceSet src;
  diag::Diagnostics d;
  ast::Loaded loaded;
  std::set<const LibraryFile*> seen;
};

bool load_file(const std::string& name, const LibraryFile& f, Load& l);

// The files a module needs, each from the library; false when one is not there or fails.
bool load_needs(const std::vector<std::string>& needs, Load& l) {
  for (const auto& n : needs) {
    auto it = library().find(n);
    if (it == library().end() || !load_file(n, *it->second, l)) return false;
  }
  return true;
}

// Parses file `file` of l.src and loads what it needs first. Syntax errors recovered from do not
// stop it: the checker runs on what parsed, as GameFile::open has it do.
bool parse_and_load(int file, Load& l) {
  auto mod = ast::parse_module(l.src, file, l.d);
  if (!mod || !load_needs(needs_of(*mod), l)) return false;
  l.loaded.modules.push_back(std::move(*mod));
  return true;
}

bool load_file(const std::string& name, const LibraryFile& f, Load& l) {
  if (!l.seen.insert(&f).second) return true;  // a cycle or a second import: loaded once
  int file = l.src.add(name, f.text);
  if (!f.parsed) return parse_and_load(file, l);
  if (!load_needs(f.needs, l)) return false;
  l.loaded.modules.push_back(ast::copy_module(*f.parsed, file));
  return true;
}

}  // namespace

// Done before the first input, outside libFuzzer's per-input timeout: the work every input
// shares (a slow start on a busy machine is not a hang of an input).
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  (void)library();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Load l;
  int file = l.src.add("fuzz.keli", std::string(reinterpret_cast<const char*>(data), size));
  if (!parse_and_load(file, l)) return 0;
  l.loaded.main = static_cast<int>(l.loaded.modules.size()) - 1;
  // Turn order, as the loader adds it: from the library's stdlib/.
  ast::add_turn_order(l.loaded, [&](const std::string& name) {
    auto it = library().find("stdlib/" + name);
    return it != library().end() && load_file(it->first, *it->second, l);
  });
  if (l.loaded.main < 0) return 0;
  l.loaded.ok = !l.d.has_errors();
  check::Checked checked = check::check_game(std::move(l.loaded), l.src, l.d);
  if (l.d.has_errors()) return 0;
  diag::Diagnostics cd;
  compile::compile_game(checked, {}, l.src, cd, runtime::run_board);
  return 0;
}
