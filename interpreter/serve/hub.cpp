// The site's protocol (hub.hpp): one table of messages, each checked before it reaches a room;
// rooms made, watched, sat at and played in; every watcher told each step.
#include "serve/hub.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <filesystem>

#include "lang/limits.hpp"

namespace keli::serve {

namespace fs = std::filesystem;
using util::Json;

namespace {

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// A name of the library: letters, digits and underscores only, so that it can never be a path.
bool is_game_name(const std::string& s) {
  return !s.empty() && s.size() <= 64 && std::all_of(s.begin(), s.end(), [](unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
}

}  // namespace

std::string message_text(const Json& m) { return m.dump(-1, ' ', false, Json::error_handler_t::replace); }

void append_json_string(std::string& out, std::string_view s) {
  if (std::any_of(s.begin(), s.end(), [](unsigned char c) { return c >= 0x80; })) {
    out += message_text(Json(std::string(s)));  // UTF-8 checked (and mended) by the library
    return;
  }
  static constexpr char kHex[] = "0123456789abcdef";
  out.reserve(out.size() + s.size() + s.size() / 8 + 2);
  out += '"';
  for (const char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\', out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      out += "\\u00", out += kHex[c >> 4], out += kHex[c & 15];
    } else {
      out += c;
    }
  }
  out += '"';
}

const Hub::Message Hub::kMessages[] = {
    {"games", &Hub::on_games, "the games of the library a room may be made of"},
    {"lobby", &Hub::on_lobby, "the rooms with an open seat, and those being played"},
    {"create", &Hub::on_create, "a room: game, params, seats (person, open or computer with its agent)"},
    {"join", &Hub::on_join, "watch a room; with a token, hold its seat again"},
    {"sit", &Hub::on_sit, "take an open seat of the room watched: its token"},
    {"move", &Hub::on_move, "play a move as the game writes it, from the seat held"},
    {"trace", &Hub::on_trace, "the room's game so far as a trace"},
    {"rules", &Hub::on_rules, "the room's game's rules in words, as HTML"},
    {"why", &Hub::on_why, "why no move starts at a site now (a tapped piece or cell)"},
    {"rematch", &Hub::on_rematch, "a finished room's next game: same game, options and seats"},
};

Hub::Hub(std::string games_dir, Store& store, std::vector<std::string>* skipped)
    : games_dir_(std::move(games_dir)), store_(store), rooms_per_address_(lang::kMaxServeRoomsPerAddress) {
  for (auto& rec : store_.live_rooms()) {  // finished rooms are read when asked for (Hub::room)
    const std::string id = rec.id;
    try {
      auto game = load(rec.game, rec.params);
      rooms_[id] = std::make_shared<Room>(std::move(rec), game, store_);
    } catch (const std::exception& e) {
      if (skipped) skipped->push_back(fmt::format("room {}: {}", id, e.what()));
    }
  }
}

std::vector<std::string> Hub::games() const {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(games_dir_, ec))
    if (e.path().extension() == ".keli" && is_game_name(e.path().stem().string()))
      out.push_back(e.path().stem().string());
  std::sort(out.begin(), out.end());
  return out;
}

Json Hub::library() {
  std::lock_guard<std::mutex> hold(library_lock_);
  if (!library_.is_null()) return library_;
  library_ = Json::array();
  for (const auto& name : games()) {
    try {  // read with the interpreter: a listing compiles no native code
      auto g = api::Game::load((fs::path(games_dir_) / (name + ".keli")).string(), {}, runtime::EngineOptions{});
      library_.push_back({{"game", name}, {"title", g->program().game_name}, {"seats", g->program().seat_names}});
    } catch (const std::exception&) {  // a file that does not load is no game of the site
    }
  }
  return library_;
}

size_t Hub::rooms() const {
  std::lock_guard<std::mutex> hold(lock_);
  return rooms_.size();
}

std::shared_ptr<const api::Game> Hub::load(const std::string& game, const std::string& params_json) const {
  auto names = games();
  if (!is_game_name(game) || !std::binary_search(names.begin(), names.end(), game))
    throw Refused("bad_request", fmt::format("'{}' is no game of this server's library", game));
  compile::ParamSettings params;
  const Json p = Json::parse(params_json);
  for (const auto& [k, v] : p.items()) params.emplace_back(k, util::json_scalar_text(v, "the parameter " + k));
  try {
    return api::Game::load((fs::path(games_dir_) / (game + ".keli")).string(), params, runtime::default_engine());
  } catch (const api::Error& e) {
    throw Refused("bad_request", e.what());
  }
}

int64_t Hub::connect(const std::string& address, Send send) {
  std::lock_guard<std::mutex> hold(lock_);
  const int64_t id = next_conn_++;
  conns_[id] =
      Conn{id, address, std::move(send), "", "", static_cast<double>(lang::kMaxServeMessagesPerSecond), now_seconds()};
  return id;
}

void Hub::disconnect(int64_t conn) {
  std::lock_guard<std::mutex> hold(lock_);
  auto it = conns_.find(conn);
  if (it == conns_.end()) return;
  unwatch(it->second);
  conns_.erase(it);
}

void Hub::reply(int64_t conn, Json body) {
  Send send;
  {
    std::lock_guard<std::mutex> hold(lock_);
    auto it = conns_.find(conn);
    if (it == conns_.end()) return;
    send = it->second.send;
  }
  send(share(message_text(body)));
}

void Hub::handle(int64_t conn, const std::string& text) {
  {  // the flood limit: a bucket of kMaxServeMessagesPerSecond, refilled as time passes
    std::lock_guard<std::mutex> hold(lock_);
    auto it = conns_.find(conn);
    if (it == conns_.end()) return;
    Conn& c = it->second;
    const double t = now_seconds(), rate = lang::kMaxServeMessagesPerSecond;
    c.allowance = std::min(rate, c.allowance + (t - c.last) * rate);
    c.last = t;
    if (c.allowance < 1) {
      c.send(share(message_text(
          Json{{"t", "error"},
               {"ok", false},
               {"code", "flood"},
               {"error", fmt::format("more than {} messages a second: this one is not carried out", rate)}})));
      return;
    }
    c.allowance -= 1;
  }
  Json m;
  util::JsonError err;
  std::string name;
  try {
    if (static_cast<int64_t>(text.size()) > lang::kMaxServeMessage)
      throw Refused("bad_request", fmt::format("a message is at most {} bytes", lang::kMaxServeMessage));
    if (!util::parse_json(text, m, err))
      throw Refused("bad_request", fmt::format("not JSON: {} at {}:{}", err.message, err.line, err.col));
    if (!m.is_object() || !m.contains("t") || !m["t"].is_string())
      throw Refused("bad_request", "a message is an object with \"t\", what it asks");
    name = m["t"].get<std::string>();
    for (const auto& msg : kMessages)
      if (name == msg.name) return (this->*msg.run)(conn, m);
    std::vector<std::string> known;
    for (const auto& msg : kMessages) known.push_back(msg.name);
    throw Refused("bad_request", fmt::format("no message \"{}\": the messages are {}", name, fmt::join(known, ", ")));
  } catch (const Refused& e) {
    reply(conn, Json{{"t", "error"}, {"ok", false}, {"request", name}, {"code", e.code()}, {"error", e.what()}});
  } catch (const util::JsonFieldError& e) {
    reply(conn, Json{{"t", "error"}, {"ok", false}, {"request", name}, {"code", "bad_request"}, {"error", e.message}});
  } catch (const std::exception& e) {  // the database, or a fault of the rules: said, never a crash
    reply(conn, Json{{"t", "error"}, {"ok", false}, {"request", name}, {"code", "server"}, {"error", e.what()}});
  }
}

}  // namespace keli::serve
