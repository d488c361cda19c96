// One game from the start position to its end with the statistics simulate and bench report.
#include "sim/playout.hpp"

#include <fmt/format.h>

namespace keli::sim {

GameRecord playout(runtime::Game& game, runtime::Rng& rng, const std::vector<agents::Agent*>& seats,
                   std::vector<runtime::Move>& legal, bool check_invariants) {
  GameRecord r;
  runtime::State s;
  try {
    s = game.initial();
    while (!game.over(s)) {
      if (check_invariants && game.ply(s) > 0 && (r.error = game.invariant_failure(s))) break;
      if (game.chance(s)) {
        game.apply_roll(s, game.sample_roll(s, rng));
        continue;
      }
      game.legal(s, legal);
      r.legal_sum += static_cast<int64_t>(legal.size());
      size_t mover = static_cast<size_t>(game.mover(s));
      agents::Agent* a = mover < seats.size() ? seats[mover] : nullptr;
      // The inline choice is the random agent's: one draw of rng.below(n), so a null seat and a
      // "random" seat play the same game from the same seed.
      size_t pick = a ? a->choose(game, s, legal, rng) : static_cast<size_t>(rng.below(legal.size()));
      game.apply(s, legal[pick]);
    }
    if (check_invariants && !r.error) r.error = game.invariant_failure(s);  // after the last step
  } catch (const diag::Error& e) {
    r.error = e;
  }
  if (!s.empty()) {
    r.places = game.places(s);
    r.points = game.points(s);
    r.decisions = game.moves(s);
    r.throws = game.ply(s) - game.moves(s);
    r.by_limit = game.ended_by_limit(s);
  }
  return r;
}

}  // namespace keli::sim
