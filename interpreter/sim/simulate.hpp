// Many games over several threads. Game i is played with an Rng seeded from (seed, i), and its
// record is tallied as it ends into integer counts that do not depend on the order of the games,
// so the results are the same whatever the thread count or the order in which threads pick
// games, and a run of any length keeps no record per game. Each thread has its own
// runtime::Game (a Game is not shared).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "compile/program.hpp"
#include "sim/playout.hpp"
#include "sim/records.hpp"
#include "sim/stats.hpp"

namespace keli::sim {

// The seed of game `index` in a run seeded with `seed` (SplitMix64 of both; see runtime/rng.hpp).
uint64_t game_seed(uint64_t seed, int64_t index);

struct RunOptions {
  int64_t games = 1;
  int threads = 1;
  uint64_t seed = 1;
  bool check_invariants = true;  // after every step; a violation is the game's error (E704)
  int shard = 0, shards = 1;     // play only games shard, shard + shards, ... (--shard I/N)
  // The engine each thread's Game runs on; unset: runtime::default_engine().
  std::optional<runtime::EngineOptions> engine;
  // Called on the calling thread about ten times a second and once at the end: games finished so far.
  std::function<void(int64_t done, int64_t total)> progress;
};

// Plays game `index` with `game` (this thread's) and `rng` (already seeded for the game) and
// returns its record. Called concurrently from several threads: it must touch no shared
// mutable state except through its arguments.
using PlayFn = std::function<GameRecord(runtime::Game& game, int64_t index, runtime::Rng& rng)>;

// Receives each game's record as it ends: one call at a time (the runner holds a lock), in no
// fixed order (record.index says which game it was).
using Sink = std::function<void(const GameRecord& record)>;

// Runs the games of opts (of its shard) over opts.threads threads, each record to `sink`.
void run_games(std::shared_ptr<const compile::Program> program, const RunOptions& opts, const PlayFn& play,
               const Sink& sink);

// The same with agents: seats_for(i) gives one agent spec per seat for game i (e.g. rotating
// seats in a match). Each thread makes each distinct spec once (agents::make_agent) and reuses
// it; "random" plays inline. Specs must have been checked by the caller (make_agent succeeds).
// opts.check_invariants is passed to playout.
using SeatsFor = std::function<std::vector<std::string>(int64_t index)>;
void run_agents(std::shared_ptr<const compile::Program> program, const RunOptions& opts, const SeatsFor& seats_for,
                const Sink& sink);

// Plays games of a run one at a time on one thread, with that thread's Game and agents: what
// run_agents does on each of its threads, for runners of other kinds (MPI ranks).
class GamePlayer {
 public:
  GamePlayer(std::shared_ptr<const compile::Program> program, uint64_t seed, bool check_invariants, SeatsFor seats_for);
  GameRecord play(int64_t index);  // game `index` of the run, seeded with game_seed(seed, index)

 private:
  runtime::Game game_;
  uint64_t seed_;
  bool check_;
  SeatsFor seats_for_;
  std::map<std::string, std::unique_ptr<agents::Agent>> agents_;  // one per distinct spec
  std::vector<runtime::Move> legal_;
  std::vector<agents::Agent*> seats_;
};

// A game's record as a row of the records file: `players` its seats' specs, `error_text` how an
// error is told (with the game's sources; keli run prints it so); `scored`: the game scores points,
// so the row has a number of points a seat (0 for a game stopped before its first state).
RecordRow to_row(const GameRecord& g, uint64_t run_seed, std::vector<std::string> players,
                 const std::function<std::string(const diag::Error&)>& error_text, bool scored);

// Rows that arrive in any order handed on in game order (the order of positions 0, 1, ... of a
// shard): a row waits until every earlier one has come.
class InOrder {
 public:
  InOrder(const RunHeader& run, std::function<void(const RecordRow&)> emit) : run_(run), emit_(std::move(emit)) {}
  void add(RecordRow row);
  int64_t emitted() const { return next_; }

 private:
  const RunHeader& run_;
  std::function<void(const RecordRow&)> emit_;
  std::map<int64_t, RecordRow> waiting_;
  int64_t next_ = 0;  // the position of the next row to emit
};

// What a set of records says, per seat and per team. A game's winners are the seats in first
// place. A draw: every seat shares first place (or no seat is placed). A team win: two or more
// seats, not all, share first place; the teams reported are the distinct such sets seen.
struct TeamRate {
  std::vector<int> seats;
  Rate wins;
};
struct Report {
  int64_t games = 0, errors = 0;
  std::vector<Rate> seat_wins;      // per seat: games in which it shared first place and was not a draw
  std::vector<TeamRate> team_wins;  // per observed winning team, ordered by its smallest seat
  Rate draws;
  Rate natural_end;                        // ended by the rules, not by the move limit
  Summary length;                          // decisions per game
  Summary throws;                          // chance events (throws) per game
  double branching = 0;                    // legal moves per decision state, pooled over all games
  std::vector<Summary> seat_points;        // per seat, in a run whose game scores points (else empty)
  std::optional<std::string> first_error;  // the error of the lowest-numbered game that had one
  int64_t first_error_game = -1;
};

// What the records of a run come to so far, added one game at a time in any order: counts, and
// histograms of lengths and throws (memory for the distinct values, not for the games).
class Tally {
 public:
  explicit Tally(int num_players) : seat_hits_(static_cast<size_t>(num_players), 0), players_(num_players) {}
  void add(const RecordRow& g);
  Report report() const;

 private:
  std::vector<int64_t> seat_hits_;
  std::map<std::vector<int>, int64_t> winner_sets_;  // the winners of each game won by 2+ seats, not all
  int players_;
  int64_t games_ = 0, errors_ = 0, played_ = 0, draws_ = 0, natural_ = 0, legal_sum_ = 0, decisions_ = 0;
  Histogram lengths_, throws_;
  std::vector<Histogram> points_;  // per seat, once a row with points has come
  std::optional<std::string> first_error_;
  int64_t first_error_game_ = -1;
};
Report report(const compile::Program& program, const std::vector<GameRecord>& records);  // a Tally of their rows

// The report as JSON (one object, fixed key order, no timings) and as CSV (one row per
// statistic: section,name,value,lo,hi). Both are byte-identical for identical records.
std::string report_json(const std::vector<std::string>& seat_names, const Report& r);
std::string report_csv(const std::vector<std::string>& seat_names, const Report& r);

}  // namespace keli::sim
