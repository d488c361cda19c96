// Fuzz target: YAML scenario files (interpreter/scenario) on any bytes. The input is written to a
// scratch folder of this process's own, made once, in which games/ and tests/scenarios/ hold links
// to Keli's game files and the rule and variant tests' games, so the seeds' `game:
// ../raja_pasu.keli`, `../../../games/raja_pasu.keli` and `../repetition.keli` name real games, as
// they do beside them in the source tree. Each game is opened, and compiled
// for each set of parameters, once per process: an input pays only for its own scenarios.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <utility>

#include "scenario/scenario.hpp"

namespace {
namespace fs = std::filesystem;
using namespace keli;

// How many games (by the path a scenario names them) and compiled programs a process keeps;
// further ones are opened or compiled for each input, as without keeping, so that inputs naming
// ever new spellings of a path or new parameters cannot grow the process without bound.
constexpr size_t kMaxKeptGames = 64;
constexpr size_t kMaxKeptPrograms = 256;

class KeptGames : public scenario::Games {
 public:
  std::shared_ptr<const GameFile> open(const std::string& path) override {
    if (auto it = files_.find(path); it != files_.end()) return it->second;
    auto g = Games::open(path);
    if (files_.size() < kMaxKeptGames) files_.emplace(path, g);
    return g;
  }

  // A program kept with the diagnostics its compile reported (the reasons when it failed).
  std::shared_ptr<const compile::Program> compile(const GameFile& game, const compile::ParamSettings& settings,
                                                  diag::Diagnostics& diags) override {
    std::pair<const GameFile*, compile::ParamSettings> key{&game, settings};
    if (auto it = programs_.find(key); it != programs_.end()) {
      diags = it->second.diags;
      return it->second.program;
    }
    Compiled c;
    c.program = Games::compile(game, settings, c.diags);
    diags = c.diags;
    // Keyed by the game's address: only the games kept above live long enough to be looked up.
    auto kept = files_.find(game.path());
    if (programs_.size() < kMaxKeptPrograms && kept != files_.end() && kept->second.get() == &game)
      programs_.emplace(key, c);
    return c.program;
  }

 private:
  struct Compiled {
    std::shared_ptr<const compile::Program> program;
    diag::Diagnostics diags;
  };
  std::map<std::string, std::shared_ptr<const GameFile>> files_;
  std::map<std::pair<const GameFile*, compile::ParamSettings>, Compiled> programs_;
};

std::string scratch_file() {
  fs::path base = fs::exists("/dev/shm") ? fs::path("/dev/shm") : fs::temp_directory_path();
  fs::path root = base / ("keli-fuzz-scenario-" + std::to_string(::getpid()));
  std::error_code ec;
  for (const char* dir : {"games", "tests/scenarios"}) {
    fs::create_directories(root / dir, ec);
    for (const char* from : {"games", "tests/rules", "tests/variants"})
      for (const auto& e : fs::directory_iterator(fs::path(KELI_SOURCE_DIR) / from))
        if (e.path().extension() == ".keli") fs::create_symlink(e.path(), root / dir / e.path().filename(), ec);
  }
  fs::create_directories(root / "tests/scenarios/bad", ec);
  return (root / "tests/scenarios/bad/input.yaml").string();
}

}  // namespace

// Called before the first input (libFuzzer's hook); the scenario target's shared work, its
// games, is kept as inputs first ask for it.
extern "C" int LLVMFuzzerInitialize(int*, char***) { return 0; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string path = scratch_file();
  static KeptGames games;
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  SourceSet src;
  diag::Diagnostics d;
  scenario::run_file(path, src, d, games);
  return 0;
}
