// keli play: people and computer players in the terminal, any mix of seats. The board is drawn
// after every decision with what it changed marked, fitted to the terminal's size with the state
// in words under it; a person may list the moves explained, take decisions back, save the game
// as a trace and resume it later. Bad input is asked again; the end of input stops the game cleanly.
#include <fmt/format.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <iostream>

#include "agents/agent.hpp"
#include "cli.hpp"
#include "commands.hpp"
#include "play_session.hpp"
#include "render/svg.hpp"  // changed_sites
#include "render/text.hpp"
#include "rulebook/rulebook.hpp"
#include "rulebook/why_not.hpp"
#include "std_output.hpp"
#include "trace/reader.hpp"

namespace keli::cli {

std::vector<int> move_sites(const compile::Program& p, const runtime::Move& m);

namespace {

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r\n"), e = s.find_last_not_of(" \t\r\n");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// The terminal's size: the window's (standard output a terminal), else $COLUMNS and $LINES, else
// render::Screen's 80x24. A size too small to draw in, or past belief, is taken as the default.
render::Screen terminal_screen() {
  render::Screen screen;
  constexpr int kSmallest = 20;     // columns or lines below this: not a size to fit a board to
  constexpr int kLargest = 10'000;  // $COLUMNS or $LINES above this: a mistake, not a terminal
  winsize ws{};
  if (isatty(1) && ioctl(1, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= kSmallest && ws.ws_row >= kSmallest)
    return {ws.ws_col, ws.ws_row};
  auto from_env = [&](const char* name, int& out) {
    const char* v = std::getenv(name);
    char* end = nullptr;
    long n = v ? std::strtol(v, &end, 10) : 0;
    if (v && *end == '\0' && n >= kSmallest && n <= kLargest) out = static_cast<int>(n);
  };
  from_env("COLUMNS", screen.columns);
  from_env("LINES", screen.rows);
  return screen;
}

int lines_of(const std::string& text) { return static_cast<int>(std::count(text.begin(), text.end(), '\n')); }

// The game file a saved trace names: from the trace's folder (where keli play writes it from),
// or as written (from the folder the game was played in, as older traces have it).
std::string saved_game_file(const std::string& recorded, const std::string& trace_path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path beside = fs::path(trace_path).parent_path() / recorded;
  if (fs::path(recorded).is_relative() && fs::is_regular_file(beside, ec)) return beside.lexically_normal().string();
  return recorded;
}

// A saved game being resumed: read by the one trace reader, its steps verified as replay does.
struct Resume {
  trace::Reader reader;
  SourceSet src;
  diag::Diagnostics diags;
  int failed() {
    print_diagnostics(src, diags, true);
    return kFailed;
  }
};

// A saved game's file, parameters, seed and players, unless given again on the command line.
bool resume_options(Args& a, Resume& saved) {
  if (!saved.reader.open(a.resume, saved.diags, saved.src)) return false;
  const trace::Header& h = saved.reader.header();
  if (a.files.empty()) a.files.push_back(saved_game_file(h.file, a.resume));
  compile::ParamSettings given = a.params;
  a.params = saved.reader.params();
  a.params.insert(a.params.end(), given.begin(), given.end());
  if (!a.seed_given) a.seed = h.seed, a.seed_given = true;
  if (a.players.empty()) a.players = h.players;
  return true;
}

// The saved steps played again in `session`; false (reported) at the first that does not verify.
bool replay_saved(Resume& saved, const std::shared_ptr<const compile::Program>& p, PlaySession& session) {
  if (!saved.reader.start(p, trace_players())) return false;
  while (true) {
    switch (saved.reader.next()) {
      case trace::Reader::Next::Step:
        if (saved.reader.last_was_move())
          session.move(saved.reader.last_mover(), saved.reader.last_move(), true);  // a person may take it back
        else
          session.roll(saved.reader.last_roll());
        break;
      case trace::Reader::Next::Result:  // a finished game: resuming shows its end
      case trace::Reader::Next::End: return true;
      case trace::Reader::Next::Error: return false;
    }
  }
}

// One terminal game: the session, who sits where, and what the board marks.
struct Play {
  const Args& a;
  const compile::Program& p;
  PlaySession& session;
  runtime::Game& g;
  const std::vector<std::string>& specs;
  const std::vector<std::unique_ptr<agents::Agent>>& seats;
  std::vector<std::string> inputs;  // the game's files: never overwritten by a trace
  const bool bold = isatty(1);
  const render::Screen screen = terminal_screen();
  std::vector<runtime::Move> legal;
  std::vector<runtime::Game::Choice> offered;  // the legal moves as listed, one a distinct choice
  std::vector<int> marked;
  bool show = true, board_shown = false;  // board_shown: drawn since the last decision
  const SourceSet& src;                   // the game's files: rules' comments, reasons
  std::string thinking;                   // the computer player searching now
  bool shown_thinking = false;
  std::function<std::string()> rulebook_text;  // the game's rulebook as text, made when asked for
  const check::Checked& checked;

  Play(const Args& args, const compile::Program& prog, PlaySession& ses, const std::vector<std::string>& seat_specs,
       const std::vector<std::unique_ptr<agents::Agent>>& agents, const GameFile& file)
      : a(args),
        p(prog),
        session(ses),
        g(ses.game()),
        specs(seat_specs),
        seats(agents),
        src(file.sources()),
        checked(file.checked()) {
    // A searching player shows it is thinking, with a count, where a person watches.
    for (const auto& agent : seats)
      if (agent && bold)
        agent->on_progress([this](int64_t n) {
          fmt::print("\r  {} thinking... {}", thinking, n);
          flush_stdout();
          shown_thinking = true;
        });
  }

  enum class Turn { Chosen, Again, Stop };

  // The board fitted to the terminal, the variables' raw values with --debug, and the state in
  // words, leaving `below` lines of the screen to what follows (the moves and the prompt).
  std::string board_screen(const runtime::State& s, int below) {
    return render::play_screen(g, s, marked, bold, screen, a.debug ? render::variables_text(p, s, false) : "", below);
  }

  int finish_trace() {
    if (a.trace.empty()) return kOk;
    std::string why = session.save(a.trace, a.files[0], a.seed, specs, inputs, a.resume.empty());
    return why.empty() ? kOk : output_error(a.trace, fmt::format("cannot write the trace here: {}", why));
  }

  // Plays to the end of the game or of the input; the trace is written either way.
  int loop(runtime::Rng& rng) {
    while (!g.over(session.state())) {
      const runtime::State& s = session.state();
      if (g.chance(s)) {
        std::vector<int32_t> roll = g.sample_roll(s, rng);
        session.roll(roll);
        fmt::print("  {} throws: {}\n", p.seat_names[g.mover(session.state())], g.roll_notation(roll));
        for (int n : g.notes()) fmt::print("  ({})\n", p.notes[n]);
        board_shown = false;  // a person's turn after a throw shows the board with the dice
        continue;
      }
      int mover = g.mover(s);
      g.legal(s, legal);
      runtime::Move chosen;
      bool human = !seats[mover];
      if (!human) {
        thinking = p.seat_names[mover];
        chosen = legal[seats[mover]->choose(g, s, legal, rng)];
        if (shown_thinking) fmt::print("\r{:<60}\r", "");  // clear the line the count was on
        shown_thinking = false;
        fmt::print("  {} plays {}\n", p.seat_names[mover], g.notation(s, chosen));
      } else {
        Turn t = human_turn(mover, s, chosen);
        if (t == Turn::Stop) return finish_trace();
        if (t == Turn::Again) continue;
      }
      session.move(mover, chosen, human);
      for (int n : g.notes()) fmt::print("  ({})\n", p.notes[n]);
      // the move's own sites, or else what it changed on the board
      marked = move_sites(p, chosen);
      if (marked.empty()) marked = render::changed_sites(p, session.before_last(), session.state());
      // A person's decision next: drawn then, with the moves (the board sized to leave them room).
      const runtime::State& after = session.state();
      const bool person_next = !g.over(after) && !g.chance(after) && !seats[g.mover(after)];
      if (!person_next) fmt::print("{}", board_screen(after, 1));
      board_shown = !person_next;
    }
    const runtime::State& s = session.state();
    fmt::print("\n{}result: {}\n{}", board_screen(s, 2), result_text(p, g.places(s), g.points(s)), told(g.places(s)));
    return finish_trace();
  }

  // The result said to the people at the table: "you finished 2nd", "your team won".
  std::string told(const std::vector<int>& places) {
    std::string out;
    std::vector<int> people;
    for (int i = 0; i < p.num_players; ++i)
      if (!seats[i]) people.push_back(i);
    for (int h : people) {
      int pl = places[h];
      int64_t arg = h;
      bool team =
          p.team >= 0 && std::count_if(places.begin(), places.end(), [&](int x) { return x == pl; }) > 1 && [&] {
            int64_t mine = g.call(session.state(), p.team, &arg, 1);
            for (int o = 0; o < p.num_players; ++o) {
              int64_t a2 = o;
              if (o != h && places[o] == pl && g.call(session.state(), p.team, &a2, 1) == mine) return true;
            }
            return false;
          }();
      std::string who = people.size() > 1 ? p.seat_names[h] + ", you" : "You";
      if (pl == 0)
        out += fmt::format("{} were not placed: the game stopped first\n", who);
      else if (pl == 1)
        out += fmt::format("{}{} won!\n", who, team ? " and your team" : "");
      else
        out += fmt::format("{}{} finished {}{} of {}\n", who, team ? " and your team" : "", pl,
                           pl % 10 == 2 && pl != 12   ? "nd"
                           : pl % 10 == 3 && pl != 13 ? "rd"
                           : pl % 10 == 1 && pl != 11 ? "st"
                                                      : "th",
                           p.num_players);
    }
    return out;
  }

  // A person's line: a move (by number, notation or its start), a command, or a reason to ask
  // again. A single possible move is shown and played after the Enter key.
  Turn human_turn(int mover, const runtime::State& s, runtime::Move& chosen) {
    if (show) {
      offered = g.choices(s, legal);
      const std::string moves = render::moves_text(offered, screen.columns);
      if (!board_shown) fmt::print("\n{}", board_screen(s, lines_of(moves) + 1));  // and the prompt
      board_shown = false;
      fmt::print("{}", moves);
    }
    show = false;
    fmt::print("{}> ", p.seat_names[mover]);
    flush_stdout();
    std::string line;
    if (!std::getline(std::cin, line)) {
      fmt::print("\ninput ended: the game stops here\n");
      return Turn::Stop;
    }
    line = trim(line);
    if (line.empty() && offered.size() == 1) {
      chosen = offered[0].move;
      show = true;
      return Turn::Chosen;
    }
    if (line.empty()) return Turn::Again;
    if (line == "quit" || line == "exit") {
      fmt::print("game stopped\n");
      return Turn::Stop;
    }
    if (command(line, s)) return Turn::Again;
    Pick pick = pick_move(g, s, offered, line, checked, src);
    if (pick.index < 0) {
      fmt::print("{}\n", pick.message);
      return Turn::Again;
    }
    chosen = offered[pick.index].move;
    show = true;
    return Turn::Chosen;
  }

  // '?', 'why MOVE', 'rules', 'board', 'undo' and 'save FILE'; false when the line is none of them.
  bool command(const std::string& line, const runtime::State& s) {
    if (line == "?" || line == "help") {
      int last_rule = -1;
      for (size_t i = 0; i < offered.size(); ++i) {
        const auto& rule = p.rules[offered[i].move.rule];
        std::string why = offered[i].move.rule == last_rule ? "" : rule_comment(src, rule.span);
        last_rule = offered[i].move.rule;
        if (!why.empty()) fmt::print("  {}: {}\n", rule.name, why);
        fmt::print("    {}) {}: {}\n", i + 1, offered[i].text, explain_move(g, s, offered[i].move));
      }
      return true;
    }
    if (line.rfind("why ", 0) == 0) {  // why MOVE: the rule and test that make it illegal, in words
      fmt::print("{}\n", rulebook::why_not(checked, src, g, s, trim(line.substr(4))).message);
      return true;
    }
    if (line == "rules") {  // the rulebook of the game as played (its options folded in): keli rules
      fmt::print("{}", rulebook_text());
      return true;
    }
    if (line == "board") {
      show = true;
      board_shown = false;
      return true;
    }
    if (line == "undo") {
      if (!session.undo()) {
        fmt::print("nothing to undo: no decision of yours yet\n");
        return true;
      }
      marked.clear();
      board_shown = false;
      fmt::print("taken back: it is {}'s decision again\n", p.seat_names[g.mover(session.state())]);
      show = true;
      return true;
    }
    if (line.rfind("save", 0) == 0 && (line.size() == 4 || line[4] == ' ')) {
      std::string path = trim(line.substr(4));
      if (path.empty())
        fmt::print("save needs a file name: save FILE\n");
      else if (std::string why = session.save(path, a.files[0], a.seed, specs, inputs, a.resume.empty()); !why.empty())
        fmt::print("cannot write '{}': {}\n", path, why);
      else
        fmt::print("saved {} steps to {} (keli play --resume {})\n", session.steps().size(), path, path);
      return true;
    }
    return false;
  }
};

}  // namespace

int cmd_play(const std::vector<std::string>& argv) {
  Args a = parse(
      argv, {"--param", "--params", "--seed", "--players", "--seat", "--trace", "--resume", "--engine", "--debug"});
  bool seat_given =
      std::find(argv.begin(), argv.end(), "--seat") != argv.end() ||
      std::any_of(argv.begin(), argv.end(), [](const std::string& x) { return x.rfind("--seat=", 0) == 0; });
  Resume saved;
  if (!a.resume.empty() && !resume_options(a, saved)) return saved.failed();
  if (a.files.size() != 1) throw Usage{"name one game file"};
  if (a.trace == "-") throw Usage{"--trace -: a trace is written to a file (standard output shows the game): name one"};
  Loaded l = load(a.files[0], a, false);
  if (!l.program) return kFailed;
  const compile::Program& p = *l.program;
  if (a.seat < 0 || a.seat >= p.num_players)
    throw Usage{fmt::format("--seat must be 0..{} for this game", p.num_players - 1)};
  if (!a.seed_given) a.seed = static_cast<uint64_t>(time(nullptr));
  std::vector<std::string> specs = seat_players(a, p.num_players, "mcts:time=2");
  if (seat_given || std::find(specs.begin(), specs.end(), "human") == specs.end()) specs[a.seat] = "human";
  // Computer players search faster natively: with one at the table the engine is `auto` unless
  // --engine says otherwise (set before any game or agent is made).
  const bool computers = std::any_of(specs.begin(), specs.end(), [](const std::string& x) { return x != "human"; });
  use_engine(a, computers ? runtime::Engine::Auto : runtime::Engine::Interp);
  std::vector<std::unique_ptr<agents::Agent>> seats(p.num_players);
  std::vector<int> humans;
  for (int i = 0; i < p.num_players; ++i) {
    if (specs[i] == "human") {
      humans.push_back(i);
      continue;
    }
    std::string err;
    seats[i] = agents::make_agent(specs[i], p, err);
    if (!seats[i]) throw Usage{err};
  }
  PlaySession session(l.program);
  Play play(a, p, session, specs, seats, *l.file);
  play.inputs = input_files(l, a);
  play.rulebook_text = [&l] { return rulebook::print(rulebook::build(*l.file, l.program), rulebook::Format::Text); };
  // The trace is written at the end: a name it cannot take is said before the game, not after.
  if (std::string why = a.trace.empty() ? "" : util::output_problem(a.trace, play.inputs); !why.empty())
    return output_error(a.trace, fmt::format("cannot write the trace here: {}", why));
  try {
    if (!a.resume.empty()) {
      if (!replay_saved(saved, l.program, session)) return saved.failed();
      if (!session.steps().empty()) play.marked = render::changed_sites(p, session.before_last(), session.state());
      fmt::print("resumed {} after {} steps\n", a.resume, session.steps().size());
    }
    // A resumed game goes on with the seed mixed with the steps played: reproducible, though not
    // the game an uninterrupted session would have played.
    runtime::Rng rng(a.resume.empty() ? a.seed : a.seed ^ (0x9e3779b97f4a7c15ULL * (session.steps().size() + 1)));
    std::vector<std::string> you;
    for (int h : humans) you.push_back(fmt::format("{} (seat {})", p.seat_names[h], h));
    // Wrapped to the terminal's width, as the board is drawn.
    fmt::print(
        "{}{}",
        render::wrap_words(fmt::format("{}: you play {}.", p.game_name, fmt::join(you, " and ")), play.screen.columns),
        render::wrap_words("Type a move's number or notation; '?' explains the moves, 'why MOVE', 'rules', 'undo', "
                           "'save FILE', 'quit'.",
                           play.screen.columns, "  "));
    return play.loop(rng);
  } catch (const diag::Error& e) {
    fmt::print(stderr, "{}", diag::render(l.file->sources(), {e.code, e.span, e.message, e.hint}));
    return kFailed;
  }
}

}  // namespace keli::cli
