// The native backend (native/backend.hpp): the cache, the compiler run and dlopen.
#include "native/backend.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <exception>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>
#include <sstream>
#include <vector>

#include "lang/limits.hpp"
#include "native/cache.hpp"
#include "native/emit.hpp"
#include "native/toolchain.hpp"

#ifndef KELI_NATIVE_EXTRA_FLAGS
#define KELI_NATIVE_EXTRA_FLAGS ""
#endif

namespace keli::native {
namespace fs = std::filesystem;

Module::Module(void* handle, const keli_module* table, std::string path, int fd)
    : handle_(handle), table_(table), path_(std::move(path)), fd_(fd) {}
Module::~Module() {
  if (handle_) dlclose(handle_);
  if (fd_ >= 0) ::close(fd_);
}

std::string digest(const std::string& text) { return sha256_hex(text); }

std::string default_cache_dir() {
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return (fs::path(x) / "keli").string();
  if (const char* h = std::getenv("HOME"); h && *h) return (fs::path(h) / ".cache" / "keli").string();
  return "";
}

namespace {

// The flags generated code is compiled with (part of the cache key), one argument each. A
// sanitizer build of Keli compiles generated code with the same sanitizers (KELI_NATIVE_EXTRA_FLAGS).
std::vector<std::string> flags() {
  std::vector<std::string> f = {"-std=c++20", "-O3", "-fPIC", "-shared", "-fvisibility=hidden", "-w"};
  std::stringstream extra(KELI_NATIVE_EXTRA_FLAGS);
  for (std::string w; extra >> w;) f.push_back(w);
  return f;
}

std::string unique_suffix() {
  static std::atomic<int> counter{0};
  return fmt::format("{}.{}", getpid(), counter++);
}

// The name a module is loaded by: its descriptor's. The dynamic loader returns a library already
// loaded under the same name instead of reading the file, and a descriptor's number is used
// again once closed, so the descriptor is moved to a number no loaded library is named by (one
// loaded before may stay loaded after dlclose). -1 when no descriptor is free.
int unique_load_fd(int fd) {
  for (;;) {
    const std::string name = fmt::format("/proc/self/fd/{}", fd);
    void* loaded = dlopen(name.c_str(), RTLD_LAZY | RTLD_NOLOAD);
    if (!loaded) return fd;
    dlclose(loaded);  // RTLD_NOLOAD counted a reference
    int moved = ::fcntl(fd, F_DUPFD_CLOEXEC, fd + 1);
    ::close(fd);
    if (moved < 0) return -1;
    fd = moved;
  }
}

// Opens a verified module and checks it is the one asked for; null with `why` when it is not.
// The very file whose bytes were hashed is loaded, through its descriptor.
std::shared_ptr<Module> open(const fs::path& so, const std::string& hash, std::string& why) {
  VerifiedModule file(so, why);
  if (!file.ok()) return nullptr;
  int fd = unique_load_fd(file.take());
  if (fd < 0) {
    why = std::strerror(errno);
    return nullptr;
  }
  void* h = dlopen(fmt::format("/proc/self/fd/{}", fd).c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    why = dlerror();
    ::close(fd);
    return nullptr;
  }
  auto entry = reinterpret_cast<keli_native_entry_fn>(dlsym(h, KELI_NATIVE_ENTRY));
  const keli_module* t = entry ? entry() : nullptr;
  if (!t || t->abi_version != KELI_NATIVE_ABI_VERSION || hash != t->program_hash) {
    why = !t                                          ? "no module table"
          : t->abi_version != KELI_NATIVE_ABI_VERSION ? "another ABI version"
                                                      : "another program";
    dlclose(h);
    ::close(fd);
    return nullptr;
  }
  return std::make_shared<Module>(h, t, so.string(), fd);
}

// The files one build writes, removed unless kept: no litter when a build fails.
struct BuildFiles {
  fs::path src, built, log;
  bool keep_source = false;
  ~BuildFiles() {
    std::error_code ec;
    if (!keep_source) fs::remove(src, ec);
    fs::remove(built, ec);
  }
};

// Compiles `text` into the module `so`. Throws Unavailable when the environment stops it (the
// cause and the folder named), Bug when the generated code does not compile.
void compile(const std::string& cxx, const fs::path& dir, const fs::path& so, const std::string& text,
             const compile::Program& p) {
  if (std::string why = unwritable(dir); !why.empty())
    throw Unavailable(fmt::format("cannot write to the cache folder {}: {}", dir.string(), why));
  const std::string tag = unique_suffix(), key = so.stem().string();
  BuildFiles files{dir / (key + "." + tag + ".cpp"), dir / (key + "." + tag + ".so.tmp"),
                   dir / (key + "." + tag + ".log")};
  if (std::string why = write_new_file(files.src, text); !why.empty())
    throw Unavailable(fmt::format("cannot write to the cache folder {}: {}", dir.string(), why));
  std::vector<std::string> argv = {cxx};
  for (auto& f : flags()) argv.push_back(f);
  for (const std::string& a : {std::string("-o"), files.built.string(), files.src.string()}) argv.push_back(a);
  const ToolRun r = run_tool(argv, lang::kMaxCompileSeconds);
  if (!r.started || r.exit_status != 0) {
    if (std::string cause = environment_cause(r); !cause.empty())
      throw Unavailable(
          fmt::format("cannot build the native module of {} in the cache folder {}: {}", p.file, dir.string(), cause));
    files.keep_source = true;
    write_new_file(files.log, r.output);
    std::string out = r.output.size() > 4000 ? r.output.substr(0, 4000) + "\n..." : r.output;
    throw Bug(
        fmt::format("the generated C++ for {} did not compile (a Keli bug; please report it). "
                    "The source is kept at {} and the compiler's output at {}:\n{}",
                    p.file, files.src.string(), files.log.string(), out));
  }
  if (std::string why = install_module(files.built, so); !why.empty())
    throw Unavailable(fmt::format("cannot write to the cache folder {}: {}", dir.string(), why));
  std::error_code ec;
  fs::rename(files.src, fs::path(so).replace_extension(".cpp"), ec);  // kept for inspection
}

}  // namespace

std::shared_ptr<const Module> load(const compile::Program& p, const Options& o) {
  const std::string body = emit(p);
  const std::string hash = digest(body);
  const std::string text = body + module_table(p, hash);
  static std::mutex mu;
  static std::map<std::string, std::weak_ptr<Module>> loaded;  // program hash -> module
  static std::map<std::string, std::exception_ptr> failed;     // program hash and folder -> why
  std::lock_guard<std::mutex> lock(mu);
  if (auto it = loaded.find(hash); it != loaded.end())
    if (auto m = it->second.lock()) return m;
  const std::string dir_name = o.cache_dir.empty() ? default_cache_dir() : o.cache_dir;
  if (dir_name.empty()) throw Unavailable("no cache directory: set XDG_CACHE_HOME or HOME, or give --cache DIR");
  // A build that failed (for want of room or rights, or a Keli bug) fails the same way for the
  // next game of this run: told once, not tried again by every thread.
  const std::string attempt = hash + "\n" + dir_name;
  if (auto it = failed.find(attempt); it != failed.end()) std::rethrow_exception(it->second);
  try {
    const fs::path dir = trusted_folder(dir_name);
    std::optional<std::string> cxx = find_compiler();
    const std::string id = cxx ? compiler_identity(*cxx) : std::string("none");
    std::string key_text = fmt::format("{}\n{}\n{}\n{}", hash, kEmitterVersion, cxx.value_or(""), id);
    for (const auto& f : flags()) key_text += "\n" + f;
    const fs::path so = dir / (digest(key_text) + ".so");
    std::string why;
    std::shared_ptr<Module> m = open(so, hash, why);
    if (!m) {  // not built yet, or damaged or foreign: built again, never loaded
      if (!cxx) throw Unavailable("no C++ compiler found (install c++ or set KELI_CXX)");
      compile(*cxx, dir, so, text, p);
      m = open(so, hash, why);
      if (!m) throw Bug(fmt::format("the compiled module {} does not load: {}", so.string(), why));
    }
    loaded[hash] = m;
    return m;
  } catch (const std::runtime_error&) {
    failed[attempt] = std::current_exception();
    throw;
  }
}

}  // namespace keli::native
