// keli.GameType: pyspiel's description of a game (game.get_type()), with its enums by pyspiel's
// names, so that code written against pyspiel (OpenSpiel's Python MCTS, its RL environment)
// reads a Keli game as it reads one of OpenSpiel's. Derived from the compiled program only.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <filesystem>

#include "keli_python.hpp"

namespace py = pybind11;
using namespace keli;

namespace keli_python {
namespace {

enum class Dynamics { SEQUENTIAL, SIMULTANEOUS, MEAN_FIELD };
enum class ChanceMode { DETERMINISTIC, EXPLICIT_STOCHASTIC, SAMPLED_STOCHASTIC };
enum class Information { ONE_SHOT, PERFECT_INFORMATION, IMPERFECT_INFORMATION };
enum class Utility { ZERO_SUM, CONSTANT_SUM, GENERAL_SUM, IDENTICAL };
enum class RewardModel { REWARDS, TERMINAL };

struct GameType {
  std::string short_name, long_name;
  Dynamics dynamics = Dynamics::SEQUENTIAL;
  ChanceMode chance_mode = ChanceMode::DETERMINISTIC;
  Information information = Information::PERFECT_INFORMATION;
  Utility utility = Utility::ZERO_SUM;
  RewardModel reward_model = RewardModel::TERMINAL;
  int max_num_players = 0, min_num_players = 0;
  bool provides_information_state_string = true;  // the history, as for any perfect-information game
  bool provides_information_state_tensor = false;
  bool provides_observation_string = true;  // the text board
  bool provides_observation_tensor = true;  // api::Observer's, from the game's tables
  bool provides_factored_observation_string = false;
  bool default_loadable = true;
  py::dict parameter_specification;
};

// One of pyspiel's enums, nested in GameType as pyspiel nests it, from its (name, value) pairs.
template <typename E>
void bind_enum(py::class_<GameType>& t, const char* name, std::initializer_list<std::pair<const char*, E>> values) {
  py::enum_<E> e(t, name);
  for (const auto& [text, value] : values) e.value(text, value);
}

}  // namespace

void bind_game_type(py::module_& m) {
  py::class_<GameType> t(m, "GameType");
  bind_enum<Dynamics>(t, "Dynamics",
                      {{"SEQUENTIAL", Dynamics::SEQUENTIAL},
                       {"SIMULTANEOUS", Dynamics::SIMULTANEOUS},
                       {"MEAN_FIELD", Dynamics::MEAN_FIELD}});
  bind_enum<ChanceMode>(t, "ChanceMode",
                        {{"DETERMINISTIC", ChanceMode::DETERMINISTIC},
                         {"EXPLICIT_STOCHASTIC", ChanceMode::EXPLICIT_STOCHASTIC},
                         {"SAMPLED_STOCHASTIC", ChanceMode::SAMPLED_STOCHASTIC}});
  bind_enum<Information>(t, "Information",
                         {{"ONE_SHOT", Information::ONE_SHOT},
                          {"PERFECT_INFORMATION", Information::PERFECT_INFORMATION},
                          {"IMPERFECT_INFORMATION", Information::IMPERFECT_INFORMATION}});
  bind_enum<Utility>(t, "Utility",
                     {{"ZERO_SUM", Utility::ZERO_SUM},
                      {"CONSTANT_SUM", Utility::CONSTANT_SUM},
                      {"GENERAL_SUM", Utility::GENERAL_SUM},
                      {"IDENTICAL", Utility::IDENTICAL}});
  bind_enum<RewardModel>(t, "RewardModel", {{"REWARDS", RewardModel::REWARDS}, {"TERMINAL", RewardModel::TERMINAL}});
#define KELI_FIELD(name) .def_readonly(#name, &GameType::name)
  t KELI_FIELD(short_name) KELI_FIELD(long_name) KELI_FIELD(dynamics) KELI_FIELD(chance_mode) KELI_FIELD(information)
      KELI_FIELD(utility) KELI_FIELD(reward_model) KELI_FIELD(max_num_players) KELI_FIELD(min_num_players)
          KELI_FIELD(provides_information_state_string) KELI_FIELD(provides_information_state_tensor)
              KELI_FIELD(provides_observation_string) KELI_FIELD(provides_observation_tensor)
                  KELI_FIELD(provides_factored_observation_string) KELI_FIELD(default_loadable)
                      KELI_FIELD(parameter_specification);
#undef KELI_FIELD
  t.def("__repr__", [](const GameType& g) { return "<keli.GameType " + g.short_name + ">"; });
}

py::object game_type(const api::Game& g, const py::dict& parameters) {
  const compile::Program& p = g.program();
  GameType t;
  t.short_name = std::filesystem::path(g.file().path()).stem().string();
  t.long_name = p.game_name;
  t.chance_mode = p.dice.empty() ? ChanceMode::DETERMINISTIC : ChanceMode::EXPLICIT_STOCHASTIC;
  // The seats of this game as loaded (a game whose players are a parameter reports the count its
  // parameters give: load it with another to see another).
  t.max_num_players = t.min_num_players = p.num_players;
  t.parameter_specification = parameters;
  return py::cast(std::move(t));
}

}  // namespace keli_python
