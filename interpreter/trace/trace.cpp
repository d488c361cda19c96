// Traces: writing JSON Lines as a game is played, and replaying them step by step against the
// game file, stopping at the first line that does not match.
#include "trace/trace.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <sstream>

#include "ast/files.hpp"
#include "ast/loader.hpp"
#include "session/game_file.hpp"
#include "trace/state_json.hpp"
#include "util/json.hpp"

#ifndef KELI_VERSION
#define KELI_VERSION "0.0.0"
#endif

namespace keli::trace {

void Writer::header(const Header& h) {
  std::string players;
  for (size_t i = 0; i < h.players.size(); ++i) players += (i ? "," : "") + util::json_string(h.players[i]);
  out_ << fmt::format("{{\"keli\":{},\"game\":{},\"file\":{},\"params\":{},\"seed\":{},\"players\":[{}]}}\n",
                      util::json_string(KELI_VERSION), util::json_string(h.game), util::json_string(h.file),
                      params_json(p_), h.seed, players);
}

std::string Writer::notes_json(runtime::Game& g) const {
  if (g.notes().empty()) return "";
  std::string out = ",\"notes\":[";
  for (size_t i = 0; i < g.notes().size(); ++i) out += (i ? "," : "") + util::json_string(p_.notes[g.notes()[i]]);
  return out + "]";
}

void Writer::move(runtime::Game& g, int mover, const runtime::Move& m, const runtime::State& after) {
  std::string args;
  for (int i = 0; i < m.nargs; ++i) args += (i ? "," : "") + std::to_string(m.args[i]);
  out_ << fmt::format("{{\"ply\":{},\"player\":{},\"move\":{},\"rule\":{},\"args\":[{}]{},\"state\":{}}}\n",
                      g.ply(after), mover, util::json_string(g.notation(m)), util::json_string(p_.rules[m.rule].name),
                      args, notes_json(g), state_json(p_, after));
}

void Writer::roll(runtime::Game& g, const std::vector<int32_t>& values, const runtime::State& after) {
  std::string vals;
  for (size_t i = 0; i < values.size(); ++i) vals += (i ? "," : "") + std::to_string(values[i]);
  out_ << fmt::format("{{\"ply\":{},\"chance\":true,\"move\":{},\"roll\":[{}]{},\"state\":{}}}\n", g.ply(after),
                      util::json_string(g.roll_notation(values)), vals, notes_json(g), state_json(p_, after));
}

void Writer::result(runtime::Game& g, const runtime::State& s) {
  std::string places;
  auto pl = g.places(s);
  for (size_t i = 0; i < pl.size(); ++i) places += (i ? "," : "") + std::to_string(pl[i]);
  out_ << fmt::format("{{\"result\":{{\"places\":[{}],\"ended\":\"{}\",\"plies\":{},\"moves\":{}}}}}\n", places,
                      g.ended_by_limit(s) ? "limit" : "rules", g.ply(s), g.moves(s));
}

std::string impossible_roll(runtime::Game& g, const runtime::State& s, const std::vector<int32_t>& values) {
  const auto& d = g.dice(s);
  bool possible = values.size() == d.faces.size();
  for (size_t k = 0; possible && k < values.size(); ++k)
    possible = std::find(d.faces[k].begin(), d.faces[k].end(), values[k]) != d.faces[k].end();
  if (possible) return "";
  return fmt::format("the throw {} is not possible with dice '{}'", g.roll_notation(values), d.name);
}

const runtime::Move* recorded_move(runtime::Game& g, const runtime::State& s, const std::string& rule,
                                   const std::vector<int32_t>& args, std::vector<runtime::Move>& legal,
                                   std::pair<std::string, std::string>& not_legal) {
  g.legal(s, legal);
  const compile::Program& p = g.program();
  for (const auto& m : legal)
    if (p.rules[m.rule].name == rule && m.nargs == args.size() && std::equal(args.begin(), args.end(), m.args))
      return &m;
  std::vector<std::string> names;
  for (const auto& m : legal) names.push_back(g.notation(m));
  not_legal = {fmt::format("the move '{}{}' is not legal here", rule,
                           args.empty() ? "" : fmt::format(" {}", fmt::join(args, " "))),
               fmt::format("legal: {}", fmt::join(names, ", "))};
  return nullptr;
}

namespace {

#ifndef KELI_SOURCE_ROOT
#define KELI_SOURCE_ROOT "."
#endif

// The game file as recorded: relative to the current folder, to the trace's folder, or to
// Keli's source tree (where the bundled games live). Empty when none has it.
std::string locate_game(const std::string& recorded, const std::string& trace_path) {
  namespace fs = std::filesystem;
  // As given (from the folder replay runs in), beside the trace, in Keli's tree; held to those
  // folders and the library's (ast/files.hpp), so a trace cannot name any file at all.
  std::error_code ec;
  std::string here = fs::current_path(ec).string(), beside = fs::absolute(trace_path, ec).parent_path().string();
  return ast::locate(recorded, {{"", beside}, {here, beside}}).path;
}

// One replay: the trace's lines, the game they name, and each step re-run and compared in turn.
// Every check returns 1 (having reported) or 0; a step that matches returns -1 (go on).
struct Replayer {
  diag::Diagnostics& diags;
  int file;
  std::ostream* log;
  std::vector<std::string> lines;
  std::shared_ptr<const compile::Program> prog;
  std::unique_ptr<runtime::Game> game;
  runtime::State s;
  std::vector<runtime::Move> legal;
  runtime::Move last_move;

