#!/usr/bin/env bash
# peo_vs_peo.sh OLD_PEO NEW_PEO [WORKLOAD] - two builds of peo on the same
# inputs in one run, for a change that must cost nothing (a refactor): the
# reading paths of peo script (--stats, text with callchains, --json, a
# tracepoint file with long print formats, a directory recording, 12,000
# made-up tasks) and peo stat's start.  RUNS (default 5) alternating runs
# of each; prints the median wall times and new/old (below 1: new is
# faster), and checks the two outputs are the same bytes.
set -uo pipefail
old=${1:?usage: peo_vs_peo.sh OLD_PEO NEW_PEO [WORKLOAD]}
new=${2:?usage: peo_vs_peo.sh OLD_PEO NEW_PEO [WORKLOAD]}
W=${3:-build/tests/workload}
threads_synth=$(dirname "$W")/threads_synth
calls=${CALLS:-600000}
runs=${RUNS:-5}
command -v perf >/dev/null || { echo "peo_vs_peo: skipped: perf is not installed"; exit 0; }
export PERF_CONFIG=/dev/null LC_ALL=C
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/common.sh" # median

# Inputs, made once.
perf record -q -m 512 -o "$tmp/getppid.data" -g -e syscalls:sys_enter_getppid -c 1 -- \
	"$W" -n "$calls" >/dev/null 2>&1 ||
	{ echo "peo_vs_peo: skipped: perf record of the getppid tracepoint fails here"; exit 0; }
perf record -q -o "$tmp/sched.data" -a -e 'sched:*' -e 'timer:*' -e 'irq:*' -- \
	"$W" -T 2 -b 300 >/dev/null 2>&1 || : >"$tmp/sched.data"
perf record -q --threads -o "$tmp/dir.data" -a -g -- "$W" -T 2 -b 300 >/dev/null 2>&1 ||
	rm -rf "$tmp/dir.data"
[ -x "$threads_synth" ] && "$threads_synth" "$tmp/tasks.data" 7 12000 >/dev/null

# one LABEL PEO ARGS...: wall seconds of one run, output kept as $tmp/LABEL.out.
one() {
	local label=$1 start end; shift
	rm -f "$tmp/$label.out"
	start=$(date +%s%N)
	"$@" >"$tmp/$label.out" 2>"$tmp/$label.err" ||
		{ echo "peo_vs_peo: $* failed: $(head -c 300 "$tmp/$label.err")" >&2; exit 1; }
	end=$(date +%s%N)
	awk -v ns=$((end - start)) 'BEGIN { printf "%.4f\n", ns / 1e9 }'
}

# compare TITLE ARGS...: RUNS alternating runs of each build.
compare() {
	local title=$1 i ot nt same=identical; shift
	: >"$tmp/o.t"; : >"$tmp/n.t"
	for (( i = 0; i < runs; i++ )); do
		one old "$old" "$@" >>"$tmp/o.t"
		one new "$new" "$@" >>"$tmp/n.t"
	done
	cmp -s "$tmp/old.out" "$tmp/new.out" || same=DIFFERENT
	ot=$(median <"$tmp/o.t"); nt=$(median <"$tmp/n.t")
	awk -v t="$title" -v o="$ot" -v n="$nt" -v same="$same" 'BEGIN {
		printf "%-44s old %8.3f s  new %8.3f s  new/old %.2f  (outputs %s)\n", t, o, n, n / o, same
		printf "RESULT|%s|%.3f s|old peo|%.3f s|%.2f\n", t, n, o, o / n }'
	[ "$same" = identical ]
}

status=0
echo "peo_vs_peo: $runs runs each; old $old, new $new"
compare "script --stats, getppid -g" script -i "$tmp/getppid.data" --stats || status=1
compare "script text, getppid -g" script -i "$tmp/getppid.data" || status=1
compare "script --json, getppid -g" script -i "$tmp/getppid.data" --json || status=1
compare "script --workers 0, getppid -g" script -i "$tmp/getppid.data" --workers 0 || status=1
[ -s "$tmp/sched.data" ] && { compare "script, sched/timer/irq tracepoints" script -i "$tmp/sched.data" || status=1; }
[ -d "$tmp/dir.data" ] && { compare "script, perf record --threads directory" script -i "$tmp/dir.data" || status=1; }
[ -f "$tmp/tasks.data" ] && { compare "script --show-task-events, 12,000 tasks" script -i "$tmp/tasks.data" \
	--show-task-events --show-mmap-events || status=1; }
compare "stat -e task-clock true (start)" stat -x, -e task-clock -- true || status=1
exit $status
