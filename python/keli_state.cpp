// keli.State (OpenSpiel's state methods over api::State) and keli.Observation (the state as a
// numpy array with a named view of each table); no rules here.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <climits>

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
  keli_python::need_numpy("state.observation()");
  const compile::Program& p = s.game().program();
  std::vector<int32_t> slots = keli_python::on_engine(s.game(), [&] { return s.observation(); });
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

namespace {

// An action id: any int (numpy's too, not a bool); the state refuses one the game does not have.
int64_t action_id(const api::State& s, const py::handle& v) {
  py::object i = py::reinterpret_steal<py::object>(PyBool_Check(v.ptr()) ? nullptr : PyNumber_Index(v.ptr()));
  const std::string shown = py::repr(v).cast<std::string>();
  if (!i) {
    PyErr_Clear();
    bad_argument(fmt::format("action must be an action id, a whole number, not {} ({})", shown,
                             py::str(v.get_type().attr("__name__")).cast<std::string>()));
  }
  int overflow = 0;
  long long id = PyLong_AsLongLongAndOverflow(i.ptr(), &overflow);
  if (overflow)
    bad_argument(
        fmt::format("{} is no action id of this game (0 to {})", shown, s.game().actions().num_distinct_actions() - 1));
  return id;
}

// A seat number (or keli.CHANCE_PLAYER), as OpenSpiel's state methods take.
int player_number(const api::State& s, const py::handle& v) {
  return static_cast<int>(whole_number(v, "player (a seat, or keli.CHANCE_PLAYER)", api::kChancePlayer,
                                       s.game().program().num_players - 1));
}

// A throw's values: each a face of a die, a 32-bit whole number.
std::vector<int32_t> throw_values(const py::handle& v) {
  if (py::isinstance<py::str>(v) || !py::isinstance<py::iterable>(v))
    bad_argument("values must be a list of the dice's faces: [4, 2]");
  std::vector<int32_t> out;
  for (const auto& x : v) out.push_back(static_cast<int32_t>(whole_number(x, "a die's face", INT32_MIN, INT32_MAX)));
  return out;
}

// A method of State run on the game's engine without the GIL (on_engine).
template <typename R>
auto engine_method(R (api::State::*method)() const) {
  return [method](const api::State& s) { return on_engine(s.game(), [&] { return (s.*method)(); }); };
}

// A method of State that only reads its slots, run at once (at_once).
template <typename R>
auto slots_method(R (api::State::*method)() const) {
  return [method](const api::State& s) { return at_once(s.game(), [&] { return (s.*method)(); }); };
}

}  // namespace

