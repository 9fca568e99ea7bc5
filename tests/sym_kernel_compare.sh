#!/usr/bin/env bash
# sym_kernel_compare.sh LOOKUP WORKLOAD - the kernel's symbols as peo reads
# kallsyms (symbols/kernel.c, through tests/sym_kernel_lookup) against the
# kernel frames perf script prints, "ADDR sym+0xOFF (dso)", every one of
# them:
#   - a workload that spends its time in the kernel (getppid, page faults,
#     reads of /dev/zero), recorded with -g; perf reads its kallsyms copy,
#     peo /proc/kallsyms;
#   - the whole system for a moment (-a: idle, interrupts, other
#     programs), when perf may record it;
#   - the first recording again with a copy of /proc/kallsyms given to both
#     (perf script --kallsyms) in which the hottest functions got aliases
#     (the last line at an address is the one kept), an r line (dropped)
#     and a d line (kept: it splits the function).
# Prints how many frames were compared and how many matched; exits 1 when
# one differs, 77 when perf cannot record kernel callchains here.
set -u
. "$(dirname "$0")/compare_common.sh"
compare_begin sym_kernel_compare.sh "$@"
lookup=$peo
if ! perf record -q -o "$tmp/probe.data" -e cpu-clock -g -- true >/dev/null 2>&1; then
	echo "SKIP: perf record cannot record cpu-clock with callchains here"
	exit 77
fi
if "$lookup" </dev/null 2>&1 | grep -q .; then
	echo "SKIP: $("$lookup" </dev/null 2>&1 | head -1)"
	exit 77
fi

# frames NAME [PERF-SCRIPT-ARGS...]: perf script's kernel frames of
# $tmp/NAME.data (lines "ADDR sym+0xOFF (dso)") into $tmp/NAME.perf.
# Not those perf found in no map at all ("[unknown] ([unknown])"): a
# kernel-looking address in a callchain's user part (a frame pointer of
# garbage, seen under -a in CI) is looked up in the process's maps, and
# the lookup driver, given addresses alone, cannot tell it from a kernel
# frame (peo script, which follows the context, is compared by
# script_compare).
frames() {
	local name=$1
	shift
	perf script -i "$tmp/$name.data" -F ip,sym,symoff,dso "$@" 2>/dev/null |
		sed -E 's/^[[:space:]]+//' | grep -E '^ffff[0-9a-f]{12} ' |
		grep -v ' \[unknown\] (\[unknown\])$' >"$tmp/$name.perf"
}
# compare NAME WHAT [KALLSYMS]: peo's line for each address of NAME.perf.
compare() {
	local name=$1 what=$2 n matched
	shift 2
	n=$(wc -l <"$tmp/$name.perf")
	if [ "$n" -eq 0 ]; then
		skip "$name: $what: perf script printed no kernel frame"
		return
	fi
	cut -d' ' -f1 "$tmp/$name.perf" | "$lookup" "$@" >"$tmp/$name.peo" 2>"$tmp/$name.err"
	matched=$(paste -d'\n' "$tmp/$name.perf" "$tmp/$name.peo" | paste - - |
		awk -F'\t' '$1 == $2' | wc -l)
	echo "      $name: $matched of $n kernel frames matched ($(cut -d' ' -f2 "$tmp/$name.perf" |
		sed 's/+0x.*//' | sort -u | wc -l) functions)"
	same "$name" "$what" "$tmp/$name.peo" "$tmp/$name.perf"
}

W_ARGS=(-n 300000 -m 20000)
if perf record -q -o "$tmp/work.data" -e cpu-clock -F 4000 -g -- \
	sh -c '"$0" "$@" && dd if=/dev/zero of=/dev/null bs=64k count=20000 2>/dev/null' \
	"$W" "${W_ARGS[@]}" >"$tmp/work.rec" 2>&1; then
	frames work
	compare work "kernel frames of a workload, perf's kallsyms copy and /proc/kallsyms"
else
	fail "work: perf record failed: $(head -2 "$tmp/work.rec" | tr '\n' ' ')"
fi

if perf record -q -o "$tmp/all.data" -a -e cpu-clock -F 1000 -g -- \
	sh -c '"$0" "$@"; sleep 0.5' "$W" -m 5000 >"$tmp/all.rec" 2>&1; then
	frames all
	compare all "kernel frames of the whole system (-a)"
else
	skip "all: perf record -a is refused here: $(head -1 "$tmp/all.rec")"
fi

# The hottest functions of the first recording, with aliases and lines of
# other types, in a copy both read.
if [ -s "$tmp/work.perf" ]; then
	cp /proc/kallsyms "$tmp/kallsyms"
	i=0
	for fn in $(cut -d' ' -f2 "$tmp/work.perf" | sed 's/+0x.*//' | sort | uniq -c | sort -rn |
		awk '$2 != "[unknown]" { print $2 }' | head -8); do
		line=$(grep -m1 -E "^[0-9a-f]+ [tTwW] $fn\$" /proc/kallsyms) || continue
		addr=${line%% *}
		i=$((i + 1))
		case $((i % 4)) in
		0) echo "$addr t z$i" ;;          # local, short: kept as the last line
		1) echo "$addr W __weak_alias$i" ;; # weak, underscores: kept as the last line
		2) printf '%016x r ro_inside%d\n' $((0x$addr + 8)) $i ;; # dropped
		3) printf '%016x d data_inside%d\n' $((0x$addr + 8)) $i ;; # kept
		esac
	done >>"$tmp/kallsyms"
	frames work --kallsyms="$tmp/kallsyms"
	echo "      work: perf named $(grep -cE ' (z|__weak_alias|data_inside)[0-9]+\+0x' "$tmp/work.perf") frames by the lines added"
	compare work "kernel frames with aliases and r/d lines added (--kallsyms)" "$tmp/kallsyms"
fi

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
