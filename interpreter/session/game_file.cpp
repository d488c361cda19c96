// One game file taken through loading, parsing and checking; compiled on request.
#include "session/game_file.hpp"

#include "runtime/machine.hpp"

namespace keli {

std::unique_ptr<GameFile> GameFile::open(const std::string& path) {
  auto g = std::unique_ptr<GameFile>(new GameFile());
  g->path_ = path;
  ast::Loaded loaded = ast::load_game(path, g->src_, g->diags_);
  if (loaded.main < 0) return g;
  g->checked_ = check::check_game(std::move(loaded), g->src_, g->diags_);
  return g;
}

std::shared_ptr<const compile::Program> GameFile::compile(const compile::ParamSettings& settings,
                                                          diag::Diagnostics& diags, bool optimized) const {
  if (!ok()) return nullptr;
  return compile::compile_game(checked_, settings, src_, diags, runtime::run_board, optimized);
}

}  // namespace keli
