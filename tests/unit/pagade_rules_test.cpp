// Pagade Kayi Ata's legal moves against a brute-force reading of RULINGS.md section 1: at every
// moving decision of seeded random games, the positions Keli's legal moves reach must be exactly
// those the rules allow, trying every piece, every two of the mover's pieces on one cell, every
// die value either way at 280 and every set of dice making a nine. Written from the rulings,
// not from the game file: the track, marks, seats, blocking, landing and captures are computed
// here; only the state's variables (pos, free, die, turns_due: its `extra`), the phase `moving` and the numbering
// of pieces (set k is pieces 4k .. 4k+3) are the game's. Pieces of one set on one position are
// alike: no two moves may reach one position, up to alike pieces (issue 38: `step` and `round`
// list alike pieces once, as `enter` and the pair moves did). The suite compares one game of each setting, capped; the
// soak plays whole games: build/tests/keli_tests "[soak][pagade]" (KELI_PAGADE_GAMES a setting, 20).
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <set>

#include "support.hpp"

namespace keli::test {
namespace {

constexpr int kPieces = 64, kCells = 16 * 24, kCentre = -1;
using Key = std::vector<int>;                // a position up to alike pieces: see key()
using Choices = std::map<Key, std::string>;  // each allowed position, with how it is reached

// The options of RULINGS.md section 1, as the game's parameters set them.
struct Options {
  int players = 16;
  bool teams = false, blocks = false, share = true, circuit = true, outer = false, pairs = true, to_centre = false;
};

Options read_options(const compile::Program& p) {
  Options o;
  for (const auto& [k, v] : p.params) {
    if (k == "players") o.players = std::stoi(v);
    if (k == "play") o.teams = v == "teams";
    if (k == "seat_layout") o.blocks = v == "blocks";
    if (k == "safe_share") o.share = v == "share";
    if (k == "second_circuit") o.circuit = v == "true";
    if (k == "exit") o.outer = v == "outer";
    if (k == "pairs") o.pairs = v == "true";
    if (k == "captured_to") o.to_centre = v == "centre";
  }
  return o;
}

// What the rules look at: every piece's position (0 in hand, home last) and whether it was sent
// to the centre, the dice not yet used, and the throws still due.
struct Position {
  std::array<int, kPieces> pos{}, free{};
  std::vector<int> dice;
  int extra = 0;
};

// Pieces of one set are alike: a position is each set's sorted (position, free), the unused
// values sorted, and the throws due.
Key key(const Position& p) {
  Key k;
  for (int set = 0; set < kPieces / 4; ++set) {
    std::array<int, 4> s;
    for (int i = 0; i < 4; ++i) s[i] = p.pos[4 * set + i] * 2 + p.free[4 * set + i];
    std::sort(s.begin(), s.end());
    k.insert(k.end(), s.begin(), s.end());
  }
  std::vector<int> d = p.dice;
  std::sort(d.begin(), d.end());
  k.insert(k.end(), d.begin(), d.end());
  k.push_back(-1);
  k.push_back(p.extra);
  return k;
}

// Board: cell (arm, column L 0 / C 1 / R 2, depth d0 outer .. d7 inner).
int cell(int arm, int column, int depth) { return arm * 24 + column * 8 + depth; }
// Marked: L and R at d0, d3, d6; C at d2 and d5.
bool marked(int c) {
  int column = c % 24 / 8, depth = c % 8;
  return column == 1 ? depth == 2 || depth == 5 : depth % 3 == 0;
}

// The track of the set whose home arm is h (RULINGS.md, "Track of a set"): the cell of each
// position; the centre at 0 (in hand) and home.
std::vector<int> track(int h, bool outer) {
  std::vector<int> t = {kCentre};
  for (int d = 7; d >= 0; --d) t.push_back(cell(h, 1, d));  // 1..8 own C d7 -> d0
  for (int d = 0; d <= 7; ++d) t.push_back(cell(h, 2, d));  // 9..16 own R d0 -> d7
  for (int k = 1; k < 16; ++k) {                            // 17..271 the following arms
    int a = (h + k) % 16;
    for (int d = 7; d >= 0; --d) t.push_back(cell(a, 0, d));
    t.push_back(cell(a, 1, 0));
    for (int d = 0; d <= 7; ++d) t.push_back(cell(a, 2, d));
  }
  for (int d = 7; d >= 0; --d) t.push_back(cell(h, 0, d));  // 272..279 own L d7 -> d0
  if (!outer)
    for (int d = 0; d <= 7; ++d) t.push_back(cell(h, 1, d));  // 280 own C d0, 281..287 d1 -> d7
  t.push_back(kCentre);                                       // home
  return t;
}

class Rules {
 public:
  explicit Rules(const Options& o) : o_(o) {
    for (int h = 0; h < 16; ++h) tracks_.push_back(track(h, o.outer));
    home_ = static_cast<int>(tracks_[0].size()) - 1;
  }

