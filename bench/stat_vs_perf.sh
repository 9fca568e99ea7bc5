#!/usr/bin/env bash
# stat_vs_perf.sh [PEO [N]] - start-up time and peak memory of `peo stat`
# against `perf stat`, both measured in this run.
#
# Runs `peo stat -- true` and `perf stat -- true` alternately N times
# (default 30; the order flips every round), then the same with
# `-e task-clock,page-faults`, and prints the median wall time (fork to
# reaping) and median peak RSS (the tool's and its child's, from wait4) of
# each, and the ratios peo/perf: lower is better, the goal is <= 0.10.
# `true` alone is printed first: every run pays its exec and the helper's
# fork, so it is the floor under both tools.  The start-up row is each
# tool's wall time minus that floor: the time the tool itself adds.
#
# PEO defaults to build/peo; the timer is bench_spawn from the same build
# (build/bench/bench_spawn), or $BENCH_SPAWN.
set -uo pipefail
peo=${1:-build/peo}
n=${2:-30}
spawn=${BENCH_SPAWN:-$(dirname "$peo")/bench/bench_spawn}

[ -x "$spawn" ] || { echo "stat_vs_perf: no timer at $spawn: build with -DPEO_BENCH=ON" >&2; exit 1; }
[ -x "$peo" ] || { echo "stat_vs_perf: no peo at $peo" >&2; exit 1; }
perf=$(command -v perf) || { echo "stat_vs_perf: skipped: perf is not installed (linux-perf)"; exit 0; }
truecmd=$(command -v true)

. "$(dirname "$0")/common.sh" # median

# run LABEL CMD...: one timed run, appended to $tmp/LABEL as "wall_ns rss_kb".
run() {
	local label=$1 wall rss status; shift
	read -r wall rss status < <("$spawn" "$@")
	[ -n "$status" ] || { echo "stat_vs_perf: bench_spawn failed on: $*" >&2; exit 1; }
	[ "$status" = 0 ] || echo "stat_vs_perf: warning: '$*' exited $status in a timed run" >&2
	echo "$wall $rss" >>"$tmp/$label"
}

# Each tool must work before it is timed: a failing command is fast and small.
check() {
	local status
	"$@" >/dev/null 2>&1
	status=$?
	[ $status -eq 0 ] && return 0
	echo "stat_vs_perf: skipped: '$*' exits $status:" >&2
	"$@" 2>&1 >/dev/null | head -3 | sed 's/^/    /' >&2
	return 1
}

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# compare TITLE EVENT-ARGS...: N alternating rounds, then one table row per tool.
compare() {
	local title=$1 i; shift
	local peo_cmd=("$peo" stat "$@" -- "$truecmd") perf_cmd=("$perf" stat "$@" -- "$truecmd")

	check "${peo_cmd[@]}" && check "${perf_cmd[@]}" || return 0
	rm -f "$tmp"/peo "$tmp"/perf "$tmp"/true
	for ((i = 0; i < 2; i++)); do # warm-up: page cache, dynamic loader caches
		"$spawn" "${peo_cmd[@]}" >/dev/null; "$spawn" "${perf_cmd[@]}" >/dev/null
	done
	for ((i = 0; i < n; i++)); do
		if ((i % 2)); then
			run perf "${perf_cmd[@]}"; run peo "${peo_cmd[@]}"
		else
			run peo "${peo_cmd[@]}"; run perf "${perf_cmd[@]}"
		fi
		run true "$truecmd"
	done
	local pt pm ft fm tt tm
	tt=$(cut -d' ' -f1 "$tmp"/true | median) tm=$(cut -d' ' -f2 "$tmp"/true | median)
	pt=$(cut -d' ' -f1 "$tmp"/peo | median) pm=$(cut -d' ' -f2 "$tmp"/peo | median)
	ft=$(cut -d' ' -f1 "$tmp"/perf | median) fm=$(cut -d' ' -f2 "$tmp"/perf | median)
	echo "$title"
	awk -v title="$title" -v tt="$tt" -v tm="$tm" -v pt="$pt" -v pm="$pm" -v ft="$ft" -v fm="$fm" 'BEGIN {
		printf "  %-22s %10.3f ms %8d KiB\n", "true alone (floor)", tt / 1e6, tm
		printf "  %-22s %10.3f ms %8d KiB\n", "peo stat", pt / 1e6, pm
		printf "  %-22s %10.3f ms %8d KiB\n", "perf stat", ft / 1e6, fm
		printf "  %-22s %10.3f    %8.3f      (goal <= 0.10; perf/peo: %.1fx time, %.1fx memory)\n",
		       "ratio peo/perf", pt / ft, pm / fm, ft / pt, fm / pm
		printf "  %-22s %10.3f ms (peo) %8.3f ms (perf)  ratio %.3f (perf/peo: %.1fx)\n",
		       "start-up (minus true)", (pt - tt) / 1e6, (ft - tt) / 1e6, (pt - tt) / (ft - tt), (ft - tt) / (pt - tt)
		printf "RESULT|peo %s: start-up (wall minus true alone)|%.2f ms|perf|%.2f ms|%.1f\n",
		       title, (pt - tt) / 1e6, (ft - tt) / 1e6, (ft - tt) / (pt - tt)
		printf "RESULT|peo %s: peak RSS|%d KiB|perf|%d KiB|%.1f\n", title, pm, fm, fm / pm
	}'
}

echo "# stat_vs_perf: $("$peo" --version 2>/dev/null | head -1 || echo "$peo") vs $("$perf" --version)," \
	"median of $n alternating runs each; wall time and peak RSS; lower ratio is better"
compare "stat -- true (default events)"
compare "stat -e task-clock,page-faults -- true" -e task-clock,page-faults
exit 0
