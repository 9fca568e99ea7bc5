#!/usr/bin/env bash
# make check: check the layering (scripts/layers.py), then build and run
# every test twice, with gcc and then with clang
# under AddressSanitizer + UndefinedBehaviorSanitizer, the threaded tests
# under ThreadSanitizer, then each fuzz target
# for FUZZ_CHECK_SECONDS (10) on its seed corpus.  Skips are counted and
# printed with their reasons; they are never passes.
set -uo pipefail
build=${1:-build} asan=${2:-build-asan} jobs=${3:-2} tsan=${4:-build-tsan} fuzz=${5:-build-fuzz}
status=0

run_suite() { # dir label cmake-args...
	local dir=$1 label=$2; shift 2
	echo "=== $label: configure and build ($dir)"
	cmake -S . -B "$dir" -DPEO_TESTS=ON "$@" >/dev/null || return 1
	cmake --build "$dir" -j"$jobs" >/dev/null || { cmake --build "$dir" -j1; return 1; }
	echo "=== $label: tests"
	(cd "$dir" && ctest --output-on-failure -j"$jobs") || return 1
}

summarize_skips() { # dir label
	local log=$1/Testing/Temporary/LastTest.log
	[ -f "$log" ] || return 0
	local n
	n=$(grep -c '^\[  SKIP    \] reason:' "$log" || true)
	echo "=== $2: $n test case(s) skipped:"
	grep '^\[  SKIP    \] reason:' "$log" | sed 's/^\[  SKIP    \] reason: /    /' | sort | uniq -c
}

# The failing checks' own lines (FAIL and what follows), kept for the end:
# a long run's log is read from its tail, where the ctest output is long gone.
recap=$(mktemp) || exit 1
trap 'rm -f "$recap"' EXIT
keep_failures() { # dir label
	local log=$1/Testing/Temporary/LastTest.log
	[ -f "$log" ] || return 0
	{ echo "=== $2: the failing checks"; grep -A12 -E '^(FAIL|\[  FAILED|\[  ERROR)' "$log" | head -n 80; } >>"$recap"
}

# The layers first: seconds, so a layering fault is said before the long
# runs (and fails make check at the end).  It reads the gcc build's objects
# that are up to date and compiles the rest.
echo "=== layers (scripts/layers.py)"
python3 scripts/layers.py --build "$build" || status=1

# Tracepoint tests need tracefs: mounted if it is not (as root), else they skip.
bash scripts/tracefs.sh
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
run_suite "$build" "gcc" -DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++ ||
	{ status=1; keep_failures "$build" "gcc"; }
summarize_skips "$build" "gcc"
run_suite "$asan" "clang + ASan/UBSan" -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
	-DPEO_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug || { status=1; keep_failures "$asan" "clang + ASan/UBSan"; }
summarize_skips "$asan" "clang + ASan/UBSan"
# The threaded paths under ThreadSanitizer.
bash scripts/tsan.sh "$tsan" "$jobs" || status=1
# Every libFuzzer target briefly on its seed corpus (make fuzz runs longer).
bash scripts/fuzz.sh "$fuzz" "${FUZZ_CHECK_SECONDS:-10}" "$jobs" || status=1
cat "$recap"
[ $status -eq 0 ] && echo "=== make check: all tests passed (skips listed above are not passes)" ||
	echo "=== make check: FAILED"
exit $status
