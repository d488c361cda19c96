// A room's referee (room.hpp): seats and tokens, moves checked by the engine, throws and computer
// players, each step stored as it is played; the view clients draw and the trace of the game.
#include "serve/room.hpp"

#include <fmt/format.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

#include <algorithm>
#include <sstream>

#include "agents/agent.hpp"
#include "render/svg.hpp"
#include "trace/trace.hpp"

namespace keli::serve {

using nlohmann::json;

namespace {

std::string hex(const unsigned char* p, size_t n) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < n; ++i) out += {kDigits[p[i] >> 4], kDigits[p[i] & 15]};
  return out;
}

// The room's throws and computer choices are drawn from a generator made from its id and the
// step's number: the same after a restart, different between rooms.
uint64_t step_seed(const std::string& room, size_t step) {
  uint64_t h = 1469598103934665603ULL;  // FNV-1a
  for (unsigned char c : room) h = (h ^ c) * 1099511628211ULL;
  return h ^ (static_cast<uint64_t>(step) * 0x9e3779b97f4a7c15ULL);
}

}  // namespace

std::string new_token() {
  unsigned char bytes[16];
  if (RAND_bytes(bytes, sizeof bytes) != 1) throw std::runtime_error("the system's random source failed");
  return hex(bytes, sizeof bytes);
}

std::string token_hash(const std::string& token) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (EVP_Digest(token.data(), token.size(), md, &len, EVP_sha256(), nullptr) != 1)
    throw std::runtime_error("SHA-256 failed");
  return hex(md, len);
}

Room::Room(RoomRecord record, std::shared_ptr<const api::Game> game, Store& store)
    : rec_(std::move(record)), game_(std::move(game)), store_(store), state_(game_) {
  for (size_t n = 0; n < rec_.steps.size(); ++n) {
    try {
      api::State next = state_;
      next.apply_action(rec_.steps[n].action);
      note_step(state_, rec_.steps[n].action, next, n + 1 == rec_.steps.size());
      state_ = std::move(next);
    } catch (const api::Error& e) {
      throw std::runtime_error(
          fmt::format("room {}: its step {} ({}) no longer applies: {}", rec_.id, n + 1, rec_.steps[n].text, e.what()));
    }
  }
  over_ = state_.is_terminal();
}

std::string Room::sit(int seat, const std::string& name) {
  if (seat < 0 || seat >= static_cast<int>(rec_.seats.size()))
    throw Refused("bad_request", fmt::format("this game has seats 0 to {}", rec_.seats.size() - 1));
  SeatRecord& s = rec_.seats[static_cast<size_t>(seat)];
  if (s.kind != "open") throw Refused("seat_taken", fmt::format("seat {} is taken", seat));
  std::string token = new_token();
  SeatRecord taken = s;
  taken.kind = "person", taken.token_hash = token_hash(token), taken.name = name;
  store_.set_seat(rec_.id, taken);  // stored first: a seat is never held that a restart would lose
  s = taken;
  return token;
}

int Room::seat_of(const std::string& token) const {
  if (token.empty()) return -1;
  const std::string h = token_hash(token);
  for (const auto& s : rec_.seats)
    if (s.kind == "person" && s.token_hash == h) return s.seat;
  return -1;
}

bool Room::open_seats() const {
  for (const auto& s : rec_.seats)
    if (s.kind == "open") return true;
  return false;
}

std::vector<int32_t> Room::throw_values(const api::State& s, int64_t outcome) const {
  return game_->runner().dice(s.slots()).outcomes.at(static_cast<size_t>(outcome)).values;
}

void Room::note_step(const api::State& before, int64_t action, const api::State& after, bool last) {
  if (before.is_chance_node()) {
    last_throw_ = throw_values(before, action);
    after_throw_ = after.slots();
    moved_ = false;
  } else {
    moved_ = true;
  }
  if (!last) return;
  const compile::Program& p = game_->program();
  changed_ = render::changed_sites(p, before.slots(), after.slots());
  slides_ = render::slides(p, render::first_track(game_->file().checked()), before.slots(), after.slots());
}

void Room::keep_step(int64_t action, const std::string& text, int seat, api::State&& after) {
  StepRecord step{action, text, seat};
  store_.add_step(rec_.id, static_cast<int64_t>(rec_.steps.size()), step);  // throws: nothing changed
  rec_.steps.push_back(std::move(step));
  note_step(state_, action, after, true);
  state_ = std::move(after);
  if (state_.is_terminal()) {  // a flag for the lobby's readers; the steps already say it
    rec_.finished = true, over_ = true;
    store_.set_finished(rec_.id);
  }
}

void Room::play(const std::string& token, const std::string& text) {
  const int seat = seat_of(token);
  if (seat < 0) throw Refused("not_your_seat", "this token holds no seat of this room");
  if (state_.is_terminal()) throw Refused("game_over", "the game is over");
  if (state_.is_chance_node() || state_.current_player() != seat)
    throw Refused("out_of_turn",
                  state_.is_chance_node()
                      ? std::string("the dice are to be thrown first")
                      : fmt::format("it is {}'s turn",
                                    game_->program().seat_names.at(static_cast<size_t>(state_.current_player()))));
  int64_t id = 0;
  try {
    id = state_.string_to_action(text);
  } catch (const api::Error& e) {
    throw Refused("illegal", e.what());
  }
  const std::string shown = state_.action_to_string(id);
  api::State next = state_;
  next.apply_action(id);
  keep_step(id, shown, seat, std::move(next));
}

bool Room::automatic() const {
  if (state_.is_terminal()) return false;
  if (state_.is_chance_node()) return true;
  return rec_.seats.at(static_cast<size_t>(state_.current_player())).kind == "computer";
}

