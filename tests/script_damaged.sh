#!/usr/bin/env bash
# script_damaged.sh PEO WORKLOAD - peo script and peo check on damaged
# perf.data, beside perf script on the same bytes:
#   - a perf record and a peo record killed with SIGKILL mid-run (the
#     header's data size is 0, records follow): refused with a sentence
#     that names --force; `peo script --force` prints every whole sample
#     (counted here by walking the record headers), in each mode;
#   - a good file cut inside its records, and inside its features;
#   - a pipe stream cut inside a record's body (perf prints what came
#     before: the lines must be perf's) and inside a record's header;
#   - peo check of a good file under `ulimit -v`: OK or "not judged"
#     (exit 3), never BAD;
#   - a file-mode perf.data on standard input, redirected and through a pipe;
#   - a perf record --threads directory with a data file cut short.
# Only what the bytes guarantee is asserted.  Prints PASS/FAIL/SKIP per
# check; exits 1 when any fails, 77 when perf cannot record here.
set -u
. "$(dirname "$0")/compare_common.sh"
compare_begin script_damaged.sh "$@"

# starts_under_limit KB: can peo start at all under ulimit -v KB?  (A
# sanitizer build maps terabytes of shadow, or its shared libraries fail
# to map.)  Else $why_not_started says what it printed.
starts_under_limit() {
	local said rc
	said=$( (ulimit -v "$1"; exec "$peo" --version) 2>&1 >/dev/null) && return 0
	rc=$?
	said=$(printf '%s' "$said" | head -1)
	why_not_started="exit $rc${said:+: ${said:0:160}}"
	return 1
}
if ! perf record -q -o "$tmp/probe.data" -e cpu-clock -- true >/dev/null 2>&1; then
	echo "SKIP: perf record cannot record cpu-clock here"
	exit 77
fi
F=tid,time,ip,period # fields both print alike

# walk FILE [START]: the whole records from START (default: the data
# offset of a file-mode header, 16 for a pipe stream) to the file's end or
# the first record cut by it: "RECORDS SAMPLES CUT" (CUT: the cut record's
# offset, or none).
walk() {
	python3 - "$@" <<'PY'
import struct, sys
d = open(sys.argv[1], 'rb').read()
if len(sys.argv) > 2:
    at = int(sys.argv[2])
else:
    at = 16 if struct.unpack_from('<Q', d, 8)[0] == 16 else struct.unpack_from('<Q', d, 40)[0]
records = samples = 0
cut = 'none'
while at < len(d):
    if at + 8 > len(d):
        cut = at
        break
    typ, misc, size = struct.unpack_from('<IHH', d, at)
    if size < 8:
        cut = 'bad%d' % at
        break
    if at + size > len(d):
        cut = at
        break
    records += 1
    samples += typ == 9
    at += size
print(records, samples, cut)
PY
}

# record_offsets FILE: "OFFSET TYPE SIZE" of each whole record of a pipe stream.
record_offsets() {
	python3 - "$1" <<'PY'
import struct, sys
d = open(sys.argv[1], 'rb').read()
at = 16
while at + 8 <= len(d):
    typ, misc, size = struct.unpack_from('<IHH', d, at)
    if size < 8 or at + size > len(d):
        break
    print(at, typ, size)
    at += size
PY
}

# lines FILE: its lines; json_samples FILE: its SAMPLE objects.
lines() { wc -l <"$1" | tr -d ' '; }
json_samples() { grep -c '"type":"SAMPLE"' "$1"; }

