#!/usr/bin/env bash
# symbols_vs_perf.sh [PEO [WORKLOAD]] - peo script against perf script on
# a deep-callchain recording made here (perf record -F 10000 -g of the
# workload burning 40 calls deep: about 45 frames a sample, kernel and
# user), default fields: every frame named (sym+0xoff (dso)).  RUNS
# (default 5) alternating runs of each; prints the median wall time, peak
# RSS, and perf/peo (higher is better; the goal: 15x), and checks that the
# outputs are the same bytes.  SECONDS_OF_BURN (default 10) sizes the file.
# As root, one cold run of each too: the page cache dropped before it (the
# recording, the binaries and their debug files read from disk).
set -uo pipefail
peo=${1:-build/peo}
W=${2:-build/tests/workload}
burn_ms=$(( ${SECONDS_OF_BURN:-10} * 1000 ))
runs=${RUNS:-5}
command -v perf >/dev/null || { echo "symbols_vs_perf: skipped: perf is not installed"; exit 0; }
export PERF_CONFIG=/dev/null LC_ALL=C
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
export PEO_DEBUG_CACHE=$tmp/debug-cache # peo's own, not the user's
. "$(dirname "$0")/common.sh" # median
f=$tmp/deep.data
perf record -q -F 10000 -g -e cpu-clock -o "$f" -- "$W" -r 40 -b "$burn_ms" >/dev/null 2>&1 ||
	{ echo "symbols_vs_perf: skipped: perf record -g of the workload fails here"; exit 0; }
samples=$("$peo" script -i "$f" --stats | awk '/SAMPLE events/ { print $3 }')

: >"$tmp/p.t"; : >"$tmp/f.t"
for (( i = 0; i < runs; i++ )); do
	timed_run symbols_vs_perf peo "$peo" script -i "$f" >>"$tmp/p.t"
	timed_run symbols_vs_perf perf perf script -i "$f" >>"$tmp/f.t"
done
same=identical
cmp -s "$tmp/peo.out" "$tmp/perf.out" || same=DIFFERENT
pt=$(cut -d' ' -f1 "$tmp/p.t" | median); pm=$(cut -d' ' -f2 "$tmp/p.t" | sort -n | tail -1)
ft=$(cut -d' ' -f1 "$tmp/f.t" | median); fm=$(cut -d' ' -f2 "$tmp/f.t" | sort -n | tail -1)
awk -v pt="$pt" -v pm="$pm" -v ft="$ft" -v fm="$fm" -v n="$samples" -v sz="$(stat -c %s "$f")" \
    -v lines="$(wc -l <"$tmp/perf.out")" -v same="$same" 'BEGIN {
	printf "script, -g deep callchains: %.0f MB, %d samples, %d lines (outputs %s)\n", sz / 1e6, n, lines, same
	printf "  %-5s %7.3f s %8d KiB peak\n", "peo", pt, pm
	printf "  %-5s %7.3f s %8d KiB peak\n", "perf", ft, fm
	printf "  perf/peo: %.1fx time, %.1fx memory\n", ft / pt, fm / pm
	printf "RESULT|script -g, deep callchains, symbols|%.3f s|perf script|%.3f s|%.1f\n", pt, ft, ft / pt }'
# cold: each once, after dropping the page cache (root only)
if [ -w /proc/sys/vm/drop_caches ]; then
	sync; echo 3 >/proc/sys/vm/drop_caches
	pc=$(timed_run symbols_vs_perf peo "$peo" script -i "$f" | cut -d' ' -f1)
	sync; echo 3 >/proc/sys/vm/drop_caches
	fc=$(timed_run symbols_vs_perf perf perf script -i "$f" | cut -d' ' -f1)
	awk -v pc="$pc" -v fc="$fc" 'BEGIN {
		printf "  cold (page cache dropped): peo %.3f s, perf %.3f s, perf/peo %.1fx\n", pc, fc, fc / pc
		printf "RESULT|script -g, deep callchains, symbols, cold cache|%.3f s|perf script|%.3f s|%.1f\n", pc, fc, fc / pc }'
else
	echo "  cold: skipped (dropping the page cache needs root)"
fi
if [ "$same" != identical ]; then
	diff "$tmp/peo.out" "$tmp/perf.out" | head -8
	exit 1
fi
