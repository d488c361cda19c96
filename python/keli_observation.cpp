// The observation tensor from Python (docs/python.md, "Observations"): pyspiel's
// observation_tensor(player) as a numpy float32 array, its named parts as views of it, and the
// game's layout; the tensor itself is runtime::Observer's (runtime/observation.hpp), no rules here.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <vector>

#include "keli_python.hpp"

namespace py = pybind11;
using namespace keli;

namespace keli_python {
namespace {

// The seat whose view is asked for: `player`, or the seat to decide when it is None.
int observer_seat(const api::State& s, const py::object& player) {
  const int seats = s.game().program().num_players;
  if (player.is_none()) {
    int p = at_once(s.game(), [&] { return s.current_player(); });
    if (p < 0) bad_argument("no seat decides here (a chance node or the end): give the player whose view is wanted");
    return p;
  }
  return static_cast<int>(whole_number(player, "player (a seat)", 0, seats - 1));
}

py::array_t<float> tensor(const api::State& s, const py::object& player) {
  need_numpy("state.observation_tensor()");
  int seat = observer_seat(s, player);
  py::array_t<float> out(static_cast<py::ssize_t>(s.game().observer().size()));
  float* data = out.mutable_data();
  at_once(s.game(), [&] { s.observation_tensor(seat, data); });
  return out;
}

// Each part of the tensor as a view of one array (no copy), shaped as the layout says.
py::dict tensor_parts(const api::State& s, const py::object& player) {
  py::array_t<float> whole = tensor(s, player);
  py::dict parts;
  for (const runtime::ObservationPart& part : s.game().observer().parts()) {
    std::vector<py::ssize_t> shape(part.shape.begin(), part.shape.end()), strides(shape.size());
    py::ssize_t stride = sizeof(float);
    for (size_t d = shape.size(); d-- > 0;) strides[d] = stride, stride *= shape[d];
    parts[py::str(part.name)] = py::array_t<float>(shape, strides, whole.data() + part.offset, whole);
  }
  return parts;
}

py::list layout(const api::Game& g) {
  py::list out;
  for (const runtime::ObservationPart& part : g.observer().parts())
    out.append(py::dict(py::arg("name") = part.name, py::arg("offset") = part.offset, py::arg("shape") = part.shape,
                        py::arg("what") = part.what));
  return out;
}

}  // namespace

void bind_observation(py::module_& m) {
  auto state = py::reinterpret_borrow<py::class_<api::State>>(m.attr("State"));
  state.def("observation_tensor", &tensor, py::arg("player") = py::none(),
            "The state as `player` sees it (default: the seat to decide), a numpy float32 array laid out "
            "as game.observation_tensor_layout() says.");
  state.def("observation_tensor_parts", &tensor_parts, py::arg("player") = py::none(),
            "observation_tensor(player)'s parts by name, each a shaped view of one array.");
  auto game = py::reinterpret_borrow<py::class_<api::Game, std::shared_ptr<api::Game>>>(m.attr("Game"));
  game.def("observation_tensor_size", [](const api::Game& g) { return g.observer().size(); });
  game.def("observation_tensor_shape", [](const api::Game& g) { return std::vector<int>{g.observer().size()}; });
  game.def("observation_tensor_layout", &layout,
           "The tensor's parts in order: dicts of name, offset, shape and what its numbers mean.");
  game.def("observation_rotates_board", [](const api::Game& g) { return g.observer().rotates_board(); });
}

}  // namespace keli_python
