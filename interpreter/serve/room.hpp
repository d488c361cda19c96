// One room of the game site: a game of the library with its options, its seats (people by token,
// computer players, open seats) and the referee. The server runs the engine; a move is refused
// when it is out of turn, for another seat, or not legal, and every step is stored as it is
// played (serve/store.hpp), so a room is rebuilt exactly from its records after a restart.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "api/game.hpp"
#include "render/step_view.hpp"
#include "serve/store.hpp"

namespace keli::serve {

// A request the referee refuses: what() says why in words, code() names the kind
// ("out_of_turn", "not_your_seat", "illegal", "seat_taken", "game_over", "bad_request").
class Refused : public std::runtime_error {
 public:
  Refused(std::string code, const std::string& why) : std::runtime_error(why), code_(std::move(code)) {}
  const std::string& code() const { return code_; }

 private:
  std::string code_;
};

// A new seat token: 128 bits from the operating system's random source, as 32 hex digits.
std::string new_token();
// What the store keeps of a token: its SHA-256, hex (a stolen database gives no seat away).
std::string token_hash(const std::string& token);

class Room {
 public:
  // The room of `record` (its steps replayed; a step that no longer applies is an error) on its
  // own engine. The store receives every step played from now on.
  Room(RoomRecord record, std::shared_ptr<const api::Game> game, Store& store);

  const std::string& id() const { return rec_.id; }
  const RoomRecord& record() const { return rec_; }
  std::mutex& lock() { return lock_; }  // held by the hub around every call below

  // Seat `seat` for a person named `name`: its token (known only to the caller). Refused when
  // it is not an open seat.
  std::string sit(int seat, const std::string& name);
  int seat_of(const std::string& token) const;  // the seat the token holds, or -1
  bool open_seats() const;
  bool finished() const { return state_.is_terminal(); }
  // The same, readable without the room's lock (the hub's listings and its letting go of rooms).
  bool over() const { return over_.load(); }

  // The person holding `token` plays `text` (the move as the game writes it, or as a call).
  void play(const std::string& token, const std::string& text);
  // Throws and computer players' moves until a person is to decide or the game ends: the number
  // of steps made. At most `max_steps` at once, so that the caller can send news in between.
  int advance(int max_steps);
  // Whether the next step is a computer's or a throw (advance has work to do).
  bool automatic() const;

  // The room as every client sees it: game, seats (no tokens), whose turn, the moves offered,
  // the history, the board's picture, the result. `seat` (or -1) is the viewer's own. The
  // history (and `by`) hold the steps from number `from` on ("history_from"): a client that has
  // the earlier ones appends, so that a step's news does not carry the whole game again.
  // Without `with_picture`, the view lacks "svg", which picture() gives (a caller that writes
  // the view's text itself puts it in).
  nlohmann::json view(int seat, size_t from = 0, bool with_picture = true) const;
  std::string picture() const;  // the board as SVG, the last step outlined
  // The game so far as a trace (docs/trace-format.md), which keli replay verifies.
  std::string trace() const;
  // The game's rules in words (html), as this room's options set them.
  std::string rules() const { return game_->rulebook("html"); }
  // Why no move starts at site number `site` now (a tapped piece or cell), in words.
  rulebook::WhyNot why_not_at(int site) const;

  // The room that replays this one (a rematch), once one was asked for; "" before.
  const std::string& rematch() const { return rec_.rematch; }
  void set_rematch(const std::string& next);

 private:
  // Stores the step, then makes `after` the room's state: a step the database refused (a full
  // disk) is not played either, so the room and its records never part.
  void keep_step(int64_t action, const std::string& text, int seat, api::State&& after);
  // The throw's values when `outcome` is thrown in the chance state `s`.
  std::vector<int32_t> throw_values(const api::State& s, int64_t outcome) const;
  // What the view keeps of the step from `before` (by `action`) to `after`: a throw's dice and
  // the state right after it; with `last`, the sites it changed and the pieces' ways.
  void note_step(const api::State& before, int64_t action, const api::State& after, bool last);
  RoomRecord rec_;
  std::shared_ptr<const api::Game> game_;
  Store& store_;
  api::State state_;
  std::vector<int32_t> last_throw_;    // the values of the last throw (the dice shown)
  runtime::State after_throw_;         // the state right after it (the dice then in hand)
  bool moved_ = false;                 // a move has been made since the last throw
  std::vector<int> changed_;           // the sites the last step changed (outlined on the board)
  std::vector<render::Slide> slides_;  // the pieces the last step moved, and their ways
  std::mutex lock_;
  std::atomic<bool> over_{false};  // state_.is_terminal(), set with it
};

}  // namespace keli::serve
