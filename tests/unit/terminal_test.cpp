// keli play in a terminal of 80x24 (issue 36): for every game of games/, at the start and after
// random steps, the screen of a turn (the board fitted to the terminal, the status line in
// words, the moves and the prompt) is no wider than 80 columns and, for the seed games and every
// game but those named below, no taller than 24 lines; the pieces drawn are labelled as
// Game::piece_label names them, the holes as the moves number them, the places in the status
// line as the moves count them; and keli play itself, told 80x24, keeps to it (--debug adds the
// variables' raw lines).
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "render/text.hpp"
#include "runtime/rng.hpp"
#include "support.hpp"

using namespace keli;

namespace {

constexpr render::Screen kTerminal{80, 24};
constexpr int kSteps = 40;      // random steps (throws and decisions) before the second screen
constexpr int kSeedsTried = 3;  // random games per game file
const std::set<std::string> kSeeds = {"raja_pasu", "pahada_keliya", "pagade_kayi_ata"};

// The games whose turn cannot fit 24 lines, and why: the move list. A placement game offers every
// empty cell (Gomoku at the start: 225 moves).
const std::map<std::string, std::string> kTooTall = {
    {"amazons", "80 queen moves at the start: 12 lines of moves under 13 of board and status"},
    {"gomoku", "225 placements at the start: 26 lines of moves under 16 of board and status"},
    {"hex", "121 placements at the start: 13 lines of moves under 13 of board and status"},
};

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// The screen of a turn as keli play prints it: board, status line, moves, prompt.
struct Turn {
  std::string board, status, moves, screen;
};

Turn turn_screen(runtime::Game& g, const runtime::State& s) {
  Turn t;
  std::vector<runtime::Move> legal;
  std::vector<runtime::Game::Choice> offered;
  if (!g.over(s)) {
    g.legal(s, legal);
    offered = g.choices(s, legal);
    t.moves = render::moves_text(offered, kTerminal.columns);
  }
  const int below = static_cast<int>(lines_of(t.moves).size()) + 1;  // and the prompt
  t.status = render::status_line(g, s, kTerminal.columns);
  t.screen = render::play_screen(g, s, {}, false, kTerminal, "", below);
  t.board = t.screen.substr(0, t.screen.size() - t.status.size());
  t.screen += t.moves + g.program().seat_names[g.mover(s)] + "> \n";
  return t;
}

// Every piece label drawn (a seat's letter and a number, or its name, a dot and a number: S1,
// P1.1, Hounds.2) outside the keys' lines.
std::set<std::string> drawn_labels(const std::string& board) {
  static const std::regex label(R"((^|[^A-Za-z0-9.])([A-Z][A-Za-z]*([0-9]+(\.[0-9]+)?|\.[0-9]+)))");
  std::set<std::string> out;
  for (const auto& line : lines_of(board)) {
    if (line.rfind("  (", 0) == 0) continue;  // a key: "(A-P: a piece of P1-P16; ...)"
    for (std::sregex_iterator it(line.begin(), line.end(), label), end; it != end; ++it) out.insert((*it)[2]);
  }
  return out;
}

// The pieces drawn are named as the moves name them: every seat's first piece on each cell by its
// label, and no label that is not a piece's on the board.
void check_labels(runtime::Game& g, const runtime::State& s, const std::string& board) {
  const compile::Program& p = g.program();
  if (p.piece_site < 0 || p.piece_owner < 0) return;
  std::set<std::string> on_board;
  std::map<std::pair<int64_t, int64_t>, std::string> first;  // (site, seat) -> the first piece's label
  for (int pc = 0; pc < p.num_pieces; ++pc) {
    int64_t arg = pc;
    int64_t site = g.call(s, p.piece_site, &arg, 1), owner = g.call(s, p.piece_owner, &arg, 1);
    if (site < 0 || site >= p.num_sites || owner < 0 || owner >= p.num_players) continue;
    on_board.insert(g.piece_label(s, pc));
    first.emplace(std::make_pair(site, owner), g.piece_label(s, pc));
  }
  std::set<std::string> drawn = drawn_labels(board);
  for (const auto& [at, label] : first) {
    INFO("site " << at.first << ", seat " << at.second);
    CHECK(drawn.count(label) == 1);
  }
  for (const auto& label : drawn) {
    INFO("drawn " << label);
    CHECK(on_board.count(label) == 1);
  }
}

// The words match the moves: Raja Pasu's `sow hole K (N)` is hole K:N in the mover's row (the
// line that ends with the mover's name); a race game's `S1 6-10 (4)` says S1 stands at 6, and
// the status line says so too.
void check_words(runtime::Game& g, const runtime::State& s, const Turn& t) {
  static const std::regex sow(R"(^sow hole (\d+) \((\d+)\)$)"), race(R"(^(\S+) (\d+)-\d+)");
  const std::string mover = g.program().seat_names[g.mover(s)];
  std::vector<runtime::Move> legal;
  if (g.over(s)) return;
  g.legal(s, legal);
  for (const auto& c : g.choices(s, legal)) {
    std::smatch m;
    if (std::regex_match(c.text, m, sow)) {
      bool found = false;
      for (const auto& line : lines_of(t.board))
        if (line.size() > mover.size() && line.substr(line.size() - mover.size()) == mover)
          found =
              found || std::regex_search(line, std::regex(fmt::format(R"((^|[ \[]){}:{}\b)", m[1].str(), m[2].str())));
      INFO(c.text << "\n" << t.board);
      CHECK(found);
    } else if (std::regex_search(c.text, m, race)) {
      INFO(c.text << "\n" << t.status);
      CHECK(std::regex_search(t.status, std::regex(fmt::format(R"({}( x\d+)? at {}\b)", m[1].str(), m[2].str()))));
    }
  }
}

void check_screen(runtime::Game& g, const runtime::State& s, const std::string& game, const std::string& when,
                  bool start) {
  Turn t = turn_screen(g, s);
  INFO(game << " " << when << ":\n" << t.screen);
  for (const auto& line : lines_of(t.screen)) CHECK(line.size() <= static_cast<size_t>(kTerminal.columns));
  if (kSeeds.count(game) || !kTooTall.count(game))
    CHECK(lines_of(t.screen).size() <= static_cast<size_t>(kTerminal.rows));
  else if (start)  // still too tall, or the list above is out of date
    CHECK(lines_of(t.screen).size() > static_cast<size_t>(kTerminal.rows));
  check_labels(g, s, t.board);
  if (kSeeds.count(game)) check_words(g, s, t);
}

// Random throws and moves; throws are made up to the next decision, as keli play makes them.
void random_steps(runtime::Game& g, runtime::State& s, runtime::Rng& rng, int steps) {
  std::vector<runtime::Move> legal;
  for (int k = 0; (k < steps || g.chance(s)) && !g.over(s); ++k) {
    if (g.chance(s)) {
      g.apply_roll(s, g.sample_roll(s, rng));
      continue;
    }
    g.legal(s, legal);
    g.apply(s, legal[rng.below(legal.size())]);
  }
}

}  // namespace

