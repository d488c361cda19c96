// The site's messages (Hub::kMessages): what each asks, checked field by field, and the news
// every watcher of a room is sent after each step.
#include <fmt/format.h>

#include <ctime>

#include "agents/agent.hpp"
#include "lang/limits.hpp"
#include "serve/hub.hpp"

namespace keli::serve {

using util::Json;

namespace {

// The most rooms the lobby lists (the newest first), and the steps of computers and throws made
// between two looks at the room's other messages.
constexpr size_t kLobbyRooms = 200;
constexpr int kStepsAtOnce = 1;

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
  std::lock_guard<std::mutex> hold(lock_);
  auto it = rooms_.find(m["room"].get<std::string>());
  if (it == rooms_.end()) throw Refused("no_room", "there is no such room");
  return it->second;
}

void Hub::watch(int64_t conn, const std::string& room, const std::string& token) {
  std::lock_guard<std::mutex> hold(lock_);
  auto it = conns_.find(conn);
  if (it == conns_.end()) return;
  if (!it->second.room.empty()) watchers_[it->second.room].erase(conn);
  it->second.room = room, it->second.token = token;
  watchers_[room].insert(conn);
}

std::vector<std::pair<Hub::Send, std::string>> Hub::watchers(const std::string& room) {
  std::lock_guard<std::mutex> hold(lock_);
  std::vector<std::pair<Send, std::string>> to;
  for (int64_t c : watchers_[room])
    if (auto it = conns_.find(c); it != conns_.end()) to.emplace_back(it->second.send, it->second.token);
  return to;
}

void Hub::publish(Room& r) {
  const auto to = watchers(r.id());
  std::map<int, std::string> views;  // one view a seat (and one for spectators, -1)
  for (const auto& [send, token] : to) {
    const int seat = r.seat_of(token);
    if (!views.count(seat)) {
      Json v = r.view(seat);
      v["t"] = "view";
      views[seat] = message_text(v);
    }
    send(views[seat]);
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
        const std::string text = message_text(
            Json{{"t", "error"}, {"ok", false}, {"code", "server"}, {"room", r->id()}, {"error", e.what()}});
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

void Hub::on_games(int64_t conn, const Json&) { reply(conn, Json{{"t", "games"}, {"ok", true}, {"games", games()}}); }

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
  std::string address;
  size_t mine = 0, all = 0;
  {
    std::lock_guard<std::mutex> hold(lock_);
    address = conns_.at(conn).address;
    all = rooms_.size();
    for (const auto& [id, r] : rooms_) mine += r->record().address == address;
  }
  if (all >= static_cast<size_t>(lang::kMaxServeRooms))
    throw Refused("limit", "this server holds as many rooms as it may");
  if (mine >= static_cast<size_t>(lang::kMaxServeRoomsPerAddress))
    throw Refused("limit", fmt::format("one address may make at most {} rooms", lang::kMaxServeRoomsPerAddress));
  auto loaded = load(game, params.dump());
  const compile::Program& p = loaded->program();
  RoomRecord rec{
      new_token().substr(0, 12), game, params.dump(), static_cast<int64_t>(std::time(nullptr)), address, false, {}, {}};
  const Json seats = m.contains("seats") ? m["seats"] : Json::array();
  if (!seats.is_array() || (!seats.empty() && seats.size() != p.seat_names.size()))
    throw Refused("bad_request", fmt::format("\"seats\" lists the {} seats: person, open, or a computer player's spec",
                                             p.seat_names.size()));
  std::string token;
  for (size_t i = 0; i < p.seat_names.size(); ++i) {
    std::string kind = seats.empty() ? (i == 0 ? "person" : "open") : util::json_text(seats[i], "a seat");
    SeatRecord s{static_cast<int>(i), kind, "", "", ""};
    if (kind == "person" && token.empty()) {  // the maker's seat (another "person" waits open)
      token = new_token();
      s.token_hash = token_hash(token), s.name = name;
    } else if (kind == "person") {
      s.kind = "open";
    } else if (kind != "open") {
      std::string why;
      if (!agents::make_agent(kind, p, why)) throw Refused("bad_request", fmt::format("seat {}: {}", i, why));
      s.kind = "computer", s.agent = kind;
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
        Json{{"t", "created"}, {"ok", true}, {"room", rec.id}, {"seat", token.empty() ? -1 : 0}, {"token", token}});
  {
    std::lock_guard<std::mutex> hold(r->lock());
    publish(*r);
  }
  run_computers(r);
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
  std::string token;
  {
    std::lock_guard<std::mutex> hold(lock_);
    const Conn& c = conns_.at(conn);
    if (c.room == r->id()) token = c.token;
  }
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
}

}  // namespace keli::serve
