// A trace read and re-run step by step, with the checks of `keli replay` on every line, from an
// input stream so that only the lines up to the wanted step are read.
#include "trace/reader.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>

#include "trace/state_json.hpp"

namespace keli::trace {

void Reader::fail_at(int ln, const std::string& text, const std::string& message, uint32_t col,
                     const std::string& hint) {
  // Only the offending line is kept as the diagnostic's source, at its own line number, so a
  // long trace is never held in memory just to quote one line of it.
  int file = src_->add(path_, std::string(ln > 1 ? ln - 1 : 0, '\n') + text);
  diags_->report(diag::Code::bad_trace, Span{file, static_cast<uint32_t>(std::max(ln, 1)), col, 1}, message, hint);
}

Reader::Next Reader::fail(const std::string& message, const std::string& hint, uint32_t col) {
  fail_at(ln_, line_, message, col, hint);
  return Next::Error;
}

bool Reader::read_line(std::string& out) {
  while (std::getline(in_, out)) {
    ++ln_;
    if (!out.empty() && out.back() == '\r') out.pop_back();
    if (out.find_first_not_of(" \t") != std::string::npos) return true;
  }
  return false;
}

static bool parse_object(const std::string& text, YAML::Node& out, std::string& why, uint32_t& col) {
  try {
    out = YAML::Load(text);
    if (out.IsMap()) return true;
    why = "this line is not a JSON object";
  } catch (const YAML::Exception& e) {
    why = fmt::format("this line is not valid JSON: {}", e.msg);
    col = static_cast<uint32_t>(e.mark.column + 1);
  }
  return false;
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
  if (!read_line(line_)) {
    fail("the trace is empty");
    return false;
  }
  YAML::Node head;
  std::string why;
  uint32_t col = 1;
  if (!parse_object(line_, head, why, col)) {
    fail(why, {}, col);
    return false;
  }
  if (!head["file"] || !head["params"]) {
    fail("the first line is not a trace header", "it needs \"file\" and \"params\"");
    return false;
  }
  try {
    header_.game = head["game"] ? head["game"].as<std::string>() : "";
    header_.file = head["file"].as<std::string>();
    header_.seed = head["seed"] ? head["seed"].as<uint64_t>() : 0;
    for (const auto& x : head["players"]) header_.players.push_back(x.as<std::string>());
    for (const auto& kv : head["params"]) params_.emplace_back(kv.first.as<std::string>(), kv.second.as<std::string>());
  } catch (const YAML::Exception& e) {
    fail(fmt::format("the header cannot be read: {}", e.msg));
    return false;
  }
  return true;
}

bool Reader::start(std::shared_ptr<const compile::Program> program) {
  if (!header_.game.empty() && header_.game != program->game_name) {
    ln_ = 1;
    fail(fmt::format("the trace is of '{}', not of '{}'", header_.game, program->game_name),
         fmt::format("the trace was recorded from '{}'", header_.file));
    return false;
  }
  program_ = std::move(program);
  game_ = std::make_unique<runtime::Game>(program_);
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
  if (!read_line(line_)) return Next::End;
  YAML::Node n;
  std::string why;
  uint32_t col = 1;
  // The writer puts the state last; everything a step needs comes before it. (`,"state":` cannot
  // occur inside a JSON string, whose quotes are escaped.) Lines written otherwise are parsed whole.
  size_t state_at = line_.find(",\"state\":");
  bool has_state = state_at != std::string::npos || line_.find("\"state\"") != std::string::npos;
  if (!parse_object(state_at == std::string::npos ? line_ : line_.substr(0, state_at) + "}", n, why, col))
    return fail(why, {}, col);
  auto& game = *game_;
  auto& s = state_;
  try {
    if (n["result"]) {
      if (!game.over(s)) return fail("the trace gives a result, but the replayed game is not over");
      std::vector<int> rec;
      for (const auto& x : n["result"]["places"]) rec.push_back(x.as<int>());
      if (rec != game.places(s)) return fail("the recorded places differ from the replayed ones");
      return Next::Result;
    }
    if (game.over(s)) return fail("the replayed game is already over, but the trace goes on");
    if (n["chance"]) {
      if (!game.chance(s)) return fail("the trace throws dice where the game expects a decision");
      std::vector<int32_t> vals;
      for (const auto& x : n["roll"]) vals.push_back(x.as<int32_t>());
      if (std::string bad = impossible_roll(game, s, vals); !bad.empty()) return fail(bad);
      game.apply_roll(s, vals);
      last_step_ = game.roll_notation(vals);
      last_was_move_ = false;
    } else {
      if (game.chance(s)) return fail("the trace records a decision where the game throws dice");
      std::string rule = n["rule"] ? n["rule"].as<std::string>() : "";
      std::vector<int32_t> args;
      for (const auto& x : n["args"]) args.push_back(x.as<int32_t>());
      if (n["player"] && n["player"].as<int>() != game.mover(s))
        return fail(fmt::format("the trace has player {} moving, but it is player {}'s turn", n["player"].as<int>(),
                                game.mover(s)));
      std::pair<std::string, std::string> not_legal;
      const runtime::Move* found = recorded_move(game, s, rule, args, legal_, not_legal);
      if (!found) return fail(not_legal.first, not_legal.second);
      last_move_ = *found;
      int mover = game.mover(s);
      game.apply(s, last_move_);
      last_step_ = program_->seat_names[mover] + " " + game.notation(last_move_);
      last_was_move_ = true;
    }
    if (n["ply"] && n["ply"].as<int>() != game.ply(s))
      return fail(fmt::format("the trace numbers this step {}, the replay {}", n["ply"].as<int>(), game.ply(s)));
    if (!has_state) return fail("this line has no \"state\"");
    step_line_ = line_;
    step_ln_ = ln_;
  } catch (const diag::Error& e) {
    return fail(fmt::format("the game failed while replaying this step: {}", e.message));
  } catch (const YAML::Exception& e) {
    return fail(fmt::format("a value on this line cannot be read: {}", e.msg));
  }
  return Next::Step;
}

bool Reader::check_state() {
  if (step_ln_ == 0) return true;  // at the start: nothing recorded to compare
  YAML::Node n;
  std::string why;
  uint32_t col = 1;
  if (!parse_object(step_line_, n, why, col)) return fail_at(step_ln_, step_line_, why, col), false;
  if (!n["state"]) return fail_at(step_ln_, step_line_, "this line has no \"state\"", 1), false;
  std::string diff = compare_state(*program_, state_, n["state"]);
  if (!diff.empty()) return fail_at(step_ln_, step_line_, "the state after this step differs: " + diff, 1), false;
  return true;
}

}  // namespace keli::trace
