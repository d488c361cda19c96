// keli play: a person against computer players in the terminal. Bad input is asked again; the
// end of input stops the game cleanly.
#include <fmt/format.h>

#include <fstream>
#include <iostream>

#include "agents/agent.hpp"
#include "cli.hpp"
#include "commands.hpp"
#include "render/text.hpp"
#include "trace/trace.hpp"

namespace keli::cli {

std::string places_text(const compile::Program& p, const std::vector<int>& places);
std::vector<int> move_sites(const compile::Program& p, const runtime::Move& m);

static std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r\n"), e = s.find_last_not_of(" \t\r\n");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

int cmd_play(const std::vector<std::string>& argv) {
  Args a = parse(argv, {"--param", "--params", "--seed", "--players", "--seat", "--trace"});
  if (a.files.size() != 1) throw Usage{"name one game file"};
  Loaded l = load(a.files[0], a, false);
  if (!l.program) return kFailed;
  const compile::Program& p = *l.program;
  if (a.seat < 0 || a.seat >= p.num_players)
    throw Usage{fmt::format("--seat must be 0..{} for this game", p.num_players - 1)};
  if (!a.seed_given) a.seed = static_cast<uint64_t>(time(nullptr));
  std::vector<std::string> specs = seat_players(a, p.num_players, "random");
  specs[a.seat] = "human";
  std::vector<std::unique_ptr<agents::Agent>> seats(p.num_players);
  for (int i = 0; i < p.num_players; ++i) {
    if (i == a.seat) continue;
    std::string err;
    seats[i] = agents::make_agent(specs[i], err);
    if (!seats[i]) throw Usage{err};
  }
  TraceFile trace_file;
  if (!trace_file.open(a, p, specs)) return kFailed;
  trace::Writer* tw = trace_file.writer.get();
  runtime::Game g(l.program);
  runtime::Rng rng(a.seed);
  std::vector<runtime::Move> legal;
  std::vector<int> marked;
  try {
    runtime::State s = g.initial();
    fmt::print("{}: you play {} (seat {}). Type a move's number or notation; '?' lists the moves, 'quit' stops.\n",
               p.game_name, p.seat_names[a.seat], a.seat);
    bool show = true;
    while (!g.over(s)) {
      if (g.chance(s)) {
        std::vector<int32_t> roll = g.sample_roll(s, rng);
        g.apply_roll(s, roll);
        fmt::print("  {} throws: {}\n", p.seat_names[g.mover(s)], g.roll_notation(roll));
        for (int n : g.notes()) fmt::print("  ({})\n", p.notes[n]);
        if (tw) tw->roll(g, roll, s);
        continue;
      }
      int mover = g.mover(s);
      g.legal(s, legal);
      runtime::Move chosen;
      if (mover != a.seat) {
        chosen = legal[seats[mover]->choose(g, s, legal, rng)];
        fmt::print("  {} plays {}\n", p.seat_names[mover], g.notation(chosen));
      } else {
        if (show) {
          fmt::print("\n{}", render::board_text(p, s, marked));
          fmt::print("Your moves:");
          for (size_t i = 0; i < legal.size(); ++i) fmt::print("  {}) {}", i + 1, g.notation(legal[i]));
          fmt::print("\n");
        }
        show = false;
        fmt::print("{}> ", p.seat_names[mover]);
        std::fflush(stdout);
        std::string line;
        if (!std::getline(std::cin, line)) {
          fmt::print("\ninput ended: the game stops here\n");
          return kOk;
        }
        line = trim(line);
        if (line.empty()) continue;
        if (line == "quit" || line == "exit") {
          fmt::print("game stopped\n");
          return kOk;
        }
        if (line == "?" || line == "help" || line == "board") {
          show = true;
          continue;
        }
        const runtime::Move* found = nullptr;
        try {
          size_t used = 0;
          long n = std::stol(line, &used);
          if (used == line.size() && n >= 1 && n <= static_cast<long>(legal.size())) found = &legal[n - 1];
        } catch (...) {
        }
        for (const auto& m : legal)
          if (!found && g.notation(m) == line) found = &m;
        if (!found) {
          fmt::print("'{}' is not one of your moves: type 1..{} or a move as listed ('?' shows them)\n", line, legal.size());
          continue;
        }
        chosen = *found;
        show = true;
      }
      g.apply(s, chosen);
      for (int n : g.notes()) fmt::print("  ({})\n", p.notes[n]);
      marked = move_sites(p, chosen);
      if (tw) tw->move(g, mover, chosen, s);
    }
    if (tw) tw->result(g, s);
    fmt::print("\n{}result: {}\n", render::board_text(p, s), places_text(p, g.places(s)));
  } catch (const diag::Error& e) {
    fmt::print(stderr, "{}", diag::render(l.file->sources(), {e.code, e.span, e.message, e.hint}));
    return kFailed;
  }
  return kOk;
}

}  // namespace keli::cli
