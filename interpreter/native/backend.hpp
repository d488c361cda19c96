// The native engine's backend: emits a program's C++, compiles it with the system compiler at
// -O3 -fPIC -shared into a cache keyed by the program, the emitter, the compiler and the flags,
// and loads it with dlopen, only from a private folder and only after its SHA-256 is checked
// (native/cache.hpp). Writes go to a temporary name then rename, so processes compiling the same
// game at once never see half a file.
#pragma once

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "compile/program.hpp"
#include "native/abi.h"
#include "native/toolchain.hpp"

namespace keli::native {

// Bumped whenever the generated code changes for the same program: part of the cache key.
inline constexpr int kEmitterVersion = 14;

// No compiler, no usable cache folder, a build the environment stopped (a full disk, a read-only
// folder): the native engine cannot run here (auto falls back). The message names the cause.
struct Unavailable : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// Generated code that does not compile or load: a Keli bug; the message names the kept files.
struct Bug : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A loaded module; unloaded when the last game using it goes.
class Module {
 public:
  // `fd`: the descriptor the module was loaded through, kept open while it is loaded (so that its
  // /proc/self/fd name stays its own), closed after dlclose.
  Module(void* handle, const keli_module* table, std::string path, int fd);
  ~Module();
  Module(const Module&) = delete;
  Module& operator=(const Module&) = delete;
  const keli_module& table() const { return *table_; }
  const std::string& path() const { return path_; }

 private:
  void* handle_;
  const keli_module* table_;
  std::string path_;
  int fd_;
};

// $XDG_CACHE_HOME/keli, else ~/.cache/keli.
std::string default_cache_dir();

struct Options {
  std::string cache_dir;  // empty: default_cache_dir()
};
// The program's module, compiled if the cache lacks it. Throws Unavailable or Bug. Modules are
// shared within the process (one per program text).
std::shared_ptr<const Module> load(const compile::Program& p, const Options& o);

// SHA-256 as 64 hex digits: cache keys and program hashes.
std::string digest(const std::string& text);

}  // namespace keli::native
