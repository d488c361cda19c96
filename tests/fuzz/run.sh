#!/usr/bin/env bash
# Runs one fuzz target of a KELI_FUZZ build for SECONDS (docs/fuzzing.md): its corpus folder
# (build-fuzz/fuzz/corpus/TARGET, kept between runs) starts from the target's seeds; crashes are
# written to build-fuzz/fuzz/crashes/TARGET/. Usage: tests/fuzz/run.sh BUILD TARGET SECONDS [JOBS]
set -euo pipefail
build=$(cd "$1" && pwd) target=$2 seconds=$3 jobs=${4:-1}
bin="$build/fuzz/fuzz_$target"
corpus="$build/fuzz/corpus/$target"
crashes="$build/fuzz/crashes/$target"
mkdir -p "$corpus" "$crashes"
mapfile -t seeds < "$build/fuzz/$target.seeds"
# Inputs longer than this are not tried: the front end's deep nesting is bounded elsewhere, and
# long inputs only slow the search down.
case "$target" in
  trace) max_len=65536 ;;
  *) max_len=4096 ;;
esac
parallel=()
if [ "$jobs" -gt 1 ]; then parallel=(-jobs="$jobs" -workers="$jobs"); fi
# A run leaves nothing behind in the working folder: crash files and logs go to $crashes.
cd "$crashes"
exec "$bin" "$corpus" "${seeds[@]}" -max_total_time="$seconds" -max_len="$max_len" -timeout=20 \
  -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix="$crashes/" "${parallel[@]}"
