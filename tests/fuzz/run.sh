#!/usr/bin/env bash
# Runs one fuzz target of a KELI_FUZZ build for SECONDS (docs/fuzzing.md): its corpus folder
# (build-fuzz/fuzz/corpus/TARGET, kept between runs) starts from the target's seeds, its mutations
# use its dictionary (tests/fuzz/dict/TARGET.dict); crashes are written to
# build-fuzz/fuzz/crashes/TARGET/. TARGET-short (frontend-short, scenario-short) runs the same
# binary on short inputs only, with a corpus and crashes folder of its own: the quick depth
# (docs/fuzzing.md, "Two depths"). Usage: tests/fuzz/run.sh BUILD TARGET SECONDS [JOBS]
set -euo pipefail
build=$(cd "$1" && pwd) target=$2 seconds=$3 jobs=${4:-1}
here=$(cd "$(dirname "$0")" && pwd)
binary=${target%-short}
bin="$build/fuzz/fuzz_$binary"
[ -x "$bin" ] || { echo "run.sh: no fuzz target $target ($bin is not built)" >&2; exit 2; }
corpus="$build/fuzz/corpus/$target"
crashes="$build/fuzz/crashes/$target"
mkdir -p "$corpus" "$crashes"
mapfile -t seeds < "$build/fuzz/$binary.seeds"
# The longest input tried, in bytes: every seed fits whole (the longest game, pagade_kayi_ata.keli,
# is 16,800 bytes; the longest scenario file, pagade_kayi_ata.tests/pairs.yaml, 19,808). The front
# end's deep nesting is bounded by its own named limits; longer inputs only slow the search.
max_input=20480
# A trace is a whole game, one line a step: Raja Pasu's run to hundreds of steps.
max_trace_input=65536
# The quick depth: a short game (a board, pieces, a move and an end) or a scenario file of a few
# scenarios. An input's time grows with its length (the front end's parse and check, a
# scenario's moves), so at this length both targets run above 1,000 inputs a second under the
# sanitizers, where whole games run at 100 to 150; seeds longer than this are cut to it.
max_short_input=512
case "$target" in
  trace) max_len=$max_trace_input ;;
  *-short) max_len=$max_short_input ;;
  *) max_len=$max_input ;;
esac
dict=()
if [ -f "$here/dict/$binary.dict" ]; then dict=(-dict="$here/dict/$binary.dict"); fi
# Alone, nothing else writes to the corpus: it is not read again every second (-reload=0).
parallel=(-reload=0)
if [ "$jobs" -gt 1 ]; then parallel=(-jobs="$jobs" -workers="$jobs"); fi
# AddressSanitizer's bookkeeping, cut to what finding a fault needs: freed memory is held back
# 16 MB deep (the default 256 MB makes every allocation touch fresh pages) and allocations record
# 3 frames of their stack (the default 30 is most of the time a front-end input takes). New
# blocks are still filled with a marker byte (max_malloc_fill_size): a tenth of a short input's
# time, but it is what makes a read of a never-set bool or enum show (UBSan reports its value).
# The access that faults is still reported with its whole stack; to see where the memory was
# allocated or freed, run the crashing input again without run.sh (docs/fuzzing.md).
export ASAN_OPTIONS=${ASAN_OPTIONS:-quarantine_size_mb=16:malloc_context_size=3}
# An input running longer than this many seconds of wall time is a hang (libFuzzer's -timeout):
# 20 s, or KELI_FUZZ_TIMEOUT (campaign.sh raises it: a campaign at nice 19 may get no processor
# for a long while, and libFuzzer's clock is the wall's).
timeout_seconds=${KELI_FUZZ_TIMEOUT:-20}
# A run leaves nothing behind in the working folder: crash files and logs go to $crashes.
# -entropic=0: libFuzzer's entropic schedule keeps a list of rare features it scans once per
# feature of every run, which on these targets (80,000 and more features) took most of the time.
cd "$crashes"
exec "$bin" "$corpus" "${seeds[@]}" -max_total_time="$seconds" -max_len="$max_len" -timeout="$timeout_seconds" \
  -rss_limit_mb=4096 -entropic=0 -print_final_stats=1 -artifact_prefix="$crashes/" "${dict[@]}" "${parallel[@]}"
