// keli run: one whole game between computer players, printed move by move, optionally traced.
#include <fmt/format.h>

#include "agents/agent.hpp"
#include "cli.hpp"
#include "commands.hpp"
#include "render/text.hpp"
#include "trace/trace.hpp"

namespace keli::cli {

std::string places_text(const compile::Program& p, const std::vector<int>& places) {
  std::string out;
  for (int i = 0; i < p.num_players; ++i) {
    int pl = places[i];
    if (pl == 0) {
      out += fmt::format("{}{} unplaced", i ? ", " : "", p.seat_names[i]);
      continue;
    }
    const char* suffix = pl % 10 == 1 && pl != 11   ? "st"
                         : pl % 10 == 2 && pl != 12 ? "nd"
                         : pl % 10 == 3 && pl != 13 ? "rd"
                                                    : "th";
    out += fmt::format("{}{} {}{}", i ? ", " : "", p.seat_names[i], pl, suffix);
  }
  return out;
}

std::string result_text(const compile::Program& p, const std::vector<int>& places, const std::vector<int>& points) {
  std::string out = places_text(p, places);
  if (points.empty()) return out;
  out += "; points";
  for (int i = 0; i < p.num_players; ++i) out += fmt::format("{} {} {}", i ? "," : "", p.seat_names[i], points[i]);
  return out;
}

std::vector<int> move_sites(const compile::Program& p, const runtime::Move& m) {
  std::vector<int> out;
  for (int i = 0; i < m.nargs; ++i)
    if (p.rules[m.rule].params[i].kind == lang::ValueKind::Site) out.push_back(m.args[i]);
  return out;
}

namespace {
// The command that plays this game again, step for step: file, seed, parameters and players.
std::string run_command(const Args& a, const std::vector<std::string>& players) {
  std::string out = fmt::format("keli run {} --seed {}", a.files[0], a.seed);
  for (const auto& f : a.params_files) out += " --params " + f;
  for (const auto& [name, value] : a.params) out += fmt::format(" --param {}={}", name, value);
  std::string who;
  for (const auto& pl : players) who += (who.empty() ? "" : ",") + pl;
  if (!a.players.empty()) out += " --players " + who;
  return out;
}
}  // namespace

int cmd_run(const std::vector<std::string>& argv) {
  Args a = parse(argv, {"--param", "--params", "--seed", "--players", "--trace", "--trace-every", "--board", "--quiet",
                        "--engine", "--record-legal"});
  use_engine(a, runtime::Engine::Interp);
  if (a.files.size() != 1) throw Usage{"name one game file"};
  if (a.record_legal && a.trace.empty()) throw Usage{"--record-legal records into the trace: give --trace PATH"};
  Loaded l = load(a.files[0], a, false);
  if (!l.program) return kFailed;
  const compile::Program& p = *l.program;
  std::vector<std::string> specs = seat_players(a, p.num_players, "random");
  std::vector<std::unique_ptr<agents::Agent>> seats;
  for (const auto& s : specs) {
    std::string err;
    auto ag = agents::make_agent(s, p, err);
    if (!ag) throw Usage{err};
    seats.push_back(std::move(ag));
  }
  TraceFile trace_file;
  if (!trace_file.open(a, p, specs, input_files(l, a), true)) return kFailed;  // throws and choices all from `rng`
  trace::Writer* tw = trace_file.writer.get();
  runtime::Game g(l.program);
  runtime::Rng rng(a.seed);
  std::vector<runtime::Move> legal;
  runtime::State s;
  try {
    s = g.initial();
    if (!a.quiet) {
      std::string who;
      for (int i = 0; i < p.num_players; ++i) who += fmt::format("{}{} {}", i ? ", " : "", p.seat_names[i], specs[i]);
      fmt::print("{} ({}), seed {}: {}\n{}", p.game_name, a.files[0], a.seed, who, render::board_text(p, s));
    }
    while (!g.over(s)) {
      if (g.chance(s)) {
        std::vector<int32_t> roll = g.sample_roll(s, rng);
        g.apply_roll(s, roll);
        if (!a.quiet) {
          std::string notes;
          for (int n : g.notes()) notes += fmt::format("  ({})", p.notes[n]);
          fmt::print("{:>6}. {}{}\n", g.ply(s), g.roll_notation(roll), notes);
        }
        if (tw) tw->roll(g, roll, s);
      } else {
        int mover = g.mover(s);
        g.legal(s, legal);
        runtime::Move m = legal[seats[mover]->choose(g, s, legal, rng)];
        std::string text = !a.quiet || tw ? g.notation(s, m) : std::string();
        g.apply(s, m);
        if (!a.quiet) {
          std::string notes;
          for (int n : g.notes()) notes += fmt::format("  ({})", p.notes[n]);
          fmt::print("{:>6}. {:<8} {}{}\n", g.ply(s), p.seat_names[mover], text, notes);
          if (a.board) fmt::print("{}", render::board_text(p, s, move_sites(p, m)));
        }
        if (tw) tw->move(g, mover, m, text, s, a.record_legal ? &legal : nullptr);
      }
      if (auto bad = g.invariant_failure(s)) {
        bad->hint = "reproduce: " + run_command(a, specs);
        fmt::print(stderr, "{}", diag::render(l.file->sources(), {bad->code, bad->span, bad->message, bad->hint}));
        trace_file.keep_partial();
        return kFailed;
      }
    }
  } catch (const diag::Error& e) {
    fmt::print(stderr, "{}", diag::render(l.file->sources(), {e.code, e.span, e.message, e.hint}));
    trace_file.keep_partial();
    return kFailed;
  }
  if (tw) tw->result(g, s);
  if (!a.quiet && !a.board) fmt::print("{}", render::board_text(p, s));
  int throws = g.ply(s) - g.moves(s);
  fmt::print("result: {} ({} after {} move{}{})\n", result_text(p, g.places(s), g.points(s)),
             g.ended_by_limit(s) ? "stopped by the game's move limit" : "ended by the rules", g.moves(s),
             g.moves(s) == 1 ? "" : "s",
             throws > 0 ? fmt::format(" and {} throw{}", throws, throws == 1 ? "" : "s") : "");
  return trace_file.commit() ? kOk : kFailed;
}

}  // namespace keli::cli
