// The step protocol's commands over api::State, one table of them; replies built with
// nlohmann-json, every failure an {"ok": false, "error": ..., "code": ...} reply.
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

}  // namespace

const StepSession::Command StepSession::kCommands[] = {
    {"apply", &StepSession::cmd_apply},     {"throw", &StepSession::cmd_throw},   {"sample", &StepSession::cmd_sample},
    {"legal", &StepSession::cmd_legal},     {"chance", &StepSession::cmd_chance}, {"state", &StepSession::cmd_state},
    {"result", &StepSession::cmd_result},   {"over", &StepSession::cmd_over},     {"info", &StepSession::cmd_info},
    {"undo", &StepSession::cmd_undo},       {"forget", &StepSession::cmd_forget}, {"clone", &StepSession::cmd_clone},
    {"restore", &StepSession::cmd_restore}, {"drop", &StepSession::cmd_drop},     {"memory", &StepSession::cmd_memory},
    {"rules", &StepSession::cmd_rules},     {"why", &StepSession::cmd_why},       {"quit", &StepSession::cmd_quit},
};

std::string StepSession::command_names() {
  std::string out;
  for (const auto& c : kCommands) out += (out.empty() ? "" : ", ") + std::string(c.name);
  return out;
}

StepSession::UndoNode::~UndoNode() {
  ledger->bytes -= bytes;
  // The rest of the chain that only this node held goes one node at a time: a game of a
  // million steps must not free its history by a million nested destructor calls.
  std::shared_ptr<UndoNode> p = std::move(prev);
  while (p && p.use_count() == 1) p = std::move(p->prev);
}

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

void StepSession::charge(int64_t bytes, const char* what) const {
  if (ledger_->bytes + bytes <= lang::kMaxStepMemory) return;
  throw Game::input_error(
      fmt::format("{} would make this session hold {} bytes for undo and clones, more than {} (kMaxStepMemory)", what,
                  ledger_->bytes + bytes, lang::kMaxStepMemory),
      "drop the clones no longer needed ({\"cmd\": \"drop\", \"handle\": N}) or forget the undo history "
      "({\"cmd\": \"forget\"})");
}

template <typename F>
void StepSession::record(F&& step) {
  State before = now_.state;
  step(now_.state);  // a step that fails throws and leaves the state as it was
  State::Undo undo = now_.state.undo_to(before);
  const int64_t bytes = static_cast<int64_t>(sizeof(UndoNode)) + undo.bytes();
  try {
    charge(bytes, "this step's undo record");
  } catch (...) {
    now_.state = std::move(before);
    throw;
  }
  auto node = std::make_shared<UndoNode>();
  node->undo = std::move(undo);
  node->prev = std::move(now_.history);
  node->ledger = ledger_;
  node->bytes = bytes;
  ledger_->bytes += bytes;
  now_.history = std::move(node);
}

Reply StepSession::cmd_apply(const Json& req) {
  if (!req.contains("move")) throw Game::input_error("\"apply\" needs \"move\": an action id or a move's notation");
  const Json& m = req["move"];
  if (m.is_string())
    record([&](State& s) { s.apply_text(m.get<std::string>()); });
  else if (m.is_number_integer() && (!m.is_number_unsigned() || m.get<uint64_t>() <= uint64_t(INT64_MAX)))
    record([&](State& s) { s.apply_action(m.get<int64_t>()); });
  else
    throw Game::input_error("\"move\" must be an action id (a whole number) or a move's notation (a text)");
  Reply out = summary();
  out["notes"] = now_.state.notes();
  return out;
}

Reply StepSession::cmd_throw(const Json& req) {
  if (req.contains("outcome")) {
    uint64_t id = util::json_uint64(req["outcome"], "\"outcome\"");
    if (id > uint64_t(INT64_MAX)) throw Game::input_error(fmt::format("no chance outcome has the id {}", id));
    record([&](State& s) { s.apply_outcome(static_cast<int64_t>(id)); });
  } else if (req.contains("values")) {
    std::vector<int32_t> values = util::json_ints(req["values"], "\"values\"");
    record([&](State& s) { s.apply_throw(values); });
  } else {
    throw Game::input_error("\"throw\" needs \"values\" (one number a die) or \"outcome\" (a chance outcome id)");
  }
  Reply out = summary();
  out["notes"] = now_.state.notes();
  return out;
}

