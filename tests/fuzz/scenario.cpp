// Fuzz target: YAML scenario files (interpreter/scenario) on any bytes. The input is written to a
// scratch folder of this process's own in which games/ and tests/scenarios/ hold links to Keli's
// game files, so the seeds' `game: ../raja_pasu.keli` and `../../../games/raja_pasu.keli` name
// real games, as they do beside them in the source tree.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "scenario/scenario.hpp"

namespace {
namespace fs = std::filesystem;

std::string scratch_file() {
  fs::path base = fs::exists("/dev/shm") ? fs::path("/dev/shm") : fs::temp_directory_path();
  fs::path root = base / ("keli-fuzz-scenario-" + std::to_string(::getpid()));
  std::error_code ec;
  for (const char* dir : {"games", "tests/scenarios"}) {
    fs::create_directories(root / dir, ec);
    for (const auto& e : fs::directory_iterator(fs::path(KELI_SOURCE_DIR) / "games"))
      if (e.path().extension() == ".keli") fs::create_symlink(e.path(), root / dir / e.path().filename(), ec);
  }
  fs::create_directories(root / "tests/scenarios/bad", ec);
  return (root / "tests/scenarios/bad/input.yaml").string();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string path = scratch_file();
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  keli::SourceSet src;
  keli::diag::Diagnostics d;
  keli::scenario::run_file(path, src, d);
  return 0;
}
