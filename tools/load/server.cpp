// keli_load's server (load.hpp, Server): `keli serve` started as a child process on the loopback
// address with a free port and a database of its own, watched through /proc (memory, CPU), and
// stopped with SIGTERM as an operator would stop it.
#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstring>
#include <deque>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "load.hpp"

namespace keli_load {

namespace {

constexpr double kListenLimitS = 30;        // a server that has not said where it listens by then has failed
constexpr int kServerRoomsPerAddress = 20;  // the server's own limit (lang::kMaxServeRoomsPerAddress)
constexpr const char* kListening = "keli serve: listening on http://";

std::vector<std::string> server_args(const Options& o, const std::string& dir) {
  std::vector<std::string> a = {o.keli, "serve", "--host", "127.0.0.1", "--port", "0", "--db", dir + "/load.sqlite"};
  if (!o.games.empty()) a.insert(a.end(), {"--games", o.games});
  if (!o.engine.empty()) a.insert(a.end(), {"--engine", o.engine});
  // Every client comes from 127.0.0.1, which the server allows 20 live rooms by default.
  if (o.rooms > kServerRoomsPerAddress) a.insert(a.end(), {"--rooms-per-address", std::to_string(o.rooms)});
  return a;
}

// The first line of the server's stdout, waited for at most `limit_s`.
std::string first_line(int fd, double limit_s) {
  std::string line;
  const auto t0 = Clock::now();
  while (seconds_since(t0) < limit_s) {
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, 100) <= 0) continue;
    char ch;
    const ssize_t n = read(fd, &ch, 1);  // one byte at a time: nothing past the line is taken
    if (n <= 0) break;                   // the server ended before it listened
    if (ch == '\n') return line;
    line += ch;
  }
  return line;
}

// The port of `http://127.0.0.1:PORT/` after kListening; throws for any other host.
int loopback_port(const std::string& line) {
  if (line.rfind(kListening, 0) != 0) throw std::runtime_error("keli serve did not start: '" + line + "'");
  const std::string at = line.substr(std::strlen(kListening));
  const std::string host = "127.0.0.1:";
  if (at.rfind(host, 0) != 0)
    throw std::runtime_error("keli serve listens on '" + at + "', not the loopback address: refused");
  const int port = std::atoi(at.c_str() + host.size());
  if (port <= 0 || port > 65535) throw std::runtime_error("no port in '" + line + "'");
  return port;
}

}  // namespace

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

Server::Server(const Options& o, const std::string& dir) : log_(dir + "/server.log") {
  const std::vector<std::string> args = server_args(o, dir);
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error("pipe failed");
  const int log_fd = open(log_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (log_fd < 0) throw std::runtime_error("cannot write " + log_);
  pid_ = fork();
  if (pid_ < 0) throw std::runtime_error("fork failed");
  if (pid_ == 0) {                     // the child: only async-signal-safe calls until exec
    prctl(PR_SET_PDEATHSIG, SIGKILL);  // the tool gone (killed, crashed): its server goes too
    dup2(fds[1], 1);
    dup2(log_fd, 2);
    execv(argv[0], argv.data());
    _exit(127);
  }
  close(fds[1]);
  close(log_fd);
  out_fd_ = fds[0];
  port_ = loopback_port(first_line(out_fd_, kListenLimitS));
}

Server::~Server() {
  if (pid_ > 0) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
  if (out_fd_ >= 0) close(out_fd_);
}

Memory Server::memory() const {
  Memory m;
  std::ifstream in("/proc/" + std::to_string(pid_) + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmRSS:", 0) == 0) m.rss_kb = std::atoll(line.c_str() + 6);
    if (line.rfind("VmHWM:", 0) == 0) m.hwm_kb = std::atoll(line.c_str() + 6);
  }
  return m;
}

double Server::cpu_seconds() const {
  std::ifstream in("/proc/" + std::to_string(pid_) + "/stat");
  std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const size_t close_paren = all.rfind(')');  // the command's name may hold spaces
  if (close_paren == std::string::npos) return 0;
  std::istringstream fields(all.substr(close_paren + 2));
  std::string f;
  long long utime = 0, stime = 0;
  for (int i = 3; i <= 15 && fields >> f; ++i) {  // fields 14 and 15: utime and stime, in ticks
    if (i == 14) utime = std::atoll(f.c_str());
    if (i == 15) stime = std::atoll(f.c_str());
  }
  return static_cast<double>(utime + stime) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

int Server::stop(double limit_s) {
  if (pid_ <= 0) return -1;
  kill(pid_, SIGTERM);
  const auto t0 = Clock::now();
  int status = 0;
  while (seconds_since(t0) < limit_s) {
    const pid_t r = waitpid(pid_, &status, WNOHANG);
    if (r == pid_) {
      pid_ = -1;
      return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  kill(pid_, SIGKILL);
  waitpid(pid_, nullptr, 0);
  pid_ = -1;
  return -1;
}

std::string Server::log_tail(size_t lines) const {
  std::ifstream in(log_);
  std::deque<std::string> last;
  std::string line;
  while (std::getline(in, line)) {
    last.push_back(line);
    if (last.size() > lines) last.pop_front();
  }
  std::string out;
  for (const auto& l : last) out += "  " + l + "\n";
  return out;
}

}  // namespace keli_load
