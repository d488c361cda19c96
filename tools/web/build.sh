#!/usr/bin/env bash
# Builds the browser playground (docs/web.md) with Debian's emscripten into build-web/ (or $1):
# build-web/site/ is the static page, ready to serve.
set -euo pipefail
cd "$(dirname "$0")/../.."
out="${1:-build-web}"
# Debian's emscripten runs its JavaScript tools with the node on PATH; Debian keeps their modules
# (acorn) in /usr/share/nodejs, which a node from elsewhere does not search.
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"
if ! command -v emcmake >/dev/null; then
  echo "emscripten is not installed: tools/install-deps.sh installs it (Debian package emscripten)" >&2
  exit 1
fi
generator=()
if command -v ninja >/dev/null; then generator=(-G Ninja); fi
emcmake cmake -S web -B "$out" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$out" -j"${KELI_WEB_JOBS:-2}"
echo "the page is in $out/site/"
