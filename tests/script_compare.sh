#!/usr/bin/env bash
# script_compare.sh PEO WORKLOAD [DIR_SYNTH [ORDER_SYNTH]] - peo script
# against perf script and perf report --stats, on files perf record really
# writes here, and on made-up ones (tests/dir_synth, tests/order_synth).
#
# For each recording below (perf record with one set of options, on the
# bundled workload; --threads writes a directory), two checks:
#   - `peo script -F FIELDS` prints exactly what `perf script -F FIELDS`
#     prints (the sample sequence: pid, tid, time, cpu, ip or callchain,
#     period, event, addr, as each recording carries them);
#   - the same with --show-task-events --show-mmap-events (COMM, FORK, EXIT,
#     MMAP and MMAP2 lines among the samples);
#   - `peo script --stats` prints exactly what `perf report --stats` prints.
# Pipe mode is read from standard input.  Prints PASS/FAIL per check; exits
# 1 when any fails, 77 when perf cannot record here.
set -u
. "$(dirname "$0")/compare_common.sh"
tests=$(cd "$(dirname "$0")" && pwd) # the Python helpers beside this script
compare_begin script_compare.sh "$@"
peo_without_notes
if ! perf record -q -o "$tmp/probe.data" -e cpu-clock -- true >/dev/null 2>&1; then
	echo "SKIP: perf record cannot record cpu-clock here"
	exit 77
fi

# check NAME FIELDS RECORD-ARGS... -- COMMAND...: record, then compare.
check() {
	local name=$1 fields=$2 f="$tmp/$1.data"
	shift 2
	if ! perf record -q -o "$f" "$@" >"$tmp/$name.rec" 2>&1; then
		fail "$name: perf record $* failed: $(head -2 "$tmp/$name.rec" | tr '\n' ' ')"
		return
	fi
	"$peo" script -i "$f" -F "$fields" >"$tmp/$name.peo" 2>"$tmp/$name.peo.err" ||
		fail "$name: peo script failed: $(head -2 "$tmp/$name.peo.err")"
	perf script -i "$f" -F "$fields" >"$tmp/$name.perf" 2>/dev/null
	same "$name" "-F $fields" "$tmp/$name.peo" "$tmp/$name.perf"
	# formatted on the reading thread (as on one CPU), or by three workers
	# taking turns (whatever the CPUs): the same lines
	for w in 0 3; do
		"$peo" script -i "$f" -F "$fields" --workers $w >"$tmp/$name.w$w" 2>&1
		same "$name" "-F $fields --workers $w" "$tmp/$name.w$w" "$tmp/$name.perf"
	done
	# the task and mmap records too, among the samples
	"$peo" script -i "$f" -F comm,pid,tid,time,event --show-task-events --show-mmap-events \
		--workers 3 >"$tmp/$name.side.peo" 2>&1
	perf script -i "$f" -F comm,pid,tid,time,event --show-task-events --show-mmap-events \
		>"$tmp/$name.side.perf" 2>/dev/null
	same "$name" "--show-task-events --show-mmap-events" "$tmp/$name.side.peo" "$tmp/$name.side.perf"
	"$peo" script -i "$f" --stats >"$tmp/$name.pstats" 2>&1
	perf report -i "$f" --stats >"$tmp/$name.fstats" 2>/dev/null
	same "$name" "--stats" "$tmp/$name.pstats" "$tmp/$name.fstats"
}

tp=syscalls:sys_enter_getppid
perf record -q -o "$tmp/tp.data" -e "$tp" -- true >/dev/null 2>&1 || tp=""

