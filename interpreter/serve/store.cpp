// The site's SQLite records (store.hpp): the schema, and each read and write as a prepared
// statement with bound parameters.
#include "serve/store.hpp"

#include <sqlite3.h>

#include <stdexcept>

namespace keli::serve {

namespace {

// The schema, created on first start. Steps are keyed by (room, n): a step stored twice fails.
constexpr const char* kSchema = R"sql(
PRAGMA journal_mode = WAL;
PRAGMA synchronous = NORMAL;
PRAGMA foreign_keys = ON;
CREATE TABLE IF NOT EXISTS rooms (
  id TEXT PRIMARY KEY, game TEXT NOT NULL, params TEXT NOT NULL, created INTEGER NOT NULL,
  address TEXT NOT NULL, finished INTEGER NOT NULL DEFAULT 0, rematch TEXT NOT NULL DEFAULT '');
CREATE TABLE IF NOT EXISTS seats (
  room TEXT NOT NULL REFERENCES rooms(id), seat INTEGER NOT NULL, kind TEXT NOT NULL,
  agent TEXT NOT NULL, token_hash TEXT NOT NULL, name TEXT NOT NULL, PRIMARY KEY (room, seat));
CREATE TABLE IF NOT EXISTS steps (
  room TEXT NOT NULL REFERENCES rooms(id), n INTEGER NOT NULL, action INTEGER NOT NULL,
  text TEXT NOT NULL, seat INTEGER NOT NULL, PRIMARY KEY (room, n));
)sql";

// A prepared statement in use: reset (bindings cleared) when the step is done with it.
class Use {
 public:
  Use(sqlite3* db, sqlite3_stmt* st) : db_(db), st_(st) {}
  ~Use() {
    sqlite3_reset(st_);
    sqlite3_clear_bindings(st_);
  }
  Use& text(int i, const std::string& v) {
    check(sqlite3_bind_text(st_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT));
    return *this;
  }
  Use& integer(int i, int64_t v) {
    check(sqlite3_bind_int64(st_, i, v));
    return *this;
  }
  bool row() {  // true while a row is there; false at the end
    int rc = sqlite3_step(st_);
    if (rc == SQLITE_ROW) return true;
    if (rc != SQLITE_DONE) check(rc);
    return false;
  }
  void run() {
    while (row()) {
    }
  }
  std::string text_at(int i) const {
    const unsigned char* p = sqlite3_column_text(st_, i);
    return p ? std::string(reinterpret_cast<const char*>(p), static_cast<size_t>(sqlite3_column_bytes(st_, i))) : "";
  }
  int64_t integer_at(int i) const { return sqlite3_column_int64(st_, i); }

 private:
  void check(int rc) const {
    if (rc != SQLITE_OK) throw StoreError(std::string("the database: ") + sqlite3_errmsg(db_));
  }
  sqlite3* db_;
  sqlite3_stmt* st_;
};

// A database of the first schema (no rematch column) gains it on open; its rows keep their values.
constexpr const char* kAddRematch = "ALTER TABLE rooms ADD COLUMN rematch TEXT NOT NULL DEFAULT ''";

enum Stmt { kAddRoom, kSetSeat, kAddStep, kFinished, kRematch, kRooms, kLiveRooms, kRoom, kSeats, kSteps, kStmtCount };

constexpr const char* kStatements[kStmtCount] = {
    "INSERT INTO rooms (id, game, params, created, address) VALUES (?1, ?2, ?3, ?4, ?5)",
    "INSERT OR REPLACE INTO seats (room, seat, kind, agent, token_hash, name) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    "INSERT INTO steps (room, n, action, text, seat) VALUES (?1, ?2, ?3, ?4, ?5)",
    "UPDATE rooms SET finished = 1 WHERE id = ?1",
    "UPDATE rooms SET rematch = ?2 WHERE id = ?1",
    "SELECT id, game, params, created, address, finished, rematch FROM rooms ORDER BY created, rowid",
    "SELECT id, game, params, created, address, finished, rematch FROM rooms WHERE finished = 0 ORDER BY created, "
    "rowid",
    "SELECT id, game, params, created, address, finished, rematch FROM rooms WHERE id = ?1",
    "SELECT seat, kind, agent, token_hash, name FROM seats WHERE room = ?1 ORDER BY seat",
    "SELECT action, text, seat FROM steps WHERE room = ?1 ORDER BY n",
};

}  // namespace

Store::Store(const std::string& path) {
  if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
                      nullptr) != SQLITE_OK) {
    std::string why = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    throw StoreError("cannot open the database " + path + ": " + why);
  }
  sqlite3_busy_timeout(db_, 5000);  // another process reading it: wait, within a bound
  exec(kSchema);
  if (!has_column("rooms", "rematch")) exec(kAddRematch);
  for (const char* sql : kStatements) prepared_.push_back(prepare(sql));
}

