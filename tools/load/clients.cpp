// keli_load's clients (load.hpp, Fleet): WebSocket connections to 127.0.0.1 on one thread. A
// person makes a room against computer players and plays a random move of those offered each time
// it is to move; the spectators of its group watch the room. Every move is timed from its send to
// the first view of its room that is past it (its echo), and every accepted move is logged for
// the database check.
// <utility> before Boost: 1.74's asio/awaitable.hpp uses std::exchange without including it.
#include <utility>
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <deque>
#include <nlohmann/json.hpp>
#include <random>

#include "load.hpp"

namespace keli_load {

namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace asio = boost::asio;
using tcp = asio::ip::tcp;

namespace {

constexpr size_t kFirstErrors = 10;  // the errors quoted in words in the report
constexpr double kStalledS = 10;     // a person that heard nothing for this long at the end has stalled

}  // namespace

class Client;

// A person's room and the spectators that follow it from game to game.
struct Group {
  int person = 0;
  std::vector<int> spectators;
  std::string room;
};

struct Fleet::Impl {
  Impl(const Options& opt, int port) : o(opt), work(asio::make_work_guard(ioc)) {
    at = tcp::endpoint(asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(port));
  }
  void error(int client, const std::string& what, const std::string& code);
  void moved_group(int group, const std::string& room);
  bool running() const { return phase == 1; }
  void pump_until(const std::function<bool()>& done, double limit_s);

  Options o;
  asio::io_context ioc;
  asio::executor_work_guard<asio::io_context::executor_type> work;
  tcp::endpoint at;
  std::vector<std::shared_ptr<Client>> clients;
  std::vector<Group> groups;
  Tally tally;
  int rooms_made = 0, spectators_seated = 0;
  int phase = 0;  // 0 setting up, 1 running (persons play), 2 finishing (no new moves), 3 closing
  Clock::time_point started;
};

class Client : public std::enable_shared_from_this<Client> {
 public:
  Client(Fleet::Impl& f, int index, int group, bool person)
      : f_(f), index_(index), group_(group), person_(person), ws_(f.ioc), pace_(f.ioc) {
    rng_.seed(f.o.seed * 1000003ULL + static_cast<uint64_t>(index));
  }

  void start() {
    beast::get_lowest_layer(ws_).expires_after(std::chrono::seconds(30));
    beast::get_lowest_layer(ws_).async_connect(f_.at,
                                               beast::bind_front_handler(&Client::on_connect, shared_from_this()));
  }
  // A spectator: watch the group's room, if it is not the one watched already.
  void follow() {
    const std::string& room = f_.groups[static_cast<size_t>(group_)].room;
    if (person_ || !open_ || room.empty() || room == room_) return;
    room_ = room;
    queue("join", nlohmann::json{{"t", "join"}, {"room", room}}.dump());
  }
  // A person, when the run begins: its first message waits a random part of the pacing interval,
  // so that the persons do not all move in the same millisecond.
  void begin() {
    std::uniform_real_distribution<double> part(0, 1);
    last_send_ = Clock::now() - std::chrono::duration_cast<Clock::duration>(
                                    std::chrono::duration<double>((1 - part(rng_)) / f_.o.rate));
    consider();
  }
  bool busy() const { return open_ && (!asked_.empty() || awaiting_echo_ || writing_); }
  bool stalled() const { return person_ && open_ && seconds_since(last_heard_) > kStalledS; }
  size_t unanswered() const { return asked_.size() + (awaiting_echo_ ? 1 : 0); }
  bool closed() const { return !open_; }
  void close() {
    pace_.cancel();
    if (!open_ || closing_) return;
    closing_ = true;
    if (!writing_) ws_.async_close(websocket::close_code::normal, [self = shared_from_this()](beast::error_code) {});
  }

