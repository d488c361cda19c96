// Which engine runs a game: the interpreter (runtime/machine.cpp) or the native engine (the
// program compiled to C++ and loaded, native/). Both play identically; `auto` uses native when
// a compiler is present and else falls back to the interpreter with one line on stderr.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace keli::runtime {

enum class Engine : uint8_t { Interp, Native, Auto };

struct EngineOptions {
  Engine engine = Engine::Interp;
  std::string cache_dir;  // native: where compiled games are kept; empty: $XDG_CACHE_HOME/keli
  // Units of work one step may do (docs/language.md, "limit work"), 1 to lang::kMaxWorkBudget;
  // 0: the game's `limit work`, else lang::kDefaultWorkBudget. The default engine's also bounds
  // building the board.
  int64_t budget = 0;
  // Debug: after every step, each count the engine keeps (compile/facts.hpp) is recomputed from
  // the variables and compared; a difference is an internal error. KELI_CHECK_FACTS=1 sets it.
  bool check_facts = false;
};

// The options a Game made without any uses (tools set it from --engine, --cache and --budget).
void set_default_engine(const EngineOptions& o);
EngineOptions default_engine();

// The native engine, asked for by name (--engine native), cannot run here: no compiler, a cache
// folder that is not private or cannot be written, a build the environment stopped. what() says
// why; commands report it as E720, not as an internal error.
struct NativeUnavailable : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::optional<Engine> parse_engine(std::string_view name);  // "interp", "native", "auto"
const char* engine_name(Engine e);

}  // namespace keli::runtime
