// keli.State (OpenSpiel's state methods over api::State) and keli.Observation (the state as a
// numpy array with a named view of each table); no rules here.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "api/game.hpp"
#include "keli_python.hpp"

namespace py = pybind11;
using namespace keli;

namespace {

// The visible slots as one int32 array, each variable (and the fixed slots) a view of it.
struct Observation {
  py::array_t<int32_t> array;
  py::dict tables;  // variable name -> view shaped by its dimensions
  py::dict fixed;   // mover, phase, over, ply, moves, next_place, places
};

py::array_t<int32_t> view(const py::array_t<int32_t>& base, int first, std::vector<py::ssize_t> shape) {
  std::vector<py::ssize_t> strides(shape.size());
  py::ssize_t stride = sizeof(int32_t);
  for (size_t i = shape.size(); i-- > 0;) {
    strides[i] = stride;
    stride *= shape[i];
  }
  return py::array_t<int32_t>(shape, strides, base.data() + first, base);
}

Observation observe(const api::State& s) {
  const compile::Program& p = s.game().program();
  std::vector<int32_t> slots = s.observation();
  Observation o{py::array_t<int32_t>(static_cast<py::ssize_t>(slots.size()), slots.data()), {}, {}};
  for (const auto& v : p.vars) {
    std::vector<py::ssize_t> shape(v.dims.begin(), v.dims.end());
    o.tables[py::str(v.name)] = view(o.array, v.base, shape);
  }
  const char* names[] = {"mover", "phase", "over", "ply", "moves", "next_place"};
  for (int i = 0; i < compile::kPlaces; ++i) o.fixed[names[i]] = slots[i];
  o.fixed["places"] = view(o.array, compile::kPlaces, {p.num_players});
  return o;
}

}  // namespace

namespace keli_python {

void bind_state(py::module_& m) {
  py::class_<Observation>(m, "Observation")
      .def_readonly("array", &Observation::array)
      .def_readonly("tables", &Observation::tables)
      .def_readonly("fixed", &Observation::fixed)
      .def("__getitem__", [](const Observation& o, const std::string& name) { return o.tables[py::str(name)]; })
      .def("__array__", [](const Observation& o, py::args) { return o.array; });

  py::class_<api::State>(m, "State")
      .def("current_player", &api::State::current_player)
      .def("is_chance_node", &api::State::is_chance_node)
      .def("is_terminal", &api::State::is_terminal)
      .def("is_player_node", [](const api::State& s) { return s.current_player() >= 0; })
      .def("ended_by_limit", &api::State::ended_by_limit)
      .def("legal_actions", [](const api::State& s) { return s.legal_actions(); })
      .def(
          "legal_actions", [](const api::State& s, int) { return s.legal_actions(); }, py::arg("player"))
      .def("action_to_string", &api::State::action_to_string, py::arg("action"))
      .def(
          "action_to_string", [](const api::State& s, int, int64_t a) { return s.action_to_string(a); },
          py::arg("player"), py::arg("action"))
      .def("action_to_call", &api::State::action_to_call, py::arg("action"))
      .def("apply_action", &api::State::apply_action, py::arg("action"))
      .def("apply_move", &api::State::apply_text, py::arg("notation"))
      .def("apply_throw", &api::State::apply_throw, py::arg("values"))
      .def("chance_outcomes",
           [](const api::State& s) {
             std::vector<std::pair<int64_t, double>> out;
             for (const auto& o : s.chance_outcomes()) out.emplace_back(o.id, o.probability());
             return out;
           })
      .def("chance_outcomes_exact",
           [](const api::State& s) {
             std::vector<std::tuple<int64_t, int64_t, int64_t>> out;
             for (const auto& o : s.chance_outcomes()) out.emplace_back(o.id, o.weight, o.total);
             return out;
           })
      .def("returns", &api::State::returns)
      .def("places", &api::State::places)
      .def("notes", &api::State::notes)
      .def("ply", &api::State::ply)
      .def("move_number", &api::State::moves)
      .def("clone", [](const api::State& s) { return api::State(s); })
      .def("__copy__", [](const api::State& s) { return api::State(s); })
      .def("__deepcopy__", [](const api::State& s, py::dict) { return api::State(s); })
      .def("observation", &observe)
      .def("to_json", &api::State::to_json)
      .def("__str__", &api::State::to_string)
      .def("__repr__", [](const api::State& s) {
        return "<keli.State of " + s.game().program().game_name + " at ply " + std::to_string(s.ply()) + ">";
      });
}

}  // namespace keli_python
