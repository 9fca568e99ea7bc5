#!/usr/bin/env bash
# record_compare.sh PEO WORKLOAD - files peo record writes, read back by perf
# and by peo:
#   - perf report --stats reads each without a warning and counts what
#     peo script --stats counts;
#   - perf script and peo script print the same samples (pid, tid, time,
#     ip or callchain, event, and cpu/addr where recorded);
#   - each option puts in the file the sample fields and records it promises;
#   - perf resolves a known hot function (workload -b: burn_loop), and it
#     holds most of the burning thread's user-space samples (not "the top
#     symbol": that depends on how fast the machine makes its other work);
#   - a recording stopped by SIGINT or SIGTERM, and one that fills its disk (a small
#     tmpfs), leave files both readers accept.
# Prints PASS/FAIL per check; exits 1 when any fails, 77 when perf is missing.
set -u
. "$(dirname "$0")/compare_common.sh"
compare_begin record_compare.sh "$@"

# warns FILE: perf's stderr in FILE has a warning, other than that the
# recording lost data (a fact about the run, not the file; the lossy check wants it).
warns() {
	grep -vE "^Warning:$|^Processed [0-9]+ (events|samples) and lost .*!$|^Check IO/CPU overload!$" "$1" |
		grep -qiE "warning|error|failed|unsupported|corrupt"
}

# readers_agree NAME FILE FIELDS: perf and peo read FILE alike.
readers_agree() {
	local name=$1 f=$2 fields=$3
	if ! perf report -i "$f" --stats >"$tmp/$name.pstats" 2>"$tmp/$name.perr" || warns "$tmp/$name.perr"; then
		fail "$name: perf report --stats: $(head -3 "$tmp/$name.perr" | tr '\n' ' ')"
		return
	fi
	"$peo" script -i "$f" --stats >"$tmp/$name.ostats" 2>&1
	if cmp -s "$tmp/$name.ostats" "$tmp/$name.pstats"; then
		pass "$name: perf report --stats reads it, as peo script --stats ($(grep -c . "$tmp/$name.pstats") lines)"
	else
		fail "$name: --stats differ (< peo, > perf):"
		diff "$tmp/$name.ostats" "$tmp/$name.pstats" | head -6 | sed 's/^/      /'
	fi
	perf script -i "$f" -F "$fields" >"$tmp/$name.pscript" 2>"$tmp/$name.perr2"
	"$peo" script -i "$f" -F "$fields" >"$tmp/$name.oscript" 2>&1
	if warns "$tmp/$name.perr2"; then
		fail "$name: perf script warns: $(head -3 "$tmp/$name.perr2" | tr '\n' ' ')"
	elif [ -s "$tmp/$name.pscript" ] && cmp -s "$tmp/$name.oscript" "$tmp/$name.pscript"; then
		pass "$name: perf script -F $fields and peo script print the same $(grep -c . "$tmp/$name.pscript") lines"
	else
		fail "$name: perf script -F $fields differs from peo script (< peo, > perf):"
		diff "$tmp/$name.oscript" "$tmp/$name.pscript" | head -6 | sed 's/^/      /'
	fi
}

# record NAME FIELDS PEO-RECORD-ARGS...: record with peo, then compare the readers.
record() {
	local name=$1 fields=$2
	shift 2
	if ! "$peo" record -o "$tmp/$name.data" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"; then
		fail "$name: peo record $* failed: $(tail -2 "$tmp/$name.err" | tr '\n' ' ')"
		return 1
	fi
	grep -q "Captured and wrote" "$tmp/$name.err" ||
		fail "$name: no summary line from peo record"
	readers_agree "$name" "$tmp/$name.data" "$fields"
}

