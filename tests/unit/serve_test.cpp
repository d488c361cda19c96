// The game site's hub without a network (serve/hub.hpp): rooms made and joined, the referee's
// refusals, the flood limit, every step in SQLite and the rooms rebuilt after a restart, computer
// seats, and the trace of a finished game, which keli replay verifies.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>

#include "lang/limits.hpp"
#include "serve/hub.hpp"
#include "support.hpp"

using namespace keli;
using keli::test::source_path;
using util::Json;

namespace {

// What each connection has been sent, in order.
struct Inbox {
  std::map<int64_t, std::vector<Json>> got;
  serve::Hub::Send to(int64_t* conn) {
    return [this, conn](const serve::Hub::Text& text) { got[*conn].push_back(Json::parse(*text)); };
  }
  // The last message of kind `t` a connection received.
  Json last(int64_t conn, const std::string& t) const {
    const auto& all = got.at(conn);
    for (auto it = all.rbegin(); it != all.rend(); ++it)
      if ((*it)["t"] == t) return *it;
    return Json();
  }
};

struct Client {
  int64_t id = 0;
};

std::string temp_db(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / "keli-serve-test";
  std::filesystem::create_directories(dir);
  auto db = dir / name;
  for (const char* extra : {"", "-wal", "-shm"}) std::filesystem::remove(db.string() + extra);
  return db.string();
}

int64_t join(serve::Hub& hub, Inbox& in, Client& c, const std::string& address = "127.0.0.1") {
  c.id = hub.connect(address, in.to(&c.id));
  return c.id;
}

}  // namespace

TEST_CASE("keli serve's hub: rooms, the referee's refusals, and a restart that loses nothing", "[serve]") {
  const std::string db = temp_db("rooms.sqlite");
  const std::string games = source_path("games");
  std::string room, token;
  int64_t steps_before = 0;
  {
    serve::Store store(db);
    serve::Hub hub(games, store);
    Inbox in;
    Client a, b, c;
    join(hub, in, a), join(hub, in, b), join(hub, in, c);
    hub.handle(a.id, R"({"t":"create","game":"raja_pasu","seats":["person","open"],"name":"Ann"})");
    Json made = in.last(a.id, "created");
    REQUIRE(made["ok"] == true);
    room = made["room"], token = made["token"];
    CHECK(token.size() == 32);
    CHECK(in.last(a.id, "view")["moves"].size() == 7);  // South's seven holes

    hub.handle(b.id, Json{{"t", "join"}, {"room", room}}.dump());
    CHECK(in.last(b.id, "joined")["seat"] == -1);
    hub.handle(b.id, Json{{"t", "sit"}, {"room", room}, {"seat", 1}, {"name", "Bo"}}.dump());
    CHECK(in.last(b.id, "seated")["seat"] == 1);
    hub.handle(c.id, Json{{"t", "sit"}, {"room", room}, {"seat", 1}}.dump());
    CHECK(in.last(c.id, "error")["code"] == "seat_taken");

    // North (b) out of turn; South (a) an illegal move; a spectator (c); then South's move.
    hub.handle(b.id, Json{{"t", "move"}, {"room", room}, {"move", "sow hole 1 (7)"}}.dump());
    CHECK(in.last(b.id, "error")["code"] == "out_of_turn");
    hub.handle(a.id, Json{{"t", "move"}, {"room", room}, {"move", "sow hole 9 (7)"}}.dump());
    CHECK(in.last(a.id, "error")["code"] == "illegal");
    hub.handle(c.id, Json{{"t", "join"}, {"room", room}}.dump());
    hub.handle(c.id, Json{{"t", "move"}, {"room", room}, {"move", "sow hole 1 (7)"}}.dump());
    CHECK(in.last(c.id, "error")["code"] == "not_your_seat");
    hub.handle(a.id, Json{{"t", "move"}, {"room", room}, {"move", "sow hole 1 (7)"}}.dump());
    REQUIRE(in.last(a.id, "moved")["ok"] == true);
    Json seen = in.last(c.id, "view");  // the spectator is told too
    CHECK(seen["history"].size() == 1);
    CHECK(seen["you"] == -1);
    CHECK(in.last(b.id, "view")["you"] == 1);
    steps_before = in.last(a.id, "view")["steps"];

    // Bad messages: each an error reply, the room unchanged.
    for (const char* bad : {"not json", "[1,2]", R"({"t":"fly"})", R"({"t":"move","room":7})", "{\"t\":\"\xff\xfe\"}",
                            "\"\xc3\x28\"", R"({"t":"move","room":"x","move":"\ud800"})",
                            R"({"t":"create","game":"../etc/passwd"})", R"({"t":"sit","room":"nope","seat":0})"}) {
      INFO(bad);
      hub.handle(c.id, bad);
      CHECK(in.got[c.id].back()["ok"] == false);
    }
    CHECK(in.last(c.id, "error")["code"] == "no_room");
  }
  // The server restarts: the room is rebuilt from its steps and South's token holds its seat.
  serve::Store store(db);
  serve::Hub hub(games, store);
  CHECK(hub.rooms() == 1);
  Inbox in;
  Client a, b;
  join(hub, in, a), join(hub, in, b);
  hub.handle(a.id, Json{{"t", "join"}, {"room", room}, {"token", token}}.dump());
  CHECK(in.last(a.id, "joined")["seat"] == 0);
  CHECK(in.last(a.id, "view")["steps"] == steps_before);
  hub.handle(b.id, Json{{"t", "join"}, {"room", room}, {"token", "0123456789abcdef0123456789abcdef"}}.dump());
  CHECK(in.last(b.id, "error")["code"] == "not_your_seat");
  CHECK(store.rooms().at(0).steps.size() == static_cast<size_t>(steps_before));
}