TEST_CASE("terminal: every game's turn fits 80 columns, and 24 lines but for long move lists", "[terminal]") {
  for (const auto& file : test::game_files()) {
    const std::string game = std::filesystem::path(file).stem().string();
    auto program = test::compile(file);
    REQUIRE(program);
    for (uint64_t seed = 1; seed <= kSeedsTried; ++seed) {
      runtime::Game g(program);
      runtime::Rng rng(seed);
      runtime::State s = g.initial();
      random_steps(g, s, rng, 0);
      if (seed == 1) check_screen(g, s, game, "at the start", true);
      random_steps(g, s, rng, kSteps);
      check_screen(g, s, game, fmt::format("after {} random steps (seed {})", kSteps, seed), false);
    }
  }
}

TEST_CASE("terminal: the seed games' screens, one of each kind of drawing", "[terminal]") {
  auto screen_of = [](const std::string& file) {
    auto program = test::compile(test::source_path(file));
    runtime::Game g(program);
    runtime::State s = g.initial();
    runtime::Rng rng(1);
    random_steps(g, s, rng, 0);
    return turn_screen(g, s);
  };
  // Raja Pasu: board_text's grid, holes numbered as the moves number them, each row's seat.
  Turn raja = screen_of("games/raja_pasu.keli");
  CHECK_THAT(raja.board,
             Catch::Contains("  7:7 6:7 5:7 4:7 3:7 2:7 1:7  North\n  1:7 2:7 3:7 4:7 5:7 6:7 7:7  South\n"));
  CHECK(raja.status == "  South to play (sowing). Store: South 0, North 0. Round 1.\n");
  // Pahada Keliya: 96 columns as a grid, so the compact grid: stacks as `S3+`, listed under it.
  Turn pahada = screen_of("games/pahada_keliya.keli");
  CHECK_THAT(pahada.board,
             Catch::Contains("    .  W2  W1   .   .   .   .   .       .       .   .   .   .   .  E1  E2   .\n"));
  CHECK_THAT(pahada.board, Catch::Contains("  stacks: S3+ = S3x2, E3+ = E3x2, N3+ = N3x2, W3+ = W3x2\n"));
  CHECK_THAT(pahada.status,
             Catch::Matches(R"(  South to play \(moving\)\. Dice \d \d\. S1 at 6, S2 at 7, S3 x2 at 11\.\n)"));
  // Pagade Kayi Ata: a ring of 385 cells, a picture with the cells by name beside it.
  Turn pagade = screen_of("games/pagade_kayi_ata.keli");
  CHECK_THAT(pagade.board, Catch::Contains("0:P1.1x4+P2.1x4+"));
  CHECK_THAT(pagade.board, Catch::Contains("(A-P: a piece of P1-P16; a-p: several; *: several seats; x: marked)"));
  CHECK(pagade.status == "  P1 to play (turn). P1.1 x4 at 0.\n");
}