  // Every position the mover may reach with one decision of the moving phase.
  Choices allowed(const Position& p, int mover) const {
    Choices out;
    Counts c = counts(p);
    enter(p, c, mover, out);
    singles(p, c, mover, out);
    if (o_.pairs) pair_moves(p, c, mover, out);
    if (out.empty()) out.emplace(key(lose(p)), "lose");
    return out;
  }

 private:
  using Counts = std::vector<std::array<int, 16>>;  // per cell, how many of each player's pieces
  struct Go {                                       // one piece moving, and where it arrives
    int piece, to;
  };

  // Player i of n owns arms i, i+n, ... (spread) or n consecutive blocks; teams alternate.
  int owner(int piece) const {
    int set = piece / 4;
    return o_.blocks ? set / (16 / o_.players) : set % o_.players;
  }
  int team(int player) const { return o_.teams ? player % 2 : player; }
  int cell_of(int piece, int at) const { return tracks_[piece / 4][at]; }
  bool on_board(const Position& p, int x) const { return p.pos[x] >= 1 && p.pos[x] < home_; }

  Counts counts(const Position& p) const {
    Counts c(kCells);
    for (auto& row : c) row.fill(0);
    for (int x = 0; x < kPieces; ++x)
      if (on_board(p, x)) ++c[cell_of(x, p.pos[x])][owner(x)];
    return c;
  }
  // Two or more pieces of one player on a cell form a pair.
  bool pair_at(const Counts& c, int cell) const {
    return o_.pairs && std::any_of(c[cell].begin(), c[cell].end(), [](int n) { return n >= 2; });
  }

  // Where piece x arrives moving v: straight on (not beyond home), or, `again`, round the
  // circuit again by a move that passes or leaves 280, continuing from 9; -1 if it cannot.
  int target(const Position& p, int x, int v, bool again) const {
    int from = p.pos[x], to = from + v;
    if (!again) return to <= home_ ? to : -1;
    bool may = o_.circuit && !o_.outer && from >= 1 && from <= 280 && to > 280;
    return may ? 9 + to - 281 : -1;
  }

  // No cell passed (strictly between from and to along the route taken) holds a pair.
  bool clear(const Counts& c, int x, int from, int to, bool again) const {
    std::vector<int> passed;
    for (int i = from + 1; i < (again ? 281 : to); ++i) passed.push_back(i);
    if (again)
      for (int i = 9; i < to; ++i) passed.push_back(i);
    return std::none_of(passed.begin(), passed.end(), [&](int i) { return i >= 1 && pair_at(c, cell_of(x, i)); });
  }

  int opponents(const Counts& c, int cell, int mover) const {
    int n = 0;
    for (int q = 0; q < o_.players; ++q)
      if (team(q) != team(mover)) n += c[cell][q];
    return n;
  }
  bool opponent_pair(const Counts& c, int cell, int mover) const {
    for (int q = 0; q < o_.players; ++q)
      if (team(q) != team(mover) && c[cell][q] >= 2 && o_.pairs) return true;
    return false;
  }

  // Whether x may arrive at `to`: home by an exact throw; on a marked cell it shares (or, with
  // safe_share = forbid, may not land on opponents); a single piece may not land on an opponent
  // pair; a pair moving as one may.
  bool may_land(const Counts& c, int mover, int x, int to, bool as_pair) const {
    if (to == home_) return true;
    int at = cell_of(x, to);
    if (opponents(c, at, mover) == 0) return true;
    if (marked(at)) return o_.share;
    return as_pair || !opponent_pair(c, at, mover);
  }