int Room::advance(int max_steps) {
  int made = 0;
  for (; made < max_steps && automatic(); ++made) {
    runtime::Rng rng(step_seed(rec_.id, rec_.steps.size()));
    if (state_.is_chance_node()) {
      api::State next = state_;
      std::vector<int32_t> values = next.sample_throw(rng);
      const int64_t outcome = next.history().back();
      keep_step(outcome, game_->runner().roll_notation(values), -1, std::move(next));
      continue;
    }
    const int seat = state_.current_player();
    std::string why;
    auto agent = agents::make_agent(rec_.seats.at(static_cast<size_t>(seat)).agent, game_->program(), why);
    if (!agent) throw std::runtime_error(fmt::format("room {}: seat {}: {}", rec_.id, seat, why));
    auto legal = state_.legal_moves();
    std::vector<runtime::Move> moves;
    for (const auto& [id, m] : legal) moves.push_back(m);
    size_t k = agent->choose(game_->runner(), state_.slots(), moves, rng);
    const int64_t id = legal.at(k).first;
    const std::string shown = state_.action_to_string(id);
    api::State next = state_;
    next.apply_action(id);
    keep_step(id, shown, seat, std::move(next));
  }
  return made;
}

json Room::view(int seat, size_t from, bool with_picture) const {
  const compile::Program& p = game_->program();
  json seats = json::array();
  for (const auto& s : rec_.seats)
    seats.push_back({{"seat", s.seat},
                     {"name", p.seat_names.at(static_cast<size_t>(s.seat))},
                     {"kind", s.kind},
                     {"player", s.kind == "computer" ? s.agent : s.name}});
  json history = json::array(), by = json::array();
  from = std::min(from, rec_.steps.size());
  for (size_t n = from; n < rec_.steps.size(); ++n)
    history.push_back(rec_.steps[n].text), by.push_back(rec_.steps[n].seat);
  json out = {{"room", rec_.id},
              {"game", rec_.game},
              {"title", p.game_name},
              {"params", json::parse(rec_.params)},
              {"seats", seats},
              {"you", seat},
              {"ply", state_.ply()},
              {"steps", rec_.steps.size()},
              {"over", state_.is_terminal()},
              {"chance", state_.is_chance_node()},
              {"mover", state_.current_player()},
              {"history", history},
              {"history_from", from},
              {"by", by},  // who made each step: a seat, -1 a throw
              {"changed", changed_}};
  out["moves"] = json::array();
  out["choices"] = json::array();
  if (!state_.is_terminal() && !state_.is_chance_node()) {
    // One listing of the legal moves serves both lists (a view is made at every step).
    std::vector<runtime::Move> legal;
    for (const auto& [id, m] : state_.legal_moves()) {
      out["moves"].push_back(state_.action_to_string(id));
      legal.push_back(m);
    }
    // What the page offers: each move once (alike pieces read alike) with the sites a tap picks it by.
    runtime::Game& g = game_->runner();
    for (const auto& c : g.choices(state_.slots(), legal))
      out["choices"].push_back({{"text", c.text}, {"sites", render::move_sites(p, g, state_.slots(), c.move)}});
  }
  if (!last_throw_.empty())
    render::write_dice(out, render::shown_dice(p, last_throw_, after_throw_, state_.slots(), moved_));
  render::write_slides(out, slides_);
  if (state_.is_terminal()) out["places"] = state_.places();
  if (state_.is_terminal() && game_->scores_points()) out["points"] = game_->runner().points(state_.slots());
  if (!rec_.rematch.empty()) out["rematch"] = rec_.rematch;
  if (with_picture) out["svg"] = picture();
  return out;
}

std::string Room::picture() const {
  const compile::Program& p = game_->program();
  render::SvgOptions opt;
  opt.caption = rec_.steps.empty() ? "the start position" : "after " + rec_.steps.back().text;
  opt.highlight = changed_;
  opt.highlight_meaning = "changed by the last step";
  opt.piece_labels = render::piece_labels(game_->runner(), state_.slots());
  opt.first_track = render::first_track(game_->file().checked());
  return render::board_svg(p, state_.slots(), opt);
}

rulebook::WhyNot Room::why_not_at(int site) const {
  const compile::Program& p = game_->program();
  if (site < 0 || site >= p.num_sites)
    throw Refused("bad_request", fmt::format("this board has sites 0 to {}", p.num_sites - 1));
  return game_->why_not_at(state_.slots(), p.sites[static_cast<size_t>(site)].label);
}

void Room::set_rematch(const std::string& next) {
  store_.set_rematch(rec_.id, next);
  rec_.rematch = next;
}

std::string Room::trace() const {
  const compile::Program& p = game_->program();
  runtime::Game& g = game_->runner();
  std::ostringstream out;
  trace::Writer w(out, p);
  trace::Header h;
  h.game = p.game_name, h.file = game_->file().path();
  for (const auto& seat : rec_.seats) h.players.push_back(seat.kind == "computer" ? seat.agent : seat.kind);
  w.header(h);
  api::State st(game_);
  for (const auto& step : rec_.steps) {
    if (st.is_chance_node()) {
      const std::vector<int32_t> values = g.dice(st.slots()).outcomes.at(static_cast<size_t>(step.action)).values;
      st.apply_action(step.action);
      w.roll(g, values, st.slots());
      continue;
    }
    runtime::Move chosen;
    for (const auto& [id, m] : st.legal_moves())
      if (id == step.action) chosen = m;
    const int mover = st.current_player();
    const std::string notation = g.notation(st.slots(), chosen);
    st.apply_action(step.action);
    w.move(g, mover, chosen, notation, st.slots());
  }
  if (st.is_terminal()) w.result(g, st.slots());
  return out.str();
}

}  // namespace keli::serve
