#!/usr/bin/env bash
# example_profiler.sh TOP_FUNCTIONS WORKLOAD - examples/top_functions.c,
# the minimal profiler, on a workload that spends its time in burn_loop():
# burn_loop comes first, with most of the samples.
set -uo pipefail
top=${1:?usage: example_profiler.sh TOP_FUNCTIONS WORKLOAD}
W=${2:?usage: example_profiler.sh TOP_FUNCTIONS WORKLOAD}
out=$("$top" "$W" -b 600 2>/tmp/example_profiler.$$) || {
	err=$(cat /tmp/example_profiler.$$); rm -f /tmp/example_profiler.$$
	case $err in
	*"Permission denied"* | *"No such file"*) echo "SKIP: top_functions cannot sample here: $err"; exit 77 ;;
	esac
	echo "FAIL: top_functions failed: $err"; exit 1
}
err=$(cat /tmp/example_profiler.$$); rm -f /tmp/example_profiler.$$
echo "$out"
if [[ $err == *"reads no symbols"* ]]; then
	echo "SKIP: $err"
	exit 77
fi
first=$(head -1 <<<"$out")
share=$(awk '{ sub("%", "", $1); print int($1) }' <<<"$first")
# burn_loop is nearly all of the workload's CPU time: the rest is its start
if [[ $first == *" burn_loop" ]] && (( share >= 50 )); then
	echo "PASS: the hot function first: $first"
	exit 0
fi
echo "FAIL: burn_loop is not first with most samples: $first"
exit 1