  static constexpr int kGoOn = -1;

  int fail(int line, const std::string& message, const std::string& hint = {}) {
    diags.report(diag::Code::bad_trace, Span{file, static_cast<uint32_t>(line), 1, 1}, message, hint);
    return 1;
  }

  bool parse(size_t i, YAML::Node& out) {
    try {
      out = YAML::Load(lines[i]);
      if (!out.IsMap()) {
        fail(static_cast<int>(i + 1), "this line is not a JSON object");
        return false;
      }
      return true;
    } catch (const YAML::Exception& e) {
      diags.report(diag::Code::bad_trace,
                   Span{file, static_cast<uint32_t>(i + 1), static_cast<uint32_t>(e.mark.column + 1), 1},
                   fmt::format("this line is not valid JSON: {}", e.msg));
      return false;
    }
  }

  // The header: which game, with which parameters; compiled into `prog` and `game`.
  int open_game(const std::string& trace_path) {
    YAML::Node head;
    if (!parse(0, head)) return 1;
    if (!head["file"] || !head["params"])
      return fail(1, "the first line is not a trace header", "it needs \"file\" and \"params\"");
    std::string game_path, recorded_game;
    compile::ParamSettings settings;
    try {
      recorded_game = head["game"] ? head["game"].as<std::string>() : "";
      game_path = locate_game(head["file"].as<std::string>(), trace_path);
      if (game_path.empty())
        return fail(1, fmt::format("cannot find the game file '{}' named by the trace", head["file"].as<std::string>()),
                    "run replay from the folder the game was run in, or keep the trace beside the game");
      for (const auto& kv : head["params"])
        settings.emplace_back(kv.first.as<std::string>(), kv.second.as<std::string>());
    } catch (const YAML::Exception& e) {
      return fail(1, fmt::format("the header cannot be read: {}", e.msg));
    }
    auto gf = GameFile::open(game_path);
    diag::Diagnostics cd;
    prog = gf->ok() ? gf->compile(settings, cd) : nullptr;
    if (!prog) {
      const auto& all = gf->ok() ? cd.all() : gf->diagnostics().all();
      std::string why;
      if (!all.empty())
        why = fmt::format("{}{}", all.front().message, all.front().hint.empty() ? "" : " (" + all.front().hint + ")");
      return fail(1, fmt::format("the game '{}' named by the trace does not compile", game_path), why);
    }
    if (!recorded_game.empty() && recorded_game != prog->game_name)
      return fail(1,
                  fmt::format("the trace is of '{}', but '{}' holds '{}'", recorded_game, game_path, prog->game_name));
    game = std::make_unique<runtime::Game>(prog);
    return 0;
  }

  // The result line: the replayed game must be over, with the same places and way of ending.
  int result(const YAML::Node& n, size_t i) {
    int ln = static_cast<int>(i + 1);
    if (!game->over(s)) return fail(ln, "the trace gives a result, but the replayed game is not over");
    std::vector<int> rec;
    for (const auto& x : n["result"]["places"]) rec.push_back(x.as<int>());
    if (rec != game->places(s)) return fail(ln, "the recorded places differ from the replayed ones");
    std::string ended = n["result"]["ended"] ? n["result"]["ended"].as<std::string>() : "";
    if (ended != (game->ended_by_limit(s) ? "limit" : "rules"))
      return fail(ln, fmt::format("the trace says the game ended by '{}', the replay by '{}'", ended,
                                  game->ended_by_limit(s) ? "limit" : "rules"));
    if (i + 1 != lines.size()) return fail(ln + 1, "lines follow the result");
    if (log) *log << fmt::format("replayed {} steps: the trace matches\n", i - 1);
    return 0;
  }

