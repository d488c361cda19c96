// The Python module keli (docs/python.md): load_game, Game, simulate and keli.Error, a thin
// binding of the api layer (interpreter/api/); states are bound in keli_state.cpp.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "api/game.hpp"
#include "api/simulate.hpp"
#include "keli_python.hpp"

namespace py = pybind11;
using namespace keli;

namespace {

// A parameter value as it would be written after --param NAME=.
std::string param_text(const py::handle& v) {
  if (py::isinstance<py::bool_>(v)) return v.cast<bool>() ? "true" : "false";
  if (py::isinstance<py::int_>(v)) return std::to_string(v.cast<int64_t>());
  if (py::isinstance<py::str>(v)) return v.cast<std::string>();
  throw py::type_error("a parameter's value is a bool, an int or a str, not " +
                       std::string(py::str(v.get_type().attr("__name__"))));
}

std::shared_ptr<api::Game> load_game(const std::string& path, const py::dict& params, const std::string& engine,
                                     int64_t budget, const std::string& cache_dir) {
  compile::ParamSettings settings;
  for (auto [k, v] : params) settings.emplace_back(py::str(k).cast<std::string>(), param_text(v));
  auto e = runtime::parse_engine(engine);
  if (!e) throw py::value_error("engine is 'interp', 'native' or 'auto', not '" + engine + "'");
  runtime::EngineOptions options{*e, cache_dir, budget, false};
  py::gil_scoped_release unlocked;  // parsing, checking and a native compile take a while
  return api::Game::load(path, settings, options);
}

py::list simulate(const std::shared_ptr<api::Game>& game, int64_t n, const std::vector<std::string>& players,
                  uint64_t seed, int threads, bool check_invariants) {
  api::SimulateOptions o{players, n, seed, threads, check_invariants};
  std::vector<api::GameResult> records;
  {
    py::gil_scoped_release unlocked;
    records = api::simulate(*game, o);
  }
  py::list out;
  for (const auto& r : records) {
    py::dict d;
    d["index"] = r.index;
    d["seed"] = r.seed;
    d["places"] = r.places;
    d["returns"] = r.returns;
    d["length"] = r.decisions;
    d["throws"] = r.throws;
    d["by_limit"] = r.by_limit;
    d["error"] = r.error.empty() ? py::object(py::none()) : py::object(py::str(r.error));
    out.append(d);
  }
  return out;
}

}  // namespace

PYBIND11_MODULE(keli, m) {
  m.doc() = "Keli, a general rules interpreter for traditional board games, in OpenSpiel's shape";
  py::register_exception<api::Error>(m, "Error", PyExc_ValueError);

  py::class_<api::Game, std::shared_ptr<api::Game>>(m, "Game")
      .def("num_players", [](const api::Game& g) { return g.program().num_players; })
      .def("num_distinct_actions", [](const api::Game& g) { return g.actions().num_distinct_actions(); })
      .def("max_chance_outcomes", [](const api::Game& g) { return g.actions().max_chance_outcomes(); })
      .def("min_utility", [](const api::Game&) { return -1.0; })
      .def("max_utility", [](const api::Game&) { return 1.0; })
      .def("utility_sum", [](const api::Game&) { return 0.0; })
      .def("new_initial_state",
           [](const std::shared_ptr<api::Game>& g) { return api::State(std::shared_ptr<const api::Game>(g)); })
      .def("name", [](const api::Game& g) { return g.program().game_name; })
      .def("seats", [](const api::Game& g) { return g.program().seat_names; })
      .def("params",
           [](const api::Game& g) {
             py::dict d;
             for (const auto& [name, value] : g.program().params) d[py::str(name)] = value;
             return d;
           })
      .def("engine", [](const api::Game& g) { return std::string(runtime::engine_name(g.engine())); })
      .def("__repr__", [](const api::Game& g) { return "<keli.Game " + g.program().game_name + ">"; });

  keli_python::bind_state(m);

  py::class_<api::Player>(m, "Player")
      .def(py::init([](const std::shared_ptr<api::Game>& g, const std::string& spec, uint64_t seed) {
             return std::make_unique<api::Player>(g, spec, seed);
           }),
           py::arg("game"), py::arg("spec") = "random", py::arg("seed") = 1)
      .def("choose", &api::Player::choose, py::arg("state"), py::call_guard<py::gil_scoped_release>(),
           "The action id this player chooses in state (a search runs without the GIL).");

  m.def("load_game", &load_game, py::arg("path"), py::arg("params") = py::dict(), py::arg("engine") = "auto",
        py::arg("budget") = 0, py::arg("cache_dir") = "",
        "Loads, checks and compiles a game file; keli.Error carries Keli's positioned messages.");
  m.def("simulate", &simulate, py::arg("game"), py::arg("n") = 100, py::arg("players") = std::vector<std::string>{},
        py::arg("seed") = 1, py::arg("threads") = 1, py::arg("check_invariants") = true,
        "Plays n games between computer players (keli simulate's seeds) without the GIL; one dict a game.");
  m.attr("CHANCE_PLAYER") = api::kChancePlayer;
  m.attr("TERMINAL_PLAYER") = api::kTerminalPlayer;
}
