#!/usr/bin/env bash
# Installs what Keli needs to build and test on Debian 12 (bookworm): a compiler, CMake and the
# libraries (PEGTL 3, yaml-cpp, nlohmann-json for every JSON read, fmt, Catch2 v2, OpenSSL's libcrypto for the
# SHA-256 of the native cache's modules), plus Google Benchmark for tools/bench and
# TinyXML-2, with which the tests parse the SVG pictures of `keli render`, and clang-format,
# which checks the layout of the C++ sources (tools/check-format.sh), and clang 14 with its
# runtime libraries (libFuzzer, the sanitizers) for the fuzz build (docs/fuzzing.md), OpenMPI
# (libopenmpi-dev, openmpi-bin's mpirun) for keli simulate --mpi and its test (docs/simulation.md),
# and for the Python module keli (docs/python.md) pybind11, the Python headers, numpy, pytest (its
# tests) and matplotlib (the example in docs/python.md), and for the browser playground (docs/web.md)
# emscripten (its WebAssembly build), chromium and chromium-driver (its headless test), and for
# the game site (keli serve, docs/serve.md) Boost's headers (Beast, Asio) and SQLite, with
# Selenium (its two-browser test web.site) and websockets for Python.
set -euo pipefail
packages=(g++ cmake make tao-pegtl-dev libyaml-cpp-dev nlohmann-json3-dev libfmt-dev catch2 libssl-dev libbenchmark-dev libtinyxml2-dev clang-format
  clang-14 libclang-rt-14-dev libopenmpi-dev openmpi-bin python3-pybind11 python3-dev python3-numpy python3-pytest python3-matplotlib
  python3-venv python3-pip python3-setuptools python3-wheel
  emscripten chromium chromium-driver libboost-dev libsqlite3-dev python3-selenium python3-websockets)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
