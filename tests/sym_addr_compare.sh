#!/usr/bin/env bash
# sym_addr_compare.sh PEO WORKLOAD SYM_SAMPLE - a page fault's addr named
# as perf script 6.1 names it (the data object or function there, and the
# map: a binary, [stack], [heap], //anon), on recordings made here of the
# workload touching pages and of sym_sample, with -F's addr beside the
# ip's symbol; -e page-faults, minor-faults.  Exits 1 when peo's lines
# differ from perf's, 77 when perf cannot record page faults with -d.
set -u
. "$(dirname "$0")/compare_common.sh"
compare_begin sym_addr_compare.sh "$@"
plt=$(realpath "${3:?usage: sym_addr_compare.sh PEO WORKLOAD SYM_SAMPLE}")
W=$(realpath "$W")
peo_without_notes
if ! perf record -q -N -o "$tmp/probe.data" -e page-faults -d -c 1 -- true >/dev/null 2>&1; then
	echo "SKIP: perf record -e page-faults -d cannot record here"
	exit 77
fi
fields=comm,tid,addr,ip,sym,symoff,dso

# check NAME EVENT COMMAND...: record each fault, compare the lines
check() {
	local name=$1 event=$2 f="$tmp/$1.data"
	shift 2
	if ! perf record -q -N -e "$event" -d -c 1 -o "$f" -- "$@" >/dev/null 2>"$tmp/$name.rec"; then
		fail "$name: perf record failed: $(head -2 "$tmp/$name.rec" | tr '\n' ' ')"
		return
	fi
	perf script -i "$f" -F "$fields" >"$tmp/$name.perf" 2>/dev/null
	"$peo" script -i "$f" -F "$fields" >"$tmp/$name.peo" 2>"$tmp/$name.err" ||
		fail "$name: peo script failed: $(head -2 "$tmp/$name.err")"
	same "$name" "addr and ip lines" "$tmp/$name.peo" "$tmp/$name.perf"
}

cd "$tmp" || exit 1
check workload page-faults "$W" -m 64 -n 100
check sym_sample minor-faults "$plt" 0
# the addresses named: some by a data object or function, not all [unknown]
named=$(awk '{ if ($4 != "[unknown]") n++ } END { print n + 0 }' "$tmp/workload.peo" "$tmp/sym_sample.peo")
if [ "$named" -gt 0 ]; then
	pass "$named fault addresses named by a symbol"
else
	fail "no fault address named by a symbol"
fi
echo "sym_addr_compare: $passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
