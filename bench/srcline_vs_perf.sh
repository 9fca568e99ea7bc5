#!/usr/bin/env bash
# srcline_vs_perf.sh [PEO [WORKLOAD]] - peo script -F +srcline against perf
# script -F +srcline on a frame-pointer recording made here (perf record -g
# of the workload 30 calls deep, SECONDS_OF_BURN (default 2) seconds at
# 1000 Hz): every frame's source line.  perf 6.1 runs binutils' addr2line
# for each binary; peo reads the line tables with libdw, once per binary
# and address.  RUNS (default 3) alternating runs of each; prints the
# median wall time, peak RSS and perf/peo, and how many srcline lines
# differ (perf 6.1's addr2line names a DWARF 5 unit's .c file for code
# from a header: libc's __libc_start_call_main is one of every stack).
set -uo pipefail
peo=${1:-build/peo}
W=${2:-build/tests/workload}
burn_ms=$(( ${SECONDS_OF_BURN:-2} * 1000 ))
runs=${RUNS:-3}
command -v perf >/dev/null || { echo "srcline_vs_perf: skipped: perf is not installed"; exit 0; }
export PERF_CONFIG=/dev/null LC_ALL=C
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
export PEO_DEBUG_CACHE=$tmp/debug-cache # peo's own, not the user's
. "$(dirname "$0")/common.sh" # median, timed_run
f=$tmp/deep.data
perf record -q -F 1000 -g -e cpu-clock -o "$f" -- "$W" -r 30 -b "$burn_ms" >/dev/null 2>&1 ||
	{ echo "srcline_vs_perf: skipped: perf record -g of the workload fails here"; exit 0; }
samples=$("$peo" script -i "$f" --stats | awk '/SAMPLE events/ { print $3 }')
: >"$tmp/p.t"; : >"$tmp/f.t"
for (( i = 0; i < runs; i++ )); do
	timed_run srcline_vs_perf peo "$peo" script -i "$f" -F +srcline >>"$tmp/p.t"
	timed_run srcline_vs_perf perf perf script -i "$f" -F +srcline >>"$tmp/f.t"
done
differ=$(diff "$tmp/peo.out" "$tmp/perf.out" | grep -c '^<')
pt=$(cut -d' ' -f1 "$tmp/p.t" | median); pm=$(cut -d' ' -f2 "$tmp/p.t" | sort -n | tail -1)
ft=$(cut -d' ' -f1 "$tmp/f.t" | median); fm=$(cut -d' ' -f2 "$tmp/f.t" | sort -n | tail -1)
awk -v pt="$pt" -v pm="$pm" -v ft="$ft" -v fm="$fm" -v n="$samples" -v d="$differ" \
    -v lines="$(wc -l <"$tmp/perf.out")" 'BEGIN {
	printf "script -F +srcline, -g 30 deep: %d samples, %d lines (%d lines differ: perf 6.1'"'"'s header files)\n", n, lines, d
	printf "  %-5s %7.3f s %8d KiB peak\n", "peo", pt, pm
	printf "  %-5s %7.3f s %8d KiB peak\n", "perf", ft, fm
	printf "  perf/peo: %.1fx time, %.1fx memory\n", ft / pt, fm / pm
	printf "RESULT|script -F +srcline, -g 30 deep|%.3f s|perf script|%.3f s|%.1f\n", pt, ft, ft / pt }'
