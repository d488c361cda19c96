// keli_load (tools/load/, docs/serve.md#load): a load test of `keli serve` from outside, as its
// clients see it. The declarations its parts share: the options, the server's messages as the
// tool reads them, the server process, the clients, the database check and the report.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace keli_load {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0);

struct Options {
  std::string keli;                 // the keli binary the server is run from
  std::string games;                // --games DIR for the server ("" its default library)
  std::string game;                 // the game every room plays (--game, required)
  std::string opponent = "random";  // the spec of every seat but the person's
  std::string engine;               // --engine for the server ("" its default)
  std::string out;                  // the report as JSON ("" none)
  int clients = 500;
  int rooms = 200;
  int seats = 2;  // the game's seats: the person's and seats - 1 computer players
  int seconds = 120;
  // Messages a connection sends a second at most: the server refuses past 20 a second (flood),
  // and a person paced by its opponent's replies alone could come near that in a fast game.
  double rate = 10;
  uint64_t seed = 1;  // the persons' choices among the moves offered
  bool keep = false;  // keep the temporary folder (the database, the server's log)
  bool quiet = false;
  bool targets = false;  // a missed target (p99 under 50 ms, memory flat) fails the run too
};

// One message of the server, reduced to the top-level fields the tool acts on (message.cpp):
// the rest of a view (its board's SVG, its history) is skipped, not parsed, so that the clients
// spend as little of the machine's CPU as they can beside the server they measure.
struct Message {
  std::string t, room, code, error;
  bool has_request = false;  // "request" present: the answer to a message (an error without it is news)
  int64_t steps = -1, you = -2, mover = -2, seat = -2;
  bool over = false, chance = false;
  std::vector<std::string> moves;
};
// False when `text` is not a JSON object.
bool read_message(std::string_view text, Message& m);

struct Memory {
  int64_t rss_kb = 0, hwm_kb = 0;  // VmRSS and VmHWM of /proc/PID/status
};

// `keli serve` as a child process on 127.0.0.1, a free port, a database in `dir` (server.cpp).
class Server {
 public:
  // Throws when it does not say where it listens in time, or says another host than loopback.
  Server(const Options& o, const std::string& dir);
  ~Server();  // a server still running is killed
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  int port() const { return port_; }
  pid_t pid() const { return pid_; }
  Memory memory() const;
  double cpu_seconds() const;  // user + system time so far
  // SIGTERM, then its exit status within `limit_s` (-1: killed, having not stopped).
  int stop(double limit_s);
  std::string log_tail(size_t lines) const;  // the end of its stderr, for a failure's report

 private:
  pid_t pid_ = -1;
  int port_ = 0;
  int out_fd_ = -1;  // its stdout, where it says where it listens
  std::string log_;
};

// What a person's client did in one room: the database must hold exactly these moves.
struct RoomLog {
  std::string id;
  int seat = 0;
  std::vector<std::string> sent;      // every move sent, in order
  std::vector<std::string> accepted;  // the moves answered "moved", in order
  std::vector<int64_t> steps;         // the step number each accepted move took ("moved".steps - 1)
  int refused = 0;                    // moves answered with an error
};

// One move timed: when it was sent (seconds after the start), how long until its echo (the first
// view past it: what a player waits for), and until its answer ("moved", the referee's word).
struct Latency {
  float at_s, ms, answer_ms;
};

// What the clients counted (clients.cpp).
struct Tally {
  std::vector<RoomLog> rooms;  // every room made, in order
  std::vector<Latency> latencies;
  std::map<std::string, int64_t> errors;  // by code
  std::vector<std::string> first_errors;  // the first few, in words
  int64_t moves_sent = 0, moves_accepted = 0;
  int64_t games_finished = 0, views = 0, bytes = 0, lost_connections = 0;
  int64_t unanswered = 0;  // moves or requests without an answer when the clients stopped
  int64_t stalled = 0;     // persons that heard nothing for 10 s at the end of the run
};

// The clients (clients.cpp): one thread, one connection each, on 127.0.0.1 only.
class Fleet {
 public:
  Fleet(const Options& o, int port);
  ~Fleet();
  Fleet(const Fleet&) = delete;
  Fleet& operator=(const Fleet&) = delete;

  // Connects every client, makes the rooms and seats the spectators; false (why) if not in time.
  bool setup(double limit_s, std::string& why);
  // The persons play for `seconds`; `tick` is called about every `every_s` seconds.
  void run(double seconds, double every_s, const std::function<void()>& tick);
  // Lets the last moves be answered (at most `limit_s`), then closes every connection.
  void finish(double limit_s);
  const Tally& tally() const;
  Clock::time_point started() const;  // when the persons began to play

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

// The database against what the clients did (check.cpp): one line a failure.
struct DbCheck {
  bool checked = false;  // false: the run failed before the database could be checked
  std::vector<std::string> failures;
  int64_t rooms = 0, steps = 0, person_steps = 0, finished = 0;
};
DbCheck check_database(const std::string& path, const std::vector<RoomLog>& rooms);

// A sample of the server taken every 10 s of the run.
struct Sample {
  double t_s = 0;
  Memory mem;
  double cpu_s = 0;   // the server's CPU time so far
  int64_t moves = 0;  // moves accepted so far
};

// Everything the report says (report.cpp).
struct Report {
  Options options;
  double setup_s = 0, run_s = 0;
  std::vector<Sample> samples;  // the first at the start of the run, the last at its end
  Tally tally;
  DbCheck db;
  double client_cpu_s = 0;
  int server_status = 0;
  std::vector<std::string> failures;
};
void print_report(const Report& r, bool ok);
void write_json(const Report& r, bool ok, const std::string& path);
// The failures of the run that are not the database's: errors, hangs, lost clients; with
// --targets, a missed target.
std::vector<std::string> run_failures(const Report& r);

}  // namespace keli_load
