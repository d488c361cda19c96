// The positions behind `repetitions` (docs/language.md, "Repeated positions"): one meaning for
// both engines. Header-only and free of other Keli headers, so that generated code can include it.
//
// What a repetition compares is a list of the state's slot ranges (the whole position by
// default: the mover, the phase and every variable; or the parts a `repetitions compare`
// declaration names). The state keeps one thing for it, the position's 64-bit Zobrist key in two
// slots: the XOR over the compared slots of zobrist(slot, value), kept up to date at each write
// of a compared slot (toggle) by both engines. The positions themselves live outside the state,
// in a chain the host shares between copies of a state (runtime/past.hpp): each link holds a key
// and the compared slots' values, so a key that matches is confirmed by an exact comparison and
// two positions never count as one by a collision.
#pragma once

#include <cstdint>

namespace keli::lang {

// One remembered position, as generated code reads it (the host owns the memory).
struct PastView {
  uint64_t key;
  const int32_t* parts;    // the compared slots' values, range after range
  const PastView* before;  // the position remembered before it; null for the first
  int64_t count;           // positions remembered up to this one; capacity + 1: the history overflowed
};

// The parts a `repetitions compare` declaration may name (its variables, `mover`, `phase`).
constexpr int kMaxComparedParts = 16;

struct HistoryLayout {
  int key = -1;      // the state's two slots of the key (low half first); -1: none kept
  int capacity = 0;  // positions the history may remember (`limit history`)
  int nranges = 0;
  int parts = 0;                                     // slots compared in all
  int32_t ranges[2 * (kMaxComparedParts + 1)] = {};  // [begin, end) slot pairs compared, in order
};

inline uint64_t zobrist(int64_t slot, int32_t value) {
  uint64_t x = (static_cast<uint64_t>(slot) << 32) ^ static_cast<uint32_t>(value);
  x += 0x9e3779b97f4a7c15ull;  // splitmix64: near slots and values spread over all 64 bits
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

inline uint64_t stored_key(const int32_t* s, const HistoryLayout& h) {
  return static_cast<uint32_t>(s[h.key]) | static_cast<uint64_t>(static_cast<uint32_t>(s[h.key + 1])) << 32;
}

inline void store_key(int32_t* s, const HistoryLayout& h, uint64_t k) {
  s[h.key] = static_cast<int32_t>(static_cast<uint32_t>(k));
  s[h.key + 1] = static_cast<int32_t>(static_cast<uint32_t>(k >> 32));
}

// The key made afresh from the compared slots (a state made from outside, or set up).
inline uint64_t full_key(const int32_t* s, const HistoryLayout& h) {
  uint64_t k = 0;
  for (int r = 0; r < h.nranges; ++r)
    for (int32_t i = h.ranges[2 * r]; i < h.ranges[2 * r + 1]; ++i) k ^= zobrist(i, s[i]);
  return k;
}

// A compared slot changed from `before` to `now`: the key follows.
inline void toggle(int32_t* s, const HistoryLayout& h, int64_t slot, int32_t before, int32_t now) {
  if (before != now) store_key(s, h, stored_key(s, h) ^ zobrist(slot, before) ^ zobrist(slot, now));
}

inline bool same_parts(const int32_t* s, const HistoryLayout& h, const int32_t* parts) {
  int at = 0;
  for (int r = 0; r < h.nranges; ++r)
    for (int32_t i = h.ranges[2 * r]; i < h.ranges[2 * r + 1]; ++i)
      if (s[i] != parts[at++]) return false;
  return true;
}

// How many remembered positions equal s's position now (the value of `repetitions`); -1 when
// the history has overflowed. One key comparison per position remembered.
inline int64_t repetitions(const int32_t* s, const HistoryLayout& h, const PastView* past) {
  if (past && past->count > h.capacity) return -1;
  const uint64_t k = stored_key(s, h);
  int64_t n = 0;
  for (const PastView* p = past; p; p = p->before) n += p->key == k && same_parts(s, h, p->parts);
  return n;
}

}  // namespace keli::lang