# burns NAME FILE: perf resolves burn_loop in FILE, and it holds more than
# half the user-space samples of the workload's main thread, which spends
# its CPU time there (workload -b; ~99% here).  Only that is the workload's
# to guarantee: its other threads' million getppid calls take as long as
# the machine makes them (the kernel's and syscall()'s samples outnumbered
# burn_loop's on a 2-core CI machine), and a timer interrupt held until the
# return to user space lands on syscall()'s instruction, not in the kernel.
burns() {
	local name=$1 f=$2 burn user
	perf script -i "$f" -F pid,tid,ip,sym >"$tmp/$name.syms" 2>"$tmp/$name.symerr"
	if warns "$tmp/$name.symerr"; then
		fail "$name: perf script -F sym warns: $(head -3 "$tmp/$name.symerr" | tr '\n' ' ')"
		return
	fi
	read -r burn user < <(awk '{ split($1, t, "/") }
		t[1] == t[2] && $2 !~ /^ffff/ { user++; if ($3 ~ /^burn_loop/) burn++ }
		END { print burn + 0, user + 0 }' "$tmp/$name.syms")
	if [ "$burn" -gt 0 ] && [ $((burn * 2)) -gt "$user" ]; then
		pass "$name: perf resolves burn_loop: $burn of the main thread's $user user-space samples"
	else
		fail "$name: burn_loop has $burn of the main thread's $user user-space samples (want more than half)"
		awk '{ print $3 }' "$tmp/$name.syms" | sort | uniq -c | sort -rn | head -4 | sed 's/^/      /'
	fi
}

# has NAME WHAT PATTERN FILE: FILE (a reader's output) matches PATTERN.
has() {
	if grep -qE "$3" "$4"; then pass "$1: $2"; else fail "$1: $2 (no '$3' in its output)"; fi
}

record command pid,tid,time,ip,event -- "$W" -b 200
burns command "$tmp/command.data"
has command "the kernel text MMAP and the command's MMAP2s" "MMAP2 events" "$tmp/command.pstats"
# BUILD_ID: the workload's build id as perf buildid-list reads it, the same as in perf's own file
perf record -q -o "$tmp/perf_command.data" -- "$W" -b 100 >/dev/null 2>&1
wabs=$(readlink -f "$W")
perf buildid-list -i "$tmp/command.data" 2>/dev/null | grep " $wabs\$" >"$tmp/bid.peo"
perf buildid-list -i "$tmp/perf_command.data" 2>/dev/null | grep " $wabs\$" >"$tmp/bid.perf"
if [ -s "$tmp/bid.peo" ] && cmp -s "$tmp/bid.peo" "$tmp/bid.perf"; then
	pass "command: the workload's build id, as perf records it: $(cat "$tmp/bid.peo")"
else
	fail "command: build ids differ: peo '$(cat "$tmp/bid.peo")', perf '$(cat "$tmp/bid.perf")'"
fi

record period pid,tid,time,ip,period,event -e page-faults -c 10 -- "$W" -m 300
has period "one sample per 10 faults (period 10)" " 10 page-faults" "$tmp/period.pscript"
record callchain pid,tid,time,ip,event -g -- "$W" -b 100
has callchain "callchains (perf prints frames under each sample)" $'^\t +[0-9a-f]+' "$tmp/callchain.pscript"
record dwarf pid,tid,time,event --call-graph dwarf,4096 -- "$W" -b 100
record cpu pid,tid,cpu,time,ip,event --sample-cpu -- "$W" -b 100
has cpu "the sample CPU" '\[00[0-9]\]' "$tmp/cpu.pscript"
record addr pid,tid,time,addr,event -d -e page-faults -c 1 -- "$W" -m 100
has addr "data addresses" ' [0-9a-f]{8,} *$' "$tmp/addr.pscript"
record two pid,tid,time,ip,event -e cpu-clock,page-faults -- "$W" -b 50 -m 100
has two "both events" 'page-faults' "$tmp/two.pscript"
# -e given twice adds (as perf); a tracepoint with a modifier still gets its format
if [ -z "$tracefs_why" ]; then
	record repeated pid,tid,time,event -e syscalls:sys_enter_getppid:u -e page-faults -c 1 -- "$W" -n 50 -m 100
	has repeated "the second -e's events" 'page-faults' "$tmp/repeated.pscript"
else
	skip "repeated: a tracepoint's -e: $tracefs_why"
fi
record clock pid,tid,time,ip,event -k monotonic_raw -- "$W" -b 50
perf report -i "$tmp/clock.data" --header-only 2>/dev/null >"$tmp/clock.header"
has clock "CLOCKID and CLOCK_DATA as perf shows them" "clockid frequency: 1000 MHz" "$tmp/clock.header"
has clock "the reference time" "reference time: .* \\(monotonic_raw\\)" "$tmp/clock.header"
record compressed pid,tid,time,ip,event -z -F 20000 -g -- "$W" -b 200
has compressed "COMPRESSED records" "COMPRESSED events" "$tmp/compressed.pstats"
has compressed "perf's summary of a compressed recording" \
	"Captured and wrote [0-9.]+ MB .*, compressed \(original [0-9.]+ MB, ratio is [0-9.]+\)" "$tmp/compressed.err"
# COMPRESSED2, which perf 6.1 cannot read: peo reads the samples back (200 ms of
# CPU at 20 kHz: about 4000, each read or counted lost) and peo check accepts
# the file (test_perfdata checks every byte)
if "$peo" record -o "$tmp/z2.data" -z --compressed2 -F 20000 -g -- "$W" -b 200 >/dev/null 2>"$tmp/z2.err"; then
	"$peo" script -i "$tmp/z2.data" --stats >"$tmp/z2.stats" 2>&1
	read_back=$(awk '/^ *SAMPLE events:/ { print $3; exit }' "$tmp/z2.stats")
	z2_lost=$(awk '/^ *LOST_SAMPLES events:/ { n = $3 } END { print n + 0 }' "$tmp/z2.stats")
	if grep -q "COMPRESSED2 events" "$tmp/z2.stats" && [ "${read_back:-0}" -gt 0 ] &&
		[ $(( ${read_back:-0} + z2_lost )) -gt 1000 ] && "$peo" check "$tmp/z2.data" >/dev/null 2>&1; then
		pass "compressed2: COMPRESSED2 records; peo reads back $read_back samples ($z2_lost lost) and peo check accepts the file"
	else
		fail "compressed2: peo script --stats read '$read_back' samples, $z2_lost lost (want over 1000 in all): $(tr '\n' ' ' <"$tmp/z2.stats" | head -c 300)"
	fi
else
	fail "compressed2: peo record -z --compressed2 failed: $(tail -2 "$tmp/z2.err" | tr '\n' ' ')"
fi
# tracepoints: their payloads decoded by both from the file's TRACING_DATA
if [ -n "$tracefs_why" ]; then
	skip "tracepoints, kernel_strings, lossy: $tracefs_why"
else
	record tracepoints pid,tid,cpu,time,event,trace -e syscalls:sys_enter_getppid,sched:sched_switch \
		-c 1 -- "$W" -n 50 -s 20 -T 2 # the main thread blocks joining its threads: switches
	has tracepoints "sched_switch payloads decoded by perf" "prev_comm=.* ==> next_comm=" "$tmp/tracepoints.pscript"
	# a const char * field: perf finds its kernel string in the printk formats
	# peo record copied into TRACING_DATA
	if [ -e /sys/kernel/tracing/events/rcu/rcu_utilization/id ]; then
		record kernel_strings pid,tid,time,event,trace -e rcu:rcu_utilization -c 1 -- "$W" -s 20 -T 2 &&
			has kernel_strings "rcu_utilization's kernel strings printed by perf" \
				"rcu:rcu_utilization: +(Start|End) context switch" "$tmp/kernel_strings.pscript"
	else
		skip "kernel_strings: this kernel has no rcu:rcu_utilization tracepoint"
	fi
	# Loss: a one-page ring, a sample per getppid call; every call is a sample or a
	# lost sample (LOST_SAMPLES, from each fd's PERF_FORMAT_LOST count, as perf).
	# The kernel's count also takes the event's side-band records it could not
	# write (MMAP, COMM, EXIT: a handful), so the sum may pass the calls by those.
	calls=300000
	record lossy pid,tid,time,event -m 1 -e syscalls:sys_enter_getppid -c 1 -- "$W" -n $calls
	samples=$(awk '/^ *SAMPLE events:/ { print $3; exit }' "$tmp/lossy.pstats")
	lost=$(awk '/^ *LOST_SAMPLES events:/ { n = $3 } END { print n + 0 }' "$tmp/lossy.pstats") # per event: last
	if [ -n "$samples" ] && [ $(( samples + lost )) -ge $calls ] && [ $(( samples + lost )) -le $(( calls + 8 )) ]; then
		pass "lossy: $samples samples + $lost lost = $(( samples + lost )) for the $calls calls, as perf report --stats counts them"
	else
		fail "lossy: $samples samples + $lost lost samples, not the $calls calls (+ at most 8 side-band records)"
	fi
	total=$(awk '/TOTAL events:/ { print $3 }' "$tmp/lossy.pstats")
	chunks=$(awk '/^ *LOST events:/ { print $3 }' "$tmp/lossy.pstats")
	if [ -z "$chunks" ] && [ "$lost" -eq 0 ]; then
		skip "lossy: the rings never overflowed this time: no lost-chunks message to check"
	elif [ -z "$chunks" ]; then # the kernel writes LOST only once room frees, which may never come
		if grep -q "lost [0-9]* chunks!" "$tmp/lossy.err"; then # no LOST record: no chunks to claim
			fail "lossy: no LOST record in the file, yet peo record says: $(grep chunks "$tmp/lossy.err" | head -1)"
		else
			pass "lossy: $lost samples lost, no LOST record: peo record claims no lost chunks"
		fi
	elif grep -q "^Processed $total events and lost $chunks chunks!" "$tmp/lossy.err"; then
		pass "lossy: perf's warning, with perf report's counts: $(grep '^Processed' "$tmp/lossy.err" | head -1)"
	else
		fail "lossy: no 'Processed $total events and lost $chunks chunks!': $(tr '\n' ' ' <"$tmp/lossy.err")"
	fi
fi # tracefs
record switch pid,tid,time,event --switch-events -- "$W" -n 50 -s 20 -T 2
has switch "SWITCH records" "SWITCH events" "$tmp/switch.pstats"
record namespaces pid,tid,time,event --namespaces -- "$W" -b 50
has namespaces "NAMESPACES records" "NAMESPACES events" "$tmp/namespaces.pstats"
record cgroups pid,tid,time,event --all-cgroups -- "$W" -b 50
# Another busy process for -a to see (an idle CPU takes no cpu-clock
# samples), which burns its 100 ms of CPU while the recording runs, however
# slow the machine: the command lets it go and ends when it has (FIFOs).
mkfifo "$tmp/sys.go" "$tmp/sys.done"
(
	"$W" -w -b 100 <"$tmp/sys.go" &
	echo $! >"$tmp/sys.pid"
	wait
	echo >"$tmp/sys.done"
) &
other=$!
record system pid,tid,cpu,time,event -a -- sh -c 'echo >"$1"; read -r _ <"$2"' sh "$tmp/sys.go" "$tmp/sys.done"
exec 7<>"$tmp/sys.go" 6<>"$tmp/sys.done" # a command that never ran leaves it waiting: let it go
echo >&7
wait "$other"
exec 7>&- 6>&-
opid=$(cat "$tmp/sys.pid")
if grep -qE "^ *$opid/$opid " "$tmp/system.pscript"; then
	pass "system: -a sampled another process than the command ($(grep -cE "^ *$opid/" "$tmp/system.pscript") samples of pid $opid)"
else
	fail "system: -a took no sample of the other busy process (pid $opid)"
fi
record cpus pid,tid,cpu,time,event -C 0 -- taskset -c 0 "$W" -b 100
if grep -q '\[001\]' "$tmp/cpus.pscript"; then fail "cpus: -C 0 recorded CPU 1"; else pass "cpus: -C 0: CPU 0 only"; fi

# attach NAME -p|-t: record a process already running (waiting on its stdin),
# its maps synthesized; $victim is its pid (and its main thread's tid).
attach() {
	local name=$1 opt=$2 rec
	rm -f "$tmp/go"
	mkfifo "$tmp/go"
	"$W" -w -T 2 -n 1000000 -b 300 <"$tmp/go" & # two threads start after the attach
	victim=$!
	exec 9>"$tmp/go"
	"$peo" record -o "$tmp/$name.data" "$opt" "$victim" >"$tmp/$name.out" 2>"$tmp/$name.err" &
	rec=$!
	wait_counting "$rec" || fail "$name: peo record $opt $victim opened no event within 30 s"
	echo >&9
	exec 9>&-
	wait "$victim"
	wait "$rec"
	readers_agree "$name" "$tmp/$name.data" pid,tid,time,ip,event
	burns "$name" "$tmp/$name.data" # resolved in an attached process: synthesized MMAP2s
}
attach attach -p
attach thread -t
# -p follows the threads the process starts; -t records its thread only, as perf
if [ "$(awk '{ print $1 }' "$tmp/attach.pscript" | sort -u | wc -l)" -ge 3 ]; then
	pass "attach: -p sampled the process's new threads too"
else
	fail "attach: -p did not sample the threads started after the attach"
fi
if [ -s "$tmp/thread.pscript" ] && ! grep -vE "^ *$victim/$victim +" "$tmp/thread.pscript" | grep -q .; then
	pass "thread: -t $victim: all $(wc -l <"$tmp/thread.pscript") samples are that thread's, none of the threads it started"
else
	fail "thread: -t $victim recorded other threads: $(grep -vE "^ *$victim/$victim " "$tmp/thread.pscript" | head -2 | tr '\n' ' ')"
fi

# Pipe mode (-o -): a stream perf script reads from its stdin as peo script does
# (the tracepoint's period is 1, cpu-clock's 4000 Hz: at -c 1 it took 10 us
# samples, hundreds of thousands, most of them of the kernel writing them)
if [ -n "$tracefs_why" ]; then
	pipe_events=cpu-clock
	skip "pipe: the tracepoint in the stream: $tracefs_why"
else
	pipe_events=syscalls:sys_enter_getppid,cpu-clock
fi
"$peo" record -o - -e "$pipe_events" -- "$W" -n 20 -b 50 2>"$tmp/pipe.err" |
	cat >"$tmp/pipe.data"
perf script -i - -F pid,tid,time,event,trace <"$tmp/pipe.data" >"$tmp/pipe.perf" 2>/dev/null
"$peo" script -i - -F pid,tid,time,event,trace <"$tmp/pipe.data" >"$tmp/pipe.peo" 2>&1
if [ -s "$tmp/pipe.perf" ] && cmp -s "$tmp/pipe.perf" "$tmp/pipe.peo"; then
	pass "pipe: perf script -i - reads the stream as peo script -i - ($(wc -l <"$tmp/pipe.perf") lines)"
else
	fail "pipe: perf script -i - and peo script -i - differ (< perf, > peo):"
	diff "$tmp/pipe.perf" "$tmp/pipe.peo" | head -6 | sed 's/^/      /'
fi
perf report -i - --sort sym --stdio <"$tmp/pipe.data" 2>/dev/null | grep -v '^#' | grep . >"$tmp/pipe.report"
has pipe "perf report -i - resolves burn_loop in the stream" '\[\.\] burn_loop' "$tmp/pipe.report"

# SIGINT or SIGTERM mid-run: the file is finished on the way out
for sig in INT TERM; do
	"$peo" record -o "$tmp/$sig.data" -- "$W" -b 5000 >/dev/null 2>"$tmp/$sig.err" &
	rec=$!
	# stopped once the workload has burnt 100 ms of CPU (400 samples), not
	# after a guessed time: peo record handles signals before it starts it
	for ((i = 0; i < 600; i++)); do
		w=$(child_of "$rec")
		[ -n "$w" ] && [ "$(cpu_ticks "$w")" -ge 10 ] && break
		sleep 0.05
	done
	kill -"$sig" "$rec"
	wait "$rec"
	status=$? # a stop asked for is a finished recording: 0 (perf 6.1 ends with 143)
	[ "$status" -eq 0 ] && pass "SIG$sig: peo record exits 0 with the file written" ||
		fail "SIG$sig: peo record exits $status: $(tail -2 "$tmp/$sig.err" | tr '\n' ' ')"
	readers_agree "SIG$sig" "$tmp/$sig.data" pid,tid,time,ip,event
	"$peo" check "$tmp/$sig.data" >/dev/null 2>&1 && pass "SIG$sig: peo check accepts it" ||
		fail "SIG$sig: peo check refuses it"
done

# A full disk: a 256 KiB tmpfs fills up; the error says so and the file stays readable.
if mkdir "$tmp/small" && mount -t tmpfs -o size=256k none "$tmp/small" 2>/dev/null; then
	"$peo" record -o "$tmp/small/full.data" -F 20000 -- "$W" -b 3000 >/dev/null 2>"$tmp/full.err"
	status=$?
	if [ "$status" -ne 0 ] && grep -q "No space left" "$tmp/full.err"; then
		pass "full disk: peo record fails saying so: $(grep -m1 'No space' "$tmp/full.err" | cut -c1-140)"
	else
		fail "full disk: exit $status, stderr: $(head -2 "$tmp/full.err")"
	fi
	readers_agree full "$tmp/small/full.data" pid,tid,time,ip,event
	umount "$tmp/small"
else
	skip "full disk: cannot mount a tmpfs here (needs root)"
fi

echo "record_compare: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
