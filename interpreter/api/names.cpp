// Games by name (names.hpp): the library's games listed from Keli's games/ folder, and
// OpenSpiel's game-string syntax read into a file and parameters.
#include "api/names.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "api/game.hpp"
#include "ast/files.hpp"
#include "diag/diagnostics.hpp"

namespace keli::api {
namespace fs = std::filesystem;

namespace {

bool is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

std::string trimmed(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return std::string(s);
}

// "k=v,k2=v2" into settings; Error for a part without '=' or a name that is no identifier.
compile::ParamSettings parse_settings(std::string_view inside, const std::string& whole) {
  compile::ParamSettings out;
  if (trimmed(inside).empty()) return out;
  size_t at = 0;
  while (at <= inside.size()) {
    size_t comma = inside.find(',', at);
    if (comma == std::string_view::npos) comma = inside.size();
    std::string_view part = inside.substr(at, comma - at);
    size_t eq = part.find('=');
    std::string key = trimmed(part.substr(0, eq == std::string_view::npos ? 0 : eq));
    if (eq == std::string_view::npos || key.empty() || !std::all_of(key.begin(), key.end(), is_name_char))
      throw Game::input_error(fmt::format("'{}' in the game string '{}' is not NAME=VALUE", trimmed(part), whole),
                              "a game string reads: NAME(K=V,...), as sowing_game(holes=6,relay=true)");
    std::string value = trimmed(part.substr(eq + 1));
    if (value == "True" || value == "False") value = value == "True" ? "true" : "false";  // OpenSpiel's bools
    out.emplace_back(key, value);
    at = comma + 1;
  }
  return out;
}

}  // namespace

std::vector<std::string> registered_names() {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(ast::own_games_folder(), ec))
    if (e.path().extension() == ".keli" && e.is_regular_file(ec)) out.push_back(e.path().stem().string());
  std::sort(out.begin(), out.end());
  return out;
}

std::optional<GameSpec> parse_game_string(const std::string& text) {
  size_t open = text.find('(');
  std::string name = text.substr(0, open);
  if (name.empty() || !std::all_of(name.begin(), name.end(), is_name_char)) return std::nullopt;
  if (open != std::string::npos && text.back() != ')') return std::nullopt;
  auto names = registered_names();
  if (!std::binary_search(names.begin(), names.end(), name)) {
    std::string hint = diag::suggest(name, names);
    throw Game::input_error(fmt::format("'{}' is no game of Keli's library (keli.registered_names())", name),
                            hint.empty() ? "name a game of games/, or give the path of a .keli file" : hint);
  }
  GameSpec spec{(fs::path(ast::own_games_folder()) / (name + ".keli")).string(), {}};
  if (open != std::string::npos)
    spec.params = parse_settings(std::string_view(text).substr(open + 1, text.size() - open - 2), text);
  return spec;
}

}  // namespace keli::api
