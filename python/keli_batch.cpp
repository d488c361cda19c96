// Many states stepped in one call (docs/python.md, "Batches"): a learner's loop over thousands
// of states pays Python's per-call cost once a batch, not once a state. The states are stepped
// without the GIL, each under its game's lock, in order; masks come back as one numpy array.
#include <fmt/format.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <vector>

#include "keli_python.hpp"

namespace py = pybind11;
using namespace keli;

namespace keli_python {
namespace {

// The states of a list, each a keli.State; keli.Error naming the first that is not. `held`
// keeps a reference to each while the GIL is let go: another thread may replace an item of the
// list meanwhile, and the state must outlive the call.
std::vector<api::State*> states_of(const py::handle& states, std::vector<py::object>& held) {
  if (py::isinstance<py::str>(states) || !py::isinstance<py::sequence>(states))
    bad_argument("states must be a list of keli.State");
  std::vector<api::State*> out;
  for (const auto& s : py::reinterpret_borrow<py::sequence>(states)) {
    if (!py::isinstance<api::State>(s)) bad_argument(fmt::format("states[{}] is no keli.State", out.size()));
    held.push_back(py::reinterpret_borrow<py::object>(s));
    out.push_back(&s.cast<api::State&>());
  }
  return out;
}

// Action ids, one a state: a sequence of ints or a 1-D numpy integer array.
std::vector<int64_t> actions_of(const py::handle& actions, size_t n) {
  std::vector<int64_t> out;
  if (py::isinstance<py::array>(actions)) {
    // Whole numbers only: a float or bool array is refused, as a float in a list is.
    char kind = py::reinterpret_borrow<py::array>(actions).dtype().kind();
    if (kind != 'i' && kind != 'u') bad_argument("actions must be an array of whole numbers (action ids)");
    auto a = py::array_t<int64_t, py::array::c_style | py::array::forcecast>::ensure(actions);
    if (!a || a.ndim() != 1) bad_argument("actions must be a 1-D array of action ids");
    out.assign(a.data(), a.data() + a.size());
  } else {
    if (py::isinstance<py::str>(actions) || !py::isinstance<py::sequence>(actions))
      bad_argument("actions must be a list of action ids, one a state");
    for (const auto& x : py::reinterpret_borrow<py::sequence>(actions))
      out.push_back(whole_number(x, "an action id", INT64_MIN, INT64_MAX));
  }
  if (out.size() != n) bad_argument(fmt::format("{} actions for {} states: one a state", out.size(), n));
  return out;
}

// Applies actions[i] to states[i], in order, and says which states have ended (a numpy bool
// array), so that a learner's loop restarts those without asking each state. The states before a
// failing one are stepped; it and those after are as they were; keli.Error says which state failed.
py::array_t<bool> apply_actions(const py::object& states, const py::object& actions) {
  need_numpy("keli.apply_actions");
  std::vector<py::object> held;
  std::vector<api::State*> s = states_of(states, held);
  std::vector<int64_t> a = actions_of(actions, s.size());
  py::array_t<bool> ended(static_cast<py::ssize_t>(s.size()));
  bool* flags = ended.mutable_data();
  size_t failed = s.size();
  std::string why, code;
  {
    py::gil_scoped_release unlocked;
    for (size_t i = 0; i < s.size(); ++i) {
      std::lock_guard<std::mutex> one_at_a_time(s[i]->game().lock());
      try {
        s[i]->apply_action(a[i]);
        flags[i] = s[i]->is_terminal();
      } catch (const api::Error& e) {
        failed = i, why = e.what(), code = e.code();
        break;
      }
    }
  }
  if (failed < s.size()) throw api::Error(fmt::format("states[{}]: {}", failed, why), code);
  return ended;
}

// One row a state: 1 for each legal action id. The width holds any state's ids: the larger of
// num_distinct_actions and max_chance_outcomes of the first state's game (all the states' games
// must have the same widths).
py::array_t<int8_t> legal_actions_masks(const py::object& states) {
  need_numpy("keli.legal_actions_masks");
  std::vector<py::object> held;  // before `unlocked`: let go of with the GIL held again
  std::vector<api::State*> s = states_of(states, held);
  int64_t width = 0;
  for (const api::State* x : s) {
    const auto& space = x->game().actions();
    int64_t w = std::max(space.num_distinct_actions(), space.max_chance_outcomes());
    if (width != 0 && w != width) bad_argument("the states' games have different numbers of action ids");
    width = w;
  }
  py::array_t<int8_t> out({static_cast<py::ssize_t>(s.size()), static_cast<py::ssize_t>(width)});
  int8_t* rows = out.mutable_data();
  std::fill(rows, rows + out.size(), int8_t{0});
  py::gil_scoped_release unlocked;
  for (size_t i = 0; i < s.size(); ++i) {
    std::lock_guard<std::mutex> one_at_a_time(s[i]->game().lock());
    for (int64_t id : s[i]->legal_actions()) rows[static_cast<int64_t>(i) * width + id] = 1;
  }
  return out;
}

}  // namespace

void bind_batch(py::module_& m) {
  m.def("apply_actions", &apply_actions, py::arg("states"), py::arg("actions"),
        "Applies actions[i] to states[i] for every i, without the GIL, and returns a numpy bool array: "
        "which states have ended. keli.Error names the state that failed.");
  m.def("legal_actions_masks", &legal_actions_masks, py::arg("states"),
        "A numpy int8 array, one row a state, 1 for each legal action id.");
}

}  // namespace keli_python
