// The table of computer players, the generic parsing of their options, and the simplest player.
#include "agents/agent.hpp"
#include "lang/search_settings.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "agents/search.hpp"
#include "runtime/machine.hpp"

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

std::unique_ptr<Agent> make_random(const Options&) { return std::make_unique<RandomAgent>(); }

// Shared by the searching players: how rollouts are cut off and scored.
constexpr OptionDef kCutoff{
    "cutoff", 0,    0,
    1e6,      true, "stop a rollout after N decisions and score it by the game's evaluation (0: play to the end)"};
constexpr OptionDef kScale{
    "scale", 10, 1e-3, 1e9, false, "an evaluation lead of this much counts as a 73% chance of winning (logistic)"};

// "key=value:key=value" against a kind's options: unknown keys, repeated keys, values that are
// not numbers or are out of range are errors naming the option.
bool parse_options(const AgentKind& k, const std::string& text, Options& out, std::string& error) {
  for (const auto& d : k.options) out.values.emplace_back(d.key, d.fallback);
  if (text.empty()) return true;
  std::vector<std::string> known;
  for (const auto& d : k.options) known.push_back(d.key);
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find(':', start);
    std::string item = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
    start = end == std::string::npos ? text.size() + 1 : end + 1;
    size_t eq = item.find('=');
    std::string key = item.substr(0, eq);
    auto def = std::find_if(k.options.begin(), k.options.end(), [&](const OptionDef& d) { return key == d.key; });
    if (def == k.options.end()) {
      error = known.empty() ? fmt::format("'{}' takes no options, but was given '{}'", k.name, item)
                            : fmt::format("'{}' has no option '{}' (options: {}; write {}:KEY=VALUE:KEY=VALUE)", k.name,
                                          key, fmt::join(known, ", "), k.name);
      return false;
    }
    if (std::find(out.set.begin(), out.set.end(), key) != out.set.end()) {
      error = fmt::format("option '{}' of '{}' is given twice", key, k.name);
      return false;
    }
    std::string value = eq == std::string::npos ? "" : item.substr(eq + 1);
    // A time may carry its unit: time=2s is time=2.
    if (key == "time" && value.size() > 1 && value.back() == 's') value.pop_back();
    double v = 0;
    size_t used = 0;
    try {
      v = std::stod(value, &used);
    } catch (...) {
      used = 0;
    }
    if (value.empty() || used != value.size() || !std::isfinite(v) || (def->integer && v != std::floor(v))) {
      error = fmt::format("option '{}' of '{}' takes {}, not '{}'", key, k.name,
                          def->integer ? "a whole number" : "a number", value);
      return false;
    }
    if (v < def->lo || v > def->hi) {
      error = fmt::format("option '{}' of '{}' must be {} to {}, not {}", key, k.name, def->lo, def->hi, value);
      return false;
    }
    for (auto& [name, val] : out.values)
      if (name == key) val = v;
    out.set.push_back(key);
  }
  return true;
}

}  // namespace

double Options::get(const std::string& key) const {
  for (const auto& [name, v] : values)
    if (name == key) return v;
  return 0;
}

bool Options::given(const std::string& key) const { return std::find(set.begin(), set.end(), key) != set.end(); }

