// ast::copy_module: every game, and every file of the diagnostics corpus, checks and compiles from
// copies of its parsed modules (their spans moved to other file indices) exactly as from its own
// parse: the same diagnostics, rendered, and the same program, as the native engine emits it.
#include <catch2/catch.hpp>

#include <filesystem>

#include "ast/copy.hpp"
#include "ast/loader.hpp"
#include "native/emit.hpp"
#include "runtime/machine.hpp"
#include "support.hpp"

namespace keli::test {
namespace fs = std::filesystem;

namespace {

// What a check and compile of `loaded` gives, after loading reported `d` (a game with syntax errors
// is checked, never compiled, as GameFile::open has it): the diagnostics as the terminal shows
// them, then the emitted program (empty when it does not compile).
std::vector<std::string> outcome(ast::Loaded&& loaded, const SourceSet& src, diag::Diagnostics d) {
  check::Checked checked = check::check_game(std::move(loaded), src, d);
  std::vector<std::string> out;
  for (const auto& x : d.all()) out.push_back(diag::render(src, x));
  if (d.has_errors()) return out;
  diag::Diagnostics cd;
  auto program = compile::compile_game(checked, {}, src, cd, runtime::run_board);
  for (const auto& x : cd.all()) out.push_back(diag::render(src, x));
  out.push_back(program ? native::emit(*program) : "");
  return out;
}

void same_from_copies(const std::string& path) {
  INFO(path);
  SourceSet src;
  diag::Diagnostics d;
  ast::Loaded loaded = ast::load_game(path, src, d);
  if (loaded.main < 0) return;  // nothing parsed to copy
  // The same files one index further on, and the modules copied there.
  SourceSet shifted;
  shifted.add("spacer.keli", "");
  for (size_t i = 0; i < src.size(); ++i)
    shifted.add(src.file(static_cast<int>(i)).path, src.file(static_cast<int>(i)).text);
  ast::Loaded copied;
  copied.main = loaded.main;
  copied.ok = loaded.ok;
  for (const auto& m : loaded.modules) copied.modules.push_back(ast::copy_module(m, m.file + 1));
  diag::Diagnostics moved;  // the loader's diagnostics, one file further on too
  for (const auto& x : d.all())
    moved.report(x.code, x.span.valid() ? Span{x.span.file + 1, x.span.line, x.span.col, x.span.len} : x.span,
                 x.message, x.hint);
  std::vector<std::string> want = outcome(std::move(loaded), src, d);
  CHECK(outcome(std::move(copied), shifted, moved) == want);
}

}  // namespace

TEST_CASE("a copied module checks and compiles as the module it copies", "[ast]") {
  for (const auto& g : game_files()) same_from_copies(g);
  for (const auto& e : fs::directory_iterator(source_path("tests/diagnostics")))
    if (e.path().extension() == ".keli") same_from_copies(e.path().string());
}

}  // namespace keli::test
