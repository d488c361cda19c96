// The hand-written Pahada Keliya: fixed arrays, one track table, no allocation. Each function
// mirrors a definition of games/pahada_keliya.keli (named in the comments) or stdlib/arms.keli,
// because the identical-state test requires the same state after every step.
#include "pahada_native.hpp"

#include <utility>

#include "baseline.hpp"

namespace keli::bench {

namespace {

using P = PahadaKeliya;
using S = P::State;
constexpr RaceTracks<P::kArms> kTracks;
static_assert(RaceTracks<P::kArms>::kLength == P::kHome + 1);

constexpr int owner(int pc) { return pc / 4; }
constexpr int partner(int p) { return (p + 2) % 4; }
constexpr int team(int p) { return p % 2; }
constexpr bool on_board(int at) { return at >= 1 && at <= P::kHome - 1; }
inline int square(const S& s, int pc) { return kTracks.at[owner(pc)][s.pos[pc]]; }

// blocked(x), Parker's reading: not escorted, and two or more of the partner's pieces behind.
bool blocked(const S& s, int x) {
  if (s.escorted[x]) return false;
  int behind = 0;
  const int y = partner(x);
  for (int q = 4 * y; q < 4 * y + 4; ++q) behind += s.pos[q] < P::kBehind;
  return behind >= 2;
}

// pair_waiting(y): two of y's pieces on the partner's inner left corner, the partner not
// escorted and not done.
bool pair_waiting(const S& s, int y) {
  const int x = partner(y);
  if (s.escorted[x] || s.done[x]) return false;
  int there = 0;
  for (int q = 4 * y; q < 4 * y + 4; ++q) there += s.pos[q] == P::kEscortCell;
  return there >= 2;
}

// can_step(pc, v), with blocked and pair_waiting of the mover worked out once per listing.
inline bool can_step(int from, int v, bool is_blocked, bool waiting) {
  const int to = from + v;
  if (from == P::kHome || to > P::kHome) return false;
  if (to > P::kLastCatchable && is_blocked) return false;
  if (waiting && (from == P::kEscortCell || (from < P::kEscortCell && to >= P::kEscortCell))) return false;
  return true;
}

// capture_at(pc): opponents on the cell where pc stands go back to the centre.
void capture_at(S& s, int pc) {
  if (!on_board(s.pos[pc])) return;
  const int c = square(s, pc);
  const int t = team(owner(pc));
  for (int q = 0; q < P::kPieces; ++q)
    if (on_board(s.pos[q]) && team(owner(q)) != t && square(s, q) == c) s.pos[q] = 0;
}

void end_turn(S& s) {
  s.die = {0, 0};
  int p = (s.mover + 1) % P::kPlayers;
  while (s.done[p]) p = (p + 1) % P::kPlayers;
  s.mover = static_cast<int8_t>(p);
  s.phase = P::kThrowing;
}

// finish mover, partner(mover); end_game: the other team shares the next place.
void team_home(S& s) {
  int placed = 0;
  for (int p : {static_cast<int>(s.mover), partner(s.mover)})
    if (s.places[p] == 0) {
      s.places[p] = s.next_place;
      ++placed;
    }
  s.next_place = static_cast<int8_t>(s.next_place + placed);
  for (auto& place : s.places)
    if (place == 0) place = s.next_place;
  s.over = P::kEnded;
}

void after_move(S& s) {
  const int m = s.mover;
  int home = 0;
  for (int pc = 4 * m; pc < 4 * m + 4; ++pc) home += s.pos[pc] == P::kHome;
  if (home == 4 && !s.done[m]) {
    s.done[m] = true;
    if (s.done[partner(m)]) return team_home(s);
    return end_turn(s);
  }
  if (s.die[0] == 0 && s.die[1] == 0) end_turn(s);
}

void escort_pair(S& s) {
  const int v = s.die[0];
  int first = -1;
  for (int pc = 4 * s.mover; pc < 4 * s.mover + 4; ++pc)
    if (s.pos[pc] == P::kEscortCell) {
      s.pos[pc] = static_cast<int8_t>(s.pos[pc] + v);
      first = pc;
    }
  capture_at(s, first);
  s.escorted[partner(s.mover)] = true;
  s.die = {0, 0};
  after_move(s);
}

}  // namespace

int PahadaKeliya::cell(int player, int at) { return kTracks.at[player][at]; }

PahadaKeliya::State PahadaKeliya::initial() {
  State s;
  for (int p = 0; p < kPlayers; ++p) {
    s.pos[4 * p] = 6;
    s.pos[4 * p + 1] = 7;
    s.pos[4 * p + 2] = 11;
    s.pos[4 * p + 3] = 11;
  }
  return s;
}

void PahadaKeliya::roll(State& s, runtime::Rng& rng) {
  static constexpr int8_t kFaces[] = {1, 3, 4, 6};
  int a = kFaces[rng.below(4)];
  int b = kFaces[rng.below(4)];
  if (b < a) std::swap(a, b);
  apply_roll(s, a, b);
}

void PahadaKeliya::apply_roll(State& s, int low, int high) {
  s.die = {static_cast<int8_t>(low), static_cast<int8_t>(high)};
  s.phase = kMoving;
  ++s.ply;
}

void PahadaKeliya::legal(const State& s, Moves& out) {
  out.n = 0;
  const int m = s.mover;
  const bool is_blocked = blocked(s, m);
  const bool waiting = pair_waiting(s, m);
  const bool doubled = s.die[0] == s.die[1];
  for (int pc = 4 * m; pc < 4 * m + 4; ++pc) {
    // Alike pieces (one place) are one choice, listed as the lowest-numbered.
    bool alike_earlier = false;
    for (int q = 4 * m; q < pc; ++q) alike_earlier = alike_earlier || s.pos[q] == s.pos[pc];
    if (alike_earlier) continue;
    for (int d = 0; d < 2; ++d)
      if (s.die[d] > 0 && !(d == 1 && doubled) && can_step(s.pos[pc], s.die[d], is_blocked, waiting))
        out.list[out.n++] = {kStep, static_cast<int8_t>(pc), static_cast<int8_t>(d)};
  }
  if (s.die[0] > 0 && doubled && waiting) {
    bool stands = false;  // one of the partner's pieces on the cell a double 6 would reach
    const int x = partner(m);
    for (int q = 4 * x; q < 4 * x + 4; ++q) stands = stands || s.pos[q] == kDoubleSixBar;
    if (!(s.die[0] == 6 && stands)) out.list[out.n++] = {kEscortPair};
  }
  if (out.n == 0) out.list[out.n++] = {kPass};
}

void PahadaKeliya::apply(State& s, const Move& mv) {
  switch (mv.rule) {
    case kStep:
      s.pos[mv.pc] = static_cast<int8_t>(s.pos[mv.pc] + s.die[mv.d]);
      s.die[mv.d] = 0;
      capture_at(s, mv.pc);
      after_move(s);
      break;
    case kEscortPair: escort_pair(s); break;
    case kPass: end_turn(s); break;
  }
  count_decision<PahadaKeliya>(s);
}

int PahadaKeliya::playout(runtime::Rng& rng, State& s) { return random_playout(PahadaKeliya{}, rng, s); }

}  // namespace keli::bench
