#!/usr/bin/env bash
# sym_srcline_compare.sh PEO WORKLOAD SRCLINE_SAMPLE SYM_SAMPLE - peo
# script -F ...,srcline against perf script 6.1's on recordings made here:
# samples without callchains, frame-pointer callchains (-g) and
# --call-graph dwarf stacks (with inlined functions), of a program whose hot
# code is in a header and inlined (srcline_sample.c), of one calling
# through the PLT (sym_sample.c) and of the workload 30 calls deep.
# perf 6.1 gets its lines from binutils 2.40's addr2line, which is wrong
# in ways dwarf_stacks_compare.py counts apart (perf_file: the unit's .c
# named for code from a header; perf_symfile: an ELF file symbol's name
# where there is no line); its other known bugs are counted as in
# sym_dwarf_compare.sh.  peo must name srcline_sample.h for the code the
# header holds.  --json's srclines are the text's.
# Exits 1 when a stack differs otherwise, 77 when perf cannot record here
# or peo was built without elfutils.
set -u
. "$(dirname "$0")/compare_common.sh"
usage="usage: sym_srcline_compare.sh PEO WORKLOAD SRCLINE_SAMPLE SYM_SAMPLE"
compare_begin sym_srcline_compare.sh "$@"
sample=$(realpath "${3:?$usage}")
plt=$(realpath "${4:?$usage}")
W=$(realpath "$W")
here=$(dirname "$(realpath "$0")")
peo_without_notes
if ! perf record -q -N -o "$tmp/probe.data" -e cpu-clock --call-graph dwarf -- true >/dev/null 2>&1; then
	echo "SKIP: perf record cannot record --call-graph dwarf here"
	exit 77
fi
"$peo" script -i "$tmp/probe.data" -F ip,srcline >/dev/null 2>"$tmp/probe.err"
if grep -q "without elfutils" "$tmp/probe.err"; then
	echo "SKIP: $(grep -m1 "without elfutils" "$tmp/probe.err")"
	exit 77
fi
fields=comm,tid,ip,sym,symoff,dso,srcline

# json_srclines FILE: each frame's srcline from --json, "" for none
json_srclines() {
	"$peo" script -i "$1" --json -F +srcline 2>/dev/null | python3 -c '
import json, sys
for l in sys.stdin:
    for f in json.loads(l).get("frames", []):
        print(f.get("srcline", ""))'
}
# text_srclines FILE: each frame's srcline from the text, "" for none
text_srclines() {
	awk '/^\t/ { if (f) print s; f = 1; s = "" }
	     /^  [^ ]+( \(inlined\))?$/ { s = substr($0, 3); sub(/ \(inlined\)$/, "", s) }
	     /^$/  { if (f) print s; f = 0 }
	     END   { if (f) print s }' "$1"
}

# check NAME RECORD-OPTIONS -- COMMAND...: record, compare
check() {
	local name=$1 f="$tmp/$1.data" counts opts=()
	shift
	while [ "$1" != -- ]; do opts+=("$1"); shift; done
	shift
	if ! perf record -q -N -e cpu-clock -F 1000 "${opts[@]}" -o "$f" -- "$@" \
		>/dev/null 2>"$tmp/$name.rec"; then
		fail "$name: perf record failed: $(head -2 "$tmp/$name.rec" | tr '\n' ' ')"
		return
	fi
	perf script -i "$f" -F "$fields" >"$tmp/$name.perf" 2>/dev/null
	if ! "$peo" script -i "$f" -F "$fields" >"$tmp/$name.peo" 2>"$tmp/$name.err"; then
		fail "$name: peo script failed: $(head -2 "$tmp/$name.err")"
		return
	fi
	if counts=$(python3 "$here/dwarf_stacks_compare.py" "$tmp/$name.peo" "$tmp/$name.perf"); then
		pass "$name: srclines as perf script's: $(tail -1 <<<"$counts")"
	else
		fail "$name: srclines differ from perf script's:"
		sed 's/^/      /' <<<"$counts" | head -40
	fi
	if [ "${opts[0]:-}" != "" ]; then
		json_srclines "$f" >"$tmp/$name.js"
		text_srclines "$tmp/$name.peo" >"$tmp/$name.ts"
		same "$name" "--json's frame srclines and the text's" "$tmp/$name.js" "$tmp/$name.ts"
	fi
}

cd "$tmp" || exit 1
check sample-ip -- "$sample" 1
check sample-fp -g -- "$sample" 1
check sample-dwarf --call-graph dwarf -- "$sample" 1
check plt-fp -g -- "$plt" 1
check plt-dwarf --call-graph dwarf -- "$plt" 0.5
check deep-fp -g -- "$W" -r 30 -b 300

# the header's code is at the header's lines (perf 6.1 may say the .c's)
for name in sample-ip sample-fp sample-dwarf; do
	in_spin=$(grep -A1 ' hdr_spin+' "$tmp/$name.peo" | grep -c '^  srcline_sample\.h:[0-9]')
	total=$(grep -c ' hdr_spin+' "$tmp/$name.peo")
	if [ "$total" -gt 0 ] && [ "$in_spin" -eq "$total" ]; then
		pass "$name: each of $total hdr_spin frames is at a line of srcline_sample.h"
	else
		fail "$name: $in_spin of $total hdr_spin frames at a line of srcline_sample.h"
	fi
done
# the inlined function and the line that calls it
if grep -A1 ' hdr_inlined+' "$tmp/sample-dwarf.peo" | grep -q '^  srcline_sample\.h:[0-9]* (inlined)$' &&
	grep -A3 ' hdr_inlined+' "$tmp/sample-dwarf.peo" | grep -A1 ' outer+' | grep -q '^  srcline_sample\.c:[0-9]*$'; then
	pass "sample-dwarf: hdr_inlined (inlined) at the header's line, outer at the .c's"
else
	fail "sample-dwarf: no hdr_inlined frame at the header's line under outer's call"
fi

echo "sym_srcline_compare: $passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
