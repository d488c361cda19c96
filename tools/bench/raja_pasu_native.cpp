// The hand-written Raja Pasu: straight-line C++ over a fixed array, no allocation. Each step
// mirrors a definition of games/raja_pasu.keli or stdlib/sowing.keli (named in the comments),
// because the identical-state test requires the same state after every move.
#include "raja_pasu_native.hpp"

namespace keli::bench {

namespace {

using S = RajaPasu::State;

constexpr int owner(int h) { return h < RajaPasu::kHoles ? 0 : 1; }

// next_open: the next hole in sowing order that is in play, h itself if no other is.
inline int next_open(const S& s, int h) {
  int n = h + 1 == RajaPasu::kSites ? 0 : h + 1;
  while (s.closed[n] && n != h) n = n + 1 == RajaPasu::kSites ? 0 : n + 1;
  return n;
}

// sow_lap with skip_origin false, the pasu handler inlined: a hole brought to exactly four is
// emptied into its row owner's store.
inline int sow_lap(S& s, int from) {
  int hand = s.counters[from];
  s.counters[from] = 0;
  int h = from;
  while (hand > 0) {
    h = next_open(s, h);
    --hand;
    if (++s.counters[h] == 4) {
      s.store[owner(h)] += 4;
      s.counters[h] = 0;
    }
  }
  return h;
}

// relay_sow: the hole where the last lap ended, or -1 when the lap limit stopped the move.
inline int relay_sow(S& s, int start) {
  int last = sow_lap(s, start);
  int laps = 1;
  while (s.counters[next_open(s, last)] > 0) {
    if (laps >= RajaPasu::kLapLimit) return -1;
    last = sow_lap(s, next_open(s, last));
    ++laps;
  }
  return last;
}

// pussa, one capture: the next hole is empty and the one after it holds counters.
inline void pussa(S& s, int last) {
  int gap = next_open(s, last);
  int prize = next_open(s, gap);
  if (s.counters[gap] == 0 && s.counters[prize] > 0) {
    s.store[s.mover] += s.counters[prize];
    s.counters[prize] = 0;
  }
}

// refill(p, seeds, from_right = true).
void refill(S& s, int p) {
  for (int i = 0; i < RajaPasu::kHoles; ++i) {
    int h = p * RajaPasu::kHoles + RajaPasu::kHoles - 1 - i;
    if (s.store[p] >= RajaPasu::kSeeds) {
      s.counters[h] = RajaPasu::kSeeds;
      s.store[p] -= RajaPasu::kSeeds;
      s.closed[h] = false;
    } else {
      s.closed[h] = true;
    }
  }
}

// The otherwise rule round_over: the opponent takes the counters left; one round ends the game
// (end_game by store: the larger store wins, equal stores share), a match goes on if both can
// refill a hole.
void round_over(S& s, RajaPasu::Rounds rounds) {
  int other = 1 - s.mover;
  int left = 0;
  for (int h = 0; h < RajaPasu::kSites; ++h) {
    left += s.counters[h];
    s.counters[h] = 0;
  }
  s.store[other] += left;
  if (rounds == RajaPasu::Rounds::Single) {
    s.winner = static_cast<int8_t>(s.store[0] == s.store[1] ? -1 : s.store[0] > s.store[1] ? 0 : 1);
    s.over = RajaPasu::kEnded;
  } else if (s.store[s.mover] < RajaPasu::kSeeds) {
    s.winner = static_cast<int8_t>(other);
    s.over = RajaPasu::kEnded;
  } else if (s.store[other] < RajaPasu::kSeeds) {
    s.winner = static_cast<int8_t>(s.mover);
    s.over = RajaPasu::kEnded;
  } else {
    refill(s, 0);
    refill(s, 1);
    ++s.round;
    s.mover = other;
  }
}

}  // namespace

RajaPasu::State RajaPasu::initial() {
  State s;
  s.counters.fill(kSeeds);
  return s;
}

void RajaPasu::legal(const State& s, Moves& out) {
  out.n = 0;
  const int first = s.mover * kHoles;
  for (int h = first; h < first + kHoles; ++h)
    if (s.counters[h] > 0 && !s.closed[h]) out.holes[out.n++] = static_cast<int8_t>(h);
  if (out.n == 0) out.holes[out.n++] = kRoundOver;
}

void RajaPasu::apply(State& s, int move) const {
  if (move == kRoundOver) {
    round_over(s, rounds_);
  } else {
    int last = relay_sow(s, move);
    if (last >= 0) pussa(s, last);
    s.mover = 1 - s.mover;
  }
  // The runtime's bookkeeping after a decision: count it, stop at the move limit.
  ++s.moves;
  if (s.over == kPlaying && s.moves >= kMoveLimit) s.over = kLimit;
}

int RajaPasu::playout(runtime::Rng& rng, State& s) const {
  s = initial();
  Moves m;
  while (s.over == kPlaying) {
    legal(s, m);
    apply(s, m.holes[rng.below(static_cast<uint64_t>(m.n))]);
  }
  return s.moves;
}

}  // namespace keli::bench