check freq pid,tid,time,ip,period,event -e cpu-clock -F 10000 -- "$W" -s 50
check period comm,pid,tid,time,ip,period,event -e cpu-clock -c 100000 -- "$W" -s 30
check callchain tid,time,ip -g -e cpu-clock -c 200000 -- "$W" -s 20
# defaults NAME [-F CHANGES]: peo script's default fields (or those with
# -F's +field/-field changes) print perf script's lines for them, each
# address's symbol and dso included.
defaults() {
	local name=$1
	shift
	"$peo" script --no-demangle -i "$tmp/$name.data" "$@" >"$tmp/$name.dpeo" 2>&1
	perf script --no-demangle -i "$tmp/$name.data" "$@" >"$tmp/$name.dperf" 2>/dev/null
	same "$name" "default fields${*:+ $*}" "$tmp/$name.dpeo" "$tmp/$name.dperf"
}
defaults callchain # comm unpadded before a callchain
# the task and mmap lines: their own thread's comm, unpadded as the samples'
defaults callchain --show-task-events --show-mmap-events
# --json: each SAMPLE's pid, tid, time, ip, period and event are what perf
# script printed for them (check freq's -F), in the same order, with no
# worker or three
for w in 0 3; do
	"$peo" script -i "$tmp/freq.data" --json --workers $w >"$tmp/freq.w$w.json" 2>&1
	if out=$(python3 - "$tmp/freq.w$w.json" "$tmp/freq.perf" <<'PY'
import json, sys
mine = []
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["type"] == "SAMPLE":
        t = r["time"]
        mine.append([f'{r["pid"]}/{r["tid"]}', f'{t // 10**9}.{t % 10**9 // 1000:06d}:',
                     str(r["period"]), r["event"] + ":", r["ip"][2:]])
theirs = [l.split() for l in open(sys.argv[2]) if l.strip()]
if mine != theirs or not mine:
    bad = next((i for i, (a, b) in enumerate(zip(mine, theirs)) if a != b), min(len(mine), len(theirs)))
    print(f"{len(mine)} JSON samples, {len(theirs)} perf lines; first difference at {bad}: "
          f"{mine[bad] if bad < len(mine) else None} vs {theirs[bad] if bad < len(theirs) else None}")
    sys.exit(1)
print(len(mine))
PY
	); then
		pass "freq: --json --workers $w: $out samples' pid, tid, time, ip, period, event as perf's"
	else
		fail "freq: --json --workers $w: $out"
	fi
done
# a --workers that is no count is refused, naming the option and the range
if "$peo" script -i "$tmp/freq.data" --workers 65 >/dev/null 2>"$tmp/workers.err"; then
	fail "--workers 65 was accepted"
elif [ $? -eq 2 ] && grep -q "^peo script: --workers '65': give a whole number from 0 to 64" "$tmp/workers.err"; then
	pass "--workers 65 refused: $(head -1 "$tmp/workers.err")"
else
	fail "--workers 65: $(head -2 "$tmp/workers.err")"
fi
# --no-ordered: file order holds the same samples.  Not their frames: a
# user frame prints as its offset in the file mapped there, and in file
# order a sample from one CPU's ring can come before the MMAP2 from
# another's that maps it (seen under load), as it does for any reader
# that does not sort.
"$peo" script -i "$tmp/callchain.data" --no-ordered -F tid,time,event | sort >"$tmp/unordered.peo"
perf script -i "$tmp/callchain.data" -F tid,time,event 2>/dev/null | sort >"$tmp/sorted.perf"
same callchain "--no-ordered (sorted lines)" "$tmp/unordered.peo" "$tmp/sorted.perf"
check dwarf pid,tid,time,period,event --call-graph dwarf,4096 -e cpu-clock -c 500000 -- "$W" -s 20
check system-wide cpu,pid,tid,time,period,event,ip -a -e cpu-clock -c 500000 -- sleep 0.1
check sample-cpu cpu,pid,tid,time,ip --sample-cpu -e cpu-clock -c 100000 -- "$W" -s 20
check two-events pid,tid,time,event,period,ip -e cpu-clock,page-faults -c 1000 -- "$W" -s 10 -m 200
check data-addr pid,tid,time,addr,event -d -e page-faults -c 1 -- "$W" -m 300
check switch pid,tid,time,event --switch-events -e cpu-clock -c 100000 -- "$W" -s 20
check namespaces pid,tid,time,event --namespaces -e cpu-clock -c 100000 -- "$W" -s 20
check cgroups pid,tid,time,event --all-cgroups -e cpu-clock -c 100000 -- "$W" -s 20
check timestamps pid,tid,time,event -T -e page-faults -c 10 -- "$W" -m 100
check compressed pid,tid,time,ip,period,event -z -e cpu-clock -c 100000 -- "$W" -s 30
check threads pid,tid,time,ip,event --threads -e cpu-clock -c 100000 -- "$W" -s 20 -T 2
check threads-compressed pid,tid,time,ip,period,event -z --threads -e cpu-clock -c 100000 -- \
	"$W" -s 20 -T 2