TEST_CASE("keli serve's hub: computer seats play, the game ends and its trace replays", "[serve]") {
  const std::string db = temp_db("computers.sqlite");
  serve::Store store(db);
  serve::Hub hub(source_path("games"), store);
  Inbox in;
  Client a;
  join(hub, in, a);
  hub.handle(a.id, R"({"t":"create","game":"kalah","params":{"seeds":3},"seats":["random","random"]})");
  Json made = in.last(a.id, "created");
  REQUIRE(made["ok"] == true);
  CHECK(made["token"] == "");
  Json end = in.last(a.id, "view");
  CHECK(end["over"] == true);
  CHECK(end["places"].size() == 2);
  CHECK(store.rooms().at(0).finished);
  hub.handle(a.id, R"({"t":"lobby"})");
  CHECK(in.last(a.id, "lobby")["open"].empty());  // a finished game is no longer listed
  hub.handle(a.id, Json{{"t", "trace"}, {"room", made["room"]}}.dump());
  const std::string trace = in.last(a.id, "trace")["trace"];
  auto path = std::filesystem::temp_directory_path() / "keli-serve-test" / "kalah.jsonl";
  std::ofstream(path) << trace;
  auto r = keli::test::keli({"replay", path.string()});
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  // A computer seat that is no player, and a parameter out of range: refused, no room made.
  hub.handle(a.id, R"({"t":"create","game":"kalah","seats":["person","chess_engine"]})");
  CHECK(in.last(a.id, "error")["code"] == "bad_request");
  hub.handle(a.id, R"({"t":"create","game":"kalah","params":{"seeds":-4}})");
  CHECK(in.last(a.id, "error")["code"] == "bad_request");
  CHECK(hub.rooms() == 1);
}

TEST_CASE("keli serve's hub: a flood is refused, and one address makes a bounded number of rooms", "[serve]") {
  serve::Store store(":memory:");
  serve::Hub hub(source_path("games"), store);
  Inbox in;
  Client a;
  join(hub, in, a, "10.0.0.9");
  for (int i = 0; i < 3 * lang::kMaxServeMessagesPerSecond; ++i) hub.handle(a.id, R"({"t":"games"})");
  int refused = 0;
  for (const auto& m : in.got[a.id]) refused += m["t"] == "error" && m["code"] == "flood";
  // At most a burst's worth, and what time refilled meanwhile, was carried out (a slow machine
  // refills more: only a few are sure to be refused).
  CHECK(refused > 0);
  CHECK(static_cast<int>(in.got[a.id].size()) - refused < 3 * lang::kMaxServeMessagesPerSecond);
  CHECK(in.last(a.id, "games")["games"].size() == keli::test::game_files().size());
  // Rooms from one address, each after a pause that refills the allowance.
  int made = 0;
  for (int i = 0; i <= lang::kMaxServeRoomsPerAddress; ++i) {
    Client c;
    join(hub, in, c, "10.0.0.9");
    hub.handle(c.id, R"({"t":"create","game":"kalah"})");
    made += in.got[c.id].front()["t"] == "created";
  }
  CHECK(made == lang::kMaxServeRoomsPerAddress);
  CHECK(in.got.rbegin()->second.back()["code"] == "limit");
}