 private:
  void on_connect(beast::error_code ec) {
    if (ec) return lost("connect: " + ec.message());
    beast::get_lowest_layer(ws_).expires_never();
    // As browsers do: a move is one small write that must not wait for the last one's ACK.
    beast::get_lowest_layer(ws_).socket().set_option(tcp::no_delay(true), ec);
    ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::client));
    ws_.async_handshake("127.0.0.1:" + std::to_string(f_.at.port()), "/ws",
                        beast::bind_front_handler(&Client::on_handshake, shared_from_this()));
  }
  void on_handshake(beast::error_code ec) {
    if (ec) return lost("handshake: " + ec.message());
    open_ = true;
    last_heard_ = Clock::now();
    read();
    if (person_)
      create();
    else
      follow();
  }
  void lost(const std::string& why) {
    const bool was_closing = closing_;
    open_ = false;
    pace_.cancel();
    if (!was_closing && f_.phase < 3) {
      ++f_.tally.lost_connections;
      f_.error(index_, why, "connection_lost");
    }
  }
  void read() { ws_.async_read(in_, beast::bind_front_handler(&Client::on_read, shared_from_this())); }
  void on_read(beast::error_code ec, size_t bytes) {
    if (ec) return lost("read: " + ec.message());
    const auto* data = static_cast<const char*>(in_.cdata().data());
    Message m;
    const bool ok = read_message(std::string_view(data, in_.size()), m);
    in_.consume(in_.size());
    f_.tally.bytes += static_cast<int64_t>(bytes);
    last_heard_ = Clock::now();
    if (!ok)
      f_.error(index_, "a message that is not a JSON object", "client_unreadable");
    else if (m.t == "view")
      on_view(m);
    else if (m.t == "error" && !m.has_request && !m.room.empty())
      f_.error(index_, m.error, m.code);  // news
    else
      on_answer(m);
    read();
  }

  void on_view(Message& m) {
    ++f_.tally.views;
    if (m.room != room_) return;  // a late view of a room left behind
    if (person_ && awaiting_echo_ && m.steps > echo_after_) {
      awaiting_echo_ = false;
      f_.tally.latencies.push_back({static_cast<float>(std::chrono::duration<double>(sent_at_ - f_.started).count()),
                                    ms_since_sent(Clock::now()), ms_since_sent(answered_at_)});
    }
    if (m.over && !over_counted_) {
      over_counted_ = true;
      if (person_) ++f_.tally.games_finished;
    }
    view_ = std::move(m);
    consider();
  }

  // The answer to the oldest message not yet answered (the server answers each, in order).
  void on_answer(const Message& m) {
    if (asked_.empty()) return f_.error(index_, "an answer (" + m.t + ") to no message", "client_unexpected");
    const std::string kind = asked_.front();
    asked_.pop_front();
    if (m.t == "error") {
      f_.error(index_, kind + ": " + m.error, m.code);
      if (kind == "move") {
        awaiting_echo_ = false;
        ++log().refused;
        moves_.pop_front();
        acted_steps_ = -1;  // the position is still to be played: choose again
      }
      if (kind == "create") creating_ = false, room_.clear();  // no room to play in: this person stops
    } else if (kind == "create" && m.t == "created") {
      created(m);
    } else if (kind == "join" && m.t == "joined") {
      if (f_.phase == 0) ++f_.spectators_seated;
    } else if (kind == "move" && m.t == "moved") {
      log().accepted.push_back(moves_.front());
      log().steps.push_back(m.steps - 1);
      answered_at_ = Clock::now();
      moves_.pop_front();
      ++f_.tally.moves_accepted;
    } else {
      f_.error(index_, "\"" + m.t + "\" in answer to \"" + kind + "\"", "client_unexpected");
    }
    consider();
  }

  void created(const Message& m) {
    creating_ = false;
    room_ = m.room, seat_ = static_cast<int>(m.seat);
    over_counted_ = false, acted_steps_ = -1;
    log_ = f_.tally.rooms.size();
    f_.tally.rooms.push_back(RoomLog{m.room, seat_, {}, {}, {}, 0});
    if (f_.phase == 0) ++f_.rooms_made;
    f_.moved_group(group_, m.room);
  }

  void create() {
    creating_ = true;
    nlohmann::json seats = nlohmann::json::array({"person"});
    seats.insert(seats.end(), static_cast<size_t>(f_.o.seats - 1), f_.o.opponent);
    queue("create", nlohmann::json{{"t", "create"}, {"game", f_.o.game}, {"seats", seats}}.dump());
  }

  // A person decides, when it is to move in its room and has nothing in flight: a random move of
  // those offered; when its game is over, a new room with the same seats.
  void consider() {
    if (!person_ || !f_.running() || closing_ || creating_ || !asked_.empty() || awaiting_echo_ || !out_.empty())
      return;
    if (view_.room != room_ || room_.empty()) return;
    if (view_.over) return create();
    if (view_.chance || view_.you != seat_ || view_.mover != seat_ || view_.moves.empty()) return;
    if (view_.steps <= acted_steps_) return;
    std::uniform_int_distribution<size_t> pick(0, view_.moves.size() - 1);
    const std::string move = view_.moves[pick(rng_)];
    acted_steps_ = echo_after_ = view_.steps;
    awaiting_echo_ = true;
    moves_.push_back(move);
    log().sent.push_back(move);
    ++f_.tally.moves_sent;
    queue("move", nlohmann::json{{"t", "move"}, {"room", room_}, {"move", move}}.dump());
  }

  RoomLog& log() { return f_.tally.rooms.at(log_); }
  float ms_since_sent(Clock::time_point t) const {
    return static_cast<float>(std::chrono::duration<double, std::milli>(t - sent_at_).count());
  }

  // Messages go out one at a time, at most `rate` a second: the server's flood limit is 20.
  void queue(const char* kind, std::string text) {
    asked_.push_back(kind);
    out_.push_back({kind, std::move(text)});
    pump();
  }
  void pump() {
    if (writing_ || out_.empty() || !open_ || closing_) return;
    const auto interval = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(1 / f_.o.rate));
    const auto when = last_send_ + interval;
    if (Clock::now() < when) {
      pace_.expires_at(when);
      pace_.async_wait([self = shared_from_this()](beast::error_code ec) {
        if (!ec) self->pump();
      });
      return;
    }
    writing_ = true;
    last_send_ = Clock::now();
    if (out_.front().first == std::string("move")) sent_at_ = last_send_;
    ws_.text(true);
    ws_.async_write(asio::buffer(out_.front().second),
                    beast::bind_front_handler(&Client::on_write, shared_from_this()));
  }
  void on_write(beast::error_code ec, size_t) {
    writing_ = false;
    if (ec) return lost("write: " + ec.message());
    out_.pop_front();
    if (closing_)
      return ws_.async_close(websocket::close_code::normal, [self = shared_from_this()](beast::error_code) {});
    pump();
  }

  Fleet::Impl& f_;
  const int index_, group_;
  const bool person_;
  websocket::stream<beast::tcp_stream> ws_;
  asio::steady_timer pace_;
  beast::flat_buffer in_;
  std::deque<std::pair<const char*, std::string>> out_;  // to send: kind and text
  std::deque<std::string> asked_;                        // sent or to send, not yet answered: kinds
  std::deque<std::string> moves_;                        // moves sent, not yet answered
  Clock::time_point last_send_{}, sent_at_{}, answered_at_{}, last_heard_{};
  bool open_ = false, closing_ = false, writing_ = false;
  std::string room_;  // the room watched
  int seat_ = -1;
  size_t log_ = 0;
  Message view_;
  int64_t acted_steps_ = -1, echo_after_ = 0;
  bool awaiting_echo_ = false, creating_ = false, over_counted_ = false;
  std::mt19937_64 rng_;
};