# A --threads directory of made-up samples whose times tie (dir_synth):
# perf reads the data files as the directory lists them (not by data.N's
# numbers), 2 MiB of the file from each in turn.  With sample_id_all perf
# sorts by time, ties in that reading order; without, it prints in that
# reading order (a sample older than the ties, read in a later turn, comes
# after them).  Compressed, a turn counts the COMPRESSED records' bytes.
# A data file out of time order is sorted whole (perf reads all first).
synth=${3:-}
if [ -x "$synth" ]; then
	# NAME DIR_SYNTH-FLAGS FILL: three files whose samples tie; then the
	# first listed (rewritten in place: its place in the listing stays)
	# starts with FILL's records
	ties() {
		local d=$tmp/$1 flags=$2 fill=$3 rc listed
		mkdir "$d"
		"$synth" $flags "$d" none data.2 data.0 data.1
		rc=$?
		if [ $rc = 3 ]; then
			skip "ties ($1): dir_synth was built without zstd"
			return
		fi
		[ $rc = 0 ] || { fail "dir_synth could not write $d"; return; }
		listed=$(ls -f "$d" | grep '^data\.' | paste -sd' ')
		"$synth" $flags "$d" "$fill" "${listed%% *}" || { fail "dir_synth could not write $d"; return; }
		"$peo" script -i "$d" -F ip,time >"$d.peo" 2>&1
		perf script -i "$d" -F ip,time >"$d.perf" 2>/dev/null
		if [ "$(grep -c ' 0\.005000: ' "$d.perf")" != 3 ]; then
			fail "ties ($1): perf script did not print the three ties: $(tail -2 "$d.perf")"
			return
		fi
		same "ties ($1, listed: $listed)" "-F ip,time" "$d.peo" "$d.perf"
	}
	for sid in "" -s; do
		ties "tie-none$sid" "$sid" none
		ties "tie-turn$sid" "$sid" turn
		ties "tie-turn-z$sid" "-z $sid" turn
		ties "tie-inflated-z$sid" "-z $sid" inflated
		ties "tie-unsorted$sid" "$sid" unsorted
		ties "tie-unsorted-z$sid" "-z $sid" unsorted
	done
	# --ordered and --no-ordered override perf's choice: each directory
	# printed as perf prints its twin of the other sample_id_all
	for d in tie-turn tie-turn-z; do
		[ -f "$tmp/$d.perf" ] && [ -f "$tmp/$d-s.perf" ] || continue
		"$peo" script -i "$tmp/$d" --ordered -F ip,time >"$tmp/$d.ordered" 2>&1
		same "$d --ordered" "as perf sorts its sample_id_all twin" "$tmp/$d.ordered" "$tmp/$d-s.perf"
		"$peo" script -i "$tmp/$d-s" --no-ordered -F ip,time >"$tmp/$d-s.unordered" 2>&1
		same "$d-s --no-ordered" "as perf reads its twin without sample_id_all" \
			"$tmp/$d-s.unordered" "$tmp/$d.perf"
	done
else
	skip "ties in a --threads directory: no dir_synth given (argument 3)"
fi
# A file whose samples go back in time, under a round's flush now and then
# (order_synth, kinds 0-2: rings a little apart, some far back, rings that
# drift apart): perf delivers such a sample at the next round's flush,
# sorted among that round's; peo script prints the same order.
order_synth=${4:-}
if [ -x "$order_synth" ]; then
	for kind in 0 1 2; do
		for seed in 1 2 3; do
			f=$tmp/order-$kind-$seed.data
			"$order_synth" "$f" $kind $seed || { fail "order_synth could not write $f"; continue; }
			"$peo" script -i "$f" -F ip,time >"$f.peo" 2>&1
			perf script -i "$f" -F ip,time >"$f.perf" 2>/dev/null
			same "order (kind $kind, seed $seed)" "-F ip,time" "$f.peo" "$f.perf"
		done
	done
	# peo check names where drifting rings first break a round's promise
	if out=$("$peo" check "$tmp/order-2-1.data" 2>&1); then
		fail "check order-2-1.data: OK, though its rings drift apart: $out"
	elif echo "$out" | grep -q "BAD: SAMPLE record at offset [0-9]* has time [0-9]*, older than"; then
		pass "check order-2-1.data: $out"
	else
		fail "check order-2-1.data: $out"
	fi
else
	skip "samples under a round's flush: no order_synth given (argument 4)"
fi
defaults system-wide # cpu shows when sampled
defaults system-wide --show-task-events --show-mmap-events
defaults two-events
for change in -period,+pid -ip +period; do
	defaults two-events -F "$change"