# forced NAME FILE SAMPLES CUT: peo script --force prints SAMPLES lines in
# each mode, exits 0, and notes the cut record's offset when there is one.
forced() {
	local name=$1 f=$2 want=$3 cut=$4 mode n
	for mode in "" "--workers 0" "--workers 3" "--no-ordered"; do
		"$peo" script -f -i "$f" -F $F $mode >"$tmp/$name.f.out" 2>"$tmp/$name.f.err"
		local rc=$?
		n=$(lines "$tmp/$name.f.out")
		if [ $rc -eq 0 ] && [ "$n" -eq "$want" ]; then
			pass "$name: peo script --force ${mode:-(default)}: the $want whole samples"
		else
			fail "$name: peo script --force ${mode:-(default)}: exit $rc, $n lines, want $want: $(head -2 "$tmp/$name.f.err")"
		fi
	done
	for mode in "" "--workers 0"; do
		"$peo" script -f -i "$f" --json $mode >"$tmp/$name.fj.out" 2>/dev/null
		n=$(json_samples "$tmp/$name.fj.out")
		[ "$n" -eq "$want" ] && pass "$name: --force --json $mode: $want samples" ||
			fail "$name: --force --json $mode: $n samples, want $want"
	done
	if [ "$cut" = none ]; then
		grep -q 'records stop' "$tmp/$name.f.err" &&
			fail "$name: a stop noted where the records end whole: $(cat "$tmp/$name.f.err")" ||
			pass "$name: no stop noted (the records end whole)"
	elif grep -q "inside a record.* at offset $cut:.*the records stop before it" "$tmp/$name.f.err"; then
		pass "$name: the stop noted at offset $cut"
	else
		fail "$name: no note of the stop at offset $cut: $(cat "$tmp/$name.f.err")"
	fi
}

# killed NAME RECORDER...: RECORDER -o FILE -- WORKLOAD, SIGKILLed once
# records follow its header; then the checks of an unfinished file.
killed() {
	local name=$1 f="$tmp/$1.data" pid child i size
	shift
	"$@" -o "$f" -- "$W" -s 4000 >"$tmp/$name.rec" 2>&1 &
	pid=$!
	for ((i = 0; i < 400; i++)); do # records are written as the rings fill: at most 20 s
		size=$(stat -c %s "$f" 2>/dev/null || echo 0)
		[ "$size" -gt 300000 ] && break
		[ -d "/proc/$pid" ] || break
		sleep 0.05
	done
	child=$(child_of "$pid")
	kill -KILL "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	[ -n "$child" ] && kill "$child" 2>/dev/null # the workload, left behind
	read -r records samples cut < <(walk "$f")
	if [ "${samples:-0}" -eq 0 ]; then
		skip "$name: no sample was written before the kill ($(stat -c %s "$f" 2>/dev/null) bytes): $(head -2 "$tmp/$name.rec" | tr '\n' ' ')"
		return
	fi
	"$peo" script -i "$f" >/dev/null 2>"$tmp/$name.err"
	if [ $? -ne 0 ] && grep -q "$f: the recording was not finished: the data size in the header is 0;.*bytes of records follow.*peo script --force" "$tmp/$name.err"; then
		pass "$name: refused as not finished, naming --force"
	else
		fail "$name: not said to be unfinished: $(cat "$tmp/$name.err")"
	fi
	"$peo" check "$f" >"$tmp/$name.check" 2>&1
	if [ $? -eq 1 ] && grep -q "BAD: the recording was not finished.*($samples samples)" "$tmp/$name.check"; then
		pass "$name: peo check says not finished, and the $samples whole samples"
	else
		fail "$name: peo check: $(cat "$tmp/$name.check")"
	fi
	forced "$name" "$f" "$samples" "$cut"
	echo "      ($name: $records whole records, $samples samples; perf script -f prints" \
		"$(perf script -f -i "$f" 2>/dev/null | wc -l) lines, perf script $(perf script -i "$f" 2>&1 | grep -c 'properly terminated') warning)"
}

killed killed_perf perf record -q -e cpu-clock -c 10000
killed killed_peo "$peo" record -e cpu-clock -c 10000

