// The game site's records in SQLite (the embedded default; docs/serve.md): rooms, their seats and
// every step as it is played, so that a restart of the server loses no room and no finished game.
// Every statement is prepared with bound parameters; nothing from the network is pasted into SQL.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace keli::serve {

// A database error (the file cannot be opened, the disk is full): what() says which statement.
struct StoreError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct SeatRecord {
  int seat = 0;
  std::string kind;        // "person", "computer" or "open"
  std::string agent;       // a computer's spec ("mcts:time=1"); empty for a person
  std::string token_hash;  // SHA-256 of the seat's token, hex; empty while no one holds it
  std::string name;        // the name a person gave (shown escaped)
};

struct StepRecord {
  int64_t action = 0;  // the action id (a move's or a throw's outcome), api::State::apply_action
  std::string text;    // as the game writes it ("sow hole 3 (7)", "roll 4 2")
  int seat = -1;       // who decided it; -1 for a throw
};

struct RoomRecord {
  std::string id;
  std::string game;     // the library's name of the game (games/NAME.keli)
  std::string params;   // its parameters, a JSON object of NAME: VALUE texts
  int64_t created = 0;  // seconds since 1970
  std::string address;  // who made it (the rooms-per-address limit)
  bool finished = false;
  std::string rematch;  // the room that replays this one, once asked for ("" before)
  std::vector<SeatRecord> seats;
  std::vector<StepRecord> steps;
};

class Store {
 public:
  // Opens (creating on first start) the database file; ":memory:" for one that is not kept.
  explicit Store(const std::string& path);
  ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  void add_room(const RoomRecord& r);  // the room with its seats (its steps are added one by one)
  void set_seat(const std::string& room, const SeatRecord& s);
  // Step n (0-based) of the room. A step already there is an error: no move is stored twice.
  void add_step(const std::string& room, int64_t n, const StepRecord& s);
  void set_finished(const std::string& room);
  void set_rematch(const std::string& room, const std::string& next);
  std::vector<RoomRecord> rooms();  // every room with its seats and steps, oldest first
  // The rooms not finished, as rooms() gives them: what a server holds in memory when it starts.
  std::vector<RoomRecord> live_rooms();
  // One room with its seats and steps (a finished room the server let go of), if it is stored.
  std::optional<RoomRecord> room(const std::string& id);
  std::vector<StepRecord> steps(const std::string& room);

 private:
  sqlite3_stmt* prepare(const char* sql);
  // The rooms statement `which` lists (its ?1 bound to `id` when not empty), with seats and steps.
  std::vector<RoomRecord> read_rooms(int which, const std::string& id);
  void exec(const char* sql);
  bool has_column(const std::string& table, const std::string& column);
  void write_seat(const std::string& room, const SeatRecord& s);  // lock_ held by the caller
  sqlite3* db_ = nullptr;
  std::mutex lock_;  // one statement at a time (rooms run on several threads)
  std::vector<sqlite3_stmt*> prepared_;
};

}  // namespace keli::serve