done
# a field asked for that the samples do not carry is refused, as perf refuses it
for refused in "+cpu:cpu" "comm,addr:addr"; do
	if "$peo" script -i "$tmp/two-events.data" -F "${refused%%:*}" >"$tmp/refused.out" 2>&1; then
		fail "-F ${refused%%:*} on samples without ${refused#*:} was printed"
	elif grep -q "^peo script: -F ${refused#*:}: the samples of event '[^']*' have no ${refused#*:} (" \
		"$tmp/refused.out" && [ "$(grep -c . "$tmp/refused.out")" = 1 ]; then
		pass "-F ${refused%%:*} refused: $(cat "$tmp/refused.out")"
	else
		fail "-F ${refused%%:*}: $(head -2 "$tmp/refused.out")"
	fi
done
if "$peo" script -i "$tmp/two-events.data" -F pid,bogus >"$tmp/bogus.out" 2>&1 ||
	! grep -q "^peo script: -F 'pid,bogus': unknown field 'bogus'; the fields are comm," "$tmp/bogus.out"; then
	fail "-F pid,bogus: $(head -2 "$tmp/bogus.out")"
else
	pass "-F pid,bogus refused: $(cat "$tmp/bogus.out")"
fi
if "$peo" script -i "$tmp/two-events.data" -F +pid,period >"$tmp/mixed.out" 2>&1 ||
	! grep -q "mixes a plain field with +field and -field ones" "$tmp/mixed.out"; then
	fail "-F +pid,period (perf: cannot mix): $(head -2 "$tmp/mixed.out")"
else
	pass "-F +pid,period refused: $(cat "$tmp/mixed.out")"