# A good file, cut inside its records and inside its features.
good="$tmp/good.data"
if perf record -q -o "$good" -e cpu-clock -c 10000 -- "$W" -s 300 >/dev/null 2>&1; then
	read -r off dsize < <(python3 -c "import struct,sys; d=open(sys.argv[1],'rb').read(64); print(*struct.unpack_from('<QQ', d, 40))" "$good")
	"$peo" script --no-ordered -i "$good" -F $F >"$tmp/good.noord" 2>/dev/null
	perf script -i "$good" -F $F >"$tmp/good.perf" 2>/dev/null
	cut=$((off + dsize * 2 / 3 + 13)) # 13 bytes past a record's start is inside it: every record is 8-aligned
	head -c "$cut" "$good" >"$tmp/cut.data"
	read -r records samples at < <(walk "$tmp/cut.data")
	"$peo" script -i "$tmp/cut.data" >/dev/null 2>"$tmp/cut.err"
	[ $? -ne 0 ] && grep -q "the file is cut short: the header says $dsize bytes of records at offset $off, but the file ends $((cut - off)) bytes into them.*--force" "$tmp/cut.err" &&
		pass "truncated: refused as cut short, naming --force" ||
		fail "truncated: $(cat "$tmp/cut.err")"
	"$peo" check "$tmp/cut.data" 2>&1 | grep -q "BAD: the file is cut short.*($samples samples).*offset $at" &&
		pass "truncated: peo check says cut short, the $samples samples, the cut at $at" ||
		fail "truncated: peo check: $("$peo" check "$tmp/cut.data" 2>&1)"
	forced truncated "$tmp/cut.data" "$samples" "$at"
	# file order: the first samples of the whole file's; time order: the same lines
	"$peo" script -f --no-ordered -i "$tmp/cut.data" -F $F >"$tmp/cut.noord" 2>/dev/null
	head -n "$samples" "$tmp/good.noord" >"$tmp/good.head"
	same truncated "--force --no-ordered against the whole file's first $samples" "$tmp/cut.noord" "$tmp/good.head"
	"$peo" script -f -i "$tmp/cut.data" -F $F 2>/dev/null | sort >"$tmp/cut.sorted"
	sort "$tmp/cut.noord" >"$tmp/cut.noord.sorted"
	same truncated "--force in time order, the lines of file order" "$tmp/cut.sorted" "$tmp/cut.noord.sorted"
	echo "      (truncated at $cut: perf script -f prints $(perf script -f -i "$tmp/cut.data" 2>/dev/null | wc -l) of the $samples samples)"
	# inside the features: the records whole, the lines perf prints of the whole file
	head -c $(($(stat -c %s "$good") - 7)) "$good" >"$tmp/cutfeat.data"
	"$peo" script -i "$tmp/cutfeat.data" >/dev/null 2>"$tmp/cutfeat.err"
	[ $? -ne 0 ] && grep -q "cut short: it ends at offset .* inside its feature sections" "$tmp/cutfeat.err" &&
		pass "features cut: refused as cut short in its features" ||
		fail "features cut: $(cat "$tmp/cutfeat.err")"
	"$peo" script -f -i "$tmp/cutfeat.data" -F $F >"$tmp/cutfeat.out" 2>/dev/null
	same "features cut" "--force against perf script of the whole file" "$tmp/cutfeat.out" "$tmp/good.perf"
	# a file-mode perf.data on standard input: redirected it is the file;
	# through a pipe it is said to be one, and what to do
	"$peo" script -i - -F $F <"$good" >"$tmp/stdin.out" 2>&1
	"$peo" script -i "$good" -F $F >"$tmp/file.out" 2>&1
	same stdin "-i - < FILE against -i FILE" "$tmp/stdin.out" "$tmp/file.out"
	cat "$good" | "$peo" script -i - >/dev/null 2>"$tmp/stdin.err"
	[ "${PIPESTATUS[1]}" -ne 0 ] && grep -q "standard input: a file-mode perf.data.*comes through a pipe.*-i FILE" "$tmp/stdin.err" &&
		pass "stdin: a file-mode perf.data through a pipe is said to be one" ||
		fail "stdin: $(cat "$tmp/stdin.err")"
	cat "$good" | "$peo" check - >/dev/null 2>"$tmp/stdin.check"
	[ "${PIPESTATUS[1]}" -eq 3 ] && pass "stdin: peo check through a pipe: not judged (exit 3)" ||
		fail "stdin: peo check through a pipe: exit ${PIPESTATUS[1]}: $(cat "$tmp/stdin.check")"
	# peo check under ulimit -v: OK, or not judged, or the verdict it gives
	# without a limit (perf's own file can break the round rule on a loaded
	# machine: a record timestamped, then written late); never another BAD
	"$peo" check "$good" >"$tmp/unlimited.out" 2>&1
	unlimited_rc=$?
	grep -q ": BAD:" "$tmp/unlimited.out" &&
		echo "      (perf's recording itself: $(head -c 300 "$tmp/unlimited.out"))"
	for kb in 3000 6000 12000 24000 48000; do
		if ! starts_under_limit $kb; then
			skip "ulimit -v $kb: peo cannot start at all under it ($why_not_started; a sanitizer build?)"
			continue
		fi
		(ulimit -v $kb; exec "$peo" check "$good") >"$tmp/ulimit.out" 2>&1
		rc=$?
		if [ $rc -eq 0 ] && grep -q ": OK:" "$tmp/ulimit.out"; then
			pass "ulimit -v $kb: peo check says OK"
		elif [ $rc -eq 3 ] && grep -q "peo check: out of memory reading $good (.*); the file was not judged" "$tmp/ulimit.out"; then
			pass "ulimit -v $kb: peo check ran out of memory and did not judge the file"
		elif [ $rc -eq 1 ] && [ $unlimited_rc -eq 1 ] && cmp -s "$tmp/ulimit.out" "$tmp/unlimited.out"; then
			pass "ulimit -v $kb: peo check gives the verdict it gives without a limit"
		elif [ $rc -ge 128 ]; then
			skip "ulimit -v $kb: peo could not run at all (signal $((rc - 128)); a sanitizer build?)"
		else
			fail "ulimit -v $kb: exit $rc: $(cat "$tmp/ulimit.out")"
		fi
	done
