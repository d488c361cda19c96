// Computer players. Each kind is one row of the table in agents/agent.cpp; a seat's player is
// chosen with a spec such as "random" (options follow a colon: "mcts:iterations=500").
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "runtime/game.hpp"

namespace keli::agents {

class Agent {
 public:
  virtual ~Agent() = default;
  // Picks one of `legal` (never empty) for the mover of `s`; returns its index.
  virtual size_t choose(runtime::Game& game, const runtime::State& s, const std::vector<runtime::Move>& legal,
                        runtime::Rng& rng) = 0;
};

struct AgentKind {
  const char* name;
  const char* doc;
  std::unique_ptr<Agent> (*make)(const std::string& options, std::string& error);
};
const std::vector<AgentKind>& agent_kinds();

// Null with `error` set when the spec names no agent or has bad options.
std::unique_ptr<Agent> make_agent(const std::string& spec, std::string& error);

}  // namespace keli::agents
