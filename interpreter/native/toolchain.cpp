// Finding and running the system C++ compiler (native/toolchain.hpp).
#include "native/toolchain.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <map>
#include <mutex>
#include <sstream>

#include "lang/limits.hpp"

extern char** environ;

namespace keli::native {
namespace fs = std::filesystem;

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
      if (access(f.c_str(), X_OK) == 0) return fs::absolute(f).string();
    }
  }
  return std::nullopt;
}

std::string compiler_identity(const std::string& cxx) {
  static std::mutex mu;
  static std::map<std::string, std::string> known;
  std::lock_guard<std::mutex> lock(mu);
  if (auto it = known.find(cxx); it != known.end()) return it->second;
  ToolRun r = run_tool({cxx, "--version"}, lang::kMaxCompileSeconds);
  return known[cxx] = r.exit_status == 0 ? r.output : std::string();
}

namespace {

// Reads what the child writes until it closes the pipe or the deadline passes.
void collect(int fd, std::chrono::steady_clock::time_point deadline, ToolRun& r) {
  char buf[4096];
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      r.timed_out = true;
      return;
    }
    pollfd p{fd, POLLIN, 0};
    int n = ::poll(&p, 1, static_cast<int>(std::min<int64_t>(left.count(), 1000)));
    if (n < 0 && errno != EINTR) return;
    if (n <= 0) continue;
    ssize_t got = ::read(fd, buf, sizeof buf);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return;  // end of output: the child closed its side (or exited)
    size_t room = static_cast<size_t>(lang::kMaxToolOutput) - std::min(r.output.size(), size_t(lang::kMaxToolOutput));
    r.output.append(buf, std::min(room, static_cast<size_t>(got)));
  }
}

}  // namespace

ToolRun run_tool(const std::vector<std::string>& argv, int seconds) {
  ToolRun r;
  int pipefd[2];
  if (::pipe2(pipefd, O_CLOEXEC) != 0) {
    r.output = std::strerror(errno);
    return r;
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1);
  posix_spawn_file_actions_adddup2(&fa, pipefd[1], 2);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  int err = ::posix_spawnp(&pid, args[0], &fa, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  ::close(pipefd[1]);
  if (err != 0) {
    ::close(pipefd[0]);
    r.output = std::strerror(err);
    return r;
  }
  r.started = true;
  collect(pipefd[0], std::chrono::steady_clock::now() + std::chrono::seconds(seconds), r);
  ::close(pipefd[0]);
  if (r.timed_out) ::kill(pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) r.exit_status = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  return r;
}

std::string environment_cause(const ToolRun& r) {
  if (!r.started) return "the compiler could not be run: " + r.output;
  if (r.timed_out) return "the compiler ran longer than kMaxCompileSeconds and was stopped";
  if (r.signal != 0)
    return std::string("the compiler was stopped by signal ") + std::to_string(r.signal) + " (" +
           ::strsignal(r.signal) + "; out of memory?)";
  // The system's own words for what the environment refused, as the compiler and linker print them.
  static const char* const kCauses[] = {"No space left on device",  "Disk quota exceeded", "Read-only file system",
                                        "Permission denied",        "Input/output error",  "Cannot allocate memory",
                                        "virtual memory exhausted", "Too many open files", "File too large"};
  for (const char* c : kCauses)
    if (r.output.find(c) != std::string::npos) return c;
  if (r.exit_status == 127) return "the compiler could not be run (exit status 127)";
  return "";
}

}  // namespace keli::native
