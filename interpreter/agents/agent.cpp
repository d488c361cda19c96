// The table of computer players and the simplest of them.
#include "agents/agent.hpp"

#include <fmt/format.h>

namespace keli::agents {

namespace {

// Uniform over the legal decisions (a pass before a throw is one of them).
class RandomAgent : public Agent {
 public:
  size_t choose(runtime::Game&, const runtime::State&, const std::vector<runtime::Move>& legal,
                runtime::Rng& rng) override {
    return static_cast<size_t>(rng.below(legal.size()));
  }
};

std::unique_ptr<Agent> make_random(const std::string& options, std::string& error) {
  if (!options.empty()) {
    error = "'random' takes no options";
    return nullptr;
  }
  return std::make_unique<RandomAgent>();
}

}  // namespace

const std::vector<AgentKind>& agent_kinds() {
  static const std::vector<AgentKind> kinds = {
      {"random", "chooses uniformly among the legal moves", make_random},
  };
  return kinds;
}

std::unique_ptr<Agent> make_agent(const std::string& spec, std::string& error) {
  std::string name = spec.substr(0, spec.find(':'));
  std::string options = spec.find(':') == std::string::npos ? "" : spec.substr(spec.find(':') + 1);
  std::vector<std::string> names;
  for (const auto& k : agent_kinds()) {
    if (name == k.name) return k.make(options, error);
    names.push_back(k.name);
  }
  error = fmt::format("unknown player '{}' (players: {})", name, fmt::join(names, ", "));
  return nullptr;
}

}  // namespace keli::agents
