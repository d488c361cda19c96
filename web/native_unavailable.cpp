// The native engine's backend in the browser (web/CMakeLists.txt): there is no C++ compiler to
// build a game's module and no dlopen to load one, so native::load says so and the runtime plays
// with the interpreter, as on a machine without a compiler. The rest of the backend's interface
// is defined as the main build defines it.
#include "native/backend.hpp"

namespace keli::native {

Module::Module(void* handle, const keli_module* table, std::string path, int fd)
    : handle_(handle), table_(table), path_(std::move(path)), fd_(fd) {}
Module::~Module() = default;

std::string default_cache_dir() { return ""; }
std::optional<std::string> find_compiler() { return std::nullopt; }

std::shared_ptr<const Module> load(const compile::Program&, const Options&) {
  throw Unavailable("the native engine does not run in the browser (no C++ compiler)");
}

}  // namespace keli::native
