#!/usr/bin/env bash
# folded_compare.sh PEO WORKLOAD SYM_SAMPLE_CXX SYM_JIT - peo report
# --folded against the folded stacks FlameGraph's stackcollapse-perf.pl
# makes of perf script's output (its rules in tests/stackcollapse.py;
# Debian ships no FlameGraph), on recordings made here: frame-pointer
# callchains (-g), two events (the first kept), C++ names, a JIT function
# whose name holds what the rules tidy (';', '->', quotes, a parenthesis,
# "(anonymous namespace)"), a tracepoint's samples (weighed by count).
# --call-graph dwarf: against peo script's lines (perf 6.1 names some
# dwarf frames by an alias, "(inlined)"; sym_dwarf_compare.sh holds peo
# script to perf script there).  Without callchains, stackcollapse finds
# no frame (perf script prints the ip on the sample's first line): peo
# gives the ip's function, with the same weights.
# Exits 1 when a line differs, 77 when perf cannot record here.
set -u
. "$(dirname "$0")/compare_common.sh"
cxx=${3:?usage: folded_compare.sh PEO WORKLOAD SYM_SAMPLE_CXX SYM_JIT}
jit=${4:?usage: folded_compare.sh PEO WORKLOAD SYM_SAMPLE_CXX SYM_JIT}
compare_begin folded_compare.sh "$@"
here=$(dirname "$(realpath "$0")")
if ! perf record -q -N -o "$tmp/probe.data" -e cpu-clock -g -- true >/dev/null 2>&1; then
	echo "SKIP: perf record -g cannot record here"
	exit 77
fi

# check NAME FILE: peo's folded stacks against stackcollapse's of perf script's lines
check() {
	"$peo" report -i "$2" --folded >"$tmp/peo.folded" 2>"$tmp/peo.err" ||
		{ fail "$1: peo report --folded failed: $(head -c 300 "$tmp/peo.err")"; return; }
	perf script -i "$2" 2>/dev/null | python3 "$here/stackcollapse.py" >"$tmp/perf.folded"
	if [ ! -s "$tmp/perf.folded" ]; then
		fail "$1: stackcollapse made nothing of perf script's lines"
		return
	fi
	if cmp -s "$tmp/peo.folded" "$tmp/perf.folded"; then
		pass "$1: folded stacks identical ($(wc -l <"$tmp/peo.folded") lines)"
		return
	fi
	# perf 6.1 names some PLT entries "_init+0x50" (past .init's end), where
	# peo names the entry ("operator delete@plt"): lines that differ so alone
	# count apart
	if python3 - "$tmp/peo.folded" "$tmp/perf.folded" <<'PY'
import re, sys
def load(path, plt_as_init):
    out = {}
    for line in open(path, encoding='utf-8', errors='replace'):
        k, w = line.rstrip('\n').rsplit(' ', 1)
        if plt_as_init:
            k = re.sub(r'(?<=;)[^;]+@plt(?=;|$)', '_init', k)
        out[k] = out.get(k, 0) + int(w)
    return out
sys.exit(0 if load(sys.argv[1], True) == load(sys.argv[2], False) else 1)
PY
	then
		pass "$1: folded stacks the same but perf 6.1's PLT entries named _init" \
			"($(diff "$tmp/peo.folded" "$tmp/perf.folded" | grep -c '^<') lines)"
	else
		same "$1" "folded stacks" "$tmp/peo.folded" "$tmp/perf.folded"
	fi
}

perf record -q -F 5000 -g -o "$tmp/fp.data" -- "$W" -r 20 -b 300 >/dev/null 2>&1
check "-g" "$tmp/fp.data"

# the report's filters keep whole stacks: those through burn_loop, the
# same lines as the unfiltered ones that name it
"$peo" report -i "$tmp/fp.data" --folded --symbols burn_loop >"$tmp/f1" 2>/dev/null
"$peo" report -i "$tmp/fp.data" --folded 2>/dev/null | grep -E ';burn_loop(;| )' >"$tmp/f2"
"$peo" report -i "$tmp/fp.data" --folded --comms nosuchcomm >"$tmp/f3" 2>/dev/null
if [ -s "$tmp/f1" ] && cmp -s "$tmp/f1" "$tmp/f2" && [ ! -s "$tmp/f3" ]; then
	pass "--symbols burn_loop: the stacks through it ($(wc -l <"$tmp/f1")); --comms nosuchcomm: none"
else
	fail "filtered folded stacks: $(wc -l <"$tmp/f1") with --symbols, $(wc -l <"$tmp/f2") naming it, $(wc -l <"$tmp/f3") of no comm"
fi

