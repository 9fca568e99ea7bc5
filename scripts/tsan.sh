#!/usr/bin/env bash
# make check-tsan (and part of make check): the tests that run peo from
# several threads, built with clang's ThreadSanitizer: test_threads
# (separate objects from separate threads, DESIGN.md's promise, and a ring
# set woken from another thread), test_perfdata (the read-ahead helper
# thread), test_ring_stress (one record parser shared by several threads,
# record.h's promise), test_script_out (peo script's formatting workers, their
# ordered writer and their shared log) and test_sym_srcline (source lines
# asked from another thread); then the peo command itself, recording a
# file and printing it with its helper threads (read-ahead, formatting
# workers, writing), and peo report --pprof (preloading, the lines worker).
set -uo pipefail
build=${1:-build-tsan} jobs=${2:-2}
tests=(test_threads test_perfdata test_script_out test_ring_stress test_sym_kernel test_sym_srcline)
echo "=== tsan: configure and build ($build)"
cmake -S . -B "$build" -DPEO_TESTS=ON -DPEO_TSAN=ON -DCMAKE_C_COMPILER=clang \
	-DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Debug >/dev/null || exit 1
# the tests, and the peo command with the workload it records
cmake --build "$build" -j"$jobs" --target "${tests[@]}" peo_tool workload >/dev/null ||
	{ cmake --build "$build" -j1 --target "${tests[@]}" peo_tool workload; exit 1; }
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1}
status=0
for t in "${tests[@]}"; do
	if out=$("$build/tests/$t" 2>&1); then
		echo "=== tsan: $t: no data race ($(echo "$out" | grep SUMMARY | sed 's/.*SUMMARY  \] //'))"
	else
		echo "$out" | tail -40
		echo "=== tsan: $t FAILED"
		status=1
	fi
done
echo "=== tsan: peo record, then peo script with its helper threads"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
if ! "$build/peo" record -o "$tmp/t.data" -e cpu-clock -F 10000 -g -- \
	"$build/tests/workload" -b 300 >"$tmp/record.out" 2>&1; then
	tail -40 "$tmp/record.out"
	echo "=== tsan: peo record FAILED"
	status=1
else
	for args in "-F pid,tid,time,ip,event" "" "--show-task-events --show-mmap-events --workers 3" \
		"-F pid,tid,time,ip,event --workers 4" "--json --workers 3"; do
		# shellcheck disable=SC2086
		if "$build/peo" script -i "$tmp/t.data" $args >"$tmp/script.out" 2>"$tmp/script.err" &&
			[ -s "$tmp/script.out" ]; then
			echo "=== tsan: peo script $args: no data race ($(wc -l <"$tmp/script.out") lines)"
		else
			tail -40 "$tmp/script.err"
			echo "=== tsan: peo script $args FAILED"
			status=1
		fi
	done
	if "$build/peo" report -i "$tmp/t.data" --pprof "$tmp/t.pb.gz" >"$tmp/report.out" 2>&1 &&
		[ -s "$tmp/t.pb.gz" ]; then
		echo "=== tsan: peo report --pprof: no data race"
	else
		tail -40 "$tmp/report.out"
		echo "=== tsan: peo report --pprof FAILED"
		status=1
	fi
fi
exit $status
