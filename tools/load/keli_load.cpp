// keli_load: the load test of `keli serve` (docs/serve.md#load, issue 36). Starts the server on
// the loopback address with a database of its own, plays with many clients at once for a bounded
// time, stops the server, checks its database against what the clients did, and reports the
// throughput, the latency of a move, the server's memory and any error. Never leaves loopback.
#include <sys/resource.h>
#include <unistd.h>

#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <thread>

#include "load.hpp"

namespace {

using namespace keli_load;

constexpr double kSetupLimitS = 25;   // all rooms made and spectators seated by then
constexpr double kFinishLimitS = 10;  // the last moves answered by then
constexpr double kStopLimitS = 10;    // the server stopped by then after SIGTERM
constexpr double kGraceS = 60;        // the whole run ends within --seconds plus this, or is killed
constexpr double kSampleEveryS = 10;

constexpr const char* kUsage =
    "usage: keli_load --keli PATH --game NAME [--games DIR] [--clients 500] [--rooms 200] [--seconds 120]\n"
    "                 [--seats 2] [--opponent random] [--engine E] [--rate 10]\n"
    "                 [--seed 1] [--out report.json] [--keep] [--quiet] [--targets]\n"
    "  Starts PATH serve on 127.0.0.1 (a free port, a temporary database), opens --rooms rooms, each\n"
    "  a person against --seats - 1 computer players (--opponent), and seats the other clients as\n"
    "  spectators, spread evenly. For --seconds the persons play random moves (at most --rate messages\n"
    "  a second each), a new room when a game ends. Then the server is stopped and its database is\n"
    "  checked against the moves sent. Reports moves a second, the latency from a move to its echo,\n"
    "  the server's memory every 10 s, errors by code. With --targets, a p99 of 50 ms or more or\n"
    "  memory that grows fails the run as well. --keep keeps the database and the server's log.\n"
    "  Exit status 0: passed; 1: failed; 2: usage; 3: killed at --seconds + 60.\n";

struct Usage {
  std::string why;
};

// Ends the process if the run is not over by its deadline: a hang must not outlive its bound.
class Watchdog {
 public:
  explicit Watchdog(double limit_s)
      : thread_([this, limit_s] {
          std::unique_lock<std::mutex> hold(lock_);
          if (done_cv_.wait_for(hold, std::chrono::duration<double>(limit_s), [this] { return done_; })) return;
          if (pid_ > 0) kill(pid_, SIGKILL);
          std::fprintf(stderr, "keli_load: still running after %.0f s: the server killed, the run failed\n", limit_s);
          _exit(3);
        }) {}
  ~Watchdog() {
    {
      std::lock_guard<std::mutex> hold(lock_);
      done_ = true;
    }
    done_cv_.notify_all();
    thread_.join();
  }
  void watch(pid_t pid) {
    std::lock_guard<std::mutex> hold(lock_);
    pid_ = pid;
  }

 private:
  std::mutex lock_;
  std::condition_variable done_cv_;
  bool done_ = false;
  pid_t pid_ = -1;
  std::thread thread_;  // last: started once the members it reads are made
};

int number(const std::string& flag, const std::string& v, int low, int high) {
  try {
    size_t used = 0;
    const int n = std::stoi(v, &used);
    if (used == v.size() && n >= low && n <= high) return n;
  } catch (const std::exception&) {
  }
  throw Usage{flag + " takes a whole number from " + std::to_string(low) + " to " + std::to_string(high) + ", not '" +
              v + "'"};
}

void set_option(Options& o, const std::string& flag, const std::string& v) {
  if (flag == "--keli")
    o.keli = v;
  else if (flag == "--games")
    o.games = v;
  else if (flag == "--game")
    o.game = v;
  else if (flag == "--opponent")
    o.opponent = v;
  else if (flag == "--engine")
    o.engine = v;
  else if (flag == "--out")
    o.out = v;
  else if (flag == "--clients")
    o.clients = number(flag, v, 1, 4000);
  else if (flag == "--rooms")
    o.rooms = number(flag, v, 1, 4000);
  else if (flag == "--seats")
    o.seats = number(flag, v, 1, 16);
  else if (flag == "--seconds")
    o.seconds = number(flag, v, 1, 3600);
  else if (flag == "--rate")
    o.rate = number(flag, v, 1, 15);  // the server floods at 20 a second
  else if (flag == "--seed")
    o.seed = static_cast<uint64_t>(number(flag, v, 0, 1 << 30));
  else
    throw Usage{"no option " + flag};
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string flag = argv[i], value;
    if (flag == "--keep" || flag == "--quiet" || flag == "--targets") {
      (flag == "--keep" ? o.keep : flag == "--quiet" ? o.quiet : o.targets) = true;
      continue;
    }
    if (flag == "-h" || flag == "--help") throw Usage{""};
    if (const size_t eq = flag.find('='); eq != std::string::npos) {
      value = flag.substr(eq + 1), flag = flag.substr(0, eq);
    } else {
      if (i + 1 >= argc) throw Usage{flag + " takes a value"};
      value = argv[++i];
    }
    set_option(o, flag, value);
  }
  if (o.keli.empty()) throw Usage{"--keli PATH (the keli binary to serve with) is needed"};
  if (o.game.empty()) throw Usage{"--game NAME (a game of the library every room plays) is needed"};
  if (access(o.keli.c_str(), X_OK) != 0) throw Usage{"--keli " + o.keli + ": not an executable file"};
  if (o.rooms > o.clients) throw Usage{"--rooms is at most --clients (each room has its person)"};
  return o;
}

