// The site's messages (Hub::kMessages): what each asks, checked field by field, and the news
// every watcher of a room is sent after each step.
#include <fmt/format.h>

#include <ctime>
#include <filesystem>

#include "agents/agent.hpp"
#include "lang/limits.hpp"
#include "serve/hub.hpp"

namespace keli::serve {

using util::Json;
namespace fs = std::filesystem;

namespace {

// The most rooms the lobby lists (the newest first), and the steps of computers and throws made
// between two looks at the room's other messages.
constexpr size_t kLobbyRooms = 200;
constexpr int kStepsAtOnce = 1;
// The steps a published view carries (its history from the last few on): more than a publish
// ever follows (kStepsAtOnce, a move), so a client that saw the last view misses none.
constexpr size_t kPublishedSteps = 8;
// A room's id: 12 hex digits (make_room); a longer one is no room, never looked up.
constexpr size_t kRoomIdLength = 12;

int int_field(const Json& m, const char* key) {
  if (!m.contains(key)) throw Refused("bad_request", fmt::format("\"{}\" is missing", key));
  return util::json_int(m[key], fmt::format("\"{}\"", key));
}

std::string optional_text(const Json& m, const char* key, size_t most) {
  if (!m.contains(key) || m[key].is_null()) return "";
  std::string v = util::json_text(m[key], fmt::format("\"{}\"", key));
  if (v.size() > most) throw Refused("bad_request", fmt::format("\"{}\" is at most {} characters", key, most));
  return v;
}

}  // namespace

std::shared_ptr<Room> Hub::room(const Json& m) {
  if (!m.contains("room") || !m["room"].is_string()) throw Refused("bad_request", "\"room\" must be a room's id");
  const std::string id = m["room"].get<std::string>();
  {
    std::lock_guard<std::mutex> hold(lock_);
    if (auto it = rooms_.find(id); it != rooms_.end()) return it->second;
  }
  // A finished room let go of: read back from the store (outside the lock: it replays the game).
  std::optional<RoomRecord> rec = id.size() <= kRoomIdLength ? store_.room(id) : std::nullopt;
  if (!rec) throw Refused("no_room", "there is no such room");
  auto game = load(rec->game, rec->params);
  auto made = std::make_shared<Room>(std::move(*rec), game, store_);
  std::lock_guard<std::mutex> hold(lock_);
  return rooms_.try_emplace(id, made).first->second;  // read twice at once: the first one kept
}

std::string Hub::token_of(int64_t conn, const std::string& room) {
  std::lock_guard<std::mutex> hold(lock_);
  const Conn& c = conns_.at(conn);
  return c.room == room ? c.token : "";
}

void Hub::watch(int64_t conn, const std::string& room, const std::string& token) {
  std::lock_guard<std::mutex> hold(lock_);
  auto it = conns_.find(conn);
  if (it == conns_.end()) return;
  if (it->second.room != room) unwatch(it->second);
  it->second.room = room, it->second.token = token;
  watchers_[room].insert(conn);
}

void Hub::unwatch(Conn& c) {
  if (c.room.empty()) return;
  auto w = watchers_.find(c.room);
  if (w != watchers_.end()) {
    w->second.erase(c.id);
    if (w->second.empty()) {
      watchers_.erase(w);
      auto r = rooms_.find(c.room);
      if (r != rooms_.end() && r->second->over()) rooms_.erase(r);  // users of it keep it alive
    }
  }
  c.room.clear(), c.token.clear();
}

std::vector<std::pair<Hub::Send, std::string>> Hub::watchers(const std::string& room) {
  std::lock_guard<std::mutex> hold(lock_);
  std::vector<std::pair<Send, std::string>> to;
  auto w = watchers_.find(room);  // not operator[]: no empty entry left for a room no one watches
  if (w == watchers_.end()) return to;
  for (int64_t c : w->second)
    if (auto it = conns_.find(c); it != conns_.end()) to.emplace_back(it->second.send, it->second.token);
  return to;
}

void Hub::let_go_if_unwatched(const Room& r) {
  if (!r.over()) return;
  std::lock_guard<std::mutex> hold(lock_);
  if (!watchers_.count(r.id())) rooms_.erase(r.id());
}

void Hub::publish(Room& r) {
  const auto to = watchers(r.id());
  if (to.empty()) return let_go_if_unwatched(r);
  // The views differ only in "you": built and written out as JSON once a step, "you" put in
  // front for each seat (-1 the spectators').
  const size_t steps = r.record().steps.size();
  Json v = r.view(-1, steps > kPublishedSteps ? steps - kPublishedSteps : 0, false);
  v["t"] = "view";
  v.erase("you");
  std::string body = message_text(v).substr(1);  // after its "{": never empty
  body.back() = ',';                             // its "}": the picture follows, written in one pass
  body += "\"svg\":";
  append_json_string(body, r.picture());
  body += '}';
  std::map<int, Text> texts;
  for (const auto& [send, token] : to) {
    const int seat = r.seat_of(token);
    auto [text, fresh] = texts.try_emplace(seat);
    if (fresh) text->second = share(fmt::format("{{\"you\":{},{}", seat, body));
    send(text->second);
  }
}

void Hub::run_computers(const std::shared_ptr<Room>& r) {
  // Each step under the room's lock, checked again there: two runs for one room (a move and a
  // seat taken at once) never make a step twice.
  auto run = [this, r] {
    while (!stopping_) {
      std::lock_guard<std::mutex> hold(r->lock());
      if (!r->automatic()) return;
      try {
        r->advance(kStepsAtOnce);
      } catch (const std::exception& e) {  // a fault of the rules or the database: the room waits
        const Text text = share(message_text(
            Json{{"t", "error"}, {"ok", false}, {"code", "server"}, {"room", r->id()}, {"error", e.what()}}));
        for (const auto& [send, token] : watchers(r->id())) send(text);
        return;
      }
      publish(*r);
    }
  };
  if (defer_)
    defer_(run);
  else
    run();
}

void Hub::on_games(int64_t conn, const Json&) {
  reply(conn, Json{{"t", "games"}, {"ok", true}, {"games", games()}, {"library", library()}});
}

void Hub::on_lobby(int64_t conn, const Json&) {
  std::vector<std::shared_ptr<Room>> all;
  {
    std::lock_guard<std::mutex> hold(lock_);
    for (const auto& [id, r] : rooms_) all.push_back(r);
  }
  Json open = Json::array(), playing = Json::array();
  std::vector<std::pair<int64_t, Json>> listed;
  for (const auto& r : all) {
    std::lock_guard<std::mutex> hold(r->lock());
    if (r->finished()) continue;
    const RoomRecord& rec = r->record();
    listed.emplace_back(rec.created, Json{{"room", rec.id},
                                          {"game", rec.game},
                                          {"params", Json::parse(rec.params)},
                                          {"steps", rec.steps.size()},
                                          {"open", r->open_seats()}});
  }
  std::stable_sort(listed.begin(), listed.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  for (size_t i = 0; i < listed.size() && i < kLobbyRooms; ++i)
    (listed[i].second["open"].get<bool>() ? open : playing).push_back(listed[i].second);
  reply(conn, Json{{"t", "lobby"}, {"ok", true}, {"open", open}, {"playing", playing}});
}

void Hub::on_create(int64_t conn, const Json& m) {
  const std::string game = util::json_text(m.value("game", Json()), "\"game\"");
  const Json params = m.contains("params") ? m["params"] : Json::object();
  if (!params.is_object()) throw Refused("bad_request", "\"params\" must be an object of NAME: VALUE");
  const std::string name = optional_text(m, "name", lang::kMaxServeName);
  const Json seats = m.contains("seats") ? m["seats"] : Json::array();
  if (!seats.is_array()) throw Refused("bad_request", "\"seats\" lists the seats: person, open, or a computer's spec");
  std::vector<std::string> kinds;
  for (const auto& s : seats) kinds.push_back(util::json_text(s, "a seat"));
  // The maker holds the first "person" seat (by default seat 0); any other "person" waits open.
  int mine = kinds.empty() ? 0 : -1;
  for (size_t i = 0; i < kinds.size(); ++i)
    if (kinds[i] == "person") {
      if (mine < 0) mine = static_cast<int>(i);
      kinds[i] = "open";
    }
  run_computers(make_room(conn, game, params, kinds, mine, name));
}

std::shared_ptr<Room> Hub::make_room(int64_t conn, const std::string& game, const Json& params,
                                     const std::vector<std::string>& seats, int mine, const std::string& name) {
  std::string address;
  size_t mine_live = 0, live = 0;
  {
    std::lock_guard<std::mutex> hold(lock_);
    address = conns_.at(conn).address;
    for (const auto& [id, r] : rooms_) {
      const bool on = !r->over();
      live += on;
      mine_live += on && r->record().address == address;
    }
  }
  if (live >= static_cast<size_t>(lang::kMaxServeRooms))
    throw Refused("limit", "this server holds as many rooms as it may");
  if (mine_live >= static_cast<size_t>(rooms_per_address_))
    throw Refused("limit", fmt::format("one address may have at most {} rooms being played", rooms_per_address_));
  auto loaded = load(game, params.dump());
  const compile::Program& p = loaded->program();
  if (!seats.empty() && seats.size() != p.seat_names.size())
    throw Refused("bad_request", fmt::format("\"seats\" lists the {} seats: person, open, or a computer player's spec",
                                             p.seat_names.size()));
  RoomRecord rec{new_token().substr(0, kRoomIdLength),
                 game,
                 params.dump(),
                 static_cast<int64_t>(std::time(nullptr)),
                 address,
                 false,
                 "",
                 {},
                 {}};
  std::string token;
  for (size_t i = 0; i < p.seat_names.size(); ++i) {
    SeatRecord s{static_cast<int>(i), seats.empty() ? "open" : seats[i], "", "", ""};
    if (static_cast<int>(i) == mine) {
      token = new_token();
      s.kind = "person", s.token_hash = token_hash(token), s.name = name;
    } else if (s.kind != "open") {
      std::string why;
      if (!agents::make_agent(s.kind, p, why)) throw Refused("bad_request", fmt::format("seat {}: {}", i, why));
      s.agent = s.kind, s.kind = "computer";
    }
    rec.seats.push_back(std::move(s));
  }
  store_.add_room(rec);
  auto r = std::make_shared<Room>(rec, loaded, store_);
  {
    std::lock_guard<std::mutex> hold(lock_);
    rooms_[rec.id] = r;
  }
  watch(conn, rec.id, token);
  reply(conn,
        Json{{"t", "created"}, {"ok", true}, {"room", rec.id}, {"seat", token.empty() ? -1 : mine}, {"token", token}});
  std::lock_guard<std::mutex> hold(r->lock());
  publish(*r);
  return r;
}

void Hub::on_join(int64_t conn, const Json& m) {
  auto r = room(m);
  const std::string token = optional_text(m, "token", 64);
  std::lock_guard<std::mutex> hold(r->lock());
  const int seat = r->seat_of(token);
  if (!token.empty() && seat < 0) throw Refused("not_your_seat", "this token holds no seat of this room");
  watch(conn, r->id(), token);
  reply(conn, Json{{"t", "joined"}, {"ok", true}, {"room", r->id()}, {"seat", seat}});
  Json v = r->view(seat);
  v["t"] = "view";
  reply(conn, v);
}

void Hub::on_sit(int64_t conn, const Json& m) {
  auto r = room(m);
  const int seat = int_field(m, "seat");
  const std::string name = optional_text(m, "name", lang::kMaxServeName);
  {
    std::lock_guard<std::mutex> hold(r->lock());
    const std::string token = r->sit(seat, name);
    watch(conn, r->id(), token);
    reply(conn, Json{{"t", "seated"}, {"ok", true}, {"room", r->id()}, {"seat", seat}, {"token", token}});
    publish(*r);
  }
  run_computers(r);
}

void Hub::on_move(int64_t conn, const Json& m) {
  auto r = room(m);
  const std::string move = optional_text(m, "move", 1024);
  const std::string token = token_of(conn, r->id());
  {
    std::lock_guard<std::mutex> hold(r->lock());
    r->play(token, move);
    reply(conn, Json{{"t", "moved"}, {"ok", true}, {"room", r->id()}, {"steps", r->record().steps.size()}});
    publish(*r);
  }
  run_computers(r);
}

void Hub::on_trace(int64_t conn, const Json& m) {
  auto r = room(m);
  std::lock_guard<std::mutex> hold(r->lock());
  reply(conn, Json{{"t", "trace"}, {"ok", true}, {"room", r->id()}, {"trace", r->trace()}});
  let_go_if_unwatched(*r);
}

}  // namespace keli::serve

namespace keli::serve {

// Text for a client with the server's folders taken out: "games/NAME.keli:40:3" says where,
// and the server's own paths are none of a client's business.
std::string Hub::for_client(std::string text) const {
  const std::string dir = (fs::path(games_dir_) / "").string();
  for (size_t at = text.find(dir); at != std::string::npos; at = text.find(dir, at))
    text.replace(at, dir.size(), "games/");
  return text;
}

void Hub::on_rules(int64_t conn, const Json& m) {
  auto r = room(m);
  std::lock_guard<std::mutex> hold(r->lock());
  reply(conn, Json{{"t", "rules"}, {"ok", true}, {"room", r->id()}, {"html", for_client(r->rules())}});
  let_go_if_unwatched(*r);
}

void Hub::on_why(int64_t conn, const Json& m) {
  auto r = room(m);
  const int site = int_field(m, "site");
  std::lock_guard<std::mutex> hold(r->lock());
  const rulebook::WhyNot w = r->why_not_at(site);
  Json failed = Json::array();
  for (const auto& f : w.failed)
    failed.push_back({{"rule", f.rule}, {"anchor", f.anchor}, {"message", for_client(f.message)}});
  reply(conn, Json{{"t", "why"},
                   {"ok", true},
                   {"room", r->id()},
                   {"site", site},
                   {"message", for_client(w.message)},
                   {"failed", failed}});
}

// A finished room's next game: the same game, options and computer players; the asker keeps its
// seat and the other people's seats wait open for them (their pages are told by the old room's
// view, which now names the new one). Asked twice, the room made first is the answer.
void Hub::on_rematch(int64_t conn, const Json& m) {
  auto old = room(m);
  const std::string token = token_of(conn, old->id());
  std::shared_ptr<Room> made;
  {
    // Held throughout, so that two players asking at once make one room. The new room's lock is
    // taken under it (make_room publishes), never the other way round: no one holds a room's lock
    // while waiting for an older room's.
    std::lock_guard<std::mutex> hold(old->lock());
    if (!old->finished()) throw Refused("bad_request", "a rematch follows a finished game");
    const int mine = old->seat_of(token);
    if (mine < 0) throw Refused("not_your_seat", "only a player of the room asks for its rematch");
    if (!old->rematch().empty()) {  // already made: joined like anyone (the seat waits open)
      auto next = room(Json{{"room", old->rematch()}});
      std::lock_guard<std::mutex> hold_next(next->lock());
      watch(conn, next->id(), "");
      reply(conn, Json{{"t", "joined"}, {"ok", true}, {"room", next->id()}, {"seat", -1}});
      Json v = next->view(-1);
      v["t"] = "view";
      reply(conn, v);
      return;
    }
    const RoomRecord& rec = old->record();
    std::vector<std::string> kinds;
    for (const auto& s : rec.seats) kinds.push_back(s.kind == "computer" ? s.agent : "open");
    made =
        make_room(conn, rec.game, Json::parse(rec.params), kinds, mine, rec.seats.at(static_cast<size_t>(mine)).name);
    old->set_rematch(made->id());
    publish(*old);
  }
  run_computers(made);
}

}  // namespace keli::serve