  // The position after `moves` with `rest` the values left: opponents on the unmarked cell
  // arrived at go back (to hand, or to the centre), earning a throw; a player with every piece
  // home drops out (the rest of the turn lost); a throw used up starts the next one due.
  Position after(const Position& p, int mover, const std::vector<Go>& moves, std::vector<int> rest) const {
    Position q = p;
    for (const Go& g : moves) {
      q.pos[g.piece] = g.to;
      q.free[g.piece] = 0;
    }
    int to = moves[0].to, at = cell_of(moves[0].piece, to);
    bool sent = false;
    for (int y = 0; y < kPieces && to != home_ && !marked(at); ++y)
      if (on_board(p, y) && team(owner(y)) != team(mover) && cell_of(y, p.pos[y]) == at) {
        q.pos[y] = 0;
        q.free[y] = o_.to_centre;
        sent = true;
      }
    q.extra += sent;
    q.dice = std::move(rest);
    bool finished = true;
    for (int x = 0; x < kPieces; ++x) finished = finished && (owner(x) != mover || q.pos[x] == home_);
    if (finished) {
      q.dice.clear();
      q.extra = 0;
    } else if (q.dice.empty() && q.extra > 0) {
      --q.extra;
    }
    return q;
  }
  Position lose(const Position& p) const {
    Position q = p;
    q.dice.clear();
    if (q.extra > 0) --q.extra;
    return q;
  }

  static std::vector<int> without(const std::vector<int>& dice, unsigned used) {
    std::vector<int> rest;
    for (size_t i = 0; i < dice.size(); ++i)
      if (!(used >> i & 1)) rest.push_back(dice[i]);
    return rest;
  }

  // A piece in hand enters on position 1 on a nine: any set of the unused dice adding up to 9.
  void enter(const Position& p, const Counts& c, int mover, Choices& out) const {
    for (int x = 0; x < kPieces; ++x) {
      if (owner(x) != mover || p.pos[x] != 0 || p.free[x] || !may_land(c, mover, x, 1, false)) continue;
      for (unsigned used = 1; used < 1u << p.dice.size(); ++used) {
        int sum = 0;
        for (size_t i = 0; i < p.dice.size(); ++i) sum += (used >> i & 1) ? p.dice[i] : 0;
        if (sum == 9) out.emplace(key(after(p, mover, {{x, 1}}, without(p.dice, used))), fmt::format("enter {}", x));
      }
    }
  }

  // One piece on the board (or sent to the centre) moves by one unused value, either way at 280.
  void singles(const Position& p, const Counts& c, int mover, Choices& out) const {
    for (int x = 0; x < kPieces; ++x) {
      if (owner(x) != mover || !(on_board(p, x) || (p.pos[x] == 0 && p.free[x]))) continue;
      for (size_t i = 0; i < p.dice.size(); ++i)
        for (bool again : {false, true}) {
          int to = target(p, x, p.dice[i], again);
          if (to < 0 || !clear(c, x, p.pos[x], to, again) || !may_land(c, mover, x, to, false)) continue;
          out.emplace(key(after(p, mover, {{x, to}}, without(p.dice, 1u << i))),
                      fmt::format("piece {} to {}{}", x, to, again ? " (round again)" : ""));
        }
    }
  }

  // Any two of the mover's pieces on one cell move as one by one value, each either way at its
  // own 280, if both arrive on one cell (or both home).
  void pair_moves(const Position& p, const Counts& c, int mover, Choices& out) const {
    for (int x = 0; x < kPieces; ++x)
      for (int y = x + 1; y < kPieces; ++y) {
        if (owner(x) != mover || owner(y) != mover || !on_board(p, x) || !on_board(p, y)) continue;
        if (cell_of(x, p.pos[x]) != cell_of(y, p.pos[y])) continue;
        for (size_t i = 0; i < p.dice.size(); ++i)
          for (int way = 0; way < 4; ++way) pair_move(p, c, mover, x, y, i, way, out);
      }
  }
  void pair_move(const Position& p, const Counts& c, int mover, int x, int y, size_t i, int way, Choices& out) const {
    bool ax = way & 1, ay = way & 2;
    int tx = target(p, x, p.dice[i], ax), ty = target(p, y, p.dice[i], ay);
    if (tx < 0 || ty < 0) return;
    bool together = (tx == home_ && ty == home_) || (tx < home_ && ty < home_ && cell_of(x, tx) == cell_of(y, ty));
    if (!together || !clear(c, x, p.pos[x], tx, ax) || !clear(c, y, p.pos[y], ty, ay)) return;
    if (!may_land(c, mover, x, tx, true)) return;
    out.emplace(key(after(p, mover, {{x, tx}, {y, ty}}, without(p.dice, 1u << i))),
                fmt::format("pieces {} and {} to {} and {}{}{}", x, y, tx, ty, ax ? " (first round again)" : "",
                            ay ? " (second round again)" : ""));
  }

