// The hand-written Pagade Kayi Ata: fixed arrays, one track table, pieces counted per cell and
// player as they move, no allocation. Each function mirrors a definition of
// games/pagade_kayi_ata.keli (named in the comments) or stdlib/arms.keli, because the
// identical-state test requires the same state after every step.
#include "pagade_native.hpp"

#include "baseline.hpp"

namespace keli::bench {

namespace {

using G = PagadeKayiAta;
using S = G::State;
static_assert(RaceTracks<G::kArms>::kLength == G::kHome + 1);

// race_track(h, 16, false) and the marked cells (stdlib/arms.keli's outer and centre marks).
struct Board : RaceTracks<G::kArms> {
  bool marked[G::kCells] = {};
  constexpr Board() {
    for (int h = 0; h < G::kArms; ++h)
      for (int column = 0; column < 3; ++column)
        for (int depth = 0; depth < 8; ++depth)
          marked[arm_cell(h, column, depth)] = column != 1 ? depth % 3 == 0 : depth == 2 || depth == 5;
  }
};
constexpr Board kBoard;

constexpr int arm(int pc) { return pc / 4; }
constexpr bool on_board(int at) { return at >= 1 && at < G::kHome; }
inline int square(const S& s, int pc) { return kBoard.at[arm(pc)][s.pos[pc]]; }

// arrival(pc, v, again): the position reached, or -1; going round again continues from 9.
inline int arrival(int from, int v, bool again) {
  const int to = from + v;
  if (!again) return to <= G::kHome ? to : -1;
  if (from >= 1 && from <= G::kTurn && to > G::kTurn) return G::kRoundTo - 1 + to - G::kTurn;
  return -1;
}

// path_clear(pc, from, to, round): no pair strictly between, round the circuit again if asked.
bool path_clear(const S& s, int a, int from, int to, bool round) {
  const int last = round ? G::kTurn : to - 1;
  for (int i = from + 1; i <= last; ++i)
    if (i >= 1 && s.pairs[kBoard.at[a][i]] > 0) return false;
  if (round)
    for (int i = G::kRoundTo; i < to; ++i)
      if (s.pairs[kBoard.at[a][i]] > 0) return false;
  return true;
}

// nine(mask): unused dice adding up to nine, equal values taken from the first dice showing them.
bool nine(const S& s, int mask) {
  int total = 0, seen = 0;
  for (int i = 0; i < G::kDice; ++i) {
    if (!((mask >> i) & 1)) continue;
    if (s.die[i] == 0) return false;
    for (int j = 0; j < i; ++j)
      if (s.die[j] == s.die[i] && !((mask >> j) & 1)) return false;
    total += s.die[i];
    ++seen;
  }
  return seen > 0 && total == G::kNine;
}

// first_in_hand(pc) (nothing is ever `free` with captured_to = hand) and first_alike(pc).
inline bool first_at(const S& s, int pc, int at) {
  if (s.pos[pc] != at) return false;
  for (int q = 4 * arm(pc); q < pc; ++q)
    if (s.pos[q] == at) return false;
  return true;
}
// next_alike(pc, q).
inline bool next_alike(const S& s, int pc, int q) {
  for (int r = 4 * arm(q); r < q; ++r)
    if (r != pc && s.pos[r] == s.pos[q]) return false;
  return true;
}

}  // namespace

int PagadeKayiAta::cell(int a, int at) { return kBoard.at[a][at]; }
bool PagadeKayiAta::marked(int c) { return kBoard.marked[c]; }

PagadeKayiAta::PagadeKayiAta(int players) : players_(players), per_player_(kPieces / players) {
  std::array<int, kMaxPlayers> n{};
  for (int pc = 0; pc < kPieces; ++pc) {
    owner_[pc] = static_cast<int8_t>(arm(pc) % players);  // seat_layout = spread
    pieces_of_[owner_[pc]][n[owner_[pc]]++] = static_cast<int8_t>(pc);
  }
}

// may_land(pc, at, as_pair).
bool PagadeKayiAta::may_land(const State& s, int pc, int at, bool as_pair) const {
  if (at > kHome) return false;
  if (at == kHome) return true;
  const int c = kBoard.at[arm(pc)][at];
  const int p = owner(pc);
  if (s.total[c] == s.here[c][p]) return true;  // no opponents
  if (kBoard.marked[c]) return true;            // safe_share = share
  return as_pair || s.pairs[c] - (s.here[c][p] >= 2) == 0;
}

// can_step(pc, v, round).
bool PagadeKayiAta::can_step(const State& s, int pc, int v, bool round) const {
  const int from = s.pos[pc];
  if (s.done[owner(pc)] || from >= kHome || from == 0) return false;  // in hand: only `enter`
  const int to = arrival(from, v, round);
  return to >= 0 && may_land(s, pc, to, false) && path_clear(s, arm(pc), from, to, round);
}

// can_pair_step(pc, q, v, again): bit 0 of again for pc going round, bit 1 for q.
bool PagadeKayiAta::can_pair_step(const State& s, int pc, int q, int v, int again) const {
  if (q < 0 || s.pos[pc] == 0) return false;
  const bool round_pc = again & 1, round_q = again >> 1;
  const int to = arrival(s.pos[pc], v, round_pc);
  const int to_q = arrival(s.pos[q], v, round_q);
  if (to < 0 || to_q < 0 || kBoard.at[arm(pc)][to] != kBoard.at[arm(q)][to_q]) return false;
  return may_land(s, pc, to, true) && path_clear(s, arm(pc), s.pos[pc], to, round_pc) &&
         path_clear(s, arm(q), s.pos[q], to_q, round_q);
}

// pair_partner(pc): the next of its owner's pieces on its cell, or -1.
int PagadeKayiAta::pair_partner(const State& s, int pc) const {
  const int c = square(s, pc);
  for (int i = 0; i < per_player_; ++i) {
    const int q = pieces_of_[owner(pc)][i];
    if (q > pc && on_board(s.pos[q]) && square(s, q) == c) return q;
  }
  return -1;
}

// first_on_cell(pc).
bool PagadeKayiAta::first_on_cell(const State& s, int pc) const {
  if (!on_board(s.pos[pc])) return false;
  const int c = square(s, pc);
  for (int i = 0; i < per_player_; ++i) {
    const int q = pieces_of_[owner(pc)][i];
    if (q >= pc) break;
    if (on_board(s.pos[q]) && square(s, q) == c) return false;
  }
  return true;
}

// place(pc, at), keeping the counts per cell.
void PagadeKayiAta::place(State& s, int pc, int at) const {
  const int p = owner(pc);
  if (on_board(s.pos[pc])) {
    const int c = square(s, pc);
    if (s.here[c][p]-- == 2) --s.pairs[c];
    --s.total[c];
  }
  s.pos[pc] = static_cast<int16_t>(at);
  if (on_board(at)) {
    const int c = square(s, pc);
    if (++s.here[c][p] == 2) ++s.pairs[c];
    ++s.total[c];
  }
}

// capture(pc): opponents on an unmarked cell go back to hand, earning a throw.
void PagadeKayiAta::capture(State& s, int pc) const {
  if (!on_board(s.pos[pc]) || kBoard.marked[square(s, pc)]) return;
  const int c = square(s, pc);
  const int p = owner(pc);
  if (s.total[c] == s.here[c][p]) return;  // none there
  bool sent = false;
  for (int q = 0; q < kPieces; ++q)
    if (on_board(s.pos[q]) && owner(q) != p && square(s, q) == c) {
      place(s, q, 0);
      sent = true;
    }
  if (sent) ++s.extra;
}

int PagadeKayiAta::next_player(const State& s, int p) const {
  int n = (p + 1) % players_;
  while (s.done[n] && n != p) n = (n + 1) % players_;
  return n;
}

void PagadeKayiAta::end_throw(State& s) const {
  s.die = {0, 0, 0, 0};
  if (s.extra > 0)
    --s.extra;
  else
    s.mover = static_cast<int8_t>(next_player(s, s.mover));
  s.phase = kTurnPhase;
}

// after_move(p) with check_finished(p) (individual play, the full ranking).
void PagadeKayiAta::after_move(State& s, int p) const {
  bool home = true;
  for (int i = 0; i < per_player_; ++i) home = home && s.pos[pieces_of_[p][i]] == kHome;
  if (home) {
    s.done[p] = true;
    if (s.places[p] == 0) s.places[p] = s.next_place++;  // finish p
    int left = 0;
    for (int q = 0; q < players_; ++q) left += !s.done[q];
    if (left <= 1) {  // end_game: the rest share the next place
      for (int q = 0; q < players_; ++q)
        if (s.places[q] == 0) s.places[q] = s.next_place;
      s.over = kEnded;
    }
  }
  if (s.done[p]) {
    s.extra = 0;
    s.die = {0, 0, 0, 0};
    s.mover = static_cast<int8_t>(next_player(s, p));
    s.phase = kTurnPhase;
    return;
  }
  if (s.die[0] == 0 && s.die[1] == 0 && s.die[2] == 0 && s.die[3] == 0) end_throw(s);
}

// move_pair(pc, q, d, again).
void PagadeKayiAta::move_pair(State& s, int pc, int q, int d, int again) const {
  const int p = owner(pc);
  const int to = arrival(s.pos[pc], s.die[d], again & 1);
  const int to_q = arrival(s.pos[q], s.die[d], again >> 1);
  place(s, pc, to);
  place(s, q, to_q);
  s.die[d] = 0;
  capture(s, pc);
  after_move(s, p);
}

void PagadeKayiAta::roll(State& s, runtime::Rng& rng) const {
  static constexpr int8_t kFirst[] = {1, 3, 4, 6, 8, 10, 12, 16};
  static constexpr int8_t kSecond[] = {2, 5, 7, 9, 11, 13, 15, 16};
  const int a = kFirst[rng.below(8)];
  const int b = kSecond[rng.below(8)];
  apply_roll(s, a, b);
}

void PagadeKayiAta::apply_roll(State& s, int first, int second) const {
  s.die = {static_cast<int8_t>(first), static_cast<int8_t>(second), 0, 0};
  if (first == second) ++s.extra;  // doubles = all_equal
  s.phase = kMoving;
  ++s.ply;
}

// The moving phase's rules in order: enter, step, round, pair, pair_with, else lose.
struct PagadeKayiAta::Listing {
  const PagadeKayiAta& g;
  const State& s;
  Moves& out;
  const int p = s.mover;
  bool first_value[kDice] = {};  // first_of_value(d)

