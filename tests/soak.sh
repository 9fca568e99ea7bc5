#!/usr/bin/env bash
# soak.sh PEO WORKLOAD [SECONDS] - peo under a long, busy run (make soak):
#   - `peo record -a` for SECONDS (default 180) while a load forks and execs
#     constantly (a shell loop of short commands and the workload's getppid
#     bursts), and `peo stat -I 100 -a` alongside;
#   - the resident memory of both, sampled every 2 s, stays flat: the
#     largest value in the second half is at most the first half's plus
#     1 MiB (nothing grows with time);
#   - the file is whole: peo check accepts every record, perf report --stats
#     reads it, and the losses it holds are the ones peo record reported;
#   - peo stat printed an interval line every 100 ms (within 10%).
# Prints PASS/FAIL per check; exits 1 when any fails.
set -u
peo=${1:?usage: soak.sh PEO WORKLOAD [SECONDS]}
W=${2:?usage: soak.sh PEO WORKLOAD [SECONDS]}
secs=${3:-180}
export LC_ALL=C PERF_CONFIG=/dev/null
tmp=$(mktemp -d) || exit 1
. "$(dirname "$0")/compare_common.sh" # pass and fail
passed=0 failed=0

# The load: forks and execs without pause, and a getppid burst now and then.
load() {
	while :; do
		/bin/true; /bin/echo x >/dev/null; sh -c 'exit 0'
		"$W" -n 2000 >/dev/null
	done
}
load & l1=$!
load & l2=$!
cleanup() { kill "$l1" "$l2" 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT

"$peo" record -a -o "$tmp/soak.data" -- sleep "$secs" >/dev/null 2>"$tmp/record.err" & rec=$!
"$peo" stat -I 100 -a -e task-clock,context-switches -- sleep "$secs" >/dev/null 2>"$tmp/stat.out" & st=$!

# rss PID: its VmRSS in KiB (empty once it has exited)
rss() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status" 2>/dev/null; }
: >"$tmp/rss.rec"; : >"$tmp/rss.stat"
while kill -0 "$rec" 2>/dev/null; do
	r=$(rss "$rec"); s=$(rss "$st")
	[ -n "$r" ] && echo "$r" >>"$tmp/rss.rec"
	[ -n "$s" ] && echo "$s" >>"$tmp/rss.stat"
	sleep 2
done
wait "$rec"; rstatus=$?
wait "$st"; sstatus=$?
kill "$l1" "$l2" 2>/dev/null

# flat NAME FILE: the second half's peak is within 1 MiB of the first half's.
flat() {
	awk -v name="$1" '{ v[NR] = $1 } END {
		h = int(NR / 2); a = 0; b = 0
		for (i = 1; i <= h; i++) if (v[i] > a) a = v[i]
		for (i = h + 1; i <= NR; i++) if (v[i] > b) b = v[i]
		printf "%s: %d samples of RSS, peak %d KiB in the first half, %d KiB in the second\n", name, NR, a, b
		exit !(NR >= 4 && b <= a + 1024)
	}' "$2"
}
line=$(flat "peo record -a" "$tmp/rss.rec") && pass "$line" || fail "$line"
line=$(flat "peo stat -I 100" "$tmp/rss.stat") && pass "$line" || fail "$line"

[ "$rstatus" -eq 0 ] && pass "peo record exited 0 after ${secs}s" ||
	fail "peo record exited $rstatus: $(tail -3 "$tmp/record.err" | tr '\n' ' ')"
if "$peo" check "$tmp/soak.data" >"$tmp/check.out" 2>&1; then
	pass "peo check: $(cat "$tmp/check.out")"
else
	fail "peo check: $(cat "$tmp/check.out")"
fi
if command -v perf >/dev/null; then
	if perf report -i "$tmp/soak.data" --stats >"$tmp/pstats" 2>"$tmp/perr"; then
		pass "perf report --stats reads it: $(awk '/TOTAL events/ { print $3 }' "$tmp/pstats") records"
	else
		fail "perf report --stats: $(head -3 "$tmp/perr" | tr '\n' ' ')"
	fi
fi
# every loss in the file was reported: LOST records as perf's warning says them
"$peo" script -i "$tmp/soak.data" --stats >"$tmp/ostats" 2>&1
status=$?
chunks=$(awk '/^ *LOST events:/ { print $3 }' "$tmp/ostats")
if [ "$status" -ne 0 ] || ! grep -q "TOTAL events" "$tmp/ostats"; then
	fail "peo script --stats (exit $status), no counts to compare the losses with: $(head -3 "$tmp/ostats" | tr '\n' ' ')"
elif [ -z "$chunks" ]; then
	grep -q "lost" "$tmp/record.err" && fail "peo record reported losses the file does not hold" ||
		pass "nothing lost, and peo record reported nothing lost"
elif grep -q "lost $chunks chunks" "$tmp/record.err"; then
	pass "the file's $chunks LOST records were reported: $(grep 'lost .* chunks' "$tmp/record.err")"
else
	fail "the file holds $chunks LOST records; peo record said: $(tr '\n' ' ' <"$tmp/record.err")"
fi
samples=$(awk '/^ *SAMPLE events:/ { print $3; exit }' "$tmp/ostats")
echo "      $(grep -c . "$tmp/rss.rec") RSS samples; $samples samples; $(grep 'Captured' "$tmp/record.err")"

[ "$sstatus" -eq 0 ] && pass "peo stat -I 100 exited 0" || fail "peo stat exited $sstatus"
intervals=$(grep -cE '^ *[0-9]+\.[0-9]+ +[0-9.,]+ +(msec +)?task-clock' "$tmp/stat.out")
want=$(( secs * 10 ))
if [ "$intervals" -ge $(( want * 9 / 10 )) ] && [ "$intervals" -le $(( want * 11 / 10 )) ]; then
	pass "peo stat -I 100 printed $intervals task-clock intervals for ${secs}s"
else
	fail "peo stat -I 100 printed $intervals task-clock intervals, not about $want"
fi

echo "soak: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
