// Fuzz target: the step protocol (api::StepSession, docs/step-protocol.md) on any bytes, read as
// request lines to one session, as `keli step` reads its standard input. The game is Pahada
// Keliya (dice, four seats: every command has something to do), loaded once per process; each
// input gets a fresh session, seeded as `keli step` seeds it.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <sstream>
#include <string>

#include "api/step.hpp"

namespace {
using namespace keli;

// Lines of one input that are run: enough for long sessions, and a bound on the time any input
// takes whatever its lines ask (each line may step the game, list moves or copy a state).
constexpr int kMaxLines = 256;

std::shared_ptr<const api::Game> game() {
  static const std::shared_ptr<const api::Game> g =
      api::Game::load(std::string(KELI_SOURCE_DIR) + "/games/pahada_keliya.keli", {}, runtime::EngineOptions{});
  return g;
}

}  // namespace

// Done before the first input, outside libFuzzer's per-input timeout: the work every input
// shares (a slow start on a busy machine is not a hang of an input).
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  (void)game();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  api::StepSession session(game(), 1);
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  std::string line;
  bool too_long = false;
  // As StepSession::serve reads: a line too long is answered without the session, blank lines
  // are skipped, "quit" ends it.
  for (int n = 0; n < kMaxLines && !session.done() && api::read_step_line(in, line, too_long); ++n) {
    if (too_long || line.find_first_not_of(" \t") == std::string::npos) continue;
    session.handle(line);
  }
  return 0;
}