Store::~Store() {
  for (sqlite3_stmt* st : prepared_) sqlite3_finalize(st);
  sqlite3_close(db_);
}

void Store::exec(const char* sql) {
  char* error = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &error) != SQLITE_OK) {
    std::string why = error ? error : "unknown error";
    sqlite3_free(error);
    throw StoreError("the database's schema: " + why);
  }
}

bool Store::has_column(const std::string& table, const std::string& column) {
  sqlite3_stmt* st = prepare(("PRAGMA table_info(" + table + ")").c_str());  // our own names only
  bool found = false;
  {
    Use q(db_, st);
    while (q.row()) found = found || q.text_at(1) == column;
  }
  sqlite3_finalize(st);
  return found;
}

sqlite3_stmt* Store::prepare(const char* sql) {
  sqlite3_stmt* st = nullptr;
  if (sqlite3_prepare_v2(db_, sql, -1, &st, nullptr) != SQLITE_OK)
    throw StoreError(std::string("the database: ") + sqlite3_errmsg(db_));
  return st;
}

void Store::add_room(const RoomRecord& r) {
  std::lock_guard<std::mutex> hold(lock_);
  exec("BEGIN");
  try {
    Use(db_, prepared_[kAddRoom])
        .text(1, r.id)
        .text(2, r.game)
        .text(3, r.params)
        .integer(4, r.created)
        .text(5, r.address)
        .run();
    for (const auto& s : r.seats) write_seat(r.id, s);
  } catch (...) {
    exec("ROLLBACK");
    throw;
  }
  exec("COMMIT");
}

void Store::set_seat(const std::string& room, const SeatRecord& s) {
  std::lock_guard<std::mutex> hold(lock_);
  write_seat(room, s);
}

void Store::write_seat(const std::string& room, const SeatRecord& s) {
  Use(db_, prepared_[kSetSeat])
      .text(1, room)
      .integer(2, s.seat)
      .text(3, s.kind)
      .text(4, s.agent)
      .text(5, s.token_hash)
      .text(6, s.name)
      .run();
}

void Store::add_step(const std::string& room, int64_t n, const StepRecord& s) {
  std::lock_guard<std::mutex> hold(lock_);
  Use(db_, prepared_[kAddStep])
      .text(1, room)
      .integer(2, n)
      .integer(3, s.action)
      .text(4, s.text)
      .integer(5, s.seat)
      .run();
}

void Store::set_finished(const std::string& room) {
  std::lock_guard<std::mutex> hold(lock_);
  Use(db_, prepared_[kFinished]).text(1, room).run();
}

void Store::set_rematch(const std::string& room, const std::string& next) {
  std::lock_guard<std::mutex> hold(lock_);
  Use(db_, prepared_[kRematch]).text(1, room).text(2, next).run();
}

std::vector<StepRecord> Store::steps(const std::string& room) {
  std::lock_guard<std::mutex> hold(lock_);
  std::vector<StepRecord> out;
  Use q(db_, prepared_[kSteps]);
  q.text(1, room);
  while (q.row()) out.push_back({q.integer_at(0), q.text_at(1), static_cast<int>(q.integer_at(2))});
  return out;
}

std::vector<RoomRecord> Store::rooms() { return read_rooms(kRooms, ""); }

std::vector<RoomRecord> Store::live_rooms() { return read_rooms(kLiveRooms, ""); }

std::optional<RoomRecord> Store::room(const std::string& id) {
  auto found = read_rooms(kRoom, id);
  if (found.empty()) return std::nullopt;
  return std::move(found.front());
}

std::vector<RoomRecord> Store::read_rooms(int which, const std::string& id) {
  std::vector<RoomRecord> out;
  {
    std::lock_guard<std::mutex> hold(lock_);
    Use q(db_, prepared_[static_cast<size_t>(which)]);
    if (!id.empty()) q.text(1, id);
    while (q.row()) {
      RoomRecord r;
      r.id = q.text_at(0), r.game = q.text_at(1), r.params = q.text_at(2);
      r.created = q.integer_at(3), r.address = q.text_at(4), r.finished = q.integer_at(5) != 0;
      r.rematch = q.text_at(6);
      out.push_back(std::move(r));
    }
    for (auto& r : out) {
      Use s(db_, prepared_[kSeats]);
      s.text(1, r.id);
      while (s.row())
        r.seats.push_back({static_cast<int>(s.integer_at(0)), s.text_at(1), s.text_at(2), s.text_at(3), s.text_at(4)});
    }
  }
  for (auto& r : out) r.steps = steps(r.id);
  return out;
}

}  // namespace keli::serve
