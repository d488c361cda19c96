#!/usr/bin/env bash
# A fuzz campaign (docs/fuzzing.md, "Campaigns"): runs each named target of a KELI_FUZZ build for
# SECONDS with tests/fuzz/run.sh, one after the other, and appends a line of figures per run to
# BUILD/fuzz/campaign.tsv: date, target, executions, seconds, executions a second (wall), CPU
# seconds, corpus files, coverage (cov, ft), peak memory, crash files. The corpus of each target
# is kept between runs, so repeated campaigns add up. Usage:
#   tests/fuzz/campaign.sh BUILD SECONDS TARGET...
set -euo pipefail
# A campaign runs at nice 19 beside other work, which can leave it without a processor for
# minutes: libFuzzer's timeout counts wall time, so a 1 s input then passed 20 s and was written
# as a hang three times (docs/fuzzing.md). A real hang still stops the run, after 300 s.
export KELI_FUZZ_TIMEOUT=${KELI_FUZZ_TIMEOUT:-300}
build=$(cd "$1" && pwd) seconds=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
log="$build/fuzz/campaign.tsv"
[ -f "$log" ] || printf 'date\ttarget\texecutions\tseconds\texec_per_s\tcpu_s\tcorpus\tcov\tft\trss_mb\tcrashes\n' > "$log"
for target in "$@"; do
  out="$build/fuzz/crashes/$target/campaign-$(date +%Y%m%dT%H%M%S).log"
  mkdir -p "$(dirname "$out")"
  start=$(date +%s)
  # A crash stops libFuzzer with a non-zero status: recorded, and the campaign goes on.
  /usr/bin/time -f 'cpu_seconds %U %S' -o "$out.time" "$here/run.sh" "$build" "$target" "$seconds" > "$out" 2>&1 || true
  wall=$(( $(date +%s) - start ))
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out" | tail -1)
  rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$out" | tail -1)
  last=$(grep -E '^#[0-9]+' "$out" | tail -1 || true)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<< "$last")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<< "$last")
  cpu=$(awk '/^cpu_seconds/ {print $2 + $3}' "$out.time")
  corpus=$(find "$build/fuzz/corpus/$target" -type f | wc -l)
  crashes=$(find "$build/fuzz/crashes/$target" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' -o -name 'leak-*' \) | wc -l)
  rate=$(( ${runs:-0} / (wall > 0 ? wall : 1) ))
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$target" "${runs:-0}" "$wall" "$rate" \
    "$cpu" "$corpus" "${cov:-}" "${ft:-}" "${rss:-}" "$crashes" | tee -a "$log"
done