// Two descriptors a client (its socket, and room to spare) may need beyond the default limit.
void raise_file_limit(int clients) {
  rlimit r{};
  if (getrlimit(RLIMIT_NOFILE, &r) != 0) return;
  const rlim_t want = static_cast<rlim_t>(clients) * 2 + 64;
  if (r.rlim_cur >= want) return;
  r.rlim_cur = std::min(want, r.rlim_max);
  setrlimit(RLIMIT_NOFILE, &r);
  if (r.rlim_cur < want)
    std::fprintf(stderr, "keli_load: warning: at most %llu open files (ulimit -Hn): %d clients may not all connect\n",
                 static_cast<unsigned long long>(r.rlim_cur), clients);
}

std::string temporary_folder() {
  const char* base = std::getenv("TMPDIR");
  std::string pattern = std::string(base && *base ? base : "/tmp") + "/keli-load-XXXXXX";
  if (!mkdtemp(pattern.data())) throw std::runtime_error("cannot make a temporary folder in " + pattern);
  return pattern;
}

double own_cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  auto s = [](const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6; };
  return s(u.ru_utime) + s(u.ru_stime);
}

Sample sample(const Server& server, const Fleet& fleet, double t_s) {
  return Sample{t_s, server.memory(), server.cpu_seconds(), fleet.tally().moves_accepted};
}

// The run itself: the server up, the clients set up, play, finish, the server stopped, the check.
bool run(Report& r, const std::string& dir, Watchdog& watchdog) {
  const Options& o = r.options;
  Server server(o, dir);
  watchdog.watch(server.pid());
  Fleet fleet(o, server.port());
  const auto t0 = Clock::now();
  std::string why;
  if (!fleet.setup(kSetupLimitS, why)) {
    r.failures.push_back("setup: " + why);
    for (const auto& e : fleet.tally().first_errors) r.failures.push_back(e);
    r.server_status = server.stop(kStopLimitS);
    std::fprintf(stderr, "keli_load: the server's log ends:\n%s", server.log_tail(10).c_str());
    return false;
  }
  r.setup_s = seconds_since(t0);
  if (!o.quiet)
    std::fprintf(stderr, "keli_load: %d rooms made in %.1f s; playing for %d s\n", o.rooms, r.setup_s, o.seconds);
  r.samples.push_back(sample(server, fleet, 0));
  fleet.run(o.seconds, kSampleEveryS, [&] {
    r.samples.push_back(sample(server, fleet, seconds_since(fleet.started())));
    if (!o.quiet)
      std::fprintf(stderr, "keli_load: %.0f s, %lld moves\n", r.samples.back().t_s,
                   static_cast<long long>(r.samples.back().moves));
  });
  r.run_s = seconds_since(fleet.started());
  r.samples.push_back(sample(server, fleet, r.run_s));
  fleet.finish(kFinishLimitS);
  r.server_status = server.stop(kStopLimitS);
  if (r.server_status != 0) std::fprintf(stderr, "keli_load: the server's log ends:\n%s", server.log_tail(10).c_str());
  r.tally = fleet.tally();
  r.db = check_database(dir + "/load.sqlite", r.tally.rooms);
  r.client_cpu_s = own_cpu_seconds();
  r.failures = run_failures(r);
  if (!r.db.failures.empty())
    r.failures.push_back(std::to_string(r.db.failures.size()) + " room(s) whose records differ from the moves sent");
  return r.failures.empty();
}

}  // namespace

int main(int argc, char** argv) {
  Report r;
  try {
    r.options = parse(argc, argv);
  } catch (const Usage& u) {
    std::fprintf(stderr, "%s%s%s", u.why.empty() ? "" : "keli_load: ", u.why.empty() ? "" : (u.why + "\n").c_str(),
                 kUsage);
    return u.why.empty() ? 0 : 2;
  }
  std::signal(SIGPIPE, SIG_IGN);  // a socket closed under a write is an error code, not a signal
  raise_file_limit(r.options.clients);
  bool ok = false;
  std::string dir;
  {
    Watchdog watchdog(r.options.seconds + kGraceS);
    try {
      dir = temporary_folder();
      ok = run(r, dir, watchdog);
    } catch (const std::exception& e) {
      r.failures.push_back(e.what());
      std::fprintf(stderr, "keli_load: %s\n", e.what());
    }
  }
  print_report(r, ok);
  if (!r.options.out.empty()) write_json(r, ok, r.options.out);
  if (!dir.empty() && ok && !r.options.keep)
    std::filesystem::remove_all(dir);
  else if (!dir.empty())
    std::printf("keli_load: the database and the server's log are kept in %s\n", dir.c_str());
  return ok ? 0 : 1;
}
