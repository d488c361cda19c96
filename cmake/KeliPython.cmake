# The Python module `keli` (python/, docs/python.md) is built when a python3 that can import
# pybind11 and numpy is found (Debian: python3-pybind11, python3-dev, python3-numpy); else it is
# skipped with a message. KELI_PYTHON_EXECUTABLE names the interpreter; by default the first of
# `python3` on PATH and /usr/bin/python3 that has both (a pyenv python3 often has neither).
option(KELI_PYTHON "Build the Python module keli when pybind11 and numpy are found" ON)
# CI sets this: a missing module (or pytest) fails the configuration instead of skipping.
option(KELI_REQUIRE_PYTHON "Fail when the Python module cannot be built" OFF)
set(KELI_PYTHON_FOUND OFF)
if(KELI_PYTHON AND KELI_SANITIZE)
  message(STATUS "Python module keli: skipped in a sanitizer build (python3 would need the sanitizers preloaded)")
elseif(KELI_PYTHON AND NOT KELI_FUZZ)
  find_program(KELI_PATH_PYTHON3 python3)
  set(candidates ${KELI_PYTHON_EXECUTABLE} ${KELI_PATH_PYTHON3} /usr/bin/python3)
  foreach(py IN LISTS candidates)
    if(NOT EXISTS "${py}")
      continue()
    endif()
    execute_process(COMMAND "${py}" -c "import numpy, pybind11; print(pybind11.get_cmake_dir(), end='')"
                    RESULT_VARIABLE rc OUTPUT_VARIABLE dir ERROR_QUIET)
    if(rc EQUAL 0)
      set(KELI_PYTHON_EXECUTABLE "${py}" CACHE FILEPATH "the python3 the module keli is built for" FORCE)
      set(KELI_PYBIND11_DIR "${dir}")
      set(KELI_PYTHON_FOUND ON)
      break()
    endif()
  endforeach()
  if(KELI_PYTHON_FOUND)
    message(STATUS "Python module keli: for ${KELI_PYTHON_EXECUTABLE}")
    # The layers go into a shared module: position-independent code.
    set(CMAKE_POSITION_INDEPENDENT_CODE ON)
  else()
    set(why "no python3 with pybind11 and numpy; tools/install-deps.sh installs them")
    if(KELI_REQUIRE_PYTHON)
      message(FATAL_ERROR "Python module keli: ${why}")
    endif()
    message(STATUS "Python module keli: skipped (${why})")
  endif()
endif()
