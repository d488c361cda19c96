// Games and states for programs: loading with parameters, stepping by action id, notation or
// throw, each failure an Error carrying Keli's positioned message.
#include "api/game.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "render/text.hpp"
#include "rulebook/rulebook.hpp"
#include "trace/state_json.hpp"

namespace keli::api {

namespace {
// Every error of `d` rendered, one after another; the code of the first.
Error diagnostics_error(const GameFile& f, const diag::Diagnostics& d, const std::string& path) {
  std::string text, code;
  for (const auto& x : d.all()) {
    if (diag::info(x.code).severity != diag::Severity::Error) continue;
    std::string one = diag::render(f.sources(), x);
    if (!x.span.valid()) one = path + ": " + one.substr(one.find(' ') + 1);
    text += one;
    if (code.empty()) code = diag::info(x.code).code;
  }
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return Error(text, code);
}
}  // namespace

std::shared_ptr<Game> Game::load(const std::string& path, const compile::ParamSettings& params,
                                 const runtime::EngineOptions& engine) {
  auto file = GameFile::open(path);
  if (!file->ok()) throw diagnostics_error(*file, file->diagnostics(), path);
  diag::Diagnostics d;
  auto program = file->compile(params, d);
  if (!program) throw diagnostics_error(*file, d, path);
  return std::make_shared<Game>(std::move(file), std::move(program), engine);
}

Game::Game(std::unique_ptr<GameFile> file, std::shared_ptr<const compile::Program> program,
           const runtime::EngineOptions& engine)
    : file_(std::move(file)), program_(std::move(program)), options_(engine), actions_(space()) {
  try {
    game_ = std::make_unique<runtime::Game>(program_, engine);
  } catch (const diag::Error& e) {
    throw error(e);
  } catch (const runtime::NativeUnavailable& e) {
    const char* code = diag::info(diag::Code::native_unavailable).code;
    throw Error(fmt::format("{}: error: the native engine cannot run here: {} [{}]\n  hint: use the engine "
                            "\"interp\", or \"auto\" (the interpreter where the native engine cannot run)",
                            file_->path(), e.what(), code),
                code);
  }
  observer_ = std::make_unique<runtime::Observer>(*game_);
}

runtime::ActionSpace Game::space() const {
  try {
    return runtime::ActionSpace(*program_);
  } catch (const diag::Error& e) {
    throw error(e);
  }
}

Error Game::error(const diag::Error& e) const {
  std::string text = diag::render(file_->sources(), {e.code, e.span, e.message, e.hint});
  if (!e.span.valid()) text = file_->path() + ": " + text.substr(text.find(' ') + 1);
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return Error(text, diag::info(e.code).code);
}

Error Game::input_error(const std::string& message, const std::string& hint) {
  const char* code = diag::info(diag::Code::bad_step).code;
  return Error(fmt::format("error: {} [{}]{}", message, code, hint.empty() ? "" : "\n  hint: " + hint), code);
}

State::State(std::shared_ptr<const Game> game) : game_(std::move(game)) {
  try {
    s_ = game_->runner().initial();
  } catch (const diag::Error& e) {
    throw game_->error(e);
  }
}

std::vector<int32_t> State::observation() const { return {s_.begin(), s_.begin() + game_->program().visible_size}; }

void State::observation_tensor(int seat, float* out) const {
  if (seat < 0 || seat >= game_->program().num_players)
    throw Game::input_error(fmt::format("no seat {}: the seats are 0 to {}", seat, game_->program().num_players - 1));
  game_->observer().write(s_.data(), seat, out);
}

bool State::is_terminal() const { return game_->runner().over(s_); }
bool State::is_chance_node() const { return game_->runner().chance(s_); }
bool State::ended_by_limit() const { return game_->runner().ended_by_limit(s_); }
int State::ply() const { return game_->runner().ply(s_); }
int State::moves() const { return game_->runner().moves(s_); }

int State::current_player() const {
  if (is_terminal()) return kTerminalPlayer;
  if (is_chance_node()) return kChancePlayer;
  return game_->runner().mover(s_);
}

void State::need_decision(const char* what) const {
  if (is_terminal()) throw Game::input_error(fmt::format("the game is over: no {}", what));
  if (is_chance_node())
    throw Game::input_error(fmt::format("the dice are to be thrown: no {} here", what),
                            "apply a chance outcome (its id) or a throw");
}

void State::need_chance(const char* what) const {
  if (is_terminal()) throw Game::input_error(fmt::format("the game is over: no {}", what));
  if (!is_chance_node())
    throw Game::input_error(fmt::format("{} decides here: no {}", game_->program().seat_names[current_player()], what),
                            "apply a legal move");
}

std::vector<std::pair<int64_t, runtime::Move>> State::legal_moves() const {
  if (is_terminal() || is_chance_node()) return {};
  std::vector<runtime::Move> legal;
  std::vector<std::pair<int64_t, runtime::Move>> out;
  try {
    game_->runner().legal(s_, legal);
    for (const auto& m : legal) out.emplace_back(game_->actions().id(m), m);
  } catch (const diag::Error& e) {
    throw game_->error(e);
  }
  return out;
}

std::vector<ChanceOutcome> State::chance_outcomes() const {
  if (!is_chance_node()) return {};
  const compile::DiceSet& d = game_->runner().dice(s_);
  std::vector<ChanceOutcome> out;
  for (size_t i = 0; i < d.outcomes.size(); ++i)
    out.push_back({static_cast<int64_t>(i), d.outcomes[i].weight, d.total});
  return out;
}

std::vector<int64_t> State::legal_actions() const {
  std::vector<int64_t> out;
  if (is_chance_node()) {
    for (const auto& o : chance_outcomes()) out.push_back(o.id);
    return out;
  }
  for (const auto& [id, m] : legal_moves()) out.push_back(id);
  std::sort(out.begin(), out.end());
  return out;
}

std::string State::action_to_string(int64_t id) const {
  runtime::Game& g = game_->runner();
  if (is_chance_node()) {
    const compile::DiceSet& d = g.dice(s_);
    if (id < 0 || id >= static_cast<int64_t>(d.outcomes.size()))
      throw Game::input_error(
          fmt::format("{} is no outcome of the dice '{}' (0 to {})", id, d.name, d.outcomes.size() - 1));
    return g.roll_notation(d.outcomes[id].values);
  }
  runtime::Move m;
  if (!game_->actions().move(id, m))
    throw Game::input_error(
        fmt::format("{} is no action id of this game (0 to {})", id, game_->actions().num_distinct_actions() - 1));
  return g.notation(s_, m);
}

std::string State::action_to_call(int64_t id) const {
  runtime::Move m;
  if (is_chance_node() || !game_->actions().move(id, m)) return action_to_string(id);
  return game_->runner().call_text(m);
}

template <typename F>
void State::step(int64_t action, F&& f) {
  runtime::State next = s_;
  runtime::Game& g = game_->runner();
  try {
    f(g, next);
  } catch (const diag::Error& e) {
    throw game_->error(e);
  }
  s_ = std::move(next);
  history_.push(action);
  notes_.clear();
  for (int n : g.notes()) notes_.push_back(game_->program().notes[n]);
}

void State::apply_outcome(int64_t id) {
  need_chance("throw");
  const compile::DiceSet& d = game_->runner().dice(s_);
  if (id < 0 || id >= static_cast<int64_t>(d.outcomes.size()))
    throw Game::input_error(
        fmt::format("{} is no outcome of the dice '{}' (0 to {})", id, d.name, d.outcomes.size() - 1));
  std::vector<int32_t> values = d.outcomes[id].values;
  step(id, [&](runtime::Game& g, runtime::State& s) { g.apply_roll(s, values); });
}

void State::apply_action(int64_t id) {
  if (is_chance_node()) return apply_outcome(id);
  need_decision("move");
  for (const auto& [legal_id, m] : legal_moves())
    if (legal_id == id) {
      runtime::Move chosen = m;
      step(id, [&](runtime::Game& g, runtime::State& s) { g.apply(s, chosen); });
      return;
    }
  runtime::Move m;
  std::string what = game_->actions().move(id, m) ? fmt::format("'{}' (action {})", game_->runner().call_text(m), id)
                                                  : fmt::format("{} (no action id of this game)", id);
  throw Game::input_error(fmt::format("the move {} is not legal here", what), legal_hint());
}

std::pair<int64_t, runtime::Move> State::legal_move_read(const std::string& text) const {
  need_decision("move");
  for (const auto& [id, m] : legal_moves())
    if (game_->runner().notation(s_, m) == text || game_->runner().call_text(m) == text) return {id, m};
  throw Game::input_error(fmt::format("the move '{}' is not legal here", text), legal_hint());
}

void State::apply_text(const std::string& notation) {
  // Named members, not a structured binding: clang 14 does not let a lambda capture a binding.
  const std::pair<int64_t, runtime::Move> read = legal_move_read(notation);
  const runtime::Move& chosen = read.second;
  step(read.first, [&](runtime::Game& g, runtime::State& s) { g.apply(s, chosen); });
}

std::string State::legal_hint() const {
  constexpr size_t kShown = 12;  // enough to see what is meant; the rest are counted
  std::vector<std::string> names;
  auto legal = legal_moves();
  for (size_t i = 0; i < legal.size() && i < kShown; ++i)
    names.push_back(fmt::format("{} ({})", game_->runner().notation(s_, legal[i].second), legal[i].first));
  if (legal.size() > kShown) names.push_back(fmt::format("and {} more", legal.size() - kShown));
  return fmt::format("legal (action id in brackets): {}", fmt::join(names, ", "));
}

void State::apply_throw(const std::vector<int32_t>& values) {
  need_chance("throw");
  const compile::DiceSet& d = game_->runner().dice(s_);
  int64_t id = runtime::ActionSpace::outcome_id(d, values);
  if (id < 0)
    throw Game::input_error(
        fmt::format("the throw {} is not possible with the dice '{}'", game_->runner().roll_notation(values), d.name),
        fmt::format("{} dice{}", d.faces.size(), d.identical ? ", alike" : ""));
  apply_outcome(id);
}

std::vector<int32_t> State::sample_throw(runtime::Rng& rng) {
  need_chance("throw");
  std::vector<int32_t> values = game_->runner().sample_roll(s_, rng);
  step(runtime::ActionSpace::outcome_id(game_->runner().dice(s_), values),
       [&](runtime::Game& g, runtime::State& s) { g.apply_roll(s, values); });
  return values;
}

int64_t State::Undo::bytes() const {
  int64_t n =
      static_cast<int64_t>(sizeof(Undo) + slots.capacity() * sizeof(slots[0])) + History::kEntryBytes + step_past_bytes;
  for (const auto& t : notes) n += static_cast<int64_t>(sizeof(t) + t.capacity());
  return n;
}

State::Undo State::undo_to(const State& before) const {
  Undo u;
  const runtime::State& b = before.s_;
  for (size_t i = 0; i < s_.size(); ++i)
    if (s_[i] != b[i]) u.slots.emplace_back(static_cast<int32_t>(i), b[i]);
  u.slots.shrink_to_fit();
  u.notes = before.notes_;
  u.history = before.history_;
  u.past = b.past;
  if (s_.past != b.past) u.step_past_bytes = runtime::link_bytes(s_.past);
  return u;
}

void State::take_back(const Undo& u) {
  for (const auto& [i, v] : u.slots) s_[static_cast<size_t>(i)] = v;
  notes_ = u.notes;
  history_ = u.history;
  s_.past = u.past;
}

int64_t State::bytes() const {
  int64_t n = static_cast<int64_t>(sizeof(State) + s_.capacity() * sizeof(int32_t));
  for (const auto& t : notes_) n += static_cast<int64_t>(sizeof(t) + t.capacity());
  return n;
}

std::vector<int> State::places() const { return game_->runner().places(s_); }
std::vector<int> State::points() const { return game_->runner().points(s_); }
std::vector<double> State::returns() const { return runtime::returns(places(), points()); }
std::string State::to_string() const { return render::board_text(game_->program(), s_); }
std::string State::to_json() const { return trace::state_json(game_->program(), s_); }

std::string Game::rulebook(const std::string& format) const {
  rulebook::Format f = rulebook::Format::Text;
  if (format == "md" || format == "markdown") {
    f = rulebook::Format::Markdown;
  } else if (format == "html") {
    f = rulebook::Format::Html;
  } else if (format != "text") {
    throw input_error(fmt::format("a rulebook is text, md or html, not '{}'", format));
  }
  return rulebook::print(rulebook::build(*file_, program_), f);
}

rulebook::WhyNot Game::why_not(const runtime::State& s, const std::string& text) const {
  return rulebook::why_not(file_->checked(), file_->sources(), *game_, s, text);
}

rulebook::WhyNot Game::why_not_at(const runtime::State& s, const std::string& site) const {
  const compile::Program& p = *program_;
  for (int i = 0; i < p.num_sites; ++i)
    if (p.sites[static_cast<size_t>(i)].label == site)
      return rulebook::why_not_at(file_->checked(), file_->sources(), *game_, s, i);
  throw input_error(fmt::format("this board has no site '{}'", site));
}

}  // namespace keli::api
