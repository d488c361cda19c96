// The computer players a seeded trace names, made again so that a replay draws every throw and
// every computer choice from the seed as the recorded game did (trace::Players).
#include <fmt/format.h>

#include "agents/agent.hpp"
#include "cli.hpp"

namespace keli::cli {

namespace {

class SeatPlayers : public trace::Players {
 public:
  std::vector<std::unique_ptr<agents::Agent>> seats;  // null for a person

  int choose(int seat, runtime::Game& g, const runtime::State& s, const std::vector<runtime::Move>& legal,
             runtime::Rng& rng) override {
    agents::Agent* a = seat >= 0 && seat < static_cast<int>(seats.size()) ? seats[seat].get() : nullptr;
    if (!a) return kPerson;
    if (!a->reproducible()) return kUnknown;
    return static_cast<int>(a->choose(g, s, legal, rng));
  }
};

}  // namespace

trace::PlayersFactory trace_players() {
  return [](const trace::Header& h, const compile::Program& p, std::string& error) -> std::unique_ptr<trace::Players> {
    auto out = std::make_unique<SeatPlayers>();
    for (const auto& spec : h.players) {
      if (spec == "human") {
        out->seats.push_back(nullptr);
        continue;
      }
      out->seats.push_back(agents::make_agent(spec, p, error));
      if (!out->seats.back()) return nullptr;
    }
    return out;
  };
}

}  // namespace keli::cli
