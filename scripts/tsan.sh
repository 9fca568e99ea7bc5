#!/usr/bin/env bash
# make check-tsan (and part of make check): the tests that run peo from
# several threads, built with clang's ThreadSanitizer: test_threads
# (separate objects from separate threads, DESIGN.md's promise, and a ring
# set woken from another thread), test_perfdata (the read-ahead helper
# thread) and test_script_out (peo script's writer thread).
set -uo pipefail
build=${1:-build-tsan} jobs=${2:-2}
tests=(test_threads test_perfdata test_script_out)
echo "=== tsan: configure and build ($build)"
cmake -S . -B "$build" -DPEO_TESTS=ON -DPEO_TSAN=ON -DCMAKE_C_COMPILER=clang \
	-DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Debug >/dev/null || exit 1
cmake --build "$build" -j"$jobs" --target "${tests[@]}" >/dev/null ||
	{ cmake --build "$build" -j1 --target "${tests[@]}"; exit 1; }
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
exit $status