void Fleet::Impl::error(int client, const std::string& what, const std::string& code) {
  ++tally.errors[code.empty() ? "?" : code];
  if (tally.first_errors.size() < kFirstErrors)
    tally.first_errors.push_back("client " + std::to_string(client) + ": " + code + ": " + what.substr(0, 300));
}

void Fleet::Impl::moved_group(int group, const std::string& room) {
  Group& g = groups[static_cast<size_t>(group)];
  g.room = room;
  for (int s : g.spectators) clients[static_cast<size_t>(s)]->follow();
}

void Fleet::Impl::pump_until(const std::function<bool()>& done, double limit_s) {
  const auto t0 = Clock::now();
  while (!done() && seconds_since(t0) < limit_s) ioc.run_for(std::chrono::milliseconds(20));
}

Fleet::Fleet(const Options& o, int port) : impl_(std::make_unique<Impl>(o, port)) {
  Impl& f = *impl_;
  // Persons first (clients 0..rooms-1), then the spectators, dealt to the rooms in turn.
  f.groups.resize(static_cast<size_t>(o.rooms));
  for (int i = 0; i < o.clients; ++i) {
    const bool person = i < o.rooms;
    const int group = i % o.rooms;
    if (person)
      f.groups[static_cast<size_t>(group)].person = i;
    else
      f.groups[static_cast<size_t>(group)].spectators.push_back(i);
    f.clients.push_back(std::make_shared<Client>(f, i, group, person));
  }
}

Fleet::~Fleet() = default;

bool Fleet::setup(double limit_s, std::string& why) {
  Impl& f = *impl_;
  for (auto& c : f.clients) c->start();
  const int spectators = f.o.clients - f.o.rooms;
  f.pump_until([&] { return f.rooms_made >= f.o.rooms && f.spectators_seated >= spectators; }, limit_s);
  if (f.rooms_made < f.o.rooms || f.spectators_seated < spectators) {
    why = std::to_string(f.rooms_made) + " of " + std::to_string(f.o.rooms) + " rooms made and " +
          std::to_string(f.spectators_seated) + " of " + std::to_string(spectators) + " spectators seated in " +
          std::to_string(static_cast<int>(limit_s)) + " s";
    return false;
  }
  return true;
}

void Fleet::run(double seconds, double every_s, const std::function<void()>& tick) {
  Impl& f = *impl_;
  f.phase = 1;
  f.started = Clock::now();
  for (int i = 0; i < f.o.rooms; ++i) f.clients[static_cast<size_t>(i)]->begin();
  double next_tick = every_s;
  while (seconds_since(f.started) < seconds) {
    f.ioc.run_for(std::chrono::milliseconds(20));
    if (seconds_since(f.started) >= next_tick && next_tick < seconds) {
      tick();
      next_tick += every_s;
    }
  }
  for (const auto& c : f.clients) f.tally.stalled += c->stalled();
  f.phase = 2;
}

void Fleet::finish(double limit_s) {
  Impl& f = *impl_;
  f.pump_until([&] { return std::none_of(f.clients.begin(), f.clients.end(), [](auto& c) { return c->busy(); }); },
               limit_s);
  for (const auto& c : f.clients) f.tally.unanswered += static_cast<int64_t>(c->unanswered());
  f.phase = 3;
  for (auto& c : f.clients) c->close();
  f.pump_until([&] { return std::all_of(f.clients.begin(), f.clients.end(), [](auto& c) { return c->closed(); }); }, 3);
  f.ioc.stop();
}

const Tally& Fleet::tally() const { return impl_->tally; }
Clock::time_point Fleet::started() const { return impl_->started; }

}  // namespace keli_load