else
	fail "perf record of the good file failed"
fi

# A pipe stream cut inside a record's body, and inside a record's header.
p="$tmp/pipe.data"
if perf record -q -o - -e cpu-clock -c 10000 -- "$W" -s 300 >"$p" 2>/dev/null && [ -s "$p" ]; then
	record_offsets "$p" >"$tmp/pipe.offsets"
	total=$(wc -l <"$tmp/pipe.offsets")
	# the first sample past the middle, and the first after it
	read -r mid _ < <(awk -v h=$((total / 2)) 'NR > h && $2 == 9 { print $1, $3; exit }' "$tmp/pipe.offsets")
	read -r late _ < <(awk -v m="$mid" '$1 > m && $2 == 9 { print $1, $3; exit }' "$tmp/pipe.offsets")
	for cutname in body header; do
		if [ $cutname = body ]; then n=$((mid + 11)) at=$mid; else n=$((late + 3)) at=$late; fi
		head -c "$n" "$p" >"$tmp/pcut.data"
		read -r records samples wat < <(walk "$tmp/pcut.data")
		perf script -i - -F $F <"$tmp/pcut.data" >"$tmp/pcut.perf" 2>/dev/null
		for mode in "" "--workers 0" "--workers 3" "--no-ordered"; do
			head -c "$n" "$p" | "$peo" script -i - -F $F $mode >"$tmp/pcut.out" 2>"$tmp/pcut.err"
			rc=${PIPESTATUS[1]}
			got=$(lines "$tmp/pcut.out")
			if [ "$rc" -eq 1 ] && [ "$got" -eq "$samples" ] && [ "$wat" = "$at" ] &&
				grep -q "standard input: .*the stream ends inside a record.* at offset $at:" "$tmp/pcut.err"; then
				pass "pipe cut in a $cutname: ${mode:-(default)}: the $samples whole samples, then the error at offset $at"
			else
				fail "pipe cut in a $cutname: ${mode:-(default)}: exit $rc, $got lines of $samples, cut $wat/$at: $(cat "$tmp/pcut.err")"
			fi
		done
		for mode in "" "--workers 0" "--no-ordered"; do
			head -c "$n" "$p" | "$peo" script -i - --json $mode >"$tmp/pcut.json" 2>/dev/null
			got=$(json_samples "$tmp/pcut.json")
			[ "$got" -eq "$samples" ] && pass "pipe cut in a $cutname: --json $mode: $samples samples" ||
				fail "pipe cut in a $cutname: --json $mode: $got samples of $samples"
		done
		head -c "$n" "$p" | "$peo" script -f -i - -F $F >"$tmp/pcut.f" 2>"$tmp/pcut.ferr"
		[ "${PIPESTATUS[1]}" -eq 0 ] && [ "$(lines "$tmp/pcut.f")" -eq "$samples" ] &&
			grep -q "at offset $at:.*the records stop before it (--force)" "$tmp/pcut.ferr" &&
			pass "pipe cut in a $cutname: --force: the samples, then a note of the stop" ||
			fail "pipe cut in a $cutname: --force: $(cat "$tmp/pcut.ferr")"
		if [ $cutname = body ]; then # perf flushes what it holds after a cut body
			head -c "$n" "$p" | "$peo" script -i - -F $F >"$tmp/pcut.peo" 2>/dev/null
			same "pipe cut in a body" "the lines against perf script's on the same bytes" "$tmp/pcut.peo" "$tmp/pcut.perf"
		else # perf drops them after a cut header: nothing to compare
			echo "      (pipe cut in a header at $n: perf script prints $(lines "$tmp/pcut.perf") of the $samples samples)"
		fi
	done
	# a good stream that needs more memory than ulimit -v leaves (30 MiB of
	# TRACING_DATA): not judged, never BAD
	python3 - "$p" "$tmp/tracing.data" <<'PY'
