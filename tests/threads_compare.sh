#!/usr/bin/env bash
# threads_compare.sh PEO THREADS_SYNTH - peo script on files of many
# threads and processes, in every output mode, against perf script and
# perf report --stats (issue 27: peo script read freed memory once a file
# had more than 512 threads made by fork).
#
# The files: two of tests/threads_synth (12,000 tasks each, forks, execs,
# exits, pids reused, children of parents no record named; two rings a
# round, out of time order within it), and a fork-without-exec loop of
# 1,200 subshells recorded by peo record and by perf record.  On each:
#   - text, -F comm,pid,tid,time,ip,event --show-task-events
#     --show-mmap-events, byte for byte as perf script prints it, with
#     --workers 0, 1, 2 and 8, and --ordered;
#   - --no-ordered: the same records' lines (less the comm and callchain,
#     which need time order) in file order, sorted, as perf's sorted;
#   - -F comm,tid,time,period,event,ip, and the default fields (perf's
#     each address's symbol and dso included);
#   - --json --show-task-events (workers 0 and 8): JSON Lines, whose
#     samples are perf's (pid, tid, time, ip or the number of callchain
#     frames, in order), whose COMM records are
#     perf's, and whose COMM and FORK records, followed as perf follows
#     them, name each sample's thread as perf script does;
#   - --stats, as perf report --stats prints.
# Prints PASS/FAIL per check; exits 1 when any fails, 77 when perf (or
# python3) is missing or cannot record here.
set -u
. "$(dirname "$0")/compare_common.sh"
compare_begin threads_compare.sh "$@"
peo_without_notes
synth=$W
if ! command -v python3 >/dev/null 2>&1; then
	echo "SKIP: python3 is not installed; threads_compare reads peo's JSON with it"
	exit 77
fi
if ! perf record -q -o "$tmp/probe.data" -e cpu-clock -- true >/dev/null 2>&1; then
	echo "SKIP: perf record cannot record cpu-clock here"
	exit 77
fi

sidef=comm,pid,tid,time,ip,event