const std::vector<AgentKind>& agent_kinds() {
  static const std::vector<AgentKind> kinds = {
      {"random", "chooses uniformly among the legal moves", {}, make_random},
      {"greedy",
       "looks one move ahead: a move that wins, else the best evaluation (the game's 'evaluate', its lead over the "
       "best "
       "opponent); ties at random",
       {},
       make_greedy},
      {"mc",
       "flat Monte Carlo: random rollouts after each legal move, the move with the best mean result",
       {{"playouts", 50, 1, 1e7, true, "rollouts per legal move"}, kCutoff, kScale},
       make_mc},
      {"mcts",
       "UCT tree search with throws sampled; rewards per player (1 first place, 0 last, shared places split, "
       "partners share), so it plays any number of players and teams",
       {{"iterations", 1000, 1, 1e8, true, "search iterations per decision (unless time is given)"},
        {"time", 0, 0, 3600, false, "seconds per decision instead of a number of iterations (not reproducible)"},
        kCutoff,
        kScale,
        {"rollout", 1, 0, 1, true,
         "1: a random rollout from each new node; 0: score the new node by the evaluation at once"},
        {"order", 1, 0, 1, true, "1: try a node's moves best first by the evaluation after each; 0: in random order"},
        {"memory", 64, 0, 65536, false,
         "megabytes of states the tree keeps, so that iterations need not replay their paths"},
        {"c", 1.0, 0, 100, false, "UCT exploration constant"},
        {"verbose", 0, 0, 1, true, "1: print each search's iterations, speed and choice on stderr"}},
       make_mcts},
      {"expectimax",
       "depth-limited expectimax with the exact probabilities of the dice, for two sides (2 players or 2 teams); "
       "leaves scored by the game's evaluation",
       {{"depth", 3, 1, 12, true, "decisions looked ahead (throws do not count)"}},
       make_expectimax},
  };
  return kinds;
}

// The game's own search settings: `def search_KEY(): int` gives option KEY's value when the
// spec does not (docs/agents.md, "The game's settings"), as long as it is in the option's range.
static void game_settings(const AgentKind& k, const compile::Program* p, Options& o) {
  if (!p) return;
  for (auto& [key, value] : o.values) {
    if (o.given(key)) continue;
    for (const auto& [setting, callable] : p->search_settings) {
      if (setting != key) continue;
      runtime::State s = p->initial;
      runtime::Machine m(*p);
      m.bind(s.data());
      double v = static_cast<double>(m.call(callable, nullptr, 0));
      for (const auto& d : k.options)
        if (key == d.key && v >= d.lo && v <= d.hi) value = v;
    }
  }
}

static const AgentKind* resolve(const std::string& spec, const compile::Program* program, Options& o,
                                std::string& error) {
  std::string name = spec.substr(0, spec.find(':'));
  std::string options = spec.find(':') == std::string::npos ? "" : spec.substr(spec.find(':') + 1);
  std::vector<std::string> names;
  for (const auto& k : agent_kinds()) {
    if (name != k.name) {
      names.push_back(k.name);
      continue;
    }
    if (!parse_options(k, options, o, error)) return nullptr;
    game_settings(k, program, o);
    return &k;
  }
  error = fmt::format("unknown player '{}' (players: {})", name, fmt::join(names, ", "));
  return nullptr;
}

static std::unique_ptr<Agent> make_for(const std::string& spec, const compile::Program* program, std::string& error) {
  Options o;
  const AgentKind* k = resolve(spec, program, o, error);
  return k ? k->make(o) : nullptr;
}

bool agent_options(const std::string& spec, const compile::Program& program, Options& out, std::string& error) {
  return resolve(spec, &program, out, error) != nullptr;
}

std::unique_ptr<Agent> make_agent(const std::string& spec, std::string& error) {
  return make_for(spec, nullptr, error);
}

std::unique_ptr<Agent> make_agent(const std::string& spec, const compile::Program& program, std::string& error) {
  auto a = make_for(spec, &program, error);
  if (!a) return nullptr;
  error = a->unsuitable(program);
  if (!error.empty()) {
    error = fmt::format("'{}' cannot play {}: {}", spec, program.game_name, error);
    return nullptr;
  }
  return a;
}

std::string agents_help() {
  std::string out;
  for (const auto& k : agent_kinds()) {
    out += fmt::format("  {:<11}{}\n", k.name, k.doc);
    for (const auto& d : k.options)
      out += fmt::format("  {:<11}  :{}=N  {} (default {})\n", "", d.key, d.doc, d.fallback);
  }
  return out;
}

}  // namespace keli::agents
