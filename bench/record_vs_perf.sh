#!/usr/bin/env bash
# record_vs_perf.sh [PEO [WORKLOAD]] - peo record against perf record
# --no-bpf-event at the same settings, in the same run, alternating:
#   - start-up: recording `true` (the tool's own cost, wall time);
#   - a fixed amount of work (WORKLOAD -n CALLS getppid calls, then -b MS of
#     user-space burn) recorded at -F 4000, -F 20000 and -c 1 on the
#     getppid tracepoint: the wall time against the workload alone (the
#     slowdown), samples, lost samples, bytes written.
# Medians of RUNS (default 5) runs.  The goal: no more overhead and no more
# loss than perf.
set -uo pipefail
peo=${1:-build/peo}
W=${2:-build/tests/workload}
runs=${RUNS:-5}
command -v perf >/dev/null || { echo "record_vs_perf: skipped: perf is not installed"; exit 0; }
export PERF_CONFIG=/dev/null LC_ALL=C
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# wall_us CMD...: the command's wall time in microseconds (its output and
# exit status kept in $tmp/last.*: wall_us runs in a subshell)
wall_us() {
	local start end rc
	rm -f "$tmp/out.data"
	start=$(date +%s%N)
	"$@" >"$tmp/last.out" 2>"$tmp/last.err"
	rc=$?
	end=$(date +%s%N)
	echo "$rc" >"$tmp/last.rc" # after the clock: the file write is not the command's time
	echo $(( (end - start) / 1000 ))
}
# ran_ok WHAT: stop the benchmark when the last command failed (a time of a
# failed run would be worthless, and its file's counts wrong).
ran_ok() {
	local rc
	rc=$(cat "$tmp/last.rc")
	[ "$rc" = 0 ] && return 0
	echo "record_vs_perf: $1 failed (exit $rc): $(head -c 300 "$tmp/last.err")" >&2
	exit 1
}
. "$(dirname "$0")/common.sh" # median

# samples and lost samples of the last run: from its file, by peo script --stats (the same
# reader for both); the lost are the per-event LOST_SAMPLES lines (no percentage), which
# both tools write from each fd's PERF_FORMAT_LOST count at the end
samples_of() { "$peo" script -i "$tmp/out.data" --stats 2>/dev/null | awk '/ SAMPLE events:/ { print $3; exit }'; }
lost_of() {
	"$peo" script -i "$tmp/out.data" --stats 2>/dev/null |
		awk '/ LOST_SAMPLES events:/ && !/%/ { n += $3 } END { print n + 0 }'
}

# compare TITLE RECORD-ARGS... -- WORKLOAD-ARGS...
compare() {
	local title=$1 args=() wargs=() i tool
	shift
	while [ "$1" != "--" ]; do args+=("$1"); shift; done
	shift
	wargs=("$@")
	: >"$tmp/base"; : >"$tmp/peo"; : >"$tmp/perf"
	for (( i = 0; i < runs; i++ )); do
		wall_us "$W" "${wargs[@]}" >>"$tmp/base"
		ran_ok "the workload ${wargs[*]}"
		for tool in peo perf; do
			if [ "$tool" = peo ]; then
				t=$(wall_us "$peo" record -o "$tmp/out.data" "${args[@]}" -- "$W" "${wargs[@]}")
			else
				t=$(wall_us perf record --no-bpf-event -o "$tmp/out.data" "${args[@]}" -- "$W" "${wargs[@]}")
			fi
			ran_ok "$tool record ${args[*]}"
			echo "$t $(samples_of) $(lost_of) $(stat -c %s "$tmp/out.data" 2>/dev/null || echo 0)" >>"$tmp/$tool"
		done
	done
	local base
	base=$(median <"$tmp/base")
	echo "$title (workload alone: $(awk -v b="$base" 'BEGIN { printf "%.1f ms", b / 1000 }'))"
	for tool in peo perf; do
		local t s l b
		t=$(cut -d' ' -f1 "$tmp/$tool" | median)
		s=$(cut -d' ' -f2 "$tmp/$tool" | median)
		l=$(cut -d' ' -f3 "$tmp/$tool" | median)
		b=$(cut -d' ' -f4 "$tmp/$tool" | median)
		awk -v n="$tool" -v t="$t" -v base="$base" -v s="$s" -v l="$l" -v b="$b" 'BEGIN {
			printf "  %-5s %8.1f ms  +%6.1f ms over the workload  %8d samples  %6d lost  %9d bytes\n",
				n, t / 1000, (t - base) / 1000, s, l, b }'
		echo "$t" >"$tmp/$tool.t"
	done
	awk -v a="$(cat "$tmp/peo.t")" -v b="$(cat "$tmp/perf.t")" -v base="$base" -v title="$title" \
		-v lp="$(cut -d' ' -f3 "$tmp/peo" | median)" -v lf="$(cut -d' ' -f3 "$tmp/perf" | median)" 'BEGIN {
		printf "  overhead perf/peo: %.2fx\n", (b - base) / ((a - base) > 0 ? (a - base) : 1)
		printf "RESULT|peo record %s: time added to the workload|%.1f ms|perf record|%.1f ms|%.2f\n",
			title, (a - base) / 1000, (b - base) / 1000, (b - base) / ((a - base) > 0 ? (a - base) : 1)
		printf "RESULT|peo record %s: lost samples|%d|perf record|%d|-\n", title, lp, lf }'
}

echo "# record_vs_perf: medians of $runs alternating runs"
: >"$tmp/sp"; : >"$tmp/sf"
for (( i = 0; i < runs; i++ )); do
	wall_us "$peo" record -o "$tmp/out.data" -- true >>"$tmp/sp"
	ran_ok "peo record -- true"
	wall_us perf record --no-bpf-event -o "$tmp/out.data" -- true >>"$tmp/sf"
	ran_ok "perf record -- true"
done
awk -v p="$(median <"$tmp/sp")" -v f="$(median <"$tmp/sf")" 'BEGIN {
	printf "start-up (record true): peo %.1f ms, perf %.1f ms: %.1fx\n", p / 1000, f / 1000, f / p
	printf "RESULT|peo record -- true: start-up|%.1f ms|perf record|%.1f ms|%.1f\n", p / 1000, f / 1000, f / p }'
compare "-F 4000, getppid calls and a burn" -F 4000 -- -n 300000 -b 300
compare "-F 20000 -g" -F 20000 -g -- -n 300000 -b 300
compare "-c 1 on syscalls:sys_enter_getppid (every call)" -e syscalls:sys_enter_getppid -c 1 -m 512 -- -n 300000