  void add(Rule r, int a, int b, int c = -1, int d = -1) {
    out.list[out.n++] = {r, static_cast<int8_t>(a), static_cast<int8_t>(b), static_cast<int8_t>(c),
                         static_cast<int8_t>(d)};
  }
  int piece(int i) const { return g.pieces_of_[p][i]; }

  void enter() {
    int masks[15], n = 0;
    for (int m = 1; m <= 15; ++m)
      if (nine(s, m)) masks[n++] = m;
    if (n == 0) return;
    for (int i = 0; i < g.per_player_; ++i) {
      const int pc = piece(i);
      if (!first_at(s, pc, 0)) continue;
      for (int k = 0; k < n; ++k)
        if (g.may_land(s, pc, 1, false)) add(kEnter, pc, masks[k]);
    }
  }
  void steps(Rule r, bool round) {
    for (int i = 0; i < g.per_player_; ++i) {
      const int pc = piece(i);
      if (s.pos[pc] <= 0) continue;
      // Pieces of one set at one place are one choice (the game's alike_key), going round or not.
      if (!first_at(s, pc, s.pos[pc])) continue;
      for (int d = 0; d < kDice; ++d)
        if (first_value[d] && g.can_step(s, pc, s.die[d], round)) add(r, pc, d);
    }
  }
  bool paired(int pc) const { return on_board(s.pos[pc]) && s.here[square(s, pc)][p] >= 2; }
  void pair() {
    for (int i = 0; i < g.per_player_; ++i) {
      const int pc = piece(i);
      if (!paired(pc) || !g.first_on_cell(s, pc)) continue;
      const int q = g.pair_partner(s, pc);
      for (int d = 0; d < kDice; ++d)
        if (first_value[d] && g.can_pair_step(s, pc, q, s.die[d], 0)) add(kPair, pc, d);
    }
  }
  void pair_with() {
    for (int i = 0; i < g.per_player_; ++i) {
      const int pc = piece(i);
      if (!paired(pc) || !first_at(s, pc, s.pos[pc])) continue;
      const int c = square(s, pc);
      const bool listed = g.first_on_cell(s, pc);  // listed_by_pair, but for q
      const int partner = listed ? g.pair_partner(s, pc) : -1;
      for (int j = i + 1; j < g.per_player_; ++j) {
        const int q = piece(j);
        if (!on_board(s.pos[q]) || square(s, q) != c || !next_alike(s, pc, q)) continue;
        for (int d = 0; d < kDice; ++d)
          for (int again = 0; again < 4; ++again)
            if (first_value[d] && !(again == 0 && listed && q == partner) && g.can_pair_step(s, pc, q, s.die[d], again))
              add(kPairWith, pc, q, d, again);
      }
    }
  }
  void all() {
    for (int d = 0; d < kDice; ++d) {
      first_value[d] = s.die[d] > 0;
      for (int j = 0; j < d; ++j) first_value[d] = first_value[d] && s.die[j] != s.die[d];
    }
    enter();
    steps(kStep, false);
    steps(kRound, true);
    pair();
    pair_with();
    if (out.n == 0) add(kLose, -1, -1);
  }
};

void PagadeKayiAta::legal(const State& s, Moves& out) const {
  out.n = 0;
  if (s.phase == kTurnPhase) {
    out.list[out.n++] = {kThrow};
    out.list[out.n++] = {kPass};
    return;
  }
  Listing{*this, s, out}.all();
}

void PagadeKayiAta::apply(State& s, const Move& m) const {
  switch (m.rule) {
    case kThrow: s.phase = kThrowing; break;
    case kPass:
      s.extra = 0;
      s.mover = static_cast<int8_t>(next_player(s, s.mover));
      break;
    case kEnter:
      for (int i = 0; i < kDice; ++i)
        if ((m.b >> i) & 1) s.die[i] = 0;
      place(s, m.a, 1);
      after_move(s, s.mover);
      break;
    case kStep:
    case kRound: {
      const int p = owner(m.a);
      place(s, m.a, m.rule == kStep ? s.pos[m.a] + s.die[m.b] : arrival(s.pos[m.a], s.die[m.b], true));
      s.die[m.b] = 0;
      capture(s, m.a);
      after_move(s, p);
      break;
    }
    case kPair: move_pair(s, m.a, pair_partner(s, m.a), m.b, 0); break;
    case kPairWith: move_pair(s, m.a, m.b, m.c, m.d); break;
    case kLose: end_throw(s); break;
  }
  count_decision<PagadeKayiAta>(s);
}

int PagadeKayiAta::playout(runtime::Rng& rng, State& s) const { return random_playout(*this, rng, s); }

}  // namespace keli::bench
