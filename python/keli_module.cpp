// The Python module keli (docs/python.md): load_game, Game, simulate and keli.Error, a thin
// binding of the api layer (interpreter/api/); states are bound in keli_state.cpp.
#include <fmt/format.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <filesystem>
#include <mutex>

#include "api/game.hpp"
#include "api/names.hpp"
#include "api/simulate.hpp"
#include "keli_python.hpp"
#include "lang/limits.hpp"

namespace py = pybind11;
using namespace keli;

namespace {

using keli_python::bad_argument;
using keli_python::path_text;
using keli_python::seed_number;
using keli_python::text;
using keli_python::whole_number;

// A parameter value as it would be written after --param NAME=: the compiler checks it against
// the game's allowed values, as it does the command line's (an int of any size is its digits).
std::string param_text(const std::string& name, const py::handle& v) {
  if (py::isinstance<py::bool_>(v)) return v.cast<bool>() ? "true" : "false";
  if (py::isinstance<py::int_>(v)) return py::str(v).cast<std::string>();
  if (py::isinstance<py::str>(v)) return text(v, "the value of parameter '" + name + "'");
  bad_argument(fmt::format("the value of parameter '{}' must be a bool, an int or a str, not {}", name,
                           py::str(v.get_type().attr("__name__")).cast<std::string>()));
}

// A parameter's value as Python sees it: true/false a bool, digits an int, else the name as a str.
py::object typed_value(const std::string& v) {
  if (v == "true" || v == "false") return py::bool_(v == "true");
  bool digits = !v.empty() &&
                std::all_of(v.begin() + (v[0] == '-' ? 1 : 0), v.end(), [](char c) { return c >= '0' && c <= '9'; }) &&
                v != "-";
  if (digits) return py::int_(py::str(v));
  return py::str(v);
}

// The parameters in effect, typed as the game declares them: bools and ints as such, named
// choices as str.
py::dict typed_parameters(const api::Game& g) {
  py::dict d;
  for (const auto& [name, value] : g.program().params) d[py::str(name)] = typed_value(value);
  return d;
}

std::shared_ptr<api::Game> load_game(const py::object& path, const py::object& params, const py::object& engine,
                                     const py::object& budget, const py::object& cache_dir) {
  std::string file = path_text(path, "path");
  compile::ParamSettings settings;
  // A file that is there wins; else a library name or an OpenSpiel game string, whose settings
  // come first (params given as well override them).
  std::error_code ec;
  if (py::isinstance<py::str>(path) && !std::filesystem::exists(file, ec))
    if (auto spec = api::parse_game_string(file)) {
      file = spec->path;
      settings = spec->params;
    }
  if (!params.is_none() && !py::isinstance<py::dict>(params))
    bad_argument("params must be a dict of parameter names to values: {\"holes\": 5}");
  for (auto [k, v] : params.is_none() ? py::dict() : py::dict(params)) {
    std::string name = text(k, "a parameter's name");
    settings.emplace_back(name, param_text(name, v));
  }
  const std::string engine_name = text(engine, "engine");
  auto e = runtime::parse_engine(engine_name);
  if (!e) bad_argument(fmt::format("engine must be 'interp', 'native' or 'auto', not '{}'", engine_name));
  // 0: the game's own `limit work`; else keli --budget's range.
  int64_t work = whole_number(budget, "budget (0: the game's 'limit work')", 0, lang::kMaxWorkBudget);
  runtime::EngineOptions options{*e, cache_dir.is_none() ? "" : path_text(cache_dir, "cache_dir"), work, false};
  py::gil_scoped_release unlocked;  // parsing, checking and a native compile take a while
  try {
    return api::Game::load(file, settings, options);
  } catch (const std::filesystem::filesystem_error& x) {  // a path the system refuses, as keli's main says it
    throw api::Game::input_error(fmt::format("{}: {}", x.path1().string(), x.code().message()));
  }
}

// A list of player specs ("random", "mcts:iterations=500"): any iterable of str but a str itself.
std::vector<std::string> player_specs(const py::object& players) {
  if (players.is_none()) return {};
  if (py::isinstance<py::str>(players) || !py::isinstance<py::iterable>(players))
    bad_argument("players must be a list of player specs, one a seat: [\"mcts\", \"random\"]");
  std::vector<std::string> out;
  for (const auto& p : players) out.push_back(text(p, "a player spec"));
  return out;
}

py::list simulate(const std::shared_ptr<api::Game>& game, const py::object& n, const py::object& players,
                  const py::object& seed, const py::object& threads, bool check_invariants) {
  api::SimulateOptions o;
  o.players = player_specs(players);
  o.games = whole_number(n, "n (games)", 1, lang::kMaxGames);
  o.seed = seed_number(seed, "seed");
  o.threads = static_cast<int>(whole_number(threads, "threads", 1, lang::kMaxThreads));
  o.check_invariants = check_invariants;
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
    if (!r.points.empty()) d["points"] = r.points;
    d["returns"] = r.returns;
    d["length"] = r.decisions;
    d["throws"] = r.throws;
    d["by_limit"] = r.by_limit;
    d["error"] = r.error.empty() ? py::object(py::none()) : py::object(py::str(r.error));
    out.append(d);
  }
  return out;
}

// keli.Player: a computer player, used by one thread at a time (its search has its own engine).
struct Player {
  api::Player player;
  std::mutex lock;
  Player(const std::shared_ptr<api::Game>& g, const std::string& spec, uint64_t seed) : player(g, spec, seed) {}
};

