#!/usr/bin/env bash
# Checks that every C++ source of Keli's own follows .clang-format; with --fix, rewrites them.
# Used by .ci/run; needs clang-format (tools/install-deps.sh installs Debian's).
set -euo pipefail
cd "$(dirname "$0")/.."
cf=$(command -v clang-format-14 || command -v clang-format || true)
if [ -z "$cf" ]; then echo "check-format: clang-format is not installed (tools/install-deps.sh)" >&2; exit 1; fi
mapfile -t files < <(git ls-files '*.cpp' '*.hpp' '*.h' 2>/dev/null || find grammar interpreter tools tests -name '*.[ch]pp')
if [ "${1:-}" = "--fix" ]; then
  "$cf" -i "${files[@]}"
  echo "check-format: formatted ${#files[@]} files"
else
  "$cf" --dry-run -Werror "${files[@]}"
  echo "check-format: ${#files[@]} files follow .clang-format"
fi