  // A throw or a decision, applied as recorded.
  int apply_step(const YAML::Node& n, int ln) {
    if (n["chance"]) {
      if (!game->chance(s)) return fail(ln, "the trace throws dice where the game expects a decision");
      std::vector<int32_t> vals;
      for (const auto& x : n["roll"]) vals.push_back(x.as<int32_t>());
      if (std::string why = impossible_roll(*game, s, vals); !why.empty()) return fail(ln, why);
      game->apply_roll(s, vals);
      return kGoOn;
    }
    if (game->chance(s)) return fail(ln, "the trace records a decision where the game throws dice");
    std::string rule = n["rule"] ? n["rule"].as<std::string>() : "";
    std::vector<int32_t> args;
    for (const auto& x : n["args"]) args.push_back(x.as<int32_t>());
    if (n["player"] && n["player"].as<int>() != game->mover(s))
      return fail(ln, fmt::format("the trace has player {} moving, but it is player {}'s turn", n["player"].as<int>(),
                                  game->mover(s)));
    std::pair<std::string, std::string> not_legal;
    const runtime::Move* found = recorded_move(*game, s, rule, args, legal, not_legal);
    if (!found) return fail(ln, not_legal.first, not_legal.second);
    last_move = *found;
    game->apply(s, last_move);
    return kGoOn;
  }

  // What the line says of the step's outcome: its number, notation, notes and the state after.
  int compare_step(const YAML::Node& n, int ln) {
    if (n["ply"] && n["ply"].as<int>() != game->ply(s))
      return fail(ln, fmt::format("the trace numbers this step {}, the replay {}", n["ply"].as<int>(), game->ply(s)));
    if (n["move"] && !n["chance"]) {
      // the notation is recorded for people; it must still agree with the rule and arguments
      std::string recorded = n["move"].as<std::string>();
      std::string replayed = game->notation(last_move);
      if (recorded != replayed)
        return fail(ln,
                    fmt::format("the move is written '{}', but its rule and arguments are '{}'", recorded, replayed));
    }
    std::vector<std::string> notes;
    for (const auto& x : n["notes"]) notes.push_back(x.as<std::string>());
    std::vector<std::string> have;
    for (int id : game->notes()) have.push_back(prog->notes[id]);
    if (notes != have)
      return fail(ln, fmt::format("the notes differ: recorded [{}], replayed [{}]", fmt::join(notes, "; "),
                                  fmt::join(have, "; ")));
    if (!n["state"]) return fail(ln, "this line has no \"state\"");
    std::string diff = compare_state(*prog, s, n["state"]);
    if (!diff.empty()) return fail(ln, fmt::format("the state after this step differs: {}", diff));
    return kGoOn;
  }

  int steps() {
    int ln = 1;
    try {
      s = game->initial();
      for (size_t i = 1; i < lines.size(); ++i) {
        ln = static_cast<int>(i + 1);
        YAML::Node n;
        if (!parse(i, n)) return 1;
        if (n["result"]) return result(n, i);
        if (game->over(s)) return fail(ln, "the replayed game is already over, but the trace goes on");
        if (int r = apply_step(n, ln); r != kGoOn) return r;
        if (int r = compare_step(n, ln); r != kGoOn) return r;
      }
    } catch (const diag::Error& e) {
      return fail(ln, fmt::format("the game failed while replaying this step: {}", e.message));
    } catch (const YAML::Exception& e) {
      return fail(ln, fmt::format("a value on this line cannot be read: {}", e.msg));
    }
    return fail(static_cast<int>(lines.size()), "the trace ends before the game's result", "the file may be truncated");
  }
};

}  // namespace

int replay(const std::string& path, diag::Diagnostics& diags, SourceSet& src, std::ostream* log) {
  std::string text;
  if (!ast::read_file(path, text)) {
    diags.report(diag::Code::bad_trace, Span{}, fmt::format("cannot read trace '{}'", path));
    return 1;
  }
  Replayer r{diags, src.add(path, text), log, {}, nullptr, nullptr, {}, {}, {}};
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) r.lines.push_back(l);
  while (!r.lines.empty() && r.lines.back().find_first_not_of(" \t\r") == std::string::npos) r.lines.pop_back();
  if (r.lines.empty()) return r.fail(1, "the trace is empty");
  if (int status = r.open_game(path)) return status;
  return r.steps();
}

}  // namespace keli::trace
