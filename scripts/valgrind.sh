#!/usr/bin/env bash
# make check-valgrind: every cmocka test of BUILD under valgrind memcheck
# (definite leaks, invalid reads and writes, uninitialised values; fd-exact
# teardown checks run as in make check).  A test that cannot run under
# valgrind skips, saying why; tests/valgrind.supp lists the false positives.
set -uo pipefail
build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
export PEO_TOOL=$build/peo PEO_WORKLOAD=$build/tests/workload PEO_EXAMPLES=$build/examples
status=0 passed=0 skipped=0
for t in "$build"/tests/test_*; do
	[ -x "$t" ] || continue
	name=$(basename "$t")
	log=$(mktemp "${TMPDIR:-/tmp}/peo-vg-$name.XXXXXX")
	valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
		--suppressions="$root/tests/valgrind.supp" "$t" >"$log" 2>&1
	rc=$?
	skips=$(grep -c '^\[  SKIPPED \]' "$log")
	case $rc in
	0) echo "=== valgrind: $name: clean ($skips skipped)"; passed=$((passed + 1)) ;;
	77) echo "=== valgrind: $name: skipped: $(grep -m1 'reason:' "$log")"; skipped=$((skipped + 1)) ;;
	*) echo "=== valgrind: $name: FAILED (exit $rc)"; grep -E '^==[0-9]+==|FAILED|ERROR' "$log" | head -40
	   status=1 ;;
	esac
	grep '^\[  SKIP    \] reason' "$log" | sort -u | sed 's/^/      /'
	rm -f "$log"
done
echo "=== valgrind: $passed clean, $skipped skipped, $([ $status -eq 0 ] && echo 0 || echo some) failed"
exit $status