int64_t choose(Player& p, const api::State& s) {
  py::gil_scoped_release unlocked;  // a search takes a while: other Python threads go on
  api::State copy = [&] {
    std::lock_guard<std::mutex> one_at_a_time(s.game().lock());  // s may be stepped meanwhile
    return s;
  }();
  std::lock_guard<std::mutex> one_search(p.lock);
  return p.player.choose(copy);
}

}  // namespace

PYBIND11_MODULE(keli, m) {
  m.doc() = "Keli, a general rules interpreter for traditional board games, in OpenSpiel's shape";
  py::register_exception<api::Error>(m, "Error", PyExc_ValueError);

  py::class_<api::Game, std::shared_ptr<api::Game>>(m, "Game")
      .def("num_players", [](const api::Game& g) { return g.program().num_players; })
      .def("num_distinct_actions", [](const api::Game& g) { return g.actions().num_distinct_actions(); })
      .def("max_chance_outcomes", [](const api::Game& g) { return g.actions().max_chance_outcomes(); })
      // pyspiel's bound on a game's decisions: the game's `limit moves` (or the engine's default),
      // after which it ends by limit (chance outcomes are not counted, as in pyspiel).
      .def("max_game_length", [](const api::Game& g) { return g.program().move_limit; })
      // Returns from places lie in -1..1; a game's points in -N..N, its `limit points N`.
      .def("min_utility", [](const api::Game& g) { return g.scores_points() ? -g.program().points_limit : -1.0; })
      .def("max_utility", [](const api::Game& g) { return g.scores_points() ? g.program().points_limit : 1.0; })
      .def("utility_sum", [](const api::Game&) { return 0.0; })
      .def("new_initial_state",
           [](const std::shared_ptr<api::Game>& g) {
             // The setup blocks run: as long as a step may be.
             return keli_python::on_engine(*g, [&] { return api::State(std::shared_ptr<const api::Game>(g)); });
           })
      .def(
          "rules", [](const api::Game& g, const std::string& format) { return g.rulebook(format); },
          py::arg("format") = "text", "The game's rulebook in words (keli rules): text, md or html.")
      .def("name", [](const api::Game& g) { return g.program().game_name; })
      .def("seats", [](const api::Game& g) { return g.program().seat_names; })
      .def("params",
           [](const api::Game& g) {
             py::dict d;
             for (const auto& [name, value] : g.program().params) d[py::str(name)] = value;
             return d;
           })
      .def("engine", [](const api::Game& g) { return std::string(runtime::engine_name(g.engine())); })
      .def("get_parameters", &typed_parameters)
      .def("get_type", [](const api::Game& g) { return keli_python::game_type(g, typed_parameters(g)); })
      .def(
          "deserialize_state",
          [](const std::shared_ptr<api::Game>& g, const py::object& t) {
            std::string history = text(t, "the serialized state");
            return keli_python::on_engine(*g, [&] { return api::State::deserialize(g, history); });
          },
          py::arg("serialized"))
      .def(py::pickle(
          [](const api::Game& g) {
            // Loaded anew from its file (made absolute), every parameter and the engine's options.
            py::dict params;
            for (const auto& [name, value] : g.program().params) params[py::str(name)] = value;
            const auto& o = g.engine_options();
            return py::make_tuple(std::filesystem::absolute(g.file().path()).string(), params,
                                  std::string(runtime::engine_name(o.engine)), o.budget, o.cache_dir);
          },
          [](const py::tuple& t) {
            if (t.size() != 5) bad_argument("a pickled keli.Game is (path, params, engine, budget, cache_dir)");
            return load_game(t[0], t[1], t[2], t[3], t[4]);
          }))
      .def("__repr__", [](const api::Game& g) { return "<keli.Game " + g.program().game_name + ">"; });

  keli_python::bind_state(m);
  keli_python::bind_game_type(m);
  keli_python::bind_batch(m);
  keli_python::bind_observation(m);

  py::class_<Player>(m, "Player")
      .def(py::init([](const std::shared_ptr<api::Game>& g, const py::object& spec, const py::object& seed) {
             std::string agent = text(spec, "spec");
             uint64_t from = seed_number(seed, "seed");
             py::gil_scoped_release unlocked;  // its engine may be the native one, compiled first
             return std::make_unique<Player>(g, agent, from);
           }),
           py::arg("game"), py::arg("spec") = "random", py::arg("seed") = 1)
      .def("choose", &choose, py::arg("state"),
           "The action id this player chooses in state (a search runs without the GIL).");

  m.def("load_game", &load_game, py::arg("path"), py::arg("params") = py::dict(), py::arg("engine") = "auto",
        py::arg("budget") = 0, py::arg("cache_dir") = "",
        "Loads, checks and compiles a game file; keli.Error carries Keli's positioned messages.");
  m.def("simulate", &simulate, py::arg("game"), py::arg("n") = 100, py::arg("players") = py::list(),
        py::arg("seed") = 1, py::arg("threads") = 1, py::arg("check_invariants") = true,
        "Plays n games between computer players (keli simulate's seeds) without the GIL; one dict a game.");
  m.def("registered_names", &api::registered_names, "The names of the games of Keli's library (games/), sorted.");
  m.attr("CHANCE_PLAYER") = api::kChancePlayer;
  m.attr("TERMINAL_PLAYER") = api::kTerminalPlayer;
}