  Options o_;
  std::vector<std::vector<int>> tracks_;
  int home_ = 288;
};

// Where the game keeps the variables the rules read.
struct Layout {
  int pos = -1, free = -1, die = -1, extra = -1, moving = -1;
  explicit Layout(const compile::Program& p) {
    for (const auto& v : p.vars) {
      if (v.name == "pos") pos = v.base;
      if (v.name == "free") free = v.base;
      if (v.name == "die") die = v.base;
      if (v.name == "turns_due") extra = v.base;
    }
    for (size_t i = 0; i < p.phases.size(); ++i)
      if (p.phases[i].name == "moving") moving = static_cast<int>(i);
    REQUIRE(std::min({pos, free, die, extra, moving}) >= 0);
  }
  Position read(const runtime::State& s) const {
    Position p;
    for (int x = 0; x < kPieces; ++x) {
      p.pos[x] = s[pos + x];
      p.free[x] = s[free + x];
    }
    for (int i = 0; i < 4; ++i)
      if (s[die + i] != 0) p.dice.push_back(s[die + i]);
    p.extra = s[extra];
    return p;
  }
};

struct Tally {
  int games = 0;
  long long decisions = 0, compared = 0, mismatches = 0, alike_twins = 0;
  long long pair_with = 0, pair_again = 0;  // decisions offering such moves (what the comparison covered)
};

std::string describe(const Position& p) {
  std::string out = fmt::format("dice [{}], extra {}; on the track:", fmt::join(p.dice, " "), p.extra);
  for (int x = 0; x < kPieces; ++x)
    if (p.pos[x] != 0 || p.free[x]) out += fmt::format(" {}@{}{}", x, p.pos[x], p.free[x] ? "f" : "");
  return out;
}

// Counts a decision offering `pair_with` moves, and one with a piece going round again.
void count_pair_moves(const runtime::Game& game, const std::vector<runtime::Move>& legal, Tally& t) {
  bool with = false, again = false;
  for (const auto& m : legal)
    if (game.program().rules[m.rule].name == "pair_with") {
      with = true;
      again = again || m.args[3] != 0;
    }
  t.pair_with += with;
  t.pair_again += again;
}

// The positions Keli's legal moves reach, each with the moves reaching it; a move reaching the
// very state of one before it is a difference.
std::map<Key, std::vector<size_t>> reached(runtime::Game& game, const runtime::State& s,
                                           const std::vector<runtime::Move>& legal, const Layout& layout,
                                           std::string& diff) {
  std::map<Key, std::vector<size_t>> out;
  std::set<runtime::State> states;
  for (size_t i = 0; i < legal.size(); ++i) {
    runtime::State after = s;
    game.apply(after, legal[i]);
    if (!states.insert(after).second)
      diff += fmt::format("\n  '{}' reaches a state listed before", game.call_text(legal[i]));
    out[key(layout.read(after))].push_back(i);
  }
  return out;
}

// Compares one moving decision; returns what differs ("" when nothing does).
std::string compare(runtime::Game& game, const runtime::State& s, const std::vector<runtime::Move>& legal,
                    const Rules& rules, const Layout& layout, Tally& t) {
  Position now = layout.read(s);
  Choices allowed = rules.allowed(now, game.mover(s));
  std::string diff;
  count_pair_moves(game, legal, t);
  auto keli = reached(game, s, legal, layout, diff);
  auto shown = [&](size_t i) { return game.call_text(legal[i]); };
  for (const auto& [k, moves] : keli) {
    if (!allowed.count(k)) diff += fmt::format("\n  the rules forbid '{}'", shown(moves[0]));
    for (size_t j = 1; j < moves.size(); ++j, ++t.alike_twins)
      diff += fmt::format("\n  '{}' and '{}' reach one position", shown(moves[0]), shown(moves[j]));
  }
  for (const auto& [k, how] : allowed)
    if (!keli.count(k)) diff += fmt::format("\n  no move reaches what the rules allow: {}", how);
  if (diff.empty()) return "";
  std::vector<std::string> all;
  for (size_t i = 0; i < legal.size(); ++i) all.push_back(shown(i));
  return fmt::format("P{} to move, {}\n  Keli: {}{}", game.mover(s) + 1, describe(now), fmt::join(all, ", "), diff);
}

// Plays `games` seeded random games of one setting (each stopped after `cap` decisions),
// comparing every moving decision.
Tally compare_games(const compile::ParamSettings& settings, int games, long long cap) {
  auto prog = compile(source_path("games/pagade_kayi_ata.keli"), settings);
  runtime::Game game(prog);
  Rules rules(read_options(*prog));
  Layout layout(*prog);
  Tally t;
  std::vector<runtime::Move> legal;
  for (int seed = 1; seed <= games; ++seed, ++t.games) {
    runtime::Rng rng(static_cast<uint64_t>(seed));
    runtime::State s = game.initial();
    for (long long n = 0; !game.over(s) && n < cap;) {
      if (game.chance(s)) {
        game.apply_roll(s, game.sample_roll(s, rng));
        continue;
      }
      game.legal(s, legal);
      REQUIRE(!legal.empty());
      if (s[compile::kPhase] == layout.moving) {
        std::string diff = compare(game, s, legal, rules, layout, t);
        ++t.compared;
        if (!diff.empty() && ++t.mismatches <= 3)  // the first few are shown in full
          FAIL_CHECK(fmt::format("seed {}, decision {}: {}", seed, n, diff));
      }
      game.apply(s, legal[rng.below(legal.size())]);
      ++n;
      ++t.decisions;
    }
  }
  return t;
}

// 4, 8 and 16 players, alone or in teams, two octagonal or four long dice; then the other
// options once each (the outer-exit variant's three together).
std::vector<compile::ParamSettings> settings() {
  std::vector<compile::ParamSettings> out;
  for (const char* players : {"4", "8", "16"})
    for (const char* play : {"individual", "teams"})
      for (const char* dice : {"octagonal", "long"})
        out.push_back({{"players", players}, {"play", play}, {"dice", dice}});
  out.push_back({{"players", "4"}, {"seat_layout", "blocks"}});
  out.push_back({{"players", "8"}, {"second_circuit", "false"}});
  out.push_back({{"players", "4"}, {"safe_share", "forbid"}});
  out.push_back({{"players", "4"}, {"exit", "outer"}, {"captured_to", "centre"}, {"pairs", "false"}});
  return out;
}

void run(int games, long long cap) {
  for (const auto& s : settings()) {
    std::vector<std::string> parts;
    for (const auto& [k, v] : s) parts.push_back(k + "=" + v);
    std::string label = fmt::format("{}", fmt::join(parts, " "));
    DYNAMIC_SECTION(label) {
      Tally t = compare_games(s, games, cap);
      fmt::print(
          "pagade rules, {}: {} games, {} decisions, {} compared, {} mismatches; {} with a pair_with move "
          "(going round again: {}); {} moves reaching a position listed before (must be 0)\n",
          label, t.games, t.decisions, t.compared, t.mismatches, t.pair_with, t.pair_again, t.alike_twins);
      std::fflush(stdout);
      CHECK(t.mismatches == 0);
    }
  }
}

}  // namespace

TEST_CASE("Pagade Kayi Ata: Keli's legal moves are the rulings' moves (a sample)", "[pagade]") { run(1, 20000); }

// The whole games (hidden from the default run): build/tests/keli_tests "[soak][pagade]". With
// the other soaks ("[soak]"), KELI_BATTERY_GAME naming another game leaves it out.
TEST_CASE("Pagade Kayi Ata: Keli's legal moves are the rulings' moves (whole games)", "[.soak][pagade]") {
  const char* only = std::getenv("KELI_BATTERY_GAME");
  if (only && std::string("pagade_kayi_ata.keli").find(only) == std::string::npos) return;
  const char* n = std::getenv("KELI_PAGADE_GAMES");
  run(n ? std::max(1, std::atoi(n)) : 20, 1LL << 40);
}

}  // namespace keli::test
