#!/usr/bin/env bash
# flamegraph_vs_perf.sh [PEO [WORKLOAD]] - peo report --flamegraph and
# --folded against perf script, the first stage of FlameGraph's pipeline
# (perf script | stackcollapse-perf.pl | flamegraph.pl; Debian ships no
# FlameGraph, so perf script alone is the baseline: the pipeline costs at
# least that), on the deep-callchain recording of bench/symbols_vs_perf.sh
# (perf record -F 10000 -g of the workload 40 calls deep; SECONDS_OF_BURN,
# default 10, sizes it).  RUNS (default 5) alternating runs of each;
# prints the median wall time, the peak RSS and perf/peo (the issue's
# goal: the flame graph under 1 s on the 183 MB file), and checks that
# the folded lines are what tests/stackcollapse.py makes of perf script's.
# peo report --pprof is timed against peo report --stdio (the issue: pprof
# written at the report's speed), when this peo has it.
set -uo pipefail
peo=${1:-build/peo}
W=${2:-build/tests/workload}
burn_ms=$(( ${SECONDS_OF_BURN:-10} * 1000 ))
runs=${RUNS:-5}
here=$(dirname "$(realpath "$0")")
command -v perf >/dev/null || { echo "flamegraph_vs_perf: skipped: perf is not installed"; exit 0; }
export PERF_CONFIG=/dev/null LC_ALL=C
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
export PEO_DEBUG_CACHE=$tmp/debug-cache # peo's own, not the user's
. "$here/common.sh" # median, timed_run
f=$tmp/deep.data
perf record -q -F 10000 -g -e cpu-clock -o "$f" -- "$W" -r 40 -b "$burn_ms" >/dev/null 2>&1 ||
	{ echo "flamegraph_vs_perf: skipped: perf record -g of the workload fails here"; exit 0; }
samples=$("$peo" script -i "$f" --stats | awk '/SAMPLE events/ { print $3 }')

: >"$tmp/g.t"; : >"$tmp/d.t"; : >"$tmp/f.t"; : >"$tmp/r.t"; : >"$tmp/q.t"
pprof=0
"$peo" report -i "$f" --pprof "$tmp/p.pb.gz" >/dev/null 2>&1 && pprof=1
for (( i = 0; i < runs; i++ )); do
	if [ $pprof = 1 ]; then
		timed_run flamegraph_vs_perf pprof "$peo" report -i "$f" --pprof "$tmp/p.pb.gz" >>"$tmp/q.t"
		timed_run flamegraph_vs_perf report "$peo" report -i "$f" --stdio >>"$tmp/r.t"
	fi
	timed_run flamegraph_vs_perf graph "$peo" report -i "$f" --flamegraph "$tmp/g.svg" >>"$tmp/g.t"
	timed_run flamegraph_vs_perf folded "$peo" report -i "$f" --folded >>"$tmp/d.t"
	timed_run flamegraph_vs_perf perf perf script -i "$f" >>"$tmp/f.t"
done
python3 "$here/../tests/stackcollapse.py" "$tmp/perf.out" >"$tmp/perf.folded"
same=identical
cmp -s "$tmp/folded.out" "$tmp/perf.folded" || same=DIFFERENT
gt=$(cut -d' ' -f1 "$tmp/g.t" | median); gm=$(cut -d' ' -f2 "$tmp/g.t" | sort -n | tail -1)
dt=$(cut -d' ' -f1 "$tmp/d.t" | median)
ft=$(cut -d' ' -f1 "$tmp/f.t" | median); fm=$(cut -d' ' -f2 "$tmp/f.t" | sort -n | tail -1)
awk -v gt="$gt" -v gm="$gm" -v dt="$dt" -v ft="$ft" -v fm="$fm" -v n="$samples" \
    -v sz="$(stat -c %s "$f")" -v same="$same" -v svg="$(stat -c %s "$tmp/g.svg")" 'BEGIN {
	printf "flame graph, deep callchains: %.0f MB, %d samples (folded lines %s to stackcollapse of perf script; SVG %d KB)\n", sz / 1e6, n, same, svg / 1000
	printf "  %-26s %7.3f s %8d KiB peak\n", "peo report --flamegraph", gt, gm
	printf "  %-26s %7.3f s\n", "peo report --folded", dt
	printf "  %-26s %7.3f s %8d KiB peak\n", "perf script", ft, fm
	printf "  perf script/peo: %.1fx time (flame graph), %.1fx (folded), %.1fx memory\n", ft / gt, ft / dt, fm / gm
	printf "RESULT|report --flamegraph, deep callchains|%.3f s|perf script (the pipeline'"'"'s first stage)|%.3f s|%.1f\n", gt, ft, ft / gt
	printf "RESULT|report --folded, the same file|%.3f s|perf script|%.3f s|%.1f\n", dt, ft, ft / dt }'
if [ $pprof = 1 ]; then
	qt=$(cut -d' ' -f1 "$tmp/q.t" | median); qm=$(cut -d' ' -f2 "$tmp/q.t" | sort -n | tail -1)
	rt=$(cut -d' ' -f1 "$tmp/r.t" | median)
	awk -v qt="$qt" -v qm="$qm" -v rt="$rt" -v sz="$(stat -c %s "$tmp/p.pb.gz")" 'BEGIN {
		printf "  %-26s %7.3f s %8d KiB peak (%d KB written)\n", "peo report --pprof", qt, qm, sz / 1000
		printf "  %-26s %7.3f s\n", "peo report --stdio", rt
		printf "RESULT|report --pprof, the same file|%.3f s|peo report --stdio|%.3f s|%.2f\n", qt, rt, rt / qt }'
else
	echo "  peo report --pprof: not timed (this peo was built without protobuf-c)"
fi
[ "$same" = identical ]
