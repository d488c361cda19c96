// The game site's rooms and its protocol (docs/serve.md), apart from any socket: a connection
// sends JSON messages ({"t": "create" | "join" | "sit" | "move" | ...}), the hub answers each and
// sends every watcher of a room its new view after each step. The transport (serve/net.hpp, a
// WebSocket server) only carries text; this is what decides, so it is tested without a network.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>

#include "serve/room.hpp"
#include "serve/store.hpp"
#include "util/json_read.hpp"

namespace keli::serve {

// A message as JSON text. Bytes that are not UTF-8 (a parser's message quoting what it read)
// are replaced, never a reason to fail: nothing a client sends makes a reply impossible.
std::string message_text(const util::Json& m);
// Appends `s` as a JSON string (quoted, escaped) to `out`: what message_text does to a string, in
// one pass over plain ASCII (a board's SVG, some 10 KB at every step), the same for other text.
void append_json_string(std::string& out, std::string_view s);

class Hub {
 public:
  // One message's text, shared by every connection it goes to (a view is some 12 KB; a room's
  // watchers are sent the one copy).
  using Text = std::shared_ptr<const std::string>;
  static Text share(std::string text) { return std::make_shared<const std::string>(std::move(text)); }
  // Sends one message to a connection; may be called from any thread.
  using Send = std::function<void(Text)>;

  // Rooms of the games in `games_dir` (each NAME.keli), recorded in `store`; the rooms being
  // played are rebuilt from their steps (a finished one when it is asked for). A room whose game
  // no longer loads is left out, with a line in `skipped` saying why.
  Hub(std::string games_dir, Store& store, std::vector<std::string>* skipped = nullptr);

  // Where throws and computer players' steps are run: inline, in the call that made them due
  // (the default; the tests), or on the server's referee threads (net.cpp), so that a search never
  // holds up a connection's session.
  using Defer = std::function<void(std::function<void()>)>;
  void set_defer(Defer defer) { defer_ = std::move(defer); }
  // Computer players stop between two steps (the server is stopping); their rooms go on at the
  // next start, from the database.
  void stop() { stopping_ = true; }

  int64_t connect(const std::string& address, Send send);
  void disconnect(int64_t conn);
  // One message of a connection: its reply, then any news, go out through the connection's Send.
  void handle(int64_t conn, const std::string& text);

  std::vector<std::string> games() const;  // the library: the names a room may be made of
  size_t rooms() const;                    // the rooms held in memory: those being played, and finished ones watched
  // The live rooms (not finished) one address may hold at once; kMaxServeRoomsPerAddress unless
  // set (keli serve --rooms-per-address: a load test's clients share the loopback address).
  void set_rooms_per_address(int most) { rooms_per_address_ = most; }

 private:
  struct Conn {
    int64_t id = 0;
    std::string address;
    Send send;
    std::string room;      // the room it watches ("" none)
    std::string token;     // the seat it holds there ("" a spectator)
    double allowance = 0;  // messages it may still send now (refilled kMaxServeMessagesPerSecond a second)
    double last = 0;       // when it was last refilled, in seconds
  };
  struct Message {
    const char* name;
    void (Hub::*run)(int64_t conn, const util::Json& m);
    const char* what;  // for docs/serve.md and the error listing the messages
  };
  static const Message kMessages[];

  void on_games(int64_t conn, const util::Json& m);
  void on_lobby(int64_t conn, const util::Json& m);
  void on_create(int64_t conn, const util::Json& m);
  void on_join(int64_t conn, const util::Json& m);
  void on_sit(int64_t conn, const util::Json& m);
  void on_move(int64_t conn, const util::Json& m);
  void on_trace(int64_t conn, const util::Json& m);
  void on_rules(int64_t conn, const util::Json& m);
  void on_why(int64_t conn, const util::Json& m);
  void on_rematch(int64_t conn, const util::Json& m);

  // A new room of `game` with `params`, its seats as `seats` lists them ("person", "open" or a
  // computer's spec; the maker holds seat `mine`, -1 none), recorded and watched by `conn`; the
  // reply "created" with the maker's token, then its view. Refused past the rooms limits.
  std::shared_ptr<Room> make_room(int64_t conn, const std::string& game, const util::Json& params,
                                  const std::vector<std::string>& seats, int mine, const std::string& name);
  // Each game of the library with its title and seat names (loaded once, on first asking).
  util::Json library();

  // The room the message names, read back from the store when it was let go of; Refused if none.
  std::shared_ptr<Room> room(const util::Json& m);
  std::string token_of(int64_t conn, const std::string& room);  // the seat token conn holds there
  std::shared_ptr<const api::Game> load(const std::string& game, const std::string& params_json) const;
  void reply(int64_t conn, util::Json body);
  std::string for_client(std::string text) const;  // the server's paths taken out
  // Each connection watching `room`: its sender and the token it holds there.
  std::vector<std::pair<Send, std::string>> watchers(const std::string& room);
  // Sends each watcher of `r` its view with the steps of the last kPublishedSteps (r's lock held
  // by the caller); a client that has fewer asks for the whole view again ("join").
  void publish(Room& r);
  // Throws and computer players' steps, each published as it is made.
  void run_computers(const std::shared_ptr<Room>& r);
  void watch(int64_t conn, const std::string& room, const std::string& token);
  // Stops watching its room; a finished room no one watches any more is let go of (lock_ held):
  // memory holds the rooms being played, not every game the server has seen.
  void unwatch(Conn& c);
  // Lets go of `r` when it is finished and no one watches it (a game of computers only, a
  // finished room read back for its trace). Takes lock_: called with r's lock held or none.
  void let_go_if_unwatched(const Room& r);

  std::string games_dir_;
  Store& store_;
  // The maps below. Taken after a room's lock (publish), never before one: a room's lock is
  // never waited for while this is held.
  mutable std::mutex lock_;
  std::map<std::string, std::shared_ptr<Room>> rooms_;
  std::map<int64_t, Conn> conns_;
  std::map<std::string, std::set<int64_t>> watchers_;
  int64_t next_conn_ = 1;
  Defer defer_;
  std::atomic<bool> stopping_{false};
  int rooms_per_address_;
  std::mutex library_lock_;
  util::Json library_;  // null until first asked
};

}  // namespace keli::serve