fi
if [ -n "$tp" ]; then
	check tracepoint pid,tid,time,event,period -e "$tp" -c 1 -- "$W" -n 500
	# -F trace: the payloads printed by their print fmt, as perf prints them
	check trace pid,tid,time,event,trace -c 1 -e "$tp" -e syscalls:sys_exit_getppid \
		-e sched:sched_process_exec -e sched:sched_process_fork -e sched:sched_wakeup_new \
		-- "$W" -n 20 -T 2
	# a tracepoint's default fields: its payload, no period or ip; its
	# callchain when it has one (and -F is not given), among cpu-clock's lines
	defaults tracepoint
	defaults trace
	check tp_and_sw pid,tid,time,event -g -e cpu-clock -e "$tp" -- "$W" -n 20 -s 10
	defaults tp_and_sw
	defaults tp_and_sw -F -period,+pid
	defaults tp_and_sw --show-task-events --show-mmap-events
	# an event with a modifier (":u"): its format found by the name without it
	check trace_user pid,tid,time,event,trace -c 1 -e syscalls:sys_exit_getppid:u -- "$W" -n 20
	# print fmts with C expressions, __print_flags/__print_symbolic tables
	# and %pS/%ps symbols, system-wide: sched_switch's prev_state, softirq's
	# vector name, kmalloc's gfp flags and call site, hrtimer's function
	helpers="sched:sched_switch irq:softirq_entry kmem:kmalloc timer:hrtimer_start"
	helper_args=()
	for e in $helpers; do
		[ -e "/sys/kernel/tracing/events/${e%%:*}/${e#*:}/format" ] && helper_args+=(-e "$e")
	done
	if [ ${#helper_args[@]} -gt 0 ]; then
		check trace_helpers pid,tid,cpu,time,event,trace -a "${helper_args[@]}" -- "$W" -s 30 -T 2
		defaults trace_helpers
	else
		skip "trace_helpers: none of $helpers in /sys/kernel/tracing here"
	fi
	# network addresses (%pI4, %pI6c, %pISpc), NULL pointers, syscall
	# argument arrays, kernel strings by address (the printk formats):
	# TCP over loopback in IPv4 and IPv6
	net_args=()
	for e in tcp:tcp_probe tcp:tcp_destroy_sock sock:inet_sock_set_state fib:fib_table_lookup \
		fib6:fib6_table_lookup kmem:kfree raw_syscalls:sys_enter rcu:rcu_utilization; do
		[ -e "/sys/kernel/tracing/events/${e%%:*}/${e#*:}/format" ] && net_args+=(-e "$e")
	done
	if [ ${#net_args[@]} -gt 0 ]; then
		check net pid,tid,time,event,trace "${net_args[@]}" -- python3 -c '
import socket
for fam, host in ((socket.AF_INET, "127.0.0.1"), (socket.AF_INET6, "::1")):
    s = socket.socket(fam); s.bind((host, 0)); s.listen()
    c = socket.create_connection(s.getsockname()[:2]); a, _ = s.accept()
    c.sendall(b"x" * 100000); a.recv(10); c.close(); a.close(); s.close()'
	else
		skip "net: none of the network tracepoints in /sys/kernel/tracing here"
	fi
	# --json's "fields": each tracepoint field as perf decodes it for its
	# scripts (perf script -s), on every file above with tracepoints
	if perf script -i "$tmp/trace.data" -s "$tests/tp_fields_perf.py" >"$tmp/probe.py" 2>&1 &&
		grep -q '^{' "$tmp/probe.py"; then
		for name in trace trace_helpers net; do
			[ -f "$tmp/$name.data" ] || continue
			"$peo" script -i "$tmp/$name.data" --json >"$tmp/$name.json" 2>&1
			perf script -i "$tmp/$name.data" -s "$tests/tp_fields_perf.py" >"$tmp/$name.fields" 2>/dev/null
			if out=$(python3 "$tests/tp_fields_compare.py" "$tmp/$name.json" "$tmp/$name.fields" 2>&1); then
				pass "$name: --json: $out as perf decodes them"
			else
				fail "$name: --json fields: $out"
			fi
		done
	else
		skip "--json fields: this perf cannot run a Python script (perf script -s): $(head -c 200 "$tmp/probe.py")"
	fi
	# the formats come from the file's TRACING_DATA: the same with tracefs hidden
	if command -v unshare >/dev/null && unshare -m true 2>/dev/null; then
		unshare -m sh -c 'for d in /sys/kernel/tracing /sys/kernel/debug; do
				[ -d "$d" ] && mount -t tmpfs none "$d"; done
			exec "$0" script -i "$1" -F pid,tid,time,event,trace' \
			"$peo" "$tmp/trace.data" >"$tmp/trace.hidden" 2>&1
		same trace "-F trace with tracefs hidden (TRACING_DATA's formats)" "$tmp/trace.hidden" "$tmp/trace.perf"
	else
		skip "trace: cannot make a mount namespace to hide tracefs (needs root and unshare)"
	fi
else
	skip "tracepoint: perf cannot record $tp here"
fi

# --json leaves no field out: a recording with registers, page sizes, data
# addresses, cgroups, namespaces and switches, each SAMPLE's fields against
# what perf hands its Python scripts, the rest against perf script's lines.
# (--user-regs/--intr-regs of ax,bx name x86 registers: elsewhere skipped.)
if [ "$(uname -m)" != x86_64 ]; then
	skip "rich: --json records: its registers (ax, bx) are x86's"
elif check rich pid,tid,time,event -e cpu-clock/period=100000/ -e page-faults/period=5/ \
	--switch-events --namespaces --all-cgroups -d --phys-data --data-page-size --code-page-size \
	--user-regs=ax,bx --intr-regs=ax --sample-cpu -- "$W" -s 20 -m 50 2>/dev/null &&
	[ -f "$tmp/rich.data" ]; then
	"$peo" script -i "$tmp/rich.data" --json >"$tmp/rich.json" 2>&1
	if perf script -i "$tmp/rich.data" -s "$tests/samples_perf.py" >"$tmp/rich.samples" 2>"$tmp/rich.py.err"; then
		perf script -i "$tmp/rich.data" -F pid,tid,time,event,iregs,uregs,phys_addr,data_page_size,code_page_size \
			--show-switch-events --show-namespace-events --show-cgroup-events >"$tmp/rich.text" 2>/dev/null
		if out=$(python3 "$tests/json_records_compare.py" "$tmp/rich.json" "$tmp/rich.samples" \
			"$tmp/rich.text" 2>&1); then
			pass "rich: --json records as perf reads them: $out"
		else
			fail "rich: --json: $out"
		fi
	else
		skip "rich: --json: this perf cannot run a Python script (perf script -s): $(head -c 200 "$tmp/rich.py.err")"
	fi
fi

# --json's callchains: the kernel's ips with their context markers; the
# frames without the markers as perf hands them to its Python scripts
if [ -f "$tmp/callchain.data" ] &&
	perf script -i "$tmp/callchain.data" -s "$tests/callchain_perf.py" >"$tmp/callchain.frames" 2>/dev/null; then
	"$peo" script -i "$tmp/callchain.data" --json >"$tmp/callchain.json" 2>&1
	if out=$(python3 - "$tmp/callchain.json" "$tmp/callchain.frames" <<'PY'
import json, sys
ours = [r for r in map(json.loads, open(sys.argv[1])) if r["type"] == "SAMPLE"]
perf = [json.loads(l) for l in open(sys.argv[2]) if l.startswith("[")]
if len(ours) != len(perf):
    sys.exit(f"{len(ours)} samples, perf {len(perf)}")
markers = 0
for i, (r, frames) in enumerate(zip(ours, perf)):
    ips = [int(x, 16) for x in r["callchain"]]
    kept = [x for x in ips if x < 0xfffffffffffff001]  # PERF_CONTEXT_MAX is -4095
    markers += len(ips) - len(kept)
    if kept != frames:
        sys.exit(f"sample {i}: frames {[hex(x) for x in kept]}, perf {[hex(x) for x in frames]}")
if not markers:
    sys.exit("no context marker in any callchain")
print(f"{len(ours)} samples' frames, {markers} context markers")
PY
	); then
		pass "callchain: --json: $out"
	else
		fail "callchain: --json: $out"
	fi
else
	skip "callchain: --json: no callchain.data, or this perf cannot run a Python script"
fi

# Pipe mode: the stream saved by perf record -o -, read from standard input.
if perf record -q -o - -e cpu-clock -c 100000 -- "$W" -s 20 >"$tmp/pipe.data" 2>/dev/null; then
	"$peo" script -i - -F pid,tid,time,ip,event <"$tmp/pipe.data" >"$tmp/pipe.peo" 2>&1
	perf script -i - -F pid,tid,time,ip,event <"$tmp/pipe.data" >"$tmp/pipe.perf" 2>/dev/null
	same pipe "-i - -F pid,tid,time,ip,event" "$tmp/pipe.peo" "$tmp/pipe.perf"
	# --json's ATTR records (the stream's events): each field perf evlist -v
	# names with a number, the same; and no non-zero field perf leaves out
	"$peo" script -i - --json <"$tmp/pipe.data" >"$tmp/pipe.json" 2>&1
	perf evlist -v -i "$tmp/pipe.data" >"$tmp/pipe.evlist" 2>/dev/null
	if out=$(python3 - "$tmp/pipe.json" "$tmp/pipe.evlist" <<'PY'
import json, re, sys
attrs = [r["attr"] for r in map(json.loads, open(sys.argv[1])) if r["type"] == "ATTR"]
lines = [l for l in open(sys.argv[2]) if ": type: " in l]
if not attrs or len(attrs) != len(lines):
    sys.exit(f"{len(attrs)} ATTR records, perf evlist {len(lines)} events")
n = 0
for a, line in zip(attrs, lines):
    named = set()
    for label, value in re.findall(r"(\{[^}]*\}|\w+): ([^,]+)", line.split(": ", 1)[1]):
        keys = [k.strip() for k in label.strip("{} ").split(",")]
        key = next((k for k in keys if k in a), None)
        if key is None:
            sys.exit(f"perf's {label} is not in {sorted(a)}")
        named.add(key)
        if re.fullmatch(r"-?\d+|0x[0-9a-f]+", value.strip()):
            got = a[key] if isinstance(a[key], int) else int(a[key], 16)
            if got != int(value, 0):
                sys.exit(f"{key} {a[key]}, perf {value}")
            n += 1
    extra = [k for k, v in a.items() if k not in named and v not in (0, "0x0")]
    if extra:
        sys.exit(f"non-zero fields perf evlist does not name: {extra}")
print(f"{len(attrs)} ATTR records, {n} numeric fields")
PY
	); then
		pass "pipe: --json: $out as perf evlist -v"
	else
		fail "pipe: --json ATTR: $out"
	fi
else
	fail "pipe: perf record -o - failed"
fi
# Pipe mode's TRACING_DATA record: -F trace from the stream's own formats, tracefs hidden.
if [ -n "$tp" ] && command -v unshare >/dev/null && unshare -m true 2>/dev/null &&
	perf record -q -o - -c 1 -e "$tp" -e sched:sched_process_exec -- "$W" -n 5 >"$tmp/tpipe.data" 2>/dev/null; then
	unshare -m sh -c 'for d in /sys/kernel/tracing /sys/kernel/debug; do
			[ -d "$d" ] && mount -t tmpfs none "$d"; done
		exec "$0" script -i - -F pid,tid,time,event,trace' "$peo" <"$tmp/tpipe.data" >"$tmp/tpipe.peo" 2>&1
	perf script -i - -F pid,tid,time,event,trace <"$tmp/tpipe.data" >"$tmp/tpipe.perf" 2>/dev/null
	same pipe "-F trace from the stream's TRACING_DATA, tracefs hidden" "$tmp/tpipe.peo" "$tmp/tpipe.perf"
fi

# perf stat record: --stats as perf's, and every STAT, STAT_ROUND, STAT_CONFIG,
# THREAD_MAP, CPU_MAP and EVENT_UPDATE field as perf report -D prints it.
if perf stat record -o "$tmp/stat.data" -e task-clock,page-faults -- "$W" -m 100 >/dev/null 2>&1; then
	"$peo" script -i "$tmp/stat.data" --stats >"$tmp/stat.pstats" 2>&1
	perf report -i "$tmp/stat.data" --stats >"$tmp/stat.fstats" 2>/dev/null
	same stat-record "--stats" "$tmp/stat.pstats" "$tmp/stat.fstats"
	"$peo" script -i "$tmp/stat.data" --json >"$tmp/stat.json" 2>&1
	perf report -i "$tmp/stat.data" -D >"$tmp/stat.dump" 2>/dev/null
	if out=$(python3 - "$tmp/stat.json" "$tmp/stat.dump" <<'PY'
import json, re, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
dump = open(sys.argv[2]).read()
want = []   # what perf -D says, in file order
for m in re.finditer(r"PERF_RECORD_(STAT_CONFIG|STAT_ROUND|STAT|THREAD_MAP|CPU_MAP|EVENT_UPDATE)(.*?)(?=\n\n|\n0x)", dump, re.S):
    kind, body = m.group(1), m.group(2)
    if kind == "STAT":
        g = re.search(r"id (\d+), cpu (-?\d+), thread (\d+)\s+\.\.\. value (\d+), enabled (\d+), running (\d+)", body)
        want.append(("STAT", tuple(int(x) for x in g.groups())))
    elif kind == "STAT_ROUND":
        g = re.search(r"time (\d+), type (\w+)", body)
        want.append(("STAT_ROUND", (int(g.group(1)), g.group(2))))
    elif kind == "STAT_CONFIG":
        want.append(("STAT_CONFIG", tuple(int(x) for x in re.findall(r"(?:aggr_mode|scale|interval)\s+(\d+)", body))))
    elif kind == "THREAD_MAP":
        want.append(("THREAD_MAP", tuple(int(x) for x in re.findall(r"thread: (\d+)", body))))
    elif kind == "CPU_MAP":
        want.append(("CPU_MAP", tuple(int(x) for x in re.findall(r"(-?\d+)", body.split("\n")[0]))))
    else:
        u = re.search(r"unit:\s+(\S+)", body); s = re.search(r"scale: ([\d.e+-]+)", body)
        want.append(("EVENT_UPDATE", (int(re.search(r"id:\s+(\d+)", body).group(1)), u.group(1) if u else float(s.group(1)))))
got = []
for r in recs:
    t = r["type"]
    if t == "STAT":
        got.append(("STAT", (r["id"], r["cpu"], r["thread"], r["value"], r["enabled"], r["running"])))
    elif t == "STAT_ROUND":
        got.append(("STAT_ROUND", (r["time"], r["kind"])))
    elif t == "STAT_CONFIG":
        got.append(("STAT_CONFIG", (r["aggr_mode"], r["scale"], r["interval"])))
    elif t == "THREAD_MAP":
        got.append(("THREAD_MAP", tuple(x["pid"] for x in r["threads"])))
    elif t == "CPU_MAP":
        got.append(("CPU_MAP", tuple(r["cpus"])))
    elif t == "EVENT_UPDATE":
        got.append(("EVENT_UPDATE", (r["id"], r["unit"] if "unit" in r else r["scale"])))
if not want or got != want:
    print("peo:", got, "\nperf:", want)
    sys.exit(1)
print(len(got), "records")
PY
	); then
		pass "stat-record: every field as perf report -D prints it ($out)"
	else
		fail "stat-record: fields differ from perf report -D: $out"
	fi
else
	skip "stat-record: perf stat record failed here"
fi

# --header: the lines perf report --header-only -I prints for the features
# (all but the memory nodes' bitmaps), on a compressed recording of a
# group; and the build ids as perf buildid-list's.
if perf record -q -z -o "$tmp/header.data" -e '{cpu-clock,page-faults}' -c 100000 -- "$W" -s 10 >/dev/null 2>&1; then
	"$peo" script -i "$tmp/header.data" --header 2>&1 | grep '^# ' | grep -v '^# build id' >"$tmp/header.peo"
	perf report -i "$tmp/header.data" --header-only -I 2>/dev/null | sed -n '/^# hostname/,/^# missing/p' |
		grep -v '^# missing\|^#    [0-9]' >"$tmp/header.perf"
	same header "--header features (as perf report --header-only -I)" "$tmp/header.peo" "$tmp/header.perf"
else
	fail "header: perf record -z of a group failed"
fi
"$peo" script -i "$tmp/period.data" --header 2>&1 | sed -n 's/^# build id : //p' | sort >"$tmp/bid.peo"
perf buildid-list -i "$tmp/period.data" 2>/dev/null | sort >"$tmp/bid.perf"
if [ -s "$tmp/bid.perf" ]; then
	same period "build ids (as perf buildid-list)" "$tmp/bid.peo" "$tmp/bid.perf"
fi

# peo check: every file above is OK; a record whose size is under its header is BAD at its offset.
for f in "$tmp"/*.data; do
	# order_synth's break rounds' promise on purpose (checked where written)
	case $f in */probe.data | */tp.data | */order-*.data) continue ;; esac
	if out=$("$peo" check "$f" 2>&1); then
		pass "check $(basename "$f"): $out"
	else
		fail "check $(basename "$f"): $out"
	fi
done
if python3 - "$tmp/period.data" "$tmp/bad.data" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
off = struct.unpack_from('<Q', d, 40)[0]   # the data section's offset
struct.pack_into('<H', d, off + 6, 4)     # its first record: size 4
open(sys.argv[2], 'wb').write(d)
PY
then
	off=$(python3 -c "import struct;print(struct.unpack_from('<Q',open('$tmp/period.data','rb').read(),40)[0])")
	out=$("$peo" check "$tmp/bad.data" 2>&1)
	status=$?
	if [ $status -eq 1 ] && [[ $out == *"offset $off"* ]]; then
		pass "check finds the bad record at offset $off: $out"
	else
		fail "check of a corrupted file: exit $status, '$out' (want 1 and offset $off)"
	fi
fi

# A sample whose callchain.nr runs past its record: the peek that orders it
# passes, the parse (on the formatting thread, or on the only CPU) fails.
# peo script stops there, exit 1, naming the record's offset.
if soff=$(python3 - "$tmp/callchain.data" "$tmp/badchain.data" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
attrs = struct.unpack_from('<Q', d, 24)[0]  # the attrs section's offset
st = struct.unpack_from('<Q', d, attrs + 24)[0]  # the first attr's sample_type
before = st & (0x10000 | 0x1 | 0x2 | 0x4 | 0x8 | 0x40 | 0x200 | 0x80 | 0x100)  # fields before READ
assert st & 0x20 and not st & 0x10                # CALLCHAIN, no READ
off, size = struct.unpack_from('<QQ', d, 40)
end = off + size
while off < end:
    typ, misc, sz = struct.unpack_from('<IHH', d, off)
    if typ == 9:
        struct.pack_into('<Q', d, off + 8 + 8 * bin(before).count('1'), 1 << 40)
        break
    off += sz
open(sys.argv[2], 'wb').write(d)
print(off)
PY
); then
	for how in "" "taskset -c 0"; do
		out=$($how "$peo" script -i "$tmp/badchain.data" 2>&1 >/dev/null)
		status=$?
		if [ $status -eq 1 ] && [[ $out == *"record at offset $soff"*callchain* ]]; then
			pass "script ${how:+($how) }stops at the bad callchain at offset $soff: $out"
		else
			fail "script ${how:+($how) }of a bad callchain: exit $status, '$out' (want 1, offset $soff)"
		fi
	done
else
	fail "could not corrupt a callchain sample of callchain.data"
fi

# Every file above as JSON Lines: each line one valid JSON object
for f in "$tmp"/*.data; do
	name=$(basename "$f" .data)
	case $name in bad*) continue ;; esac # made to fail
	"$peo" script -i "$f" --json >"$tmp/$name.all.json" 2>"$tmp/$name.all.err" ||
		{ fail "$name: --json failed: $(head -c 200 "$tmp/$name.all.err")"; continue; }
	if out=$(python3 -c '
import json, sys
n = 0
for n, line in enumerate(open(sys.argv[1]), 1):
    if not isinstance(json.loads(line), dict):
        sys.exit(f"line {n} is not an object")
if not n:
    sys.exit("no line")
print(n)' "$tmp/$name.all.json" 2>&1); then
		pass "$name: --json is $out lines of JSON objects"
	else
		fail "$name: --json is not JSON Lines: $(echo "$out" | tail -1)"
	fi
done

echo
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
