// The one trace reader: each line parsed whole with the JSON reader (so key order does not
// matter), re-run against the game and verified; only the current line is held in memory.
#include "trace/reader.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "trace/state_json.hpp"

namespace keli::trace {

using util::Json;

Reader::Next Reader::fail_here(const std::string& message, const std::string& hint, diag::Code code) {
  return fail(message, hint, 1, code);
}

Reader::Next Reader::fail(const std::string& message, const std::string& hint, uint32_t col, diag::Code code) {
  // Only the offending line is kept as the diagnostic's source, at its own line number, so a
  // long trace is never held in memory just to quote one line of it.
  int file = src_->add(path_, std::string(ln_ > 1 ? ln_ - 1 : 0, '\n') + line_);
  diags_->report(code, Span{file, static_cast<uint32_t>(std::max(ln_, 1)), col, 1}, message, hint);
  return Next::Error;
}

// The next line that is not blank; at the end of the file the last one read stays current, so an
// error there points at the trace's last line.
bool Reader::read_line() {
  std::string l;
  while (std::getline(in_, l)) {
    ++read_;
    if (!l.empty() && l.back() == '\r') l.pop_back();
    if (l.find_first_not_of(" \t") == std::string::npos) continue;
    line_ = std::move(l);
    ln_ = read_;
    return true;
  }
  return false;
}

bool Reader::parse_line(Json& out) {
  util::JsonError err;
  if (!util::parse_json(line_, out, err)) {
    fail(fmt::format("this line is not valid JSON: {}", err.message), {}, err.col);
    return false;
  }
  if (!out.is_object()) {
    fail("this line is not a JSON object");
    return false;
  }
  return true;
}

bool Reader::open(const std::string& path, diag::Diagnostics& diags, SourceSet& src) {
  path_ = path;
  diags_ = &diags;
  src_ = &src;
  in_.open(path, std::ios::binary);
  if (!in_) {
    diags.report(diag::Code::bad_trace, Span{}, fmt::format("cannot read trace '{}'", path));
    return false;
  }
  if (!read_line()) {
    fail("the trace is empty");
    return false;
  }
  Json head;
  if (!parse_line(head)) return false;
  try {
    return read_header(head);
  } catch (const util::JsonFieldError& e) {
    fail(fmt::format("the header cannot be read: {}", e.message));
    return false;
  }
}

bool Reader::read_header(const Json& head) {
  if (!head.contains("file") || !head.contains("params") || !head["params"].is_object()) {
    fail("the first line is not a trace header", "it needs \"file\" and \"params\"");
    return false;
  }
  header_.version = head.contains("trace") ? util::json_int(head["trace"], "\"trace\"") : 1;
  if (header_.version < 1 || header_.version > kTraceVersion) {
    fail(fmt::format("the trace is written in format version {}; this Keli reads versions 1 to {}", header_.version,
                     kTraceVersion));
    return false;
  }
  header_.game = head.contains("game") ? util::json_text(head["game"], "\"game\"") : "";
  header_.file = util::json_text(head["file"], "\"file\"");
  header_.seed = head.contains("seed") ? util::json_uint64(head["seed"], "\"seed\"") : 0;
  if (head.contains("players")) {
    if (!head["players"].is_array()) throw util::JsonFieldError{"\"players\" must be a list of player names"};
    for (const auto& x : head["players"]) header_.players.push_back(util::json_text(x, "each of \"players\""));
  }
  // A version 1 trace was never seeded in this sense: its throws are not drawn again.
  if (head.contains("seeded") && !head["seeded"].is_boolean())
    throw util::JsonFieldError{"\"seeded\" must be true or false"};
  header_.seeded = header_.version >= 2 && head.value("seeded", false);
  header_.every = head.contains("every") ? util::json_int(head["every"], "\"every\"") : 1;
  for (const auto& [name, value] : head["params"].items())
    params_.emplace_back(name, util::json_scalar_text(value, fmt::format("parameter '{}'", name)));
  return true;
}

bool Reader::start(std::shared_ptr<const compile::Program> program, const PlayersFactory& players) {
  if (!header_.game.empty() && header_.game != program->game_name) {
    fail(fmt::format("the trace is of '{}', not of '{}'", header_.game, program->game_name),
         fmt::format("the trace was recorded from '{}'", header_.file));
    return false;
  }
  if ((header_.seeded || !header_.players.empty()) &&
      header_.players.size() != static_cast<size_t>(program->num_players)) {
    fail(fmt::format("the trace names {} players, but the game has {} seats", header_.players.size(),
                     program->num_players));
    return false;
  }
  program_ = std::move(program);
  game_ = std::make_unique<runtime::Game>(program_);
  if (header_.seeded && players) {
    std::string why;
    players_ = players(header_, *program_, why);
    if (!players_) {
      fail(fmt::format("the trace's players cannot be re-run: {}", why));
      return false;
    }
    rng_ = runtime::Rng(header_.seed);
    rng_live_ = true;
  }
  state_ = game_->initial();
  return true;
}

int Reader::ply() const { return game_ ? game_->ply(state_) : 0; }

std::vector<int> Reader::last_sites() const {
  std::vector<int> out;
  if (!last_was_move_) return out;
  const auto& rule = program_->rules[last_move_.rule];
  for (int k = 0; k < last_move_.nargs && k < static_cast<int>(rule.params.size()); ++k)
    if (rule.params[k].kind == lang::ValueKind::Site) out.push_back(last_move_.args[k]);
  return out;
}

Reader::Next Reader::next() {
  if (!read_line()) return Next::End;
  if (over_) return fail("lines follow the result");
  Json n;
  if (!parse_line(n)) return Next::Error;
  try {
    if (n.contains("result")) return result(n);
    if (game_->over(state_)) return fail("the replayed game is already over, but the trace goes on");
    if (n.contains("chance") && !n["chance"].is_boolean())
      throw util::JsonFieldError{"\"chance\" must be true or false"};
    Next r = n.value("chance", false) ? throw_step(n) : decision(n);
    return r == Next::Step ? after_step(n) : r;
  } catch (const diag::Error& e) {
    return fail(fmt::format("the game failed while replaying this step: {}", e.message));
  } catch (const util::JsonFieldError& e) {
    return fail(fmt::format("a value on this line cannot be read: {}", e.message));
  } catch (const Json::exception& e) {  // a value of a kind no check above expected
    return fail(fmt::format("a value on this line cannot be read: {}", e.what()));
  }
}

Reader::Next Reader::result(const Json& n) {
  auto& g = *game_;
  if (!g.over(state_)) return fail("the trace gives a result, but the replayed game is not over");
  const Json& r = n["result"];
  if (!r.is_object() || !r.contains("places")) throw util::JsonFieldError{"\"result\" needs \"places\""};
  if (util::json_ints(r["places"], "\"places\"") != g.places(state_))
    return fail("the recorded places differ from the replayed ones");
  if (g.scores_points() && (!r.contains("points") || util::json_ints(r["points"], "\"points\"") != g.points(state_)))
    return fail("the recorded points differ from the replayed ones (or are missing)");
  std::string ended = r.contains("ended") ? util::json_text(r["ended"], "\"ended\"") : "";
  std::string replayed = g.ended_by_limit(state_) ? "limit" : "rules";
  if (ended != replayed)
    return fail(fmt::format("the trace says the game ended by '{}', the replay by '{}'", ended, replayed));
  over_ = true;
  return Next::Result;
}

Reader::Next Reader::throw_step(const Json& n) {
  auto& g = *game_;
  if (!g.chance(state_)) return fail("the trace throws dice where the game expects a decision");
  if (!n.contains("roll")) throw util::JsonFieldError{"a throw needs \"roll\""};
  last_roll_ = util::json_ints(n["roll"], "\"roll\"");
  if (std::string bad = impossible_roll(g, state_, last_roll_); !bad.empty()) return fail(bad);
  if (rng_live_) {
    std::vector<int32_t> drawn = g.sample_roll(state_, rng_);  // a copy: the game reuses its buffer
    if (drawn != last_roll_)
      return fail(fmt::format("the throw is recorded as '{}', but seed {} throws '{}' here",
                              g.roll_notation(last_roll_), header_.seed, g.roll_notation(drawn)),
                  "the trace's seed, its players or an earlier step is not the game that was played");
  }
  g.apply_roll(state_, last_roll_);
  last_step_ = g.roll_notation(last_roll_);
  last_was_move_ = false;
  return Next::Step;
}

Reader::Next Reader::decision(const Json& n) {
  auto& g = *game_;
  if (g.chance(state_)) return fail("the trace records a decision where the game throws dice");
  if (!n.contains("rule")) throw util::JsonFieldError{"a step needs \"rule\" (a decision) or \"chance\" (a throw)"};
  std::string rule = util::json_text(n["rule"], "\"rule\"");
  std::vector<int32_t> args = n.contains("args") ? util::json_ints(n["args"], "\"args\"") : std::vector<int32_t>{};
  int mover = g.mover(state_);
  if (n.contains("player") && util::json_int(n["player"], "\"player\"") != mover)
    return fail(fmt::format("the trace has player {} moving, but it is player {}'s turn", n["player"].dump(), mover));
  std::pair<std::string, std::string> not_legal;
  const runtime::Move* found = recorded_move(g, state_, rule, args, legal_, not_legal);
  if (!found) return fail(not_legal.first, not_legal.second);
  last_move_ = *found;
  if (n.contains("legal")) {
    // Recorded with run --record-legal: the legal moves' action ids, which must be the replay's.
    if (!n["legal"].is_array()) throw util::JsonFieldError{"\"legal\" must be a list of action ids"};
    std::vector<int64_t> recorded, have = legal_ids(*program_, legal_);
    for (const auto& x : n["legal"])
      recorded.push_back(static_cast<int64_t>(util::json_uint64(x, "each of \"legal\"")));
    if (recorded != have)
      return fail(fmt::format("the trace records the legal moves [{}], the replay finds [{}]",
                              fmt::join(recorded, ", "), fmt::join(have, ", ")),
                  "action ids are docs/actions.md's; the game file may have changed since the trace was written");
  }
  if (rng_live_) {
    int k = players_->choose(mover, g, state_, legal_, rng_);
    if (k == Players::kUnknown) rng_live_ = false;  // from here on nothing can be drawn again
    if (k >= 0 && !(legal_[k] == last_move_))
      return fail(fmt::format("player {} ('{}') with seed {} chooses '{}' here, but the trace records '{}'", mover,
                              header_.players[mover], header_.seed, g.notation(state_, legal_[k]),
                              g.notation(state_, last_move_)),
                  "the trace's seed, its players or an earlier step is not the game that was played");
  }
  last_notation_ = g.notation(state_, last_move_);
  g.apply(state_, last_move_);
  last_step_ = program_->seat_names[mover] + " " + last_notation_;
  last_was_move_ = true;
  last_mover_ = mover;
  return Next::Step;
}

// What the line says of the step's outcome: its number, notation, notes, check and state.
Reader::Next Reader::after_step(const Json& n) {
  auto& g = *game_;
  if (n.contains("ply") && util::json_int(n["ply"], "\"ply\"") != g.ply(state_))
    return fail(fmt::format("the trace numbers this step {}, the replay {}", n["ply"].dump(), g.ply(state_)));
  // "move" (the call) and "notation" (how it reads; absent in older traces) are written for
  // people; they must still agree with the rule and arguments
  if (last_was_move_ && n.contains("move")) {
    std::string recorded = util::json_text(n["move"], "\"move\"");
    if (recorded != g.call_text(last_move_))
      return fail(fmt::format("the move is written '{}', but its rule and arguments are '{}'", recorded,
                              g.call_text(last_move_)));
  }
  if (last_was_move_ && n.contains("notation")) {
    std::string recorded = util::json_text(n["notation"], "\"notation\"");
    if (recorded != last_notation_)
      return fail(fmt::format("the move's notation is '{}', but it reads '{}' in this game", recorded, last_notation_));
  }
  std::vector<std::string> notes, have;
  if (n.contains("notes")) {
    if (!n["notes"].is_array()) throw util::JsonFieldError{"\"notes\" must be a list of texts"};
    for (const auto& x : n["notes"]) notes.push_back(util::json_text(x, "each of \"notes\""));
  }
  for (int id : g.notes()) have.push_back(program_->notes[id]);
  if (notes != have)
    return fail(
        fmt::format("the notes differ: recorded [{}], replayed [{}]", fmt::join(notes, "; "), fmt::join(have, "; ")));
  if (header_.version >= 2) {
    if (!n.contains("check")) return fail("this line has no \"check\"");
    std::string check = util::json_text(n["check"], "\"check\"");
    if (check != state_check(*program_, state_))
      return fail(fmt::format("the state after this step differs: its check is recorded as {}, replayed {}", check,
                              state_check(*program_, state_)),
                  "keli replay --expand of the original trace shows every state");
  } else if (!n.contains("state")) {
    return fail("this line has no \"state\"");
  }
  if (n.contains("state"))
    if (std::string diff = compare_state(*program_, state_, n["state"]); !diff.empty())
      return fail("the state after this step differs: " + diff);
  return Next::Step;
}

}  // namespace keli::trace
