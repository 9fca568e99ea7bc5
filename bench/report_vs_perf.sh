#!/usr/bin/env bash
# report_vs_perf.sh [PEO [WORKLOAD]] - peo report against perf report on
# the deep-callchain recording of bench/symbols_vs_perf.sh (perf record -F
# 10000 -g of the workload 40 calls deep; SECONDS_OF_BURN, default 10,
# sizes it): the default report (--children, the call graph under each
# row) against perf's, and the rows alone (-g none) against perf's.
# RUNS (default 5) alternating runs of each; prints the median wall time,
# the peak RSS and perf/peo (higher is better; the issue's goal 10x of
# perf's default), and how many rows and graphs are the same
# (tests/report_compare.py and callgraph_compare.py: perf 6.1's known
# wrong rows counted apart).
set -uo pipefail
peo=${1:-build/peo}
W=${2:-build/tests/workload}
burn_ms=$(( ${SECONDS_OF_BURN:-10} * 1000 ))
runs=${RUNS:-5}
here=$(dirname "$(realpath "$0")")
command -v perf >/dev/null || { echo "report_vs_perf: skipped: perf is not installed"; exit 0; }
export PERF_CONFIG=/dev/null LC_ALL=C
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
export PEO_DEBUG_CACHE=$tmp/debug-cache # peo's own, not the user's
. "$here/common.sh" # median, timed_run
f=$tmp/deep.data
perf record -q -F 10000 -g -e cpu-clock -o "$f" -- "$W" -r 40 -b "$burn_ms" >/dev/null 2>&1 ||
	{ echo "report_vs_perf: skipped: perf record -g of the workload fails here"; exit 0; }
samples=$("$peo" script -i "$f" --stats | awk '/SAMPLE events/ { print $3 }')

: >"$tmp/p.t"; : >"$tmp/f.t"; : >"$tmp/q.t"; : >"$tmp/g.t"
for (( i = 0; i < runs; i++ )); do
	timed_run report_vs_perf peo "$peo" report -i "$f" --stdio >>"$tmp/p.t"
	timed_run report_vs_perf perf perf report -i "$f" --stdio >>"$tmp/f.t"
	timed_run report_vs_perf peo_rows "$peo" report -i "$f" --stdio -g none >>"$tmp/q.t"
	timed_run report_vs_perf perf_rows perf report -i "$f" --stdio -g none >>"$tmp/g.t"
done
rows=$(python3 "$here/../tests/report_compare.py" "$tmp/peo.out" "$tmp/perf.out" | tail -1)
graphs=$(python3 "$here/../tests/callgraph_compare.py" "$tmp/peo.out" "$tmp/perf.out" | tail -1)
rows_alone=$(python3 "$here/../tests/report_compare.py" "$tmp/peo_rows.out" "$tmp/perf_rows.out" | tail -1)
pt=$(cut -d' ' -f1 "$tmp/p.t" | median); pm=$(cut -d' ' -f2 "$tmp/p.t" | sort -n | tail -1)
ft=$(cut -d' ' -f1 "$tmp/f.t" | median); fm=$(cut -d' ' -f2 "$tmp/f.t" | sort -n | tail -1)
qt=$(cut -d' ' -f1 "$tmp/q.t" | median); qm=$(cut -d' ' -f2 "$tmp/q.t" | sort -n | tail -1)
gt=$(cut -d' ' -f1 "$tmp/g.t" | median); gm=$(cut -d' ' -f2 "$tmp/g.t" | sort -n | tail -1)
awk -v pt="$pt" -v pm="$pm" -v ft="$ft" -v fm="$fm" -v qt="$qt" -v qm="$qm" -v gt="$gt" \
    -v gm="$gm" -v n="$samples" -v sz="$(stat -c %s "$f")" -v rows="$rows" -v graphs="$graphs" 'BEGIN {
	printf "report --children, deep callchains: %.0f MB, %d samples\n", sz / 1e6, n
	printf "  (rows: %s; graphs: %s)\n", rows, graphs
	printf "  %-28s %7.3f s %8d KiB peak\n", "peo report (call graphs)", pt, pm
	printf "  %-28s %7.3f s %8d KiB peak\n", "perf report (call graphs)", ft, fm
	printf "  %-28s %7.3f s %8d KiB peak\n", "peo report -g none", qt, qm
	printf "  %-28s %7.3f s %8d KiB peak\n", "perf report -g none", gt, gm
	printf "  perf/peo: %.1fx time (call graphs), %.1fx (-g none), %.1fx memory\n", ft / pt, gt / qt, fm / pm
	printf "RESULT|report --children with call graphs, deep callchains|%.3f s|perf report|%.3f s|%.1f\n", pt, ft, ft / pt
	printf "RESULT|the rows alone (-g none)|%.3f s|perf report -g none|%.3f s|%.1f\n", qt, gt, gt / qt }'
case "$rows $graphs $rows_alone" in *other=0*other=0*other=0*) ;;
*) echo "report_vs_perf: the rows or graphs differ: $rows; $graphs; $rows_alone"; exit 1 ;; esac
