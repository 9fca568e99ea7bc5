#!/usr/bin/env bash
# unwind_vs_perf.sh [PEO [WORKLOAD]] - peo script against perf script on a
# --call-graph dwarf recording made here (perf record -F 4000 of the
# workload burning 40 calls deep: ~8,000 samples, each with 8 KiB of user
# stack that both unwind with DWARF CFI, ~45 frames a sample, inlined
# functions included), default fields.  RUNS (default 5) alternating runs
# of each; prints the median wall time, peak RSS and perf/peo (higher is
# better; the issue's goal: 10x), and how the stacks compare
# (tests/dwarf_stacks_compare.py: perf 6.1's alias-as-inlined lines are
# counted apart).  SECONDS_OF_BURN (default 2) sizes the file.  peo's
# debug cache starts empty: its first run, which inflates the compressed
# debug files (libc's) and keeps them, is timed and printed apart; the
# alternating runs read the kept copies.
set -uo pipefail
peo=${1:-build/peo}
W=${2:-build/tests/workload}
burn_ms=$(( ${SECONDS_OF_BURN:-2} * 1000 ))
runs=${RUNS:-5}
here=$(dirname "$(realpath "$0")")
command -v perf >/dev/null || { echo "unwind_vs_perf: skipped: perf is not installed"; exit 0; }
export PERF_CONFIG=/dev/null LC_ALL=C
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$here/common.sh" # median
f=$tmp/dwarf.data
perf record -q -F 4000 --call-graph dwarf -e cpu-clock -o "$f" -- "$W" -r 40 -b "$burn_ms" \
	>/dev/null 2>&1 ||
	{ echo "unwind_vs_perf: skipped: perf record --call-graph dwarf of the workload fails here"; exit 0; }
samples=$("$peo" script -i "$f" --stats | awk '/SAMPLE events/ { print $3; exit }')
export PEO_DEBUG_CACHE=$tmp/debug-cache
first=$(timed_run unwind_vs_perf peo "$peo" script -i "$f" | cut -d' ' -f1)

: >"$tmp/p.t"; : >"$tmp/f.t"
for (( i = 0; i < runs; i++ )); do
	timed_run unwind_vs_perf peo "$peo" script -i "$f" >>"$tmp/p.t"
	timed_run unwind_vs_perf perf perf script -i "$f" >>"$tmp/f.t"
done
stacks=$(python3 "$here/../tests/dwarf_stacks_compare.py" "$tmp/peo.out" "$tmp/perf.out" | tail -1)
pt=$(cut -d' ' -f1 "$tmp/p.t" | median); pm=$(cut -d' ' -f2 "$tmp/p.t" | sort -n | tail -1)
ft=$(cut -d' ' -f1 "$tmp/f.t" | median); fm=$(cut -d' ' -f2 "$tmp/f.t" | sort -n | tail -1)
awk -v pt="$pt" -v pm="$pm" -v ft="$ft" -v fm="$fm" -v n="$samples" -v sz="$(stat -c %s "$f")" \
    -v lines="$(wc -l <"$tmp/perf.out")" -v stacks="$stacks" -v first="$first" 'BEGIN {
	printf "script, --call-graph dwarf: %.0f MB, %d samples, %d lines (stacks: %s)\n", sz / 1e6, n, lines, stacks
	printf "  %-5s %7.3f s %8d KiB peak\n", "peo", pt, pm
	printf "  %-5s %7.3f s %8d KiB peak\n", "perf", ft, fm
	printf "  perf/peo: %.1fx time, %.1fx memory\n", ft / pt, fm / pm
	printf "  peo, first run (debug cache empty: inflating): %.3f s, perf/peo %.1fx\n", first, ft / first
	printf "RESULT|script --call-graph dwarf, unwound|%.3f s|perf script|%.3f s|%.1f\n", pt, ft, ft / pt
	printf "RESULT|script --call-graph dwarf, unwound, first run (debug cache empty)|%.3f s|perf script|%.3f s|%.1f\n", first, ft, ft / first }'
case $stacks in *other=0*) ;; *) exit 1 ;; esac
