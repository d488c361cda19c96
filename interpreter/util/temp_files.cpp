// The table of temporary output files and the signal handler that cleans them up. The handler
// only reads the table and calls unlink, rename, signal and raise (async-signal-safe): the
// table is fixed in size, its names copied in when a file is opened, so nothing allocates there.
#include "util/temp_files.hpp"

#include <limits.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>

#include "lang/limits.hpp"

namespace keli::util {

namespace {

// The signals that stop a command and so clean up its temporary files.
constexpr int kStopSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};

enum RowState : int { kFree, kBusy, kLive };  // kBusy: being filled or emptied by its owner

struct Row {
  std::atomic<int> state{kFree};
  char temp[PATH_MAX];
  char partial[PATH_MAX];  // "" to remove the file instead
};

Row g_rows[lang::kMaxTempFiles];
// The process the handler cleans up for: a child between fork and exec (a compiler being started)
// runs it too, and must leave its parent's files alone.
pid_t g_owner = 0;
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler reads the rows' states");

bool copy_name(char (&to)[PATH_MAX], const std::string& from) {
  if (from.size() >= sizeof to) return false;
  std::memcpy(to, from.c_str(), from.size() + 1);
  return true;
}

extern "C" void on_stop_signal(int sig) {
  const int saved = errno;
  for (Row& r : g_rows) {
    if (::getpid() != g_owner || r.state.load(std::memory_order_acquire) != kLive) continue;
    if (r.partial[0] == '\0' || ::rename(r.temp, r.partial) != 0) ::unlink(r.temp);
  }
  // Raised again with the default action: delivered when this handler returns (it is blocked
  // until then), so the process ends as killed by the signal, as its parent expects.
  std::signal(sig, SIG_DFL);
  std::raise(sig);
  errno = saved;
}

}  // namespace

int remember_temp_file(const std::string& temp, const std::string& partial) {
  for (int i = 0; i < lang::kMaxTempFiles; ++i) {
    int expected = kFree;
    if (!g_rows[i].state.compare_exchange_strong(expected, kBusy, std::memory_order_acquire)) continue;
    if (!copy_name(g_rows[i].temp, temp) || !copy_name(g_rows[i].partial, partial)) {
      g_rows[i].state.store(kFree, std::memory_order_release);
      return -1;
    }
    g_rows[i].state.store(kLive, std::memory_order_release);
    return i;
  }
  return -1;
}

void forget_temp_file(int row) {
  if (row >= 0 && row < lang::kMaxTempFiles) g_rows[row].state.store(kFree, std::memory_order_release);
}

void clean_up_on_stop_signals() {
  g_owner = ::getpid();
  for (int sig : kStopSignals) {
    struct sigaction old {};
    if (::sigaction(sig, nullptr, &old) != 0 || old.sa_handler == SIG_IGN) continue;
    struct sigaction act {};
    act.sa_handler = on_stop_signal;
    sigemptyset(&act.sa_mask);
    for (int other : kStopSignals) sigaddset(&act.sa_mask, other);  // one handler at a time cleans up
    act.sa_flags = SA_RESTART;
    ::sigaction(sig, &act, nullptr);
  }
}

}  // namespace keli::util
