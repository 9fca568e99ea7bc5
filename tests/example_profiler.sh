#!/usr/bin/env bash
# example_profiler.sh TOP_FUNCTIONS WORKLOAD - examples/top_functions.c,
# the minimal profiler, on a workload that spends its time in burn_loop()
# called 5 deep through burn_deep(): burn_loop comes first, with most of
# the samples (self), and burn_deep is on most of them (total: the
# callchains were walked and named).
set -uo pipefail
top=${1:?usage: example_profiler.sh TOP_FUNCTIONS WORKLOAD}
W=${2:?usage: example_profiler.sh TOP_FUNCTIONS WORKLOAD}
out=$("$top" "$W" -r 5 -b 600 2>/tmp/example_profiler.$$) || {
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
first=$(sed -n 2p <<<"$out") # under the header line
self=$(awk 'NR == 2 { sub("%", "", $1); print int($1) }' <<<"$out")
deep=$(awk '$3 == "burn_deep" { sub("%", "", $2); print int($2) }' <<<"$out")
if [[ $first == *" burn_loop" ]] && (( self >= 50 )) && (( ${deep:-0} >= 50 )); then
	echo "PASS: the hot function first, its caller on most samples: $first; burn_deep total $deep%"
	exit 0
fi
echo "FAIL: burn_loop is not first with most samples, or burn_deep not on most: $first; burn_deep ${deep:-absent}"
exit 1
