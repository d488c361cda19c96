// keli_load's database check (load.hpp, check_database): after the server has stopped, its
// SQLite records against what the clients did. In each room made, the steps are numbered 0 to
// count - 1 without a gap, and the steps of the person's seat are exactly the moves its client
// sent and saw accepted, in order, each at the step number the server answered: none lost, none
// stored twice, none the client did not send.
#include <sqlite3.h>

#include <set>

#include "load.hpp"

namespace keli_load {

namespace {

struct Step {
  int64_t n;
  std::string text;
  int64_t seat;
};

class Db {
 public:
  explicit Db(const std::string& path) {
    // Read and write, never create: a database that is not there is a failure, and a WAL left by
    // a server that was killed is read through its -shm as SQLite does.
    if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK)
      throw std::runtime_error("cannot open " + path + ": " + (db_ ? sqlite3_errmsg(db_) : "no memory"));
  }
  ~Db() { sqlite3_close(db_); }
  Db(const Db&) = delete;
  Db& operator=(const Db&) = delete;

  int64_t count(const char* sql) {
    sqlite3_stmt* st = prepare(sql);
    const int64_t n = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
    sqlite3_finalize(st);
    return n;
  }
  std::set<std::string> rooms() {
    std::set<std::string> ids;
    sqlite3_stmt* st = prepare("SELECT id FROM rooms");
    while (sqlite3_step(st) == SQLITE_ROW) ids.insert(reinterpret_cast<const char*>(sqlite3_column_text(st, 0)));
    sqlite3_finalize(st);
    return ids;
  }
  std::vector<Step> steps(const std::string& room) {
    std::vector<Step> out;
    sqlite3_stmt* st = prepare("SELECT n, text, seat FROM steps WHERE room = ?1 ORDER BY n");
    sqlite3_bind_text(st, 1, room.c_str(), -1, SQLITE_TRANSIENT);
    while (sqlite3_step(st) == SQLITE_ROW)
      out.push_back({sqlite3_column_int64(st, 0), reinterpret_cast<const char*>(sqlite3_column_text(st, 1)),
                     sqlite3_column_int64(st, 2)});
    sqlite3_finalize(st);
    return out;
  }

 private:
  sqlite3_stmt* prepare(const char* sql) {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db_, sql, -1, &st, nullptr) != SQLITE_OK)
      throw std::runtime_error(std::string("the database: ") + sqlite3_errmsg(db_));
    return st;
  }
  sqlite3* db_ = nullptr;
};

// One room's steps against its log: "" when they agree, else the first difference in words.
std::string compare(const RoomLog& log, const std::vector<Step>& steps) {
  for (size_t i = 0; i < steps.size(); ++i)
    if (steps[i].n != static_cast<int64_t>(i))
      return "step " + std::to_string(i) + " is numbered " + std::to_string(steps[i].n) + " (a gap or a double)";
  std::vector<const Step*> mine;
  for (const auto& s : steps)
    if (s.seat == log.seat) mine.push_back(&s);
  const size_t common = std::min(mine.size(), log.accepted.size());
  for (size_t k = 0; k < common; ++k) {
    if (mine[k]->text != log.accepted[k] || mine[k]->n != log.steps[k])
      return "the person's move " + std::to_string(k + 1) + " is '" + mine[k]->text + "' at step " +
             std::to_string(mine[k]->n) + " in the database, '" + log.accepted[k] + "' at step " +
             std::to_string(log.steps[k]) + " as sent and accepted";
  }
  if (mine.size() > common)
    return std::to_string(mine.size() - common) +
           " move(s) of the person's seat in the database that no accepted "
           "move accounts for (the first: '" +
           mine[common]->text + "' at step " + std::to_string(mine[common]->n) + ")";
  if (log.accepted.size() > common)
    return std::to_string(log.accepted.size() - common) + " accepted move(s) missing from the database (the first: '" +
           log.accepted[common] + "')";
  return "";
}

}  // namespace

DbCheck check_database(const std::string& path, const std::vector<RoomLog>& rooms) {
  DbCheck c;
  c.checked = true;
  try {
    Db db(path);
    c.rooms = db.count("SELECT COUNT(*) FROM rooms");
    c.steps = db.count("SELECT COUNT(*) FROM steps");
    c.finished = db.count("SELECT COUNT(*) FROM rooms WHERE finished = 1");
    const std::set<std::string> stored = db.rooms();
    std::set<std::string> made;
    for (const auto& log : rooms) {
      made.insert(log.id);
      if (!stored.count(log.id)) {
        c.failures.push_back("room " + log.id + ": made, but not in the database");
        continue;
      }
      const std::vector<Step> steps = db.steps(log.id);
      for (const auto& s : steps) c.person_steps += s.seat == log.seat;
      if (std::string why = compare(log, steps); !why.empty()) c.failures.push_back("room " + log.id + ": " + why);
    }
    for (const auto& id : stored)
      if (!made.count(id)) c.failures.push_back("room " + id + ": in the database, but made by no client");
  } catch (const std::exception& e) {
    c.failures.push_back(e.what());
  }
  return c;
}

}  // namespace keli_load
