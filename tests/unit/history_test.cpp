// A state's history (api/history.hpp): copies share it and never see each other's later steps,
// a chain as long as a game of a million steps is let go of without a deep recursion, and the
// history serializes and replays to the same state, and takes the last step back exactly.
#include <catch2/catch.hpp>

#include "api/game.hpp"
#include "support.hpp"

namespace keli::test {

TEST_CASE("a history is shared by copies, each going on by itself", "[api][history]") {
  api::History a;
  for (int i = 0; i < 5; ++i) a.push(i);
  api::History b = a;
  b.push(99);
  a.push(7);
  CHECK(a.list() == std::vector<int64_t>{0, 1, 2, 3, 4, 7});
  CHECK(b.list() == std::vector<int64_t>{0, 1, 2, 3, 4, 99});
  b = a;  // the old chain of b let go of, a's shared
  CHECK(b.list() == a.list());
  api::History c = std::move(b);
  CHECK(c.size() == 6);
  CHECK(b.empty());
}

TEST_CASE("a history of a million steps is let go of without a recursion down its chain", "[api][history]") {
  constexpr int kSteps = 1'000'000;  // a recursive release would need some 50 MB of stack
  auto h = std::make_unique<api::History>();
  for (int i = 0; i < kSteps; ++i) h->push(i);
  api::History copy = *h;
  h.reset();  // shared: nothing freed yet
  CHECK(copy.size() == static_cast<size_t>(kSteps));
  copy = api::History();
  CHECK(copy.empty());
}

TEST_CASE("a state's history serializes, replays and steps back exactly", "[api][history]") {
  auto game = api::Game::load(source_path("games/pahada_keliya.keli"), {}, runtime::EngineOptions{});
  api::State s(game);
  runtime::Rng rng(5);
  std::vector<api::State> seen{s};
  for (int i = 0; i < 40 && !s.is_terminal(); ++i) {
    if (s.is_chance_node())
      s.sample_throw(rng);
    else
      s.apply_action(s.legal_actions().back());
    seen.push_back(s);
  }
  CHECK(s.history_size() == seen.size() - 1);
  api::State again = api::State::deserialize(game, s.serialize());
  CHECK(again.same_position(s));
  CHECK(again.history() == s.history());
  CHECK(again.position_hash() == s.position_hash());
  for (size_t i = seen.size() - 1; i > seen.size() - 6; --i) {
    s.undo_last();
    CHECK(s.same_position(seen[i - 1]));
    CHECK(s.history() == seen[i - 1].history());
  }
  api::State start(game);
  CHECK_THROWS_AS(start.undo_last(), api::Error);
  CHECK_THROWS_WITH(api::State::deserialize(game, "0\n\n-3\n"), Catch::Contains("line 3 of the serialized state"));
}

}  // namespace keli::test
