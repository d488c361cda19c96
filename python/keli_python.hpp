// The parts of the Python module keli bound in separate files.
#pragma once

#include <pybind11/pybind11.h>

namespace keli_python {
void bind_state(pybind11::module_& m);  // keli.State and keli.Observation (keli_state.cpp)
}