# compare NAME: every check on $tmp/NAME.data.
compare() {
	local name=$1 f="$tmp/$1.data" w
	perf script -i "$f" -F $sidef --show-task-events --show-mmap-events \
		>"$tmp/$name.side.perf" 2>"$tmp/$name.perf.err" ||
		{ fail "$name: perf script failed: $(head -2 "$tmp/$name.perf.err")"; return; }
	for w in 0 1 2 8; do
		"$peo" script -i "$f" -F $sidef --show-task-events --show-mmap-events --workers $w \
			>"$tmp/$name.side.w$w" 2>"$tmp/$name.err" ||
			fail "$name: peo script --workers $w failed: $(head -2 "$tmp/$name.err")"
		same "$name" "-F $sidef --show-task-events --show-mmap-events --workers $w" \
			"$tmp/$name.side.w$w" "$tmp/$name.side.perf"
	done
	"$peo" script -i "$f" -F $sidef --show-task-events --show-mmap-events --ordered \
		>"$tmp/$name.side.ordered" 2>&1
	same "$name" "the same --ordered" "$tmp/$name.side.ordered" "$tmp/$name.side.perf"

	# file order: the same records (their lines less the comm and the
	# callchain, which need the records before in time), sorted
	"$peo" script -i "$f" -F pid,tid,time,event --show-task-events --show-mmap-events \
		--no-ordered --workers 2 2>&1 | sort >"$tmp/$name.unordered.peo"
	perf script -i "$f" -F pid,tid,time,event --show-task-events --show-mmap-events \
		2>/dev/null | sort >"$tmp/$name.unordered.perf"
	same "$name" "--no-ordered (sorted lines)" "$tmp/$name.unordered.peo" "$tmp/$name.unordered.perf"

	"$peo" script -i "$f" -F comm,tid,time,period,event,ip >"$tmp/$name.fields.peo" 2>&1
	perf script -i "$f" -F comm,tid,time,period,event,ip >"$tmp/$name.fields.perf" 2>/dev/null
	same "$name" "-F comm,tid,time,period,event,ip" "$tmp/$name.fields.peo" "$tmp/$name.fields.perf"
	# perf's default fields, each address's symbol and dso included
	"$peo" script --no-demangle -i "$f" >"$tmp/$name.dpeo" 2>&1
	perf script --no-demangle -i "$f" >"$tmp/$name.dperf" 2>/dev/null
	same "$name" "default fields" "$tmp/$name.dpeo" "$tmp/$name.dperf"

	for w in 0 8; do
		"$peo" script -i "$f" --json --show-task-events --workers $w >"$tmp/$name.w$w.json" \
			2>"$tmp/$name.err" ||
			{ fail "$name: --json --workers $w failed: $(head -2 "$tmp/$name.err")"; continue; }
		if out=$(python3 - "$tmp/$name.w$w.json" "$tmp/$name.side.perf" <<'PY' 2>&1
import json, re, sys

samples, comms, named = [], [], {}
for n, line in enumerate(open(sys.argv[1]), 1):
    r = json.loads(line)
    if not isinstance(r, dict):
        sys.exit(f"line {n} is not an object")
    t = r["type"]
    # the threads' names as perf follows them: a COMM names its thread;
    # a FORK's child takes its parent's name, none when no record named
    # the parent (perf calls it :TID), swapper's for tid 0's children
    if t == "COMM":
        named[r["tid"]] = r["comm"]
        comms.append(f'{r["comm"]}:{r["pid"]}/{r["tid"]}{" exec" if r["exec"] else ""}')
    elif t == "FORK":
        parent = "swapper" if r["ptid"] == 0 else named.get(r["ptid"])
        if parent is None:
            named.pop(r["tid"], None)
        else:
            named[r["tid"]] = parent
    elif t == "SAMPLE":
        tid, ns = r["tid"], r["time"]
        name = "swapper" if tid == 0 else named.get(tid, f":{tid}")
        # a callchain's frames, less the kernel's context markers
        frames = sum(int(ip, 16) < 2**64 - 4095 for ip in r.get("callchain", []))
        samples.append(f'{name}|{r["pid"]}/{tid}|{ns // 10**9}.{ns % 10**9 // 1000:06d}|'
                       + (f'{frames} frames' if "callchain" in r else r["ip"][2:]))

want_samples, want_comms = [], []
for line in open(sys.argv[2]):
    if line.startswith("\t"): # a frame of the sample before
        n_frames += 1
        want_samples[-1] = f"{want_samples[-1].rsplit('|', 1)[0]}|{n_frames} frames"
        continue
    if line == "\n":
        continue
    m = re.match(r"\s*(.*?) +(-?\d+)/(-?\d+) +([\d.]+): +(.*)$", line.rstrip("\n"))
    if not m:
        sys.exit(f"perf's line not understood: {line!r}")
    comm, pid, tid, time, rest = m.groups()
    c = re.match(r"PERF_RECORD_COMM( exec)?: (.*):(\d+)/(\d+)$", rest)
    if c:
        want_comms.append(f"{c.group(2)}:{c.group(3)}/{c.group(4)}{' exec' if c.group(1) else ''}")
    elif not rest.startswith("PERF_RECORD_"):
        n_frames = 0 # the ip, unless frames follow
        want_samples.append(f"{comm}|{pid}/{tid}|{time}|{rest.split(':')[-1].strip()}")
for what, got, want in (("samples", samples, want_samples), ("COMM records", comms, want_comms)):
    if got != want:
        i = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
        sys.exit(f"{len(got)} {what}, perf {len(want)}; #{i + 1}: "
                 f"{got[i] if i < len(got) else '(none)'} against {want[i] if i < len(want) else '(none)'}")
print(f"{n} JSON lines; {len(samples)} samples (comm, pid/tid, time, ip or frames)"
      f" and {len(comms)} COMMs as perf's")
PY
		); then
			pass "$name: --json --show-task-events --workers $w: $out"
		else
			fail "$name: --json --show-task-events --workers $w: $(echo "$out" | tail -1)"
		fi
	done

	"$peo" script -i "$f" --stats >"$tmp/$name.pstats" 2>&1
	perf report -i "$f" --stats >"$tmp/$name.fstats" 2>/dev/null
	same "$name" "--stats" "$tmp/$name.pstats" "$tmp/$name.fstats"
}

# forks NAME: the FORK records of NAME.data, by perf report --stats.
forks() {
	perf report -i "$tmp/$1.data" --stats 2>/dev/null | awk '$1 == "FORK" { print $3 }'
}

for seed in 1 0x5eed; do
	name=synth$seed
	if ! "$synth" "$tmp/$name.data" $seed 12000 >"$tmp/$name.made" 2>&1; then
		fail "$name: threads_synth failed: $(head -2 "$tmp/$name.made")"
		continue
	fi
	echo "      $name: $(cat "$tmp/$name.made")"
	compare $name
done

# 1,200 subshells forked (no exec), recorded by peo and by perf.
loop='for i in $(seq 1200); do ( : ); done'
if ! "$peo" record -e cpu-clock -c 1000000 -o "$tmp/peo_record.data" -- bash -c "$loop" \
	>"$tmp/peo_record.out" 2>&1; then
	fail "peo record of the fork loop failed: $(tail -2 "$tmp/peo_record.out")"
else
	compare peo_record
fi
if ! perf record -q -e cpu-clock -c 1000000 -o "$tmp/perf_record.data" -- bash -c "$loop" \
	>"$tmp/perf_record.out" 2>&1; then
	fail "perf record of the fork loop failed: $(tail -2 "$tmp/perf_record.out")"
else
	compare perf_record
fi
for name in peo_record perf_record; do
	[ -f "$tmp/$name.data" ] || continue
	n=$(forks $name)
	if [ "${n:-0}" -ge 1200 ]; then
		pass "$name: $n FORK records (the thread table grew past 512 and 1,024 by forks)"
	else
		fail "$name: ${n:-no} FORK records, not the 1,200 forks the loop makes"
	fi
done

echo
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
