// Traces: writing JSON Lines as a game is played, the checks of a recorded step shared by the
// reader, and where the game a trace names is found.
#include "trace/trace.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "ast/files.hpp"
#include "runtime/actions.hpp"
#include "trace/state_json.hpp"
#include "util/json.hpp"

#ifndef KELI_VERSION
#define KELI_VERSION "0.0.0"
#endif

namespace keli::trace {

void Writer::header(const Header& h) {
  every_ = std::max(1, h.every);
  std::string players;
  for (size_t i = 0; i < h.players.size(); ++i) players += (i ? "," : "") + util::json_string(h.players[i]);
  out_ << fmt::format(
      "{{\"keli\":{},\"trace\":{},\"game\":{},\"file\":{},\"params\":{},\"seed\":{},\"seeded\":{},\"players\":[{}],"
      "\"every\":{}}}\n",
      util::json_string(KELI_VERSION), kTraceVersion, util::json_string(h.game), util::json_string(h.file),
      params_json(p_), h.seed, h.seeded, players, h.every);
}

// What a step line says of the state after it: always its check, the whole state now and then.
std::string Writer::after_json(runtime::Game& g, const runtime::State& after) const {
  std::string out = fmt::format(",\"check\":\"{}\"", state_check(p_, after));
  if (g.ply(after) % every_ == 0) out += ",\"state\":" + state_json(p_, after);
  return out;
}

std::string Writer::notes_json(runtime::Game& g) const {
  if (g.notes().empty()) return "";
  std::string out = ",\"notes\":[";
  for (size_t i = 0; i < g.notes().size(); ++i) out += (i ? "," : "") + util::json_string(p_.notes[g.notes()[i]]);
  return out + "]";
}

void Writer::move(runtime::Game& g, int mover, const runtime::Move& m, const std::string& notation,
                  const runtime::State& after, const std::vector<runtime::Move>* legal) {
  std::string args, ids;
  for (int i = 0; i < m.nargs; ++i) args += (i ? "," : "") + std::to_string(m.args[i]);
  if (legal) ids = ",\"legal\":" + util::json_array(legal_ids(p_, *legal));
  out_ << fmt::format("{{\"ply\":{},\"player\":{},\"move\":{},\"notation\":{},\"rule\":{},\"args\":[{}]{}{}{}}}\n",
                      g.ply(after), mover, util::json_string(g.call_text(m)), util::json_string(notation),
                      util::json_string(p_.rules[m.rule].name), args, ids, notes_json(g), after_json(g, after));
}

void Writer::roll(runtime::Game& g, const std::vector<int32_t>& values, const runtime::State& after) {
  std::string vals;
  for (size_t i = 0; i < values.size(); ++i) vals += (i ? "," : "") + std::to_string(values[i]);
  out_ << fmt::format("{{\"ply\":{},\"chance\":true,\"move\":{},\"roll\":[{}]{}{}}}\n", g.ply(after),
                      util::json_string(g.roll_notation(values)), vals, notes_json(g), after_json(g, after));
}

void Writer::result(runtime::Game& g, const runtime::State& s) {
  std::string places;
  auto pl = g.places(s);
  for (size_t i = 0; i < pl.size(); ++i) places += (i ? "," : "") + std::to_string(pl[i]);
  std::string points;  // only in a game that scores points
  if (g.scores_points()) points = fmt::format(",\"points\":[{}]", fmt::join(g.points(s), ","));
  out_ << fmt::format("{{\"result\":{{\"places\":[{}]{},\"ended\":\"{}\",\"plies\":{},\"moves\":{}}}}}\n", places,
                      points, g.ended_by_limit(s) ? "limit" : "rules", g.ply(s), g.moves(s));
}

std::vector<int64_t> legal_ids(const compile::Program& p, const std::vector<runtime::Move>& legal) {
  runtime::ActionSpace space(p);
  std::vector<int64_t> ids;
  for (const auto& m : legal) ids.push_back(space.id(m));
  std::sort(ids.begin(), ids.end());
  return ids;
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
  for (const auto& m : legal) names.push_back(g.call_text(m));
  not_legal = {fmt::format("the move '{}{}' is not legal here", rule,
                           args.empty() ? "" : fmt::format(" {}", fmt::join(args, " "))),
               fmt::format("legal: {}", fmt::join(names, ", "))};
  return nullptr;
}

#ifndef KELI_SOURCE_ROOT
#define KELI_SOURCE_ROOT "."
#endif

ast::Located locate_game(const std::string& recorded, const std::string& trace_path) {
  namespace fs = std::filesystem;
  // As given (from the folder replay runs in), beside the trace, in Keli's tree; held to those
  // folders and the library's (ast/files.hpp), so a trace cannot name any file at all.
  std::error_code ec;
  std::string here = fs::current_path(ec).string(), beside = fs::absolute(trace_path, ec).parent_path().string();
  return ast::locate(recorded, {{"", beside}, {here, beside}});
}

}  // namespace keli::trace
