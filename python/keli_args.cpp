// The arguments of the Python module checked before they reach Keli: numbers in their ranges,
// texts and paths without NUL characters, each bad one a keli.Error (E705) naming the argument
// and its allowed values, never a TypeError, OverflowError or RuntimeError from the binding.
#include <fmt/format.h>

#include "keli_python.hpp"

namespace py = pybind11;

namespace keli_python {

namespace {

std::string shown(const py::handle& v) { return py::repr(v).cast<std::string>(); }

std::string type_name(const py::handle& v) { return py::str(v.get_type().attr("__name__")).cast<std::string>(); }

// v as a Python int (numpy's integers too, by __index__); a null object for any other type.
py::object as_int(const py::handle& v) {
  if (PyBool_Check(v.ptr())) return py::object();  // True is not a count, a seed or an id
  PyObject* i = PyNumber_Index(v.ptr());
  if (!i) PyErr_Clear();
  return py::reinterpret_steal<py::object>(i);
}

}  // namespace

void bad_argument(const std::string& message) { throw keli::api::Game::input_error(message); }

void need_numpy(const std::string& call) {
  try {
    py::module_::import("numpy");
  } catch (const py::error_already_set&) {
    throw keli::api::Game::input_error(
        fmt::format("{} gives numpy arrays, and numpy does not import here", call),
        "install it: pip install numpy (or pip install .[observations]), or Debian's python3-numpy");
  }
}

int64_t whole_number(const py::handle& v, const std::string& what, int64_t low, int64_t high) {
  const std::string range = fmt::format("a whole number from {} to {}", low, high);
  py::object i = as_int(v);
  if (!i) bad_argument(fmt::format("{} must be {}, not {} ({})", what, range, shown(v), type_name(v)));
  int overflow = 0;
  long long n = PyLong_AsLongLongAndOverflow(i.ptr(), &overflow);
  if (overflow || n < low || n > high) bad_argument(fmt::format("{} must be {}, not {}", what, range, shown(v)));
  return n;
}

uint64_t seed_number(const py::handle& v, const std::string& what) {
  const std::string range = "a whole number from 0 to 18446744073709551615 (2**64 - 1)";
  py::object i = as_int(v);
  if (!i) bad_argument(fmt::format("{} must be {}, not {} ({})", what, range, shown(v), type_name(v)));
  unsigned long long n = PyLong_AsUnsignedLongLong(i.ptr());
  if (PyErr_Occurred()) {  // negative, or more than 64 bits
    PyErr_Clear();
    bad_argument(fmt::format("{} must be {}, not {}", what, range, shown(v)));
  }
  return n;
}

std::string text(const py::handle& v, const std::string& what) {
  if (!py::isinstance<py::str>(v)) bad_argument(fmt::format("{} must be a str, not {}", what, type_name(v)));
  std::string s;
  try {
    s = v.cast<std::string>();
  } catch (const py::error_already_set&) {  // a lone surrogate has no UTF-8
    bad_argument(fmt::format("{} {} is not valid Unicode text", what, shown(v)));
  }
  if (s.find('\0') != std::string::npos)
    bad_argument(fmt::format("{} {} holds a NUL character (\\0): no name may", what, shown(v)));
  return s;
}

std::string path_text(const py::handle& v, const std::string& what) {
  if (py::isinstance<py::str>(v)) return text(v, what);
  if (!py::hasattr(v, "__fspath__"))
    bad_argument(fmt::format("{} must be a path (a str or an os.PathLike), not {}", what, type_name(v)));
  py::object p = v.attr("__fspath__")();
  if (!py::isinstance<py::str>(p)) bad_argument(fmt::format("{} must be a path as a str, not {}", what, type_name(p)));
  return text(p, what);
}

}  // namespace keli_python
