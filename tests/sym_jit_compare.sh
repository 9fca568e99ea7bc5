#!/usr/bin/env bash
# sym_jit_compare.sh PEO WORKLOAD SYM_JIT - a JIT's frames: tests/sym_jit
# runs code it wrote into anonymous memory and named in /tmp/perf-PID.map;
# perf record -g of it, then peo script prints what perf script prints,
# the JIT's function named from the map file ("jitted_spin_loop+0x3
# (/tmp/perf-PID.map)").
set -u
. "$(dirname "$0")/compare_common.sh"
jit=${3:?usage: sym_jit_compare.sh PEO WORKLOAD SYM_JIT}
compare_begin sym_jit_compare.sh "$@"
peo_without_notes
if ! perf record -q -o "$tmp/jit.data" -e cpu-clock -F 1000 -g -- "$jit" >"$tmp/rec" 2>&1; then
	echo "SKIP: perf record -g of the JIT fails here: $(head -1 "$tmp/rec")"
	exit 77
fi
perf script -i "$tmp/jit.data" >"$tmp/jit.perf" 2>/dev/null
"$peo" script -i "$tmp/jit.data" >"$tmp/jit.peo" 2>&1
named=$(grep -c 'jitted_spin_loop+0x[0-9a-f]* (/tmp/perf-[0-9]*\.map)' "$tmp/jit.perf")
if [ "$named" -gt 0 ]; then
	pass "perf names $named JIT frames from /tmp/perf-PID.map"
else
	fail "perf named no JIT frame: $(grep -m1 -A1 cpu-clock "$tmp/jit.perf" | tail -1)"
fi
same jit "default fields of a JIT's samples" "$tmp/jit.peo" "$tmp/jit.perf"
rm -f /tmp/perf-"$(awk '/^ *sym_jit / { print $2; exit }' "$tmp/jit.perf")".map
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