// keli play told the terminal is 80x24 ($COLUMNS, $LINES: its output is not a terminal): every
// line fits 80 columns and every turn, from the board to the prompt, 24 lines; the variables'
// raw lines only with --debug.
TEST_CASE("terminal: keli play keeps every turn within 80x24, and --debug adds the raw variables", "[terminal][play]") {
  setenv("COLUMNS", "80", 1);
  setenv("LINES", "24", 1);
  std::string input;
  for (int i = 0; i < 60; ++i) input += "1\n";
  for (const auto& [game, players] : std::vector<std::pair<std::string, std::string>>{
           {"raja_pasu", "human,random"}, {"pahada_keliya", "human,random"}, {"pagade_kayi_ata", "human,random"}}) {
    auto r =
        test::keli_input({"play", "games/" + game + ".keli", "--seed", "7", "--players", players}, input + "quit\n");
    REQUIRE(r.status == 0);
    CHECK(r.out.find("pos:") == std::string::npos);  // no raw variables
    // A line for the prompt: the person's answer ends it in a terminal.
    std::string out = std::regex_replace(r.out, std::regex(R"((^|\n)(\S+> ))"), "$1$2\n");
    std::vector<std::string> lines = lines_of(out);
    int turns = 0;
    size_t top = 0;  // the first line of the turn being read: after the last blank line
    for (size_t k = 0; k < lines.size(); ++k) {
      INFO(game << " line " << k + 1 << ": " << lines[k]);
      CHECK(lines[k].size() <= static_cast<size_t>(kTerminal.columns));
      if (lines[k].empty()) top = k + 1;
      if (lines[k].size() > 2 && lines[k].substr(lines[k].size() - 2) == "> " &&
          lines[k].find(' ') + 1 == lines[k].size()) {
        ++turns;
        CHECK(k + 1 - top <= static_cast<size_t>(kTerminal.rows));
      }
    }
    CHECK(turns >= 10);
  }
  auto debug = test::keli_input({"play", "games/pahada_keliya.keli", "--seed", "7", "--debug"}, "quit\n");
  REQUIRE(debug.status == 0);
  CHECK_THAT(debug.out, Catch::Contains("  pos: 6 7 11 11 6 7 11 11"));
  CHECK_THAT(debug.out, Catch::Contains("  escorted: South no, East no, North no, West no\n"));
  unsetenv("COLUMNS");
  unsetenv("LINES");
}
