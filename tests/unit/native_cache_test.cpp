// The native cache trusted only when it should be (issue 42): a damaged or foreign module is built
// again, never loaded; a folder of another user or writable by others is refused; a cache path
// that starts with '-' is a path; a cache that is a file or a full disk is told as such (E720),
// leaving no litter, and `auto` falls back to the interpreter saying so once.
#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "api/game.hpp"
#include "native/toolchain.hpp"
#include "support.hpp"

namespace keli::test {
namespace fs = std::filesystem;

namespace {

fs::path scratch(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / fmt::format("keli_cache_{}_{}", getpid(), name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

const std::string kGame = "games/raja_pasu.keli";

Run run_native(const fs::path& cache, const std::string& engine = "native") {
  return keli({"run", kGame, "--engine", engine, "--cache", cache.string(), "--seed", "5", "--quiet"});
}

std::vector<fs::path> files_ending(const fs::path& dir, const std::string& end) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().string().ends_with(end)) out.push_back(e.path());
  return out;
}

void no_internal_error(const Run& r) {
  CHECK(r.status < 128);
  CHECK(r.err.find("internal error") == std::string::npos);
  CHECK(r.err.find("a Keli bug") == std::string::npos);
}

}  // namespace

TEST_CASE("native cache: made private, each module with its SHA-256 recorded", "[native][cache][hardening]") {
  if (!native::find_compiler()) return;
  fs::path dir = scratch("private");
  fs::path cache = dir / "made" / "here";
  auto r = run_native(cache);
  INFO(r.err);
  REQUIRE(r.status == 0);
  struct stat st {};
  REQUIRE(::stat(cache.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0700);
  auto modules = files_ending(cache, ".so");
  REQUIRE(modules.size() == 1);
  std::string record = read_text(modules[0].string() + ".sha256");
  CHECK(record.size() == 65);  // 64 hex digits and a newline
}

TEST_CASE("native cache: a truncated or foreign module is built again, never loaded", "[native][cache][hardening]") {
  if (!native::find_compiler()) return;
  fs::path dir = scratch("damaged");
  fs::path cache = dir / "cache";
  auto first = run_native(cache);
  REQUIRE(first.status == 0);
  fs::path so = files_ending(cache, ".so").at(0);

  // Truncated: dlopen of it was SIGBUS on every later run.
  fs::resize_file(so, 10000);
  auto again = run_native(cache);
  INFO(again.err);
  no_internal_error(again);
  CHECK(again.status == 0);
  CHECK(again.out == first.out);
  CHECK(fs::file_size(so) > 10000);
  auto sim = keli({"simulate", kGame, "-n", "3", "--cache", cache.string()});
  CHECK(sim.status == 0);
  CHECK(sim.err.empty());

  // Foreign: a library whose constructor would run at dlopen, put under the module's name.
  fs::path marker = dir / "PWNED";
  fs::path src = dir / "foreign.cpp";
  std::ofstream(src) << fmt::format(
      "#include <cstdio>\n__attribute__((constructor)) static void f() {{ if (FILE* x = std::fopen(\"{}\", \"w\")) "
      "std::fclose(x); }}\n",
      marker.string());
  REQUIRE(std::system(fmt::format("c++ -shared -fPIC -o '{}' '{}'", so.string(), src.string()).c_str()) == 0);
  auto foreign = run_native(cache);
  INFO(foreign.err);
  no_internal_error(foreign);
  CHECK(foreign.status == 0);
  CHECK(foreign.out == first.out);
  CHECK(!fs::exists(marker));  // its code never ran
}

TEST_CASE("native cache: a folder of another user, or writable by others, is refused", "[native][cache][hardening]") {
  if (!native::find_compiler()) return;
  fs::path dir = scratch("shared");
  fs::path cache = dir / "cache";
  fs::create_directories(cache);
  fs::permissions(cache, fs::perms::owner_all | fs::perms::group_all | fs::perms::others_all);
  auto r = run_native(cache);
  INFO(r.err);
  no_internal_error(r);
  CHECK(r.status == 1);
  CHECK(r.err.find("may be written by other users (mode 0777)") != std::string::npos);
  CHECK(r.err.find("chmod 700") != std::string::npos);
  CHECK(r.err.find("[E720]") != std::string::npos);
  auto fallback = run_native(cache, "auto");  // the interpreter, saying so once
  CHECK(fallback.status == 0);
  CHECK(fallback.err.find("using the interpreter") != std::string::npos);
  if (::geteuid() == 0) {  // only root can give a folder away
    fs::permissions(cache, fs::perms::owner_all);
    REQUIRE(::chown(cache.c_str(), 65534, 65534) == 0);
    auto other = run_native(cache);
    CHECK(other.status == 1);
    CHECK(other.err.find("belongs to another user (uid 65534)") != std::string::npos);
  }
}

TEST_CASE("native cache: a path starting with '-' is a folder, and a file is no cache", "[native][cache][hardening]") {
  if (!native::find_compiler()) return;
  fs::path dir = scratch("names");
  auto dash = keli_input_in(
      dir.string(),
      {"run", source_path(kGame), "--engine", "native", "--cache", "-fplugin=x", "--seed", "5", "--quiet"}, "");
  INFO(dash.err);
  CHECK(dash.status == 0);
  CHECK(fs::is_directory(dir / "-fplugin=x"));

  fs::path file = dir / "a_file";
  std::ofstream(file) << "not a folder\n";
  auto r = run_native(file);
  INFO(r.err);
  no_internal_error(r);
  CHECK(r.status == 1);
  CHECK(r.err.find("is not a folder") != std::string::npos);
  CHECK(r.err.find("[E720]") != std::string::npos);
  auto sim = keli({"simulate", kGame, "-n", "4", "--threads", "2", "--cache", file.string()});
  INFO(sim.err);
  CHECK(sim.status == 0);
  const auto first = sim.err.find("using the interpreter");
  REQUIRE(first != std::string::npos);
  CHECK(sim.err.find("using the interpreter", first + 1) == std::string::npos);  // said once
}

TEST_CASE("native cache: a full disk or a read-only one is told as such, leaving nothing behind",
          "[native][cache][hardening]") {
  if (!native::find_compiler()) return;
  fs::path dir = scratch("full");
  if (::mount("tmpfs", dir.c_str(), "tmpfs", 0, "size=64k") != 0) {
    WARN("cannot mount a small tmpfs here (not root, or no permission): the full-disk case is not run");
    return;
  }
  fs::path cache = dir / "cache";
  auto r = run_native(cache);
  INFO(r.err);
  no_internal_error(r);
  CHECK(r.status == 1);
  CHECK(r.err.find("No space left on device") != std::string::npos);
  CHECK(r.err.find(cache.string()) != std::string::npos);
  CHECK(files_ending(cache, ".cpp").empty());
  CHECK(files_ending(cache, ".log").empty());
  CHECK(files_ending(cache, ".tmp").empty());
  ::umount(dir.c_str());

  // A read-only file system: refused as such, not as a Keli bug; auto plays on the interpreter.
  REQUIRE(::mount("tmpfs", dir.c_str(), "tmpfs", MS_RDONLY, "size=64k") == 0);
  auto ro = run_native(dir / "cache");
  INFO(ro.err);
  no_internal_error(ro);
  CHECK(ro.status == 1);
  CHECK(ro.err.find("Read-only file system") != std::string::npos);
  CHECK(run_native(dir / "cache", "auto").status == 0);
  ::umount(dir.c_str());
}

// Modules are loaded through their descriptors (/proc/self/fd/N), and the dynamic loader hands
// back a library already loaded under the same name: with descriptors closed after loading, the
// second game of a process got the first game's module ("another program").
TEST_CASE("native cache: one process loads several games' modules, drops them and loads them again",
          "[native][cache][hardening]") {
  if (!native::find_compiler()) return;
  fs::path cache = scratch("several");
  runtime::EngineOptions o{runtime::Engine::Native, cache.string(), 0, false};
  for (int round = 0; round < 2; ++round) {
    std::vector<std::shared_ptr<api::Game>> games;
    for (const std::string name : {"kalah", "oware", "raja_pasu"}) {
      games.push_back(api::Game::load(source_path("games/" + name + ".keli"), {}, o));
      CHECK(games.back()->engine() == runtime::Engine::Native);
      CHECK(games.back()->program().game_name == api::State(games.back()).game().program().game_name);
    }
  }
  fs::remove_all(cache);
}

}  // namespace keli::test
