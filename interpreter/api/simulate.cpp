// keli.simulate's C++ side: sim::run_agents on the game's engine, every record kept and sorted.
#include "api/simulate.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "lang/limits.hpp"
#include "sim/simulate.hpp"

namespace keli::api {

Player::Player(std::shared_ptr<const Game> game, const std::string& spec, uint64_t seed)
    : game_(std::move(game)), rng_(seed) {
  std::string err;
  agent_ = agents::make_agent(spec, game_->program(), err);
  if (!agent_) throw Game::input_error(err);
  runtime::EngineOptions o = game_->engine_options();
  o.engine = game_->engine();
  runner_ = std::make_unique<runtime::Game>(game_->program_ptr(), o);
}

int64_t Player::choose(const State& s) {
  if (&s.game() != game_.get()) throw Game::input_error("this player plays another game (or another load of it)");
  // Asked of the player's own engine: the game's may be stepping another state meanwhile.
  if (runner_->over(s.slots()) || runner_->chance(s.slots()))
    throw Game::input_error("a player chooses at a decision, not at a throw or the end of the game");
  try {
    runner_->legal(s.slots(), legal_);
    size_t k = agent_->choose(*runner_, s.slots(), legal_, rng_);
    return game_->actions().id(legal_[k]);
  } catch (const diag::Error& e) {
    throw game_->error(e);
  }
}

std::vector<GameResult> simulate(const Game& game, const SimulateOptions& o) {
  const compile::Program& p = game.program();
  if (o.games < 1 || o.games > lang::kMaxGames)
    throw Game::input_error(fmt::format("games must be 1 to {} (kMaxGames), not {}", lang::kMaxGames, o.games));
  if (o.threads < 1 || o.threads > lang::kMaxThreads)
    throw Game::input_error(fmt::format("threads must be 1 to {} (kMaxThreads), not {}", lang::kMaxThreads, o.threads));
  std::vector<std::string> seats(p.num_players, "random");
  for (int i = 0; i < p.num_players && !o.players.empty(); ++i)
    seats[i] = o.players[std::min<size_t>(i, o.players.size() - 1)];
  for (const auto& spec : seats) {
    std::string err;
    if (!agents::make_agent(spec, p, err)) throw Game::input_error(err);
  }
  sim::RunOptions ro;
  ro.games = o.games;
  ro.threads = o.threads;
  ro.seed = o.seed;
  ro.check_invariants = o.check_invariants;
  ro.engine = game.engine_options();
  ro.engine->engine = game.engine();  // what `auto` chose, so that no thread chooses again
  std::vector<GameResult> out;
  sim::run_agents(
      game.program_ptr(), ro, [&](int64_t) { return seats; },
      [&](const sim::GameRecord& r) {
        GameResult g{r.index,
                     sim::game_seed(o.seed, r.index),
                     r.places,
                     r.points,
                     runtime::returns(r.places, r.points),
                     r.decisions,
                     r.throws,
                     r.by_limit,
                     ""};
        if (r.error) g.error = game.error(*r.error).what();
        out.push_back(std::move(g));
      });
  std::sort(out.begin(), out.end(), [](const GameResult& a, const GameResult& b) { return a.index < b.index; });
  return out;
}

}  // namespace keli::api
