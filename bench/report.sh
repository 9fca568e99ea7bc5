#!/usr/bin/env bash
# make bench: every benchmark in bench/, each running its baseline in the
# same run, then one table of their figures: what peo measured, the
# baseline, and baseline/peo (above 1: peo costs less).  The table is
# Markdown, for docs/performance.md.
set -uo pipefail
build=${1:-build}
log=$(mktemp) || exit 1
trap 'rm -f "$log"' EXIT
status=0
run() { # the bench's own output, its RESULT lines kept for the table
	"$@" 2>&1 | tee -a "$log" | grep -v '^RESULT|'
	local rc=${PIPESTATUS[0]}
	[ "$rc" -eq 0 ] || { echo "report: '$*' failed (exit $rc): its figures are missing"; status=1; }
	echo
}
run "$build/bench/bench_counter"
run bash bench/stat_vs_perf.sh "$build/peo"
run "$build/bench/bench_ring" "$build/tests/workload"
run "$build/bench/bench_record"
run "$build/bench/bench_output"
run bash bench/record_vs_perf.sh "$build/peo" "$build/tests/workload"
run bash bench/script_vs_perf.sh "$build/peo" "$build/tests/workload" "$build/tests/rings_synth"
run bash bench/symbols_vs_perf.sh "$build/peo" "$build/tests/workload"
run bash bench/srcline_vs_perf.sh "$build/peo" "$build/tests/workload"
run bash bench/unwind_vs_perf.sh "$build/peo" "$build/tests/workload"
run bash bench/report_vs_perf.sh "$build/peo" "$build/tests/workload"
run bash bench/flamegraph_vs_perf.sh "$build/peo" "$build/tests/workload"

echo "## peo against its baselines ($(uname -r), $(nproc) CPUs, $(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo))"
echo
echo "| figure | peo | baseline | baseline's | baseline/peo |"
echo "|---|---:|---|---:|---:|"
grep '^RESULT|' "$log" | awk -F'|' '{ printf "| %s | %s | %s | %s | %s |\n", $2, $3, $4, $5, $6 }'
exit $status
