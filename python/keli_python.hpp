// The parts of the Python module keli bound in separate files, and what they share: arguments
// checked (keli_args.cpp) and the engine of a game used without the GIL.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <mutex>
#include <string>
#include <utility>

#include "api/game.hpp"

namespace keli_python {

void bind_state(pybind11::module_& m);      // keli.State and keli.Observation (keli_state.cpp)
void bind_game_type(pybind11::module_& m);  // keli.GameType and its enums (keli_game_type.cpp)
void bind_batch(pybind11::module_& m);
void bind_observation(pybind11::module_& m);  // the observation tensor (keli_observation.cpp), after State and Game //
                                              // keli.apply_actions, keli.legal_actions_masks (keli_batch.cpp)
// A game's keli.GameType, its parameters (typed) as the parameter specification.
pybind11::object game_type(const keli::api::Game& g, const pybind11::dict& parameters);

// Throws keli.Error (E705) saying what is wrong with an argument.
[[noreturn]] void bad_argument(const std::string& message);
// Throws keli.Error saying that `call` needs numpy, when numpy does not import.
void need_numpy(const std::string& call);
// An int argument (numpy's integers too; not a bool) from `low` to `high`, else keli.Error
// naming `what` and the range.
int64_t whole_number(const pybind11::handle& v, const std::string& what, int64_t low, int64_t high);
uint64_t seed_number(const pybind11::handle& v, const std::string& what);  // 0 to 2**64 - 1
// A str without NUL characters (which no file or name may hold), else keli.Error.
std::string text(const pybind11::handle& v, const std::string& what);
// A path: a str or an os.PathLike, without NUL characters, else keli.Error.
std::string path_text(const pybind11::handle& v, const std::string& what);

// Runs f on a game's engine without the GIL (a step may run long, and other Python threads go on
// meanwhile), one thread at a time for each game: its states share the engine. The GIL is let
// go before the game's lock is taken, so a thread waiting for the lock never holds the GIL.
template <typename F>
auto on_engine(const keli::api::Game& g, F&& f) {
  pybind11::gil_scoped_release unlocked;
  std::lock_guard<std::mutex> one_at_a_time(g.lock());
  return f();
}

// The same for a call too short to be worth letting go of the GIL (a read of the state's slots):
// run at once when no other thread holds the game, else as on_engine does (never waiting with
// the GIL held).
template <typename F>
auto at_once(const keli::api::Game& g, F&& f) {
  if (!g.lock().try_lock()) return on_engine(g, std::forward<F>(f));
  std::lock_guard<std::mutex> held(g.lock(), std::adopt_lock);
  return f();
}

}  // namespace keli_python