void bind_state(py::module_& m) {
  // numpy's C API is looked up once, here, while the module is imported: looked up by the first
  // observation() instead, two threads could deadlock in it (one holding the GIL and waiting for
  // the lookup, the other importing numpy and waiting for the GIL). Without numpy the module still
  // imports: everything but observation() works, and observation() says numpy is missing.
  try {
    (void)py::dtype::of<int32_t>();
  } catch (const py::error_already_set&) {
    PyErr_Clear();
  }
  py::class_<Observation>(m, "Observation")
      .def_readonly("array", &Observation::array)
      .def_readonly("tables", &Observation::tables)
      .def_readonly("fixed", &Observation::fixed)
      .def("__getitem__", [](const Observation& o, const std::string& name) { return o.tables[py::str(name)]; })
      .def("__array__", [](const Observation& o, py::args) { return o.array; });

  // Every method runs on the game's engine without the GIL (on_engine): a step or a listing of the
  // moves may run long, and another thread may be stepping a state of the same game meanwhile.
  py::class_<api::State>(m, "State")
      .def("current_player", slots_method(&api::State::current_player))
      .def("is_chance_node", slots_method(&api::State::is_chance_node))
      .def("is_terminal", slots_method(&api::State::is_terminal))
      .def("is_player_node",
           [](const api::State& s) { return at_once(s.game(), [&] { return s.current_player() >= 0; }); })
      .def("ended_by_limit", slots_method(&api::State::ended_by_limit))
      .def("legal_actions", engine_method(&api::State::legal_actions))
      .def(
          "legal_actions",
          [](const api::State& s, const py::object& player) {
            // OpenSpiel's: the legal actions of that player, none when another decides.
            int p = player_number(s, player);
            return on_engine(s.game(),
                             [&] { return p == s.current_player() ? s.legal_actions() : std::vector<int64_t>{}; });
          },
          py::arg("player"))
      .def(
          "why_not",
          [](const api::State& s, const std::string& text) {
            return on_engine(s.game(), [&] { return s.game().why_not(s.slots(), text).message; });
          },
          py::arg("move"),
          "Why the move written `move` is not legal here, in words: each rule that could make it and the "
          "first of its tests that fails, with its line and the values read; for text no rule reads, the "
          "moves accepted instead; for a legal move, that it is legal.")
      .def(
          "action_to_string",
          [](const api::State& s, const py::object& a) {
            int64_t id = action_id(s, a);
            return on_engine(s.game(), [&] { return s.action_to_string(id); });
          },
          py::arg("action"))
      .def(
          "action_to_string",
          [](const api::State& s, const py::object& player, const py::object& a) {
            player_number(s, player);  // checked, as OpenSpiel's; the text is the same for every seat
            int64_t id = action_id(s, a);
            return on_engine(s.game(), [&] { return s.action_to_string(id); });
          },
          py::arg("player"), py::arg("action"))
      .def(
          "action_to_call",
          [](const api::State& s, const py::object& a) {
            int64_t id = action_id(s, a);
            return on_engine(s.game(), [&] { return s.action_to_call(id); });
          },
          py::arg("action"))
      .def(
          "apply_action",
          [](api::State& s, const py::object& a) {
            int64_t id = action_id(s, a);
            on_engine(s.game(), [&] { s.apply_action(id); });
          },
          py::arg("action"))
      .def(
          "apply_move",
          [](api::State& s, const py::object& notation) {
            std::string t = text(notation, "notation");
            on_engine(s.game(), [&] { s.apply_text(t); });
          },
          py::arg("notation"))
      .def(
          "apply_throw",
          [](api::State& s, const py::object& values) {
            std::vector<int32_t> v = throw_values(values);
            on_engine(s.game(), [&] { s.apply_throw(v); });
          },
          py::arg("values"))
      .def("chance_outcomes",
           [](const api::State& s) {
             return on_engine(s.game(), [&] {
               std::vector<std::pair<int64_t, double>> out;
               for (const auto& o : s.chance_outcomes()) out.emplace_back(o.id, o.probability());
               return out;
             });
           })
      .def("chance_outcomes_exact",
           [](const api::State& s) {
             return on_engine(s.game(), [&] {
               std::vector<std::tuple<int64_t, int64_t, int64_t>> out;
               for (const auto& o : s.chance_outcomes()) out.emplace_back(o.id, o.weight, o.total);
               return out;
             });
           })
      .def("returns", engine_method(&api::State::returns))
      .def("places", engine_method(&api::State::places))
      .def("points", engine_method(&api::State::points))
      .def("notes", engine_method(&api::State::notes))
      .def("ply", slots_method(&api::State::ply))
      .def("move_number", slots_method(&api::State::moves))
      .def("clone", [](const api::State& s) { return on_engine(s.game(), [&] { return api::State(s); }); })
      .def("__copy__", [](const api::State& s) { return on_engine(s.game(), [&] { return api::State(s); }); })
      .def("__deepcopy__",
           [](const api::State& s, py::dict) { return on_engine(s.game(), [&] { return api::State(s); }); })
      .def("history", engine_method(&api::State::history))
      .def("history_str",
           [](const api::State& s) {
             auto h = on_engine(s.game(), [&] { return s.history(); });
             return fmt::format("{}", fmt::join(h, ", "));
           })
      .def("full_history",
           [](const api::State& s) {
             // pyspiel's (player, action) pairs: who took each action is found by replaying the
             // history from the start (keli.CHANCE_PLAYER for chance outcomes).
             return on_engine(s.game(), [&] {
               std::vector<std::pair<int, int64_t>> out;
               api::State replay(s.game_ptr());
               for (int64_t a : s.history()) {
                 out.emplace_back(replay.current_player(), a);
                 replay.apply_action(a);
               }
               return out;
             });
           })
      .def("is_initial_state", [](const api::State& s) { return s.history_size() == 0; })
      .def("is_simultaneous_node", [](const api::State&) { return false; })
      .def("serialize", engine_method(&api::State::serialize))
      .def(
          "observation_string",
          [](const api::State& s, const py::object& player) {
            // Perfect information: every seat sees the whole board.
            if (!player.is_none()) player_number(s, player);
            return on_engine(s.game(), [&] { return s.to_string(); });
          },
          py::arg("player") = py::none())
      .def(
          "information_state_string",
          [](const api::State& s, const py::object& player) {
            // Perfect information: what a seat knows is the whole history (pyspiel's HistoryString).
            if (!player.is_none()) player_number(s, player);
            auto h = on_engine(s.game(), [&] { return s.history(); });
            return fmt::format("{}", fmt::join(h, ", "));
          },
          py::arg("player") = py::none())
      .def(
          "undo_action",
          [](api::State& s, const py::object& player, const py::object& action) {
            // pyspiel's: undo_action(player, action) takes back the last action, which must be
            // that player's that action; without them, whatever the last action was.
            int p = player.is_none() ? 0 : player_number(s, player);
            int64_t id = action.is_none() ? 0 : action_id(s, action);
            on_engine(s.game(), [&] {
              api::State before = s;
              before.undo_last();
              auto history = s.history();
              if ((!player.is_none() && before.current_player() != p) || (!action.is_none() && history.back() != id))
                throw api::Game::input_error(fmt::format(
                    "the last action was {} by player {}, not {} by player {}", history.back(), before.current_player(),
                    action.is_none() ? "any" : std::to_string(id), player.is_none() ? "any" : std::to_string(p)));
              s = std::move(before);
            });
          },
          py::arg("player") = py::none(), py::arg("action") = py::none())
      .def(
          "child",
          [](const api::State& s, const py::object& a) {
            int64_t id = action_id(s, a);
            return on_engine(s.game(), [&] {
              api::State next = s;
              next.apply_action(id);
              return next;
            });
          },
          py::arg("action"))
      .def("rewards",
           [](const api::State& s) {
             // Keli's games reward only at the end: the last step's rewards are the returns there.
             return on_engine(s.game(), [&] {
               return s.is_terminal() ? s.returns()
                                      : std::vector<double>(static_cast<size_t>(s.game().program().num_players), 0.0);
             });
           })
      .def(
          "player_return",
          [](const api::State& s, const py::object& player) {
            int p = player_number(s, player);
            if (p < 0) bad_argument("player_return needs a seat, not keli.CHANCE_PLAYER");
            return on_engine(s.game(), [&] { return s.returns()[static_cast<size_t>(p)]; });
          },
          py::arg("player"))
      .def(
          "player_reward",
          [](const api::State& s, const py::object& player) {
            int p = player_number(s, player);
            if (p < 0) bad_argument("player_reward needs a seat, not keli.CHANCE_PLAYER");
            return on_engine(s.game(), [&] { return s.is_terminal() ? s.returns()[static_cast<size_t>(p)] : 0.0; });
          },
          py::arg("player"))
      .def("legal_actions_mask",
           [](const api::State& s) {
             auto mask = on_engine(s.game(), [&] { return s.legal_actions_mask(); });
             return std::vector<int>(mask.begin(), mask.end());
           })
      .def(
          "legal_actions_mask",
          [](const api::State& s, const py::object& player) {
            int p = player_number(s, player);
            auto mask = on_engine(s.game(), [&] {
              auto legal = s.legal_actions_mask();
              if (p != s.current_player()) std::fill(legal.begin(), legal.end(), int8_t{0});
              return legal;
            });
            return std::vector<int>(mask.begin(), mask.end());
          },
          py::arg("player"))
      .def(
          "string_to_action",
          [](const api::State& s, const py::object& t) {
            std::string notation = text(t, "action_string");
            return on_engine(s.game(), [&] { return s.string_to_action(notation); });
          },
          py::arg("action_string"))
      .def(
          "string_to_action",
          [](const api::State& s, const py::object& player, const py::object& t) {
            player_number(s, player);
            std::string notation = text(t, "action_string");
            return on_engine(s.game(), [&] { return s.string_to_action(notation); });
          },
          py::arg("player"), py::arg("action_string"))
      .def("num_players", [](const api::State& s) { return s.game().program().num_players; })
      .def("num_distinct_actions", [](const api::State& s) { return s.game().actions().num_distinct_actions(); })
      .def("get_game", [](const api::State& s) { return std::const_pointer_cast<api::Game>(s.game_ptr()); })
      .def("__eq__",
           [](const api::State& a, const py::object& b) {
             if (!py::isinstance<api::State>(b)) return false;
             const api::State& other = b.cast<const api::State&>();
             if (&a.game() == &other.game()) return at_once(a.game(), [&] { return a.same_position(other); });
             // Two games: both held, since listing a state's moves may try moves on it in place
             // (undone before it ends); taken together, so that no two threads deadlock.
             py::gil_scoped_release unlocked;
             std::scoped_lock both(a.game().lock(), other.game().lock());
             return a.same_position(other);
           })
      .def("__hash__", [](const api::State& s) { return at_once(s.game(), [&] { return s.position_hash(); }); })
      .def(py::pickle(
          [](const api::State& s) {
            // The game (pickled by its file and settings) and the history, replayed on loading.
            return py::make_tuple(std::const_pointer_cast<api::Game>(s.game_ptr()),
                                  on_engine(s.game(), [&] { return s.serialize(); }));
          },
          [](const py::tuple& t) {
            if (t.size() != 2) bad_argument("a pickled keli.State is a (game, history) pair");
            auto g = t[0].cast<std::shared_ptr<api::Game>>();
            std::string history = text(t[1], "a pickled state's history");
            return on_engine(*g, [&] { return api::State::deserialize(g, history); });
          }))
      .def("observation", &observe)
      .def("to_json", engine_method(&api::State::to_json))
      .def("__str__", engine_method(&api::State::to_string))
      .def("__repr__", [](const api::State& s) {
        int ply = at_once(s.game(), [&] { return s.ply(); });
        return "<keli.State of " + s.game().program().game_name + " at ply " + std::to_string(ply) + ">";
      });
}

}  // namespace keli_python