TEST_CASE("keli serve's hub: what the page draws, why not, the rules, and a rematch", "[serve]") {
  serve::Store store(":memory:");
  serve::Hub hub(source_path("games"), store);
  Inbox in;
  Client a, b;
  join(hub, in, a), join(hub, in, b);
  hub.handle(a.id, R"({"t":"games"})");
  bool kalah_listed = false;
  const Json listed = in.last(a.id, "games");
  for (const auto& g : listed["library"])
    kalah_listed = kalah_listed || (g["game"] == "kalah" && g["seats"].size() == 2);
  CHECK(kalah_listed);
  hub.handle(a.id, R"({"t":"create","game":"kalah","params":{"seeds":2},"seats":["person","random"],"name":"Ann"})");
  const std::string room = in.last(a.id, "created")["room"];
  hub.handle(b.id, Json{{"t", "join"}, {"room", room}}.dump());
  Json v = in.last(a.id, "view");
  REQUIRE(v["choices"].size() == 6);  // each with the site a tap picks it by
  CHECK(v["choices"][0]["sites"].size() == 1);
  // A tap on North's side (sites past South's store) at South's turn: why nothing starts there.
  hub.handle(a.id, Json{{"t", "why"}, {"room", room}, {"site", 10}}.dump());
  Json why = in.last(a.id, "why");
  CHECK(why["ok"] == true);
  CHECK(!why["message"].get<std::string>().empty());
  CHECK(why["message"].get<std::string>().find(source_path("games")) == std::string::npos);  // no server path
  hub.handle(a.id, Json{{"t", "why"}, {"room", room}, {"site", 999}}.dump());
  CHECK(in.last(a.id, "error")["code"] == "bad_request");
  hub.handle(a.id, Json{{"t", "rules"}, {"room", room}}.dump());
  CHECK(in.last(a.id, "rules")["html"].get<std::string>().find("<h") != std::string::npos);
  hub.handle(a.id, Json{{"t", "rematch"}, {"room", room}}.dump());
  CHECK(in.last(a.id, "error")["code"] == "bad_request");  // the game is not over
  for (int guard = 0; guard < 200 && !in.last(a.id, "view")["over"].get<bool>(); ++guard) {
    v = in.last(a.id, "view");
    hub.handle(a.id, Json{{"t", "move"}, {"room", room}, {"move", v["choices"][0]["text"]}}.dump());
  }
  v = in.last(a.id, "view");
  REQUIRE(v["over"] == true);
  CHECK(v["by"].size() == v["history"].size());
  // A step's news carries the last steps only; a join, the whole game.
  CHECK(v["history_from"].get<size_t>() + v["history"].size() == v["steps"].get<size_t>());
  CHECK(v["history"].size() <= 8);
  hub.handle(b.id, Json{{"t", "join"}, {"room", room}}.dump());
  const Json whole = in.last(b.id, "view");
  CHECK(whole["history_from"] == 0);
  CHECK(whole["history"].size() == whole["steps"].get<size_t>());
  CHECK(whole["by"][0] == 0);  // South moved first
  hub.handle(b.id, Json{{"t", "rematch"}, {"room", room}}.dump());
  CHECK(in.last(b.id, "error")["code"] == "not_your_seat");  // a spectator asks for none
  hub.handle(a.id, Json{{"t", "rematch"}, {"room", room}}.dump());
  Json again = in.last(a.id, "created");
  CHECK(again["seat"] == 0);
  CHECK(again["room"] != room);
  CHECK(in.last(b.id, "view")["rematch"] == again["room"]);  // the old room's watchers are told
  CHECK(store.rooms().front().rematch == again["room"]);
  CHECK(in.last(a.id, "view")["seats"][1]["kind"] == "computer");
}

