// Moves files re-run strictly: each line one step, checked against the game's legal moves and
// dice; the first that fails stops the replay with its line number.
#include "api/moves.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>

#include "api/step.hpp"
#include "lang/limits.hpp"
#include "util/json_read.hpp"

namespace keli::api {

namespace {
using util::Json;

// One line's step on `s`; throws Error (the state unchanged) or util::JsonFieldError.
void take_step(State& s, const Json& n) {
  if (n.contains("legal")) {
    // Recorded legal moves (run --record-legal writes them): the replay must find the same ids.
    if (!n["legal"].is_array()) throw util::JsonFieldError{"\"legal\" must be a list of action ids"};
    std::vector<int64_t> recorded;
    for (const auto& x : n["legal"])
      recorded.push_back(static_cast<int64_t>(util::json_uint64(x, "each of \"legal\"")));
    std::sort(recorded.begin(), recorded.end());
    if (recorded != s.legal_actions())
      throw Game::input_error(fmt::format("the file records the legal moves [{}], the game has [{}]",
                                          fmt::join(recorded, ", "), fmt::join(s.legal_actions(), ", ")));
  }
  if (n.contains("move")) {
    const Json& m = n["move"];
    if (m.is_string())
      s.apply_text(m.get<std::string>());
    else if (m.is_number_integer() && s.is_chance_node())
      throw Game::input_error("the dice are to be thrown here, not a move", "write {\"throw\": [VALUES]}");
    else if (m.is_number_integer())
      s.apply_action(m.get<int64_t>());
    else
      throw util::JsonFieldError{"\"move\" must be an action id (a whole number) or a move's notation (a text)"};
  } else if (n.contains("throw")) {
    s.apply_throw(util::json_ints(n["throw"], "\"throw\""));
  } else if (n.contains("outcome")) {
    s.apply_outcome(static_cast<int64_t>(util::json_uint64(n["outcome"], "\"outcome\"")));
  } else {
    throw util::JsonFieldError{"a line is {\"move\": ID or \"NOTATION\"}, {\"throw\": [VALUES]} or {\"outcome\": ID}"};
  }
}

// The step as `keli run` prints it: "South sow 3", "roll 4 2".
std::string step_text(const State& before, const Json& n) {
  const compile::Program& p = before.game().program();
  if (before.is_chance_node())
    return n.contains("throw") ? before.game().runner().roll_notation(util::json_ints(n["throw"], "\"throw\""))
                               : before.action_to_string(static_cast<int64_t>(n["outcome"].get<uint64_t>()));
  const Json& m = n["move"];
  return p.seat_names[before.current_player()] + " " +
         (m.is_string() ? m.get<std::string>() : before.action_to_string(m.get<int64_t>()));
}

std::string positioned(const std::string& path, int line, uint32_t col, const std::string& text) {
  return fmt::format("{}:{}:{}: {}", path, line, col, text);
}
}  // namespace

MovesResult replay_moves(const std::shared_ptr<const Game>& game, const std::string& path, std::ostream* log) {
  MovesResult r{true, {}, 0, State(game)};
  const char* bad = diag::info(diag::Code::bad_step).code;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    r.ok = false;
    r.error = fmt::format("{}: error: cannot read the moves file [{}]\n", path, bad);
    return r;
  }
  std::string line;
  bool too_long = false;
  for (int ln = 1; read_step_line(in, line, too_long); ++ln) {
    if (too_long) {
      r.ok = false;
      r.error = positioned(
          path, ln, 1,
          fmt::format("error: this line is longer than {} bytes (kMaxStepLine) [{}]\n", lang::kMaxStepLine, bad));
      return r;
    }
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    Json n;
    util::JsonError jerr;
    try {
      if (!util::parse_json(line, n, jerr)) {
        r.ok = false;
        r.error =
            positioned(path, ln, jerr.col, fmt::format("error: this line is not JSON: {} [{}]\n", jerr.message, bad));
        return r;
      }
      if (!n.is_object()) throw util::JsonFieldError{"a line is one JSON object"};
      if (r.state.is_terminal()) throw Game::input_error("the game is over: the file goes on after its end");
      State before = r.state;
      take_step(r.state, n);
      ++r.steps;
      if (log) *log << fmt::format("{:>6}. {}\n", r.state.ply(), step_text(before, n));
    } catch (const Error& e) {
      r.ok = false;
      // Our own refusals are said of the line; an error of the rules keeps its place in the game.
      r.error = e.code() == bad
                    ? positioned(path, ln, 1, e.what()) + "\n"
                    : positioned(path, ln, 1, "error: this step fails in the game [" + std::string(bad) + "]\n") +
                          e.what() + "\n";
      return r;
    } catch (const util::JsonFieldError& e) {
      r.ok = false;
      r.error = positioned(path, ln, 1, fmt::format("error: {} [{}]\n", e.message, bad));
      return r;
    }
  }
  return r;
}

}  // namespace keli::api