import struct, sys
d = open(sys.argv[1], 'rb').read()
size = 30 << 20
with open(sys.argv[2], 'wb') as out:
    out.write(d + struct.pack('<IHHI4x', 66, 0, 16, size))
    out.write(bytes(size))
PY
	"$peo" check - <"$tmp/tracing.data" >"$tmp/tr.out" 2>&1
	if [ $? -ne 0 ]; then
		fail "30 MiB TRACING_DATA: peo check without a limit: $(cat "$tmp/tr.out")"
	elif ! starts_under_limit 20000; then
		skip "ulimit -v 20000: peo cannot start at all under it ($why_not_started; a sanitizer build?)"
	else
		(ulimit -v 20000; exec "$peo" check - <"$tmp/tracing.data") >"$tmp/tr.out" 2>&1
		rc=$?
		if [ $rc -eq 3 ] && grep -q "peo check: out of memory reading standard input (out of memory for .* TRACING_DATA); the file was not judged" "$tmp/tr.out" &&
			! grep -q BAD "$tmp/tr.out"; then
			pass "ulimit -v 20000: out of memory for a good stream: not judged, exit 3"
		elif [ $rc -ge 128 ]; then
			skip "ulimit -v 20000: peo could not run at all (signal $((rc - 128)); a sanitizer build?)"
		else
			fail "ulimit -v 20000: exit $rc: $(cat "$tmp/tr.out")"
		fi
	fi
else
	fail "perf record -o - failed"
fi

# A --threads directory whose largest data file is cut short: the errors
# and the note name that file.
d="$tmp/threads"
if perf record -q --threads -o "$d" -e cpu-clock -c 10000 -- "$W" -s 200 -T 2 >/dev/null 2>&1 && [ -d "$d" ]; then
	big=$(ls -S "$d"/data.* | head -1)
	truncate -s $(($(stat -c %s "$big") - 5)) "$big"
	"$peo" script -i "$d" >/dev/null 2>"$tmp/dir.err"
	[ $? -ne 0 ] && grep -q "peo script: $big: " "$tmp/dir.err" &&
		pass "directory: the error names $big" || fail "directory: $(cat "$tmp/dir.err")"
	"$peo" script -f -i "$d" >/dev/null 2>"$tmp/dir.ferr"
	[ $? -eq 0 ] && grep -q "peo script: $big: the data ends inside a record" "$tmp/dir.ferr" &&
		pass "directory: --force notes the stop in $big" || fail "directory: --force: $(cat "$tmp/dir.ferr")"
else
	skip "directory: perf record --threads did not write a directory here"
fi

echo "script_damaged: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
