// The position history behind `repetitions` (docs/language.md, "Repeated positions"): one meaning
// for both engines. The host records a position after setup and after every step; the interpreter
// and the native engine's generated C++ (which pastes this header) count matches the same way.
// Header-only and free of other Keli headers, so that generated code can include it alone.
//
// The history is a region of the state: [base] = positions recorded, then two slots per position
// (a 64-bit digest, low half first). When a position finds it full, [base] becomes capacity + 1:
// the history no longer knows every earlier position, and reading `repetitions` is then an error
// (E601 at the read), so a game that never reads it may declare a small one. A position is the
// mover, the phase and every variable (slots first .. end); the counts of plies and decisions, the
// result and the history itself are not part of it. Digests of different positions agree with odds
// of about n*n / 2^65 for n positions recorded (below 1 in 10^11 for 100,000).
#pragma once

#include <cstdint>

namespace keli::lang {

struct HistoryLayout {
  int mover = 0, phase = 0;  // the state's slots of the mover and the phase
  int first = 0, end = 0;    // the variables' slots
  int base = -1;             // the history's first slot; -1: the game keeps none
  int capacity = 0;          // positions it can hold

  // The slots the history takes: the count, then two per position.
  int64_t slots() const { return 1 + 2 * static_cast<int64_t>(capacity); }
};

// FNV-1a over the slots' bytes, then a final mix (splitmix64's) so that near positions spread.
inline uint64_t position_digest(const int32_t* s, const HistoryLayout& h) {
  uint64_t x = 14695981039346656037ull;
  auto add = [&x](int32_t v) {
    uint32_t u = static_cast<uint32_t>(v);
    for (int i = 0; i < 4; ++i) {
      x ^= (u >> (8 * i)) & 0xffu;
      x *= 1099511628211ull;
    }
  };
  add(s[h.mover]);
  add(s[h.phase]);
  for (int i = h.first; i < h.end; ++i) add(s[i]);
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// How many recorded positions equal s's position now (the value of `repetitions`); -1 when the
// history has overflowed.
inline int64_t repetitions(const int32_t* s, const HistoryLayout& h) {
  const int32_t count = s[h.base];
  if (count > h.capacity) return -1;
  const uint64_t d = position_digest(s, h);
  const uint32_t lo = static_cast<uint32_t>(d), hi = static_cast<uint32_t>(d >> 32);
  int64_t n = 0;
  for (int32_t i = 0; i < count; ++i)
    n += static_cast<uint32_t>(s[h.base + 1 + 2 * i]) == lo && static_cast<uint32_t>(s[h.base + 2 + 2 * i]) == hi;
  return n;
}

// Records s's position, or marks the history overflowed when it already holds `capacity`.
inline void record_position(int32_t* s, const HistoryLayout& h) {
  const int32_t count = s[h.base];
  if (count >= h.capacity) {
    s[h.base] = h.capacity + 1;
    return;
  }
  const uint64_t d = position_digest(s, h);
  s[h.base + 1 + 2 * count] = static_cast<int32_t>(static_cast<uint32_t>(d));
  s[h.base + 2 + 2 * count] = static_cast<int32_t>(static_cast<uint32_t>(d >> 32));
  s[h.base] = count + 1;
}

}  // namespace keli::lang
