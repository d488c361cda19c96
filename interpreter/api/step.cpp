// The step protocol's commands over api::State; replies built with nlohmann-json, every failure
// an {"ok": false, "error": ..., "code": ...} reply.
#include "api/step.hpp"

#include <fmt/format.h>

#include "describe/describe.hpp"
#include "lang/limits.hpp"

namespace keli::api {

namespace {
using util::Json;
using Reply = nlohmann::ordered_json;

Reply error_reply(const std::string& message, const std::string& code) {
  return Reply{{"ok", false}, {"error", message}, {"code", code}};
}

const char* kCommands =
    "apply, throw, sample, legal, chance, state, result, over, info, undo, clone, restore, drop, quit";
}  // namespace

StepSession::StepSession(std::shared_ptr<const Game> game, uint64_t seed)
    : game_(std::move(game)), now_{State(game_), {}}, rng_(seed) {}

Reply StepSession::summary() const {
  const State& s = now_.state;
  Reply out{{"ok", true}, {"ply", s.ply()}, {"player", s.current_player()}};
  if (s.current_player() >= 0) out["seat"] = game_->program().seat_names[s.current_player()];
  out["chance"] = s.is_chance_node();
  out["over"] = s.is_terminal();
  return out;
}

Reply StepSession::cmd_apply(const Json& req) {
  if (!req.contains("move")) throw Game::input_error("\"apply\" needs \"move\": an action id or a move's notation");
  State before = now_.state;
  const Json& m = req["move"];
  if (m.is_string())
    now_.state.apply_text(m.get<std::string>());
  else if (m.is_number_integer())
    now_.state.apply_action(m.get<int64_t>());
  else
    throw Game::input_error("\"move\" must be an action id (a whole number) or a move's notation (a text)");
  now_.history.push_back(std::move(before));
  Reply out = summary();
  out["notes"] = now_.state.notes();
  return out;
}

Reply StepSession::cmd_throw(const Json& req) {
  State before = now_.state;
  if (req.contains("outcome")) {
    now_.state.apply_outcome(static_cast<int64_t>(util::json_uint64(req["outcome"], "\"outcome\"")));
  } else if (req.contains("values")) {
    now_.state.apply_throw(util::json_ints(req["values"], "\"values\""));
  } else {
    throw Game::input_error("\"throw\" needs \"values\" (one number a die) or \"outcome\" (a chance outcome id)");
  }
  now_.history.push_back(std::move(before));
  Reply out = summary();
  out["notes"] = now_.state.notes();
  return out;
}

Reply StepSession::cmd_sample(const Json& req) {
  if (req.contains("seed")) rng_ = runtime::Rng(util::json_uint64(req["seed"], "\"seed\""));
  State before = now_.state;
  std::vector<int32_t> values = now_.state.sample_throw(rng_);
  int64_t outcome = runtime::ActionSpace::outcome_id(game_->runner().dice(before.slots()), values);
  now_.history.push_back(std::move(before));
  Reply out = summary();
  out["values"] = values;
  out["outcome"] = outcome;
  out["notes"] = now_.state.notes();
  return out;
}

Reply StepSession::cmd_legal() const {
  Reply moves = Reply::array();
  if (now_.state.is_chance_node()) return cmd_chance();
  for (const auto& [id, m] : now_.state.legal_moves())
    moves.push_back(Reply{
        {"id", id}, {"move", game_->runner().notation(now_.state.slots(), m)}, {"call", game_->runner().call_text(m)}});
  Reply out = summary();
  out["moves"] = std::move(moves);
  return out;
}

Reply StepSession::cmd_chance() const {
  Reply out = summary();
  Reply list = Reply::array();
  if (now_.state.is_chance_node()) {
    const compile::DiceSet& d = game_->runner().dice(now_.state.slots());
    out["dice"] = d.name;
    for (const auto& o : now_.state.chance_outcomes())
      list.push_back(Reply{{"id", o.id},
                           {"values", d.outcomes[o.id].values},
                           {"move", game_->runner().roll_notation(d.outcomes[o.id].values)},
                           {"weight", o.weight},
                           {"total", o.total},
                           {"fraction", describe::fraction(o.weight, o.total)},
                           {"probability", o.probability()}});
  }
  out["outcomes"] = std::move(list);
  return out;
}

Reply StepSession::cmd_result() const {
  Reply out = summary();
  out["by_limit"] = now_.state.ended_by_limit();
  out["places"] = now_.state.places();
  out["returns"] = now_.state.returns();
  return out;
}

Reply StepSession::cmd_state(const Json& req) const {
  Reply out = summary();
  out["moves"] = now_.state.moves();
  out["state"] = Reply::parse(now_.state.to_json());
  if (req.value("board", false)) out["board"] = now_.state.to_string();
  return out;
}

Reply StepSession::cmd_info() const {
  const compile::Program& p = game_->program();
  Reply params = Reply::object();
  for (const auto& [name, value] : p.params) params[name] = value;
  return Reply{{"ok", true},
               {"game", p.game_name},
               {"file", p.file},
               {"params", params},
               {"players", p.num_players},
               {"seats", p.seat_names},
               {"engine", runtime::engine_name(game_->engine())},
               {"num_distinct_actions", game_->actions().num_distinct_actions()},
               {"max_chance_outcomes", game_->actions().max_chance_outcomes()}};
}

Reply StepSession::cmd_undo() {
  if (now_.history.empty()) throw Game::input_error("nothing to undo: this is the start of the game");
  now_.state = std::move(now_.history.back());
  now_.history.pop_back();
  return summary();
}

Reply StepSession::cmd_clone() {
  if (static_cast<int64_t>(handles_.size()) >= lang::kMaxStepHandles)
    throw Game::input_error(fmt::format("a session keeps at most {} states (kMaxStepHandles)", lang::kMaxStepHandles),
                            "drop the handles no longer needed: {\"cmd\": \"drop\", \"handle\": N}");
  int64_t h = next_handle_++;
  handles_.emplace(h, now_);
  Reply out = summary();
  out["handle"] = h;
  return out;
}

Reply StepSession::cmd_restore(const Json& req, bool drop) {
  if (!req.contains("handle")) throw Game::input_error("this command needs \"handle\" (what \"clone\" returned)");
  int64_t h = static_cast<int64_t>(util::json_uint64(req["handle"], "\"handle\""));
  auto it = handles_.find(h);
  if (it == handles_.end()) throw Game::input_error(fmt::format("no state has the handle {}", h));
  if (drop) {
    handles_.erase(it);
    return Reply{{"ok", true}, {"handle", h}};
  }
  now_ = it->second;
  return summary();
}

Reply StepSession::dispatch(const std::string& cmd, const Json& req) {
  if (cmd == "apply") return cmd_apply(req);
  if (cmd == "throw") return cmd_throw(req);
  if (cmd == "sample") return cmd_sample(req);
  if (cmd == "legal") return cmd_legal();
  if (cmd == "chance") return cmd_chance();
  if (cmd == "state") return cmd_state(req);
  if (cmd == "result") return cmd_result();
  if (cmd == "over") {
    Reply out = summary();
    out["by_limit"] = now_.state.ended_by_limit();
    return out;
  }
  if (cmd == "info") return cmd_info();
  if (cmd == "undo") return cmd_undo();
  if (cmd == "clone") return cmd_clone();
  if (cmd == "restore" || cmd == "drop") return cmd_restore(req, cmd == "drop");
  if (cmd == "quit") {
    done_ = true;
    return Reply{{"ok", true}};
  }
  throw Game::input_error(fmt::format("unknown command '{}'", cmd), fmt::format("the commands: {}", kCommands));
}

std::string StepSession::handle(const std::string& line) {
  const std::string bad = diag::info(diag::Code::bad_step).code;
  Json req;
  Reply reply;
  util::JsonError jerr;
  if (!util::parse_json(line, req, jerr)) {
    reply = error_reply(fmt::format("this line is not JSON: {} (column {})", jerr.message, jerr.col), bad);
  } else if (!req.is_object() || !req.contains("cmd") || !req["cmd"].is_string()) {
    reply = error_reply(std::string("a request is an object with \"cmd\": one of ") + kCommands, bad);
  } else {
    try {
      reply = dispatch(req["cmd"].get<std::string>(), req);
    } catch (const Error& e) {
      reply = error_reply(e.what(), e.code());
    } catch (const util::JsonFieldError& e) {
      reply = error_reply(e.message, bad);
    }
    if (req.contains("tag")) reply["tag"] = req["tag"];
  }
  // Texts from the game (notation, notes) may hold bytes that are not UTF-8: replaced, not thrown.
  return reply.dump(-1, ' ', false, Reply::error_handler_t::replace);
}

bool read_step_line(std::istream& in, std::string& line, bool& too_long) {
  line.clear();
  too_long = false;
  int c;
  bool any = false;
  while ((c = in.get()) != EOF) {
    any = true;
    if (c == '\n') break;
    if (line.size() < static_cast<size_t>(lang::kMaxStepLine))
      line.push_back(static_cast<char>(c));
    else
      too_long = true;
  }
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return any;
}

void StepSession::serve(std::istream& in, std::ostream& out) {
  std::string line;
  bool too_long = false;
  while (!done_ && read_step_line(in, line, too_long)) {
    if (too_long) {
      out << error_reply(fmt::format("this line is longer than {} bytes (kMaxStepLine)", lang::kMaxStepLine),
                         diag::info(diag::Code::bad_step).code)
                 .dump()
          << "\n";
    } else if (line.find_first_not_of(" \t") == std::string::npos) {
      continue;  // blank lines are skipped
    } else {
      out << handle(line) << "\n";
    }
    out.flush();
  }
}

}  // namespace keli::api
