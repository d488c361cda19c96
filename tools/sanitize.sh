#!/usr/bin/env bash
# The whole suite under AddressSanitizer and UndefinedBehaviorSanitizer (-DKELI_SANITIZE=ON) in
# build-asan/ (or $1): its own command, as the soak and long fuzzing are, because on two cores the
# sanitizer build and suite take longer than the plain build and suite together. The random-play
# battery is capped at 20 games an option set there (the same paths, at a sanitizer's pace).
# CI runs the fuzz targets, which are built with both sanitizers, instead (.ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-build-asan}"
generator=()
if command -v ninja >/dev/null; then generator=(-G Ninja); fi
cmake -S . -B "$out" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKELI_SANITIZE=ON
cmake --build "$out" -j"${KELI_JOBS:-2}"
KELI_BATTERY_MAX_GAMES=20 KELI_NATIVE_MAX_GAMES=1000 ctest --test-dir "$out" --output-on-failure -j"${KELI_JOBS:-2}"
