# compare_common.sh - sourced by the scripts that compare peo with perf:
# `compare_begin NAME "$@"` checks the arguments (PEO WORKLOAD), skips (77)
# when perf is missing, makes $tmp (removed on exit), and defines pass,
# fail and skip, which count into $passed, $failed and $skipped.
compare_begin() {
	local name=$1
	shift
	peo=${1:?usage: $name PEO WORKLOAD}
	W=${2:?usage: $name PEO WORKLOAD}
	export PERF_CONFIG=/dev/null LC_ALL=C
	if ! command -v perf >/dev/null 2>&1; then
		echo "SKIP: perf is not installed; $name has nothing to compare peo with"
		exit 77
	fi
	tmp=$(mktemp -d) || exit 1
	trap 'rm -rf "$tmp"' EXIT
	passed=0 failed=0 skipped=0
}
pass() { echo "PASS  $*"; passed=$((passed + 1)); }
fail() { echo "FAIL  $*"; failed=$((failed + 1)); }
skip() { echo "SKIP  $*"; skipped=$((skipped + 1)); }
# same NAME WHAT PEO-OUT OTHER-OUT: compare peo's output with perf's (or
# the lines expected), show the first difference.
same() {
	local name=$1 what=$2
	if cmp -s "$3" "$4"; then
		pass "$name: $what identical ($(wc -l <"$3") lines)"
	else
		fail "$name: $what differ; first difference (< peo, > other):"
		diff "$3" "$4" | head -6 | sed 's/^/      /'
	fi
}
