// Games by name: the library's games (Keli's games/ folder) and OpenSpiel's game strings,
// "sowing_game(holes=6,relay=true)", turned into a file and parameter settings.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "compile/compiler.hpp"

namespace keli::api {

// The names of the games in Keli's games/ folder (each NAME.keli), sorted.
std::vector<std::string> registered_names();

struct GameSpec {
  std::string path;               // the game file
  compile::ParamSettings params;  // from the string's parentheses, in order
};
// `text` as a game string: NAME or NAME(K=V,...) with NAME one of registered_names(). Nothing
// when `text` is not of that shape (it is then a path); Error (E705) for a name not in the library
// or a malformed parameter list. Values are passed as written ("True"/"False" read as bools, as
// OpenSpiel writes them); the compiler checks them against the game's parameters.
std::optional<GameSpec> parse_game_string(const std::string& text);

}  // namespace keli::api
