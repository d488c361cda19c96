// A state's shared history (history.hpp), and what a state does with it: serialization as
// pyspiel's (one action id a line, replayed from the start), taking the last action back, the
// legal-action mask and the action of a text.
#include "api/history.hpp"

#include <fmt/format.h>

#include <charconv>

#include "api/game.hpp"

namespace keli::api {

// Drops a chain from its newest entry while no one else holds it: each step frees one entry
// whose `before` is then held only here, so no destructor recurses down the chain.
void History::release(std::shared_ptr<const Entry> p) noexcept {
  while (p && p.use_count() == 1) {
    std::shared_ptr<const Entry> before = p->before;
    p = std::move(before);
  }
}

History& History::operator=(const History& o) {
  if (this != &o) {
    auto old = std::move(last_);
    last_ = o.last_;
    size_ = o.size_;
    release(std::move(old));
  }
  return *this;
}

History& History::operator=(History&& o) noexcept {
  if (this != &o) {
    auto old = std::move(last_);
    last_ = std::move(o.last_);
    size_ = o.size_;
    o.size_ = 0;
    release(std::move(old));
  }
  return *this;
}

History::~History() { release(std::move(last_)); }

void History::push(int64_t action) {
  last_ = std::make_shared<const Entry>(Entry{action, std::move(last_)});
  ++size_;
}

std::vector<int64_t> History::list() const {
  std::vector<int64_t> out(size_);
  size_t i = size_;
  for (const Entry* e = last_.get(); e; e = e->before.get()) out[--i] = e->action;
  return out;
}

std::string State::serialize() const {
  std::string out;
  for (int64_t a : history_.list()) out += fmt::format("{}\n", a);
  return out;
}

State State::deserialize(std::shared_ptr<const Game> game, const std::string& text) {
  State s(std::move(game));
  size_t line = 0, at = 0;
  while (at < text.size()) {
    size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    std::string_view word(text.data() + at, end - at);
    ++line;
    at = end + 1;
    while (!word.empty() && (word.back() == '\r' || word.back() == ' ')) word.remove_suffix(1);
    if (word.empty()) continue;
    int64_t id = 0;
    auto [ptr, ec] = std::from_chars(word.data(), word.data() + word.size(), id);
    if (ec != std::errc() || ptr != word.data() + word.size())
      throw Game::input_error(
          fmt::format("line {} of the serialized state: '{}' is not an action id", line, word.substr(0, 80)),
          "a serialized state is one action id a line, as State.serialize() writes it");
    try {
      s.apply_action(id);
    } catch (const Error& e) {
      throw Error(fmt::format("line {} of the serialized state: {}", line, e.what()), e.code());
    }
  }
  return s;
}

void State::undo_last() {
  if (history_.empty()) throw Game::input_error("no action to take back: this is the start of the game");
  std::vector<int64_t> actions = history_.list();
  actions.pop_back();
  State replayed(game_);
  for (int64_t a : actions) replayed.apply_action(a);
  *this = std::move(replayed);
}

std::vector<int8_t> State::legal_actions_mask() const {
  const auto& space = game_->actions();
  std::vector<int8_t> mask(
      static_cast<size_t>(is_chance_node() ? space.max_chance_outcomes() : space.num_distinct_actions()), 0);
  for (int64_t id : legal_actions()) mask[static_cast<size_t>(id)] = 1;
  return mask;
}

int64_t State::string_to_action(const std::string& text) const {
  if (is_chance_node()) {
    for (const auto& o : chance_outcomes())
      if (action_to_string(o.id) == text) return o.id;
    throw Game::input_error(fmt::format("'{}' is no throw of the dice here", text),
                            "a throw reads as action_to_string prints it: roll 4 2");
  }
  return legal_move_read(text).first;
}

bool State::same_position(const State& o) const {
  // One game: the same object, or the same file loaded with the same parameters (a state that
  // went through pickle has a game loaded anew).
  bool same_game = game_ == o.game_ || (game_->file().path() == o.game_->file().path() &&
                                        game_->program().params == o.game_->program().params);
  return same_game && s_ == o.s_ && runtime::same_past(s_.past, o.s_.past);
}

size_t State::position_hash() const {
  // FNV-1a over the slots: equal states hash alike (same_position compares the same slots).
  uint64_t h = 1469598103934665603ull;
  for (int32_t v : s_) {
    h ^= static_cast<uint32_t>(v);
    h *= 1099511628211ull;
  }
  return static_cast<size_t>(h);
}

}  // namespace keli::api
