// The native backend (native/backend.hpp): the cache, the compiler run and dlopen.
#include "native/backend.hpp"

#include <dlfcn.h>
#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

#include "native/emit.hpp"
#include "util/output_file.hpp"

#ifndef KELI_NATIVE_EXTRA_FLAGS
#define KELI_NATIVE_EXTRA_FLAGS ""
#endif

namespace keli::native {
namespace fs = std::filesystem;

Module::Module(void* handle, const keli_module* table, std::string path)
    : handle_(handle), table_(table), path_(std::move(path)) {}
Module::~Module() {
  if (handle_) dlclose(handle_);
}

std::string digest(const std::string& text) {
  uint64_t a = 0xcbf29ce484222325ULL, b = 0x84222325cbf29ce4ULL;
  for (unsigned char ch : text) {
    a = (a ^ ch) * 0x100000001b3ULL;
    b = (b ^ ch) * 0x00000100000001b3ULL + 0x9e3779b97f4a7c15ULL;
    b ^= b >> 29;
  }
  return fmt::format("{:016x}{:016x}", a, b);
}

std::string default_cache_dir() {
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return (fs::path(x) / "keli").string();
  if (const char* h = std::getenv("HOME"); h && *h) return (fs::path(h) / ".cache" / "keli").string();
  return "";
}

std::optional<std::string> find_compiler() {
  if (const char* c = std::getenv("KELI_CXX"); c && *c) {
    if (access(c, X_OK) == 0) return std::string(c);
    return std::nullopt;
  }
  const char* path = std::getenv("PATH");
  if (!path) return std::nullopt;
  for (const char* name : {"c++", "g++", "clang++"}) {
    std::stringstream dirs(path);
    std::string dir;
    while (std::getline(dirs, dir, ':')) {
      fs::path f = fs::path(dir.empty() ? "." : dir) / name;
      if (access(f.c_str(), X_OK) == 0) return f.string();
    }
  }
  return std::nullopt;
}

namespace {

std::string quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// The flags generated code is compiled with (part of the cache key). A sanitizer build of Keli
// compiles generated code with the same sanitizers (KELI_NATIVE_EXTRA_FLAGS).
std::string flags() {
  std::string f = "-std=c++20 -O3 -fPIC -shared -fvisibility=hidden -w";
  std::string extra = KELI_NATIVE_EXTRA_FLAGS;
  return extra.empty() ? f : f + " " + extra;
}

// `compiler --version`, once per compiler per process: the compiler's identity in the key.
std::string compiler_identity(const std::string& cxx) {
  static std::mutex mu;
  static std::map<std::string, std::string> known;
  std::lock_guard<std::mutex> lock(mu);
  if (auto it = known.find(cxx); it != known.end()) return it->second;
  std::string out;
  if (FILE* f = popen((quote(cxx) + " --version 2>/dev/null").c_str(), "r")) {
    char buf[256];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
    pclose(f);
  }
  return known[cxx] = out;
}

std::string unique_suffix() {
  static std::atomic<int> counter{0};
  return fmt::format("{}.{}", getpid(), counter++);
}

void write_file(const fs::path& path, const std::string& text) {
  if (std::string why = util::write_file(path.string(), text); !why.empty())
    throw Unavailable(fmt::format("cannot write {}: {}", path.string(), why));
}

std::string read_file(const fs::path& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// Opens a compiled module and checks it is the one asked for; null when it is not.
std::shared_ptr<Module> open(const fs::path& so, const std::string& hash, std::string& why) {
  void* h = dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    why = dlerror();
    return nullptr;
  }
  auto entry = reinterpret_cast<keli_native_entry_fn>(dlsym(h, KELI_NATIVE_ENTRY));
  const keli_module* t = entry ? entry() : nullptr;
  if (!t || t->abi_version != KELI_NATIVE_ABI_VERSION || hash != t->program_hash) {
    why = !t                                          ? "no module table"
          : t->abi_version != KELI_NATIVE_ABI_VERSION ? "another ABI version"
                                                      : "another program";
    dlclose(h);
    return nullptr;
  }
  return std::make_shared<Module>(h, t, so.string());
}

void compile(const std::string& cxx, const fs::path& dir, const std::string& key, const std::string& text,
             const compile::Program& p) {
  const std::string tag = unique_suffix();
  const fs::path src = dir / (key + "." + tag + ".cpp"), tmp = dir / (key + "." + tag + ".so.tmp"),
                 log = dir / (key + "." + tag + ".log");
  write_file(src, text);
  const std::string cmd = fmt::format("{} {} -o {} {} 2> {}", quote(cxx), flags(), quote(tmp.string()),
                                      quote(src.string()), quote(log.string()));
  if (std::system(cmd.c_str()) != 0) {
    std::string out = read_file(log);
    if (out.size() > 4000) out = out.substr(0, 4000) + "\n...";
    throw Bug(
        fmt::format("the generated C++ for {} did not compile (a Keli bug; please report it). "
                    "The source is kept at {} and the compiler's output at {}:\n{}",
                    p.file, src.string(), log.string(), out));
  }
  std::error_code ec;
  fs::rename(tmp, dir / (key + ".so"), ec);  // atomic: a racing process renames an equal file
  if (ec) throw Unavailable(fmt::format("cannot write to the cache {}: {}", dir.string(), ec.message()));
  fs::rename(src, dir / (key + ".cpp"), ec);  // kept for inspection
  fs::remove(log, ec);
}

}  // namespace

std::shared_ptr<const Module> load(const compile::Program& p, const Options& o) {
  const std::string body = emit(p);
  const std::string hash = digest(body);
  const std::string text = body + module_table(p, hash);
  std::optional<std::string> cxx = find_compiler();
  static std::mutex mu;
  static std::map<std::string, std::weak_ptr<Module>> loaded;  // program hash -> module
  std::lock_guard<std::mutex> lock(mu);
  if (auto it = loaded.find(hash); it != loaded.end())
    if (auto m = it->second.lock()) return m;
  const std::string dir_name = o.cache_dir.empty() ? default_cache_dir() : o.cache_dir;
  if (dir_name.empty()) throw Unavailable("no cache directory: set XDG_CACHE_HOME or HOME, or give --cache DIR");
  const fs::path dir(dir_name);
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw Unavailable(fmt::format("cannot create the cache {}: {}", dir.string(), ec.message()));
  const std::string id = cxx ? compiler_identity(*cxx) : std::string("none");
  const std::string key =
      digest(fmt::format("{}\n{}\n{}\n{}\n{}", hash, kEmitterVersion, cxx.value_or(""), id, flags()));
  const fs::path so = dir / (key + ".so");
  std::string why;
  std::shared_ptr<Module> m;
  if (fs::exists(so)) m = open(so, hash, why);
  if (!m) {
    if (!cxx) throw Unavailable("no C++ compiler found (install c++ or set KELI_CXX)");
    compile(*cxx, dir, key, text, p);
    m = open(so, hash, why);
    if (!m) throw Bug(fmt::format("the compiled module {} does not load: {}", so.string(), why));
  }
  loaded[hash] = m;
  return m;
}

}  // namespace keli::native
