// Local collections (docs/language.md, "Local collections"): bounded lists and sets that live in a
// body's local slots, never in the state. One layout and one set of operations for both engines:
// the interpreter calls these functions and the native engine's generated C++ (which pastes this
// header) calls the same ones. Header-only and free of other Keli headers.
//
// A collection's capacity is the size of its element domain (sites, seats, pieces or a constant
// range low..low+cap-1); values are stored as they are, positions count from its first element.
// - A list of capacity n: [0] where its first element stands in the ring, [1] its length,
//   [2 .. 2+n) the ring. Adding past n values is an error (CollFault::Full).
// - A set: [0] its length, [1 .. 1+n) its elements in the order they were added, and
//   [1+n .. 1+2n) for each value of the domain its position among them, trusted only when that
//   position is below the length and holds the value: clearing a set is one write, whatever
//   the slots held before (Briggs and Torczon's sparse set).
// Neither is ever copied: a collection is named only by the local that declares it.
#pragma once

#include <cstdint>

namespace keli::lang {

enum class CollKind : uint8_t { None, List, Set };

// What an operation found wrong; the engines word it (runtime/messages.hpp).
enum class CollFault : uint8_t { None, Full, Empty, NotElement, Position };

// The functions on a collection a call names (`size(c)`, `take_first(c)`, ...): X(id, name, doc,
// words: the call in a rulebook's English, {0} the collection).
#define KELI_COLLECTION_FUNCTIONS(X)                                                       \
  X(size, "size", "how many values it holds", "the number of values in {0}")               \
  X(first, "first", "its first value (an error when empty)", "the first value in {0}")     \
  X(last, "last", "its last value (an error when empty)", "the last value in {0}")         \
  X(take_first, "take_first", "removes and gives its first value: a list used as a queue", \
    "the first value in {0}, taken out of it")                                             \
  X(take_last, "take_last", "removes and gives its last value: a list used as a stack",    \
    "the last value in {0}, taken out of it")

enum class CollFunction : uint8_t {
#define KELI_COLL_FUNCTION_ENUM(id, name, doc, words) id,
  KELI_COLLECTION_FUNCTIONS(KELI_COLL_FUNCTION_ENUM)
#undef KELI_COLL_FUNCTION_ENUM
      count_
};

struct CollFunctionInfo {
  const char* name;
  const char* words;
};
inline const CollFunctionInfo& coll_function_info(CollFunction f) {
  static constexpr CollFunctionInfo rows[] = {
#define KELI_COLL_FUNCTION_ROW(id, name, doc, words) {name, words},
      KELI_COLLECTION_FUNCTIONS(KELI_COLL_FUNCTION_ROW)
#undef KELI_COLL_FUNCTION_ROW
  };
  return rows[static_cast<int>(f)];
}
inline const char* coll_function_name(CollFunction f) { return coll_function_info(f).name; }
inline const char* coll_function_words(CollFunction f) { return coll_function_info(f).words; }

// Local slots a collection of capacity `cap` takes.
inline constexpr int64_t coll_slots(CollKind k, int64_t cap) { return k == CollKind::List ? 2 + cap : 1 + 2 * cap; }

inline int64_t coll_size(const int64_t* c, CollKind k) { return k == CollKind::List ? c[1] : c[0]; }

inline void coll_clear(int64_t* c, CollKind k) {
  c[0] = 0;
  if (k == CollKind::List) c[1] = 0;
}

// The value at position i, 0 <= i < size.
inline int64_t& coll_slot(int64_t* c, CollKind k, int64_t cap, int64_t i) {
  return k == CollKind::List ? c[2 + (c[0] + i) % cap] : c[1 + i];
}
inline int64_t coll_value(const int64_t* c, CollKind k, int64_t cap, int64_t i) {
  return k == CollKind::List ? c[2 + (c[0] + i) % cap] : c[1 + i];
}

// The position of the first v in the collection, -1 when absent.
inline int64_t coll_find(const int64_t* c, CollKind k, int64_t low, int64_t cap, int64_t v) {
  const uint64_t off = static_cast<uint64_t>(v) - static_cast<uint64_t>(low);
  if (off >= static_cast<uint64_t>(cap)) return -1;
  if (k == CollKind::Set) {
    const int64_t at = c[1 + cap + static_cast<int64_t>(off)];
    return at >= 0 && at < c[0] && c[1 + at] == v ? at : -1;
  }
  for (int64_t i = 0, n = c[1]; i < n; ++i)
    if (c[2 + (c[0] + i) % cap] == v) return i;
  return -1;
}

inline bool coll_has(const int64_t* c, CollKind k, int64_t low, int64_t cap, int64_t v) {
  return coll_find(c, k, low, cap, v) >= 0;
}

inline bool coll_takes(CollFunction f) { return f == CollFunction::take_first || f == CollFunction::take_last; }
// Whether taking by f is a constant-time step: a list's front (its ring turns) or anyone's last.
inline bool coll_turns(CollKind k, CollFunction f) { return f == CollFunction::take_last || k == CollKind::List; }

// The units of work an operation costs (docs/language.md, "limit work"): the values it may pass
// over, which is what it holds for a search of a list and for a removal (the later values move up);
// nothing for the rest, whose time does not grow with the collection. Both engines charge it
// before the operation, at its node.
inline int64_t coll_work(const int64_t* c, CollKind k, bool searches, bool removes) {
  return (searches && k == CollKind::List) || removes ? coll_size(c, k) : 0;
}

// Appends v (a set keeps one of each value: adding one it holds changes nothing).
inline CollFault coll_add(int64_t* c, CollKind k, int64_t low, int64_t cap, int64_t v) {
  const uint64_t off = static_cast<uint64_t>(v) - static_cast<uint64_t>(low);
  if (off >= static_cast<uint64_t>(cap)) return CollFault::NotElement;
  if (k == CollKind::Set) {
    if (coll_find(c, k, low, cap, v) >= 0) return CollFault::None;
    c[1 + cap + static_cast<int64_t>(off)] = c[0];
    c[1 + c[0]++] = v;
    return CollFault::None;
  }
  if (c[1] == cap) return CollFault::Full;
  c[2 + (c[0] + c[1]++) % cap] = v;
  return CollFault::None;
}

// Removes the value at position i (0 <= i < size); the later values move up one, in order.
inline void coll_remove_at(int64_t* c, CollKind k, int64_t low, int64_t cap, int64_t i) {
  const int64_t n = coll_size(c, k);
  if (k == CollKind::List && i == 0) {  // a queue's take: the ring turns instead
    c[0] = (c[0] + 1) % cap;
    --c[1];
    return;
  }
  for (int64_t j = i; j + 1 < n; ++j) {
    const int64_t moved = coll_value(c, k, cap, j + 1);
    coll_slot(c, k, cap, j) = moved;
    if (k == CollKind::Set) c[1 + cap + (moved - low)] = j;
  }
  if (k == CollKind::List)
    --c[1];
  else
    --c[0];
}

// Removes the first v, if the collection holds it; a value outside the domain is an error.
inline CollFault coll_remove(int64_t* c, CollKind k, int64_t low, int64_t cap, int64_t v) {
  if (static_cast<uint64_t>(v) - static_cast<uint64_t>(low) >= static_cast<uint64_t>(cap)) return CollFault::NotElement;
  const int64_t at = coll_find(c, k, low, cap, v);
  if (at >= 0) coll_remove_at(c, k, low, cap, at);
  return CollFault::None;
}

// The value at position i into *out; positions outside 0..size-1 are an error.
inline CollFault coll_get(const int64_t* c, CollKind k, int64_t cap, int64_t i, int64_t* out) {
  if (i < 0 || i >= coll_size(c, k)) return CollFault::Position;
  *out = coll_value(c, k, cap, i);
  return CollFault::None;
}

// first, last, take_first, take_last: the value into *out; an empty collection is an error.
inline CollFault coll_call(int64_t* c, CollKind k, int64_t low, int64_t cap, CollFunction f, int64_t* out) {
  const int64_t n = coll_size(c, k);
  if (f == CollFunction::size) {
    *out = n;
    return CollFault::None;
  }
  if (n == 0) return CollFault::Empty;
  const bool front = f == CollFunction::first || f == CollFunction::take_first;
  const int64_t at = front ? 0 : n - 1;
  *out = coll_value(c, k, cap, at);
  if (f == CollFunction::take_first || f == CollFunction::take_last) coll_remove_at(c, k, low, cap, at);
  return CollFault::None;
}

// The board's searches (docs/language.md, "Groups and borders"). `group(T, s)`: the sites joined to
// s through neighbours whose cell of T equals s's, in the order a breadth-first search from s meets
// them (s first). `border(T, s)`: the neighbours of that group outside it, each once, in the order
// the search meets them. Either fills `out` as a set of the sites 0..sites-1; a border keeps the
// group in `group_out`, a second set. cells[t] is site t's cell of T; near(t, &n) gives site t's
// neighbours, n of them. The set the search walks is its own queue, and a set clears in one write,
// so a search costs the sites it reaches and their neighbour lists, never the whole board: it
// returns that work, the neighbours it read, which both engines charge to the step's budget.
template <typename Near>
inline int64_t coll_flood(int64_t* out, int64_t* group_out, int64_t sites, const int32_t* cells, int64_t from,
                          bool border, Near near) {
  int64_t* group = border ? group_out : out;
  coll_clear(group, CollKind::Set);
  if (border) coll_clear(out, CollKind::Set);
  coll_add(group, CollKind::Set, 0, sites, from);
  const int32_t like = cells[from];
  int64_t work = 0;
  for (int64_t i = 0; i < group[0]; ++i) {
    int n = 0;
    const int32_t* list = near(group[1 + i], &n);
    work += n;
    for (int j = 0; j < n; ++j) {
      if (cells[list[j]] == like)
        coll_add(group, CollKind::Set, 0, sites, list[j]);
      else if (border)
        coll_add(out, CollKind::Set, 0, sites, list[j]);
    }
  }
  return work;
}

}  // namespace keli::lang
