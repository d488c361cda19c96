// Computer players. Each kind is one row of the table in agents/agent.cpp; a seat's player is
// chosen with a spec such as "random" or "mcts:iterations=500:cutoff=40" (options follow the
// name, each after a colon, because commas already separate the seats in --players).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "runtime/game.hpp"

namespace keli::agents {

class Agent {
 public:
  virtual ~Agent() = default;
  // Picks one of `legal` (never empty) for the mover of `s`; returns its index. All randomness
  // comes from `rng`, so the same seed gives the same choice.
  virtual size_t choose(runtime::Game& game, const runtime::State& s, const std::vector<runtime::Move>& legal,
                        runtime::Rng& rng) = 0;
  // Why this player cannot play the game (e.g. expectimax needs two sides); empty when it can.
  virtual std::string unsuitable(const compile::Program&) const { return {}; }
  // False when its choices depend on the clock (a search for a time): a replay cannot re-run them.
  virtual bool reproducible() const { return true; }
  // Called now and then while a search runs, with the iterations (or positions) done so far:
  // for `keli play` to show that the player is thinking.
  void on_progress(std::function<void(int64_t)> f) { progress_ = std::move(f); }

 protected:
  std::function<void(int64_t)> progress_;
};

// One option of an agent kind: `key=value` with a number in [lo, hi].
struct OptionDef {
  const char* key;
  double fallback;
  double lo, hi;
  bool integer;
  const char* doc;
};

// The options of one spec after parsing, every key of the kind present (defaults filled in).
class Options {
 public:
  double get(const std::string& key) const;
  bool given(const std::string& key) const;
  std::vector<std::pair<std::string, double>> values;
  std::vector<std::string> set;  // keys the spec gave
};

struct AgentKind {
  const char* name;
  const char* doc;
  std::vector<OptionDef> options;
  std::unique_ptr<Agent> (*make)(const Options& options);
};
const std::vector<AgentKind>& agent_kinds();

// Null with `error` set when the spec names no agent or has bad options.
std::unique_ptr<Agent> make_agent(const std::string& spec, std::string& error);
// The same, also refusing an agent that cannot play `program` (error says why).
std::unique_ptr<Agent> make_agent(const std::string& spec, const compile::Program& program, std::string& error);

// The options a spec gives a player of `program`: the spec's own, else the game's search
// settings (its `ai` block), else the defaults. False with `error` set as make_agent.
bool agent_options(const std::string& spec, const compile::Program& program, Options& out, std::string& error);

// Every kind with its options, for --help texts and docs.
std::string agents_help();

// The same as a literal for the --help texts of tools/keli/main.cpp (agents_test checks that it
// names every kind and option of the table).
#define KELI_AGENTS_HELP                                                                            \
  "    random                 uniform among the legal moves\n"                                      \
  "    greedy                 one move ahead by the game's evaluation (docs/agents.md)\n"           \
  "    mc:playouts=50         flat Monte Carlo, rollouts per move\n"                                \
  "    mcts:iterations=1000   UCT search; also :time=SECONDS, :cutoff=DECISIONS, :scale=X, :c=X,\n" \
  "                           :rollout=0 (score new nodes by the evaluation, no rollout),\n"        \
  "                           :order=0 (moves in random order, no widening), :memory=MB\n"          \
  "                           (:verbose=1 prints each search's iterations a second)\n"              \
  "    expectimax:depth=3     exact dice probabilities, two sides only\n"                           \
  "    (mc also takes :cutoff and :scale; cutoff 0 plays rollouts to the end)\n"

}  // namespace keli::agents