TEST_CASE("keli serve's hub: rooms being played count against an address, finished ones do not", "[serve]") {
  serve::Store store(":memory:");
  serve::Hub hub(source_path("games"), store);
  hub.set_rooms_per_address(1);
  Inbox in;
  Client a;
  join(hub, in, a, "10.0.0.7");
  for (int i = 0; i < 3; ++i) {  // computer players finish each game at once
    hub.handle(a.id, R"({"t":"create","game":"kalah","params":{"seeds":2},"seats":["random","random"]})");
    CHECK(in.got[a.id].back()["t"] == "view");
  }
  hub.handle(a.id, R"({"t":"create","game":"kalah"})");
  CHECK(in.last(a.id, "created")["ok"] == true);
  hub.handle(a.id, R"({"t":"create","game":"kalah"})");
  CHECK(in.got[a.id].back()["code"] == "limit");
}

TEST_CASE("keli serve's hub: a finished room no one watches is let go of, and read back when asked", "[serve]") {
  const std::string db = temp_db("let_go.sqlite");
  std::string first;
  size_t steps = 0;
  {
    serve::Store store(db);
    serve::Hub hub(source_path("games"), store);
    Inbox in;
    Client a;
    join(hub, in, a);
    hub.handle(a.id, R"({"t":"create","game":"kalah","params":{"seeds":2},"seats":["random","random"]})");
    first = in.last(a.id, "created")["room"];
    steps = in.last(a.id, "view")["steps"];
    REQUIRE(in.last(a.id, "view")["over"] == true);
    CHECK(hub.rooms() == 1);  // finished, but watched
    hub.handle(a.id, R"({"t":"create","game":"kalah","seats":["person","random"]})");
    CHECK(hub.rooms() == 1);  // a left it for a new room: only the game being played is held
    hub.handle(a.id, Json{{"t", "join"}, {"room", first}}.dump());
    const Json back = in.last(a.id, "view");
    CHECK(back["room"] == first);
    CHECK(back["over"] == true);
    CHECK(back["history_from"] == 0);
    CHECK(back["history"].size() == steps);
    CHECK(hub.rooms() == 2);  // read back, and watched again
    hub.handle(a.id, Json{{"t", "join"}, {"room", "0123456789ab"}}.dump());
    CHECK(in.last(a.id, "error")["code"] == "no_room");
    hub.handle(a.id, Json{{"t", "join"}, {"room", std::string(5000, 'a')}}.dump());
    CHECK(in.last(a.id, "error")["code"] == "no_room");
  }
  serve::Store store(db);  // a restart holds the room being played, not the finished one
  serve::Hub hub(source_path("games"), store);
  CHECK(hub.rooms() == 1);
  Inbox in;
  Client b;
  join(hub, in, b);
  hub.handle(b.id, Json{{"t", "trace"}, {"room", first}}.dump());
  CHECK(in.last(b.id, "trace")["ok"] == true);
  CHECK(hub.rooms() == 1);  // read for its trace, then let go of again
  hub.handle(b.id, Json{{"t", "join"}, {"room", first}}.dump());
  CHECK(in.last(b.id, "view")["history"].size() == steps);
}

TEST_CASE("keli serve's hub: a view's picture is written as the JSON library would write it", "[serve]") {
  const std::vector<std::string> texts = {
      "<svg width=\"10\"><text>a \\ b</text></svg>",
      std::string("tab\there, nul \0 end", 19),
      "",
      "\x7f",
      "S\xc3\xa9gou",   // UTF-8: the library's way
      "bad \xff byte",  // not UTF-8: mended, never a message a browser cannot read
  };
  for (const auto& t : texts) {
    std::string out;
    serve::append_json_string(out, t);
    INFO(out);
    CHECK(Json::parse(out) == Json::parse(serve::message_text(Json(t))));
  }
}
