// Fuzz target: the trace reader (trace::Reader, as keli replay and render use it) on any bytes
// as a trace of Raja Pasu: the header, then each step re-run and its recorded state compared.
// The input goes through a file of this process's own, as the reader reads files.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "session/game_file.hpp"
#include "trace/reader.hpp"

namespace {
namespace fs = std::filesystem;
using namespace keli;

// The game every input is read against, compiled once with its default parameters.
std::shared_ptr<const compile::Program> program() {
  static const std::shared_ptr<const compile::Program> p = [] {
    auto gf = GameFile::open(std::string(KELI_SOURCE_DIR) + "/games/raja_pasu.keli");
    diag::Diagnostics d;
    return gf->compile({}, d);
  }();
  return p;
}

std::string scratch_path() {
  fs::path dir = fs::exists("/dev/shm") ? fs::path("/dev/shm") : fs::temp_directory_path();
  return (dir / ("keli-fuzz-trace-" + std::to_string(::getpid()) + ".jsonl")).string();
}

}  // namespace

// Done before the first input, outside libFuzzer's per-input timeout: the work every input
// shares (a slow start on a busy machine is not a hang of an input).
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  (void)program();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string path = scratch_path();
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  trace::Reader reader;
  diag::Diagnostics d;
  SourceSet src;
  if (!reader.open(path, d, src) || !reader.start(program())) return 0;
  // Every line of an input is at least one byte: this bounds the loop by the input's length.
  for (size_t steps = 0; steps <= size; ++steps) {
    if (reader.next() != trace::Reader::Next::Step) break;  // each step is verified as it is read
  }
  return 0;
}
