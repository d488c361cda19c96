// The positions a state has been through (runtime/past.hpp, lang/history.hpp): the key kept by
// toggling equals the key made afresh, a key that matches is confirmed by the parts, a full
// history says so, chains compare by what they remember, and a very long chain is let go of
// without a recursion as deep as the game.
#include <catch2/catch.hpp>
#include <cstdint>
#include <vector>

#include "lang/history.hpp"
#include "runtime/past.hpp"
#include "runtime/rng.hpp"

namespace keli::test {
namespace {

// Slots 0 and 1 compared (a mover and a phase), 2..9 not, 10..29 compared, the key at 30.
lang::HistoryLayout layout(int capacity) {
  lang::HistoryLayout h;
  h.key = 30;
  h.capacity = capacity;
  h.nranges = 2;
  h.ranges[0] = 0;
  h.ranges[1] = 2;
  h.ranges[2] = 10;
  h.ranges[3] = 30;
  h.parts = 22;
  return h;
}

runtime::State fresh(const lang::HistoryLayout& h) {
  runtime::State s(32, 0);
  lang::store_key(s.data(), h, lang::full_key(s.data(), h));
  return s;
}

}  // namespace

TEST_CASE("the key kept write by write is the key made afresh", "[history]") {
  const lang::HistoryLayout h = layout(100);
  runtime::State s = fresh(h);
  runtime::Rng rng(7);
  for (int i = 0; i < 10000; ++i) {
    const int slot = static_cast<int>(rng.below(30));
    const auto v = static_cast<int32_t>(rng.below(9)) - 4;
    const bool compared = slot < 2 || slot >= 10;
    if (compared) lang::toggle(s.data(), h, slot, s[slot], v);
    s[slot] = v;
  }
  CHECK(lang::stored_key(s.data(), h) == lang::full_key(s.data(), h));
}

TEST_CASE("repetitions count the positions remembered that equal the parts compared", "[history]") {
  const lang::HistoryLayout h = layout(100);
  runtime::State s = fresh(h);
  s.past = runtime::remember_position(s.data(), h, s.past);
  s[5] = 9;  // not compared: the same position
  CHECK(lang::repetitions(s.data(), h, runtime::view_of(s.past)) == 1);
  lang::toggle(s.data(), h, 12, s[12], 3);
  s[12] = 3;
  CHECK(lang::repetitions(s.data(), h, runtime::view_of(s.past)) == 0);
  s.past = runtime::remember_position(s.data(), h, s.past);
  lang::toggle(s.data(), h, 12, s[12], 0);
  s[12] = 0;
  s.past = runtime::remember_position(s.data(), h, s.past);
  CHECK(lang::repetitions(s.data(), h, runtime::view_of(s.past)) == 2);
  // A key that matches with other parts (a forged key) is no repetition.
  runtime::State other = s;
  other[11] = 1;
  CHECK(lang::repetitions(other.data(), h, runtime::view_of(s.past)) == 0);
}

TEST_CASE("a full history says so, and stays full", "[history]") {
  const lang::HistoryLayout h = layout(3);
  runtime::State s = fresh(h);
  for (int i = 0; i < 3; ++i) s.past = runtime::remember_position(s.data(), h, s.past);
  CHECK(lang::repetitions(s.data(), h, runtime::view_of(s.past)) == 3);
  s.past = runtime::remember_position(s.data(), h, s.past);
  CHECK(lang::repetitions(s.data(), h, runtime::view_of(s.past)) == -1);
  const runtime::PastPtr full = s.past;
  s.past = runtime::remember_position(s.data(), h, s.past);
  CHECK(s.past == full);  // nothing more is kept
}

TEST_CASE("chains compare by the positions they remember, and copies share them", "[history]") {
  const lang::HistoryLayout h = layout(100);
  runtime::State a = fresh(h), b = fresh(h);
  for (int i = 0; i < 5; ++i) {
    a.past = runtime::remember_position(a.data(), h, a.past);
    b.past = runtime::remember_position(b.data(), h, b.past);
  }
  CHECK(runtime::same_past(a.past, b.past));
  runtime::State c = a;
  CHECK(c.past == a.past);
  lang::toggle(c.data(), h, 0, c[0], 1);
  c[0] = 1;
  c.past = runtime::remember_position(c.data(), h, c.past);
  CHECK_FALSE(runtime::same_past(a.past, c.past));
  CHECK(runtime::link_bytes(c.past) >= static_cast<int64_t>(h.parts * sizeof(int32_t)));
}

TEST_CASE("a chain of half a million positions is let go of one at a time", "[history]") {
  lang::HistoryLayout h = layout(1'000'000);
  h.nranges = 1;  // one slot compared: some 100 bytes a position
  h.ranges[1] = 1;
  h.parts = 1;
  runtime::State s = fresh(h);
  for (int i = 0; i < 500'000; ++i) s.past = runtime::remember_position(s.data(), h, s.past);
  CHECK(s.past->view.count == 500'000);
  s.past.reset();  // a recursion as deep as the chain would overflow the stack here
  CHECK_FALSE(s.past);
}

}  // namespace keli::test