perf record -q -e cpu-clock,task-clock -c 100000 -g -o "$tmp/two.data" -- "$W" -b 200 >/dev/null 2>&1
check "two events, the first kept" "$tmp/two.data"

perf record -q -F 5000 -g -o "$tmp/cxx.data" -- "$cxx" 1 >/dev/null 2>&1
check "C++ names" "$tmp/cxx.data"
# the frame wherever it is: the leaf, or under an interrupt's frames
if grep -qE ';outer::inner::Box<long, 7>::spin[; ]' "$tmp/peo.folded"; then
	pass "C++: a template's method, its arguments cut"
else
	fail "C++: no outer::inner::Box<long, 7>::spin frame: $(head -2 "$tmp/peo.folded")"
fi

odd="ns::(anonymous namespace)::odd;name->arrow<\"q'>(int)"
if perf record -q -F 1000 -g -o "$tmp/jit.data" -- "$jit" "$odd" >/dev/null 2>&1; then
	check "a JIT name tidied" "$tmp/jit.data"
	if grep -q ';ns::(anonymous namespace)::odd:name;arrow<q> ' "$tmp/peo.folded"; then
		pass "JIT: ';' as ':', '->' split, quotes and the arguments dropped"
	else
		fail "JIT: the odd name not as tidied: $(grep -m1 odd "$tmp/peo.folded")"
	fi
	rm -f /tmp/perf-"$(awk '/^ *sym_jit / { print $2; exit }' <(perf script -i "$tmp/jit.data" 2>/dev/null))".map
else
	skip "a JIT name: perf record of sym_jit failed"
fi

if [ -z "$tracefs_why" ] &&
	perf record -q -e syscalls:sys_enter_getppid -g -o "$tmp/tp.data" -- "$W" -n 3000 >/dev/null 2>&1; then
	check "a tracepoint, by count" "$tmp/tp.data"
	total=$(awk '{ s += $NF } END { print s }' "$tmp/peo.folded")
	samples=$("$peo" script -i "$tmp/tp.data" --stats | awk '/SAMPLE events/ { print $3; exit }')
	if [ "$total" = "$samples" ]; then
		pass "tracepoint: the weights add up to the $samples samples"
	else
		fail "tracepoint: weights $total, samples $samples"
	fi
else
	skip "a tracepoint: ${tracefs_why:-perf record -e syscalls:sys_enter_getppid fails here}"
fi

perf record -q -F 2000 --call-graph dwarf -o "$tmp/dwarf.data" -- "$W" -r 10 -b 200 >/dev/null 2>&1
"$peo" report -i "$tmp/dwarf.data" --folded >"$tmp/peo.folded" 2>/dev/null
"$peo" script -i "$tmp/dwarf.data" 2>/dev/null | python3 "$here/stackcollapse.py" >"$tmp/script.folded"
same "--call-graph dwarf" "folded stacks against peo script's lines'" "$tmp/peo.folded" "$tmp/script.folded"
# now_ms is inlined into burn_loop: where a sample's stack passes it
# (how many do depends on where the timer fell), it is a frame of its
# own, after (called from) burn_loop, never before it
inlined=$(grep -c ';burn_loop;now_ms[; ]' "$tmp/peo.folded")
if grep -q ';now_ms;burn_loop[; ]' "$tmp/peo.folded"; then
	fail "dwarf: now_ms before its caller: $(grep -m1 ';now_ms;burn_loop' "$tmp/peo.folded")"
elif [ "$inlined" = 0 ]; then
	skip "dwarf: no sample's stack passed the inlined now_ms this time"
else
	pass "dwarf: the inlined now_ms a frame of its own under burn_loop ($inlined lines)"
fi

perf record -q -e cpu-clock -c 100000 -o "$tmp/flat.data" -- "$W" -b 200 >/dev/null 2>&1
"$peo" report -i "$tmp/flat.data" --folded >"$tmp/peo.folded" 2>/dev/null
samples=$("$peo" script -i "$tmp/flat.data" --stats | awk '/SAMPLE events/ { print $3; exit }')
frames=$(awk '{ sub(/ [0-9]+$/, ""); n = split($0, f, ";"); if (n != 2) bad++ } END { print bad + 0 }' "$tmp/peo.folded")
total=$(awk '{ s += $NF } END { print s }' "$tmp/peo.folded")
if [ "$frames" = 0 ] && [ "$total" = "$((samples * 100000))" ] && grep -q '^workload;burn_loop ' "$tmp/peo.folded"; then
	pass "no callchains: comm;ip's function, $samples samples' periods"
else
	fail "no callchains: $frames lines not comm;function, weights $total for $samples samples"
fi
echo "folded_compare: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