Reply StepSession::cmd_sample(const Json& req) {
  if (req.contains("seed")) rng_ = runtime::Rng(util::json_uint64(req["seed"], "\"seed\""));
  std::vector<int32_t> values;
  int64_t outcome = 0;
  record([&](State& s) {
    const runtime::State before = s.slots();
    values = s.sample_throw(rng_);
    outcome = runtime::ActionSpace::outcome_id(game_->runner().dice(before), values);
  });
  Reply out = summary();
  out["values"] = values;
  out["outcome"] = outcome;
  out["notes"] = now_.state.notes();
  return out;
}

Reply StepSession::cmd_legal(const Json& req) {
  if (now_.state.is_chance_node()) return cmd_chance(req);
  Reply moves = Reply::array();
  for (const auto& [id, m] : now_.state.legal_moves())
    moves.push_back(Reply{
        {"id", id}, {"move", game_->runner().notation(now_.state.slots(), m)}, {"call", game_->runner().call_text(m)}});
  Reply out = summary();
  out["moves"] = std::move(moves);
  return out;
}

Reply StepSession::cmd_chance(const Json&) {
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

Reply StepSession::cmd_result(const Json&) {
  Reply out = summary();
  out["by_limit"] = now_.state.ended_by_limit();
  out["places"] = now_.state.places();
  if (now_.state.game().scores_points()) out["points"] = now_.state.points();  // only where a game scores them
  out["returns"] = now_.state.returns();
  return out;
}

Reply StepSession::cmd_over(const Json&) {
  Reply out = summary();
  out["by_limit"] = now_.state.ended_by_limit();
  return out;
}

Reply StepSession::cmd_state(const Json& req) {
  const bool board = req.contains("board") && util::json_bool(req["board"], "\"board\"");
  Reply out = summary();
  out["moves"] = now_.state.moves();
  out["state"] = Reply::parse(now_.state.to_json());
  if (board) out["board"] = now_.state.to_string();
  return out;
}

// The rulebook in words: {"cmd": "rules", "format": "text" | "md" | "html"} (text when left out).
Reply StepSession::cmd_rules(const Json& req) {
  std::string format = "text";
  if (req.contains("format")) {
    if (!req["format"].is_string()) throw Game::input_error("\"format\" must be \"text\", \"md\" or \"html\"");
    format = req["format"].get<std::string>();
  }
  return Reply{{"ok", true}, {"format", format}, {"rules", game_->rulebook(format)}};
}

// Why a move is not legal: {"cmd": "why", "move": "S1 6-9 (3)"}, or why none starts at a site
// (a tapped piece or cell): {"cmd": "why", "site": "c5"}; `legal`, `message`, each candidate
// rule's failed test (`failed`), and when no rule reads it the moves accepted (`instead`).
Reply StepSession::cmd_why(const Json& req) {
  const bool by_site = req.contains("site") && req["site"].is_string();
  if (!by_site && (!req.contains("move") || !req["move"].is_string()))
    throw Game::input_error("\"why\" needs \"move\" (a move as the game writes it) or \"site\" (a site's label)");
  rulebook::WhyNot w = by_site ? game_->why_not_at(now_.state.slots(), req["site"].get<std::string>())
                               : game_->why_not(now_.state.slots(), req["move"].get<std::string>());
  Reply failed = Reply::array();
  for (const auto& f : w.failed)
    failed.push_back(Reply{{"move", f.move},
                           {"rule", f.rule},
                           {"anchor", f.anchor},
                           {"test", f.test},
                           {"param", f.param},
                           {"at", f.where},
                           {"condition", f.condition},
                           {"values", f.values},
                           {"message", f.message}});
  return Reply{{"ok", true}, {"legal", w.legal}, {"message", w.message}, {"failed", failed}, {"instead", w.instead}};
}

Reply StepSession::cmd_info(const Json&) {
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

Reply StepSession::cmd_undo(const Json&) {
  if (!now_.history)
    throw Game::input_error("nothing to undo: this is the start of the game, or its undo history was forgotten");
  now_.state.take_back(now_.history->undo);
  now_.history = now_.history->prev;
  return summary();
}

Reply StepSession::cmd_forget(const Json& req) {
  now_.history.reset();
  return cmd_memory(req);
}

Reply StepSession::cmd_clone(const Json&) {
  if (static_cast<int64_t>(handles_.size()) >= lang::kMaxStepHandles)
    throw Game::input_error(fmt::format("a session keeps at most {} states (kMaxStepHandles)", lang::kMaxStepHandles),
                            "drop the handles no longer needed: {\"cmd\": \"drop\", \"handle\": N}");
  const int64_t bytes = now_.state.bytes();
  charge(bytes, "this clone");
  const uint64_t h = next_handle_++;
  handles_.emplace(h, Kept{now_, bytes});
  ledger_->bytes += bytes;
  Reply out = summary();
  out["handle"] = h;
  return out;
}

std::map<uint64_t, StepSession::Kept>::iterator StepSession::find_handle(const Json& req) {
  if (!req.contains("handle")) throw Game::input_error("this command needs \"handle\" (what \"clone\" returned)");
  const uint64_t h = util::json_uint64(req["handle"], "\"handle\"");
  auto it = handles_.find(h);
  if (it == handles_.end()) throw Game::input_error(fmt::format("no state has the handle {}", h));
  return it;
}

Reply StepSession::cmd_restore(const Json& req) {
  now_ = find_handle(req)->second.position;
  return summary();
}

Reply StepSession::cmd_drop(const Json& req) {
  auto it = find_handle(req);
  const uint64_t h = it->first;
  ledger_->bytes -= it->second.bytes;
  handles_.erase(it);
  return Reply{{"ok", true}, {"handle", h}};
}

Reply StepSession::cmd_memory(const Json&) {
  int64_t depth = 0;
  for (const UndoNode* n = now_.history.get(); n; n = n->prev.get()) ++depth;
  return Reply{{"ok", true},
               {"bytes", ledger_->bytes},
               {"limit", lang::kMaxStepMemory},
               {"handles", handles_.size()},
               {"undo", depth}};
}

Reply StepSession::cmd_quit(const Json&) {
  done_ = true;
  return Reply{{"ok", true}};
}

std::string StepSession::handle(const std::string& line) {
  const std::string bad = diag::info(diag::Code::bad_step).code;
  Json req;
  Reply reply;
  util::JsonError jerr;
  if (!util::parse_json(line, req, jerr)) {
    reply = error_reply(fmt::format("this line is not JSON: {} (column {})", jerr.message, jerr.col), bad);
  } else if (!req.is_object() || !req.contains("cmd") || !req["cmd"].is_string()) {
    reply = error_reply("a request is an object with \"cmd\": one of " + command_names(), bad);
  } else {
    const std::string cmd = req["cmd"].get<std::string>();
    const Command* c = nullptr;
    for (const auto& k : kCommands)
      if (cmd == k.name) c = &k;
    try {
      if (!c)
        throw Game::input_error(fmt::format("unknown command '{}'", cmd.substr(0, 80)),
                                "the commands: " + command_names());
      reply = (this->*(c->run))(req);
    } catch (const Error& e) {
      reply = error_reply(e.what(), e.code());
    } catch (const util::JsonFieldError& e) {
      reply = error_reply(e.message, bad);
    } catch (const std::bad_alloc&) {
      reply = error_reply("this request needs more memory than the machine gives; the session goes on", bad);
    }
    if (req.contains("tag")) reply["tag"] = req["tag"];  // its depth is bounded by parse_json
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
