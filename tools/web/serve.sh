#!/usr/bin/env bash
# Builds the browser playground (tools/web/build.sh) and serves it on this machine:
# open http://localhost:8000/ (another port: tools/web/serve.sh 8080). Ctrl-C stops it.
set -euo pipefail
cd "$(dirname "$0")/../.."
port="${1:-8000}"
tools/web/build.sh build-web
echo "serving the playground at http://localhost:$port/ (Ctrl-C stops)"
exec python3 -m http.server "$port" --bind 127.0.0.1 --directory build-web/site
