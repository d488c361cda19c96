// Computer players for programs: one that chooses a state's move (keli.Player), and many games
// between them with each game's record kept (keli.simulate): the same games, seeded the same
// way, as `keli simulate`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "agents/agent.hpp"
#include "api/game.hpp"
#include "runtime/rng.hpp"

namespace keli::api {

struct SimulateOptions {
  std::vector<std::string> players;  // one spec a seat (the last fills the rest); empty: random
  int64_t games = 1;
  uint64_t seed = 1;
  int threads = 1;
  bool check_invariants = true;
};

struct GameResult {
  int64_t index = 0;
  uint64_t seed = 0;  // the game's own seed (sim::game_seed)
  std::vector<int> places;
  std::vector<int> points;  // empty when the game scores no points
  std::vector<double> returns;
  int decisions = 0, throws = 0;
  bool by_limit = false;
  std::string error;  // Keli's message when a runtime error or a failed invariant stopped it
};

// One of agents/'s players ("mcts:iterations=500") choosing moves for a game's states. It has its
// own engine, so that its searches may run on another thread than the states' game.
class Player {
 public:
  Player(std::shared_ptr<const Game> game, const std::string& spec, uint64_t seed);  // Error: a bad spec
  // The action id of the move it chooses in s (a decision of s's game); Error otherwise. Only the
  // player's own engine runs: s's game may step other states on another thread meanwhile.
  int64_t choose(const State& s);

 private:
  std::shared_ptr<const Game> game_;
  std::unique_ptr<runtime::Game> runner_;
  std::unique_ptr<agents::Agent> agent_;
  runtime::Rng rng_;
  std::vector<runtime::Move> legal_;
};

// The records in game order. Throws Error for a player spec that is wrong or cannot play the
// game, or a count outside 1..kMaxGames, threads outside 1..kMaxThreads.
std::vector<GameResult> simulate(const Game& game, const SimulateOptions& options);

}  // namespace keli::api
