#!/usr/bin/env bash
# sym_dwarf_compare.sh PEO WORKLOAD SYM_SAMPLE SYM_SAMPLE_CXX - peo script's
# stacks of `perf record --call-graph dwarf` recordings (user frames
# unwound from the samples' registers and stack copies, with inlined
# functions) against perf script 6.1's, stack by stack
# (dwarf_stacks_compare.py): the C and C++ sample programs, and the
# workload 40 calls deep.  perf 6.1 is wrong in four ways, counted apart
# and not failed: it prints a function's alias as "(inlined)" in place of
# the function (libc's read as __GI___libc_read), names a PLT entry
# _init+0xN (peo: name@plt), once printed a function's line twice, and its
# libunwind ends a stack at a function without CFI (ffffffffffffffff
# [unknown]) where libdwfl goes on.
# With --no-inline (perf's too) only the PLT names and libunwind's ends
# may differ.  --json's frames: as many as the text's frame lines.
# Exits 1 when a stack differs otherwise, 77 when perf cannot record
# dwarf callchains here or peo was built without elfutils.
set -u
. "$(dirname "$0")/compare_common.sh"
compare_begin sym_dwarf_compare.sh "$@"
c=$(realpath "${3:?usage: sym_dwarf_compare.sh PEO WORKLOAD SYM_SAMPLE SYM_SAMPLE_CXX}")
cxx=$(realpath "${4:?usage: sym_dwarf_compare.sh PEO WORKLOAD SYM_SAMPLE SYM_SAMPLE_CXX}")
W=$(realpath "$W")
here=$(dirname "$(realpath "$0")")
if ! perf record -q -N -o "$tmp/probe.data" -e cpu-clock --call-graph dwarf -- true >/dev/null 2>&1; then
	echo "SKIP: perf record cannot record --call-graph dwarf here"
	exit 77
fi
"$peo" script -i "$tmp/probe.data" >/dev/null 2>"$tmp/probe.err"
if grep -q "without elfutils" "$tmp/probe.err"; then
	echo "SKIP: $(grep -m1 "without elfutils" "$tmp/probe.err")"
	exit 77
fi

# check NAME COMMAND...: record it, compare the stacks
check() {
	local name=$1 f="$tmp/$1.data" counts
	shift
	if ! perf record -q -N -e cpu-clock -F 1000 --call-graph dwarf -o "$f" -- "$@" \
		>/dev/null 2>"$tmp/$name.rec"; then
		fail "$name: perf record failed: $(head -2 "$tmp/$name.rec" | tr '\n' ' ')"
		return
	fi
	perf script -i "$f" >"$tmp/$name.perf" 2>/dev/null
	if ! "$peo" script -i "$f" >"$tmp/$name.peo" 2>"$tmp/$name.err"; then
		fail "$name: peo script failed: $(head -2 "$tmp/$name.err")"
		return
	fi
	if counts=$(python3 "$here/dwarf_stacks_compare.py" "$tmp/$name.peo" "$tmp/$name.perf"); then
		pass "$name: stacks as perf script's: $(tail -1 <<<"$counts")"
	else
		fail "$name: stacks differ from perf script's:"
		sed 's/^/      /' <<<"$counts" | head -40
	fi
	# without inlined functions perf's alias bug is out of the way: the
	# same stacks but for perf's own PLT names and libunwind's ends
	perf script -i "$f" --no-inline >"$tmp/$name.ni.perf" 2>/dev/null
	"$peo" script -i "$f" --no-inline >"$tmp/$name.ni.peo" 2>/dev/null
	if counts=$(python3 "$here/dwarf_stacks_compare.py" "$tmp/$name.ni.peo" "$tmp/$name.ni.perf") &&
		[[ $counts == *" alias=0 "* ]]; then
		pass "$name: --no-inline stacks as perf script's: $(tail -1 <<<"$counts")"
	else
		fail "$name: --no-inline stacks differ from perf script's:"
		sed 's/^/      /' <<<"$counts" | head -40
	fi
	"$peo" script -i "$f" --json 2>/dev/null | python3 -c '
import json, sys
print(sum(len(json.loads(l).get("frames", [])) for l in sys.stdin))' >"$tmp/$name.jn"
	local text_frames
	text_frames=$(grep -c $'^\t' "$tmp/$name.peo")
	if [ "$(cat "$tmp/$name.jn")" = "$text_frames" ]; then
		pass "$name: --json has the text's $text_frames frames"
	else
		fail "$name: --json has $(cat "$tmp/$name.jn") frames, the text $text_frames"
	fi
}

cd "$tmp" || exit 1
check c "$c" 1
check cxx "$cxx" 0.3
check deep "$W" -r 40 -b 300

echo "sym_dwarf_compare: $passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
