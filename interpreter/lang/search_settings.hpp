// The search settings a game may give its computer players in its `ai { KEY VALUE }` block
// (docs/agents.md, "The game's settings"). Each KEY is an option of at least one player kind of
// interpreter/agents, and every option of theirs is listed here (tests/unit/agents_test.cpp).
#pragma once

#include <string_view>

namespace keli::lang {

// X(key, doc)
#define KELI_SEARCH_SETTINGS(X)                                                             \
  X(cutoff, "decisions after which a rollout stops and the evaluation scores it (0: none)") \
  X(scale, "the lead that counts as a 73% chance when an evaluation becomes a reward")      \
  X(rollout, "1: a random rollout from each new node; 0: score it by the evaluation")       \
  X(order, "1: try a node's moves best first by the evaluation; 0: in random order")        \
  X(iterations, "search iterations per decision")                                           \
  X(time, "seconds per decision instead of a number of iterations")                         \
  X(playouts, "rollouts per legal move")                                                    \
  X(depth, "decisions looked ahead")                                                        \
  X(memory, "megabytes of states a search tree keeps")                                      \
  X(c, "the exploration constant of the tree search")                                       \
  X(verbose, "1: report each search on stderr")

struct SearchSetting {
  std::string_view key;
  std::string_view doc;
};

#define KELI_SEARCH_SETTING_ENTRY(key, doc) SearchSetting{#key, doc},
inline constexpr SearchSetting kSearchSettings[] = {KELI_SEARCH_SETTINGS(KELI_SEARCH_SETTING_ENTRY)};
#undef KELI_SEARCH_SETTING_ENTRY

// A setting KEY is the definition `search_KEY(): int` to the rest of Keli (the players read it so).
inline constexpr std::string_view kSearchSettingPrefix = "search_";

inline bool is_search_setting(std::string_view key) {
  for (const auto& s : kSearchSettings)
    if (s.key == key) return true;
  return false;
}

}  // namespace keli::lang
