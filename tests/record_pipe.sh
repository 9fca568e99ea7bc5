#!/usr/bin/env bash
# record_pipe.sh PEO WORKLOAD - peo record -o -, the pipe-mode stream:
#   - into a pipe, a regular file or /dev/null it is a pipe-mode stream
#     (PERFILE2, header size 16, then HEADER_ATTR with a 128-byte attr, as
#     perf 6.1 writes and reads it), as perf record -o - writes whatever
#     stdout is;
#   - the command's standard output goes to standard error, as perf sends
#     it, never into the stream;
#   - -z compresses the stream, as perf record -z -o - does;
#   - 20 `-g` streams read by perf script, perf report and perf inject
#     (none may fail: perf 6.1 segfaulted on 64-byte attrs) as by peo script;
#   - a reader that goes away (head -c 100; a reader that leaves while the
#     command sleeps, so nothing is written to notice it) stops the
#     recorder, which says so once and leaves the command running, as
#     perf (killed by SIGPIPE) leaves it;
#   - the stream holds a command's samples while the recorder still runs
#     (written round by round), and a recorder killed by SIGKILL leaves a
#     stream perf script and peo script read up to its last round;
#   - standard output closed, read-only or full: one sentence.
# Prints PASS/FAIL per check; exits 1 when any fails, 77 when perf is missing.
set -u
. "$(dirname "$0")/compare_common.sh"
compare_begin record_pipe.sh "$@"

# is_stream NAME FILE: FILE starts as a pipe-mode stream: magic, header
# size 16, then HEADER_ATTR (type 64) whose attr.size is 128 or more, its
# ids after attr.size bytes (the record's size is 8 + attr.size + 8 * ids).
is_stream() {
	local name=$1 f=$2 hsize rtype rsize asize
	hsize=$(od -An -tu8 -j8 -N8 "$f" | tr -d ' ')
	rtype=$(od -An -tu4 -j16 -N4 "$f" | tr -d ' ')
	rsize=$(od -An -tu2 -j22 -N2 "$f" | tr -d ' ')
	asize=$(od -An -tu4 -j28 -N4 "$f" | tr -d ' ')
	if [ "$(head -c 8 "$f")" != PERFILE2 ] || [ "${hsize:-0}" != 16 ]; then
		fail "$name: not a pipe-mode stream: magic '$(head -c 8 "$f" | tr -cd '[:print:]')', header size '${hsize:-}'"
	elif [ "${rtype:-0}" != 64 ] || [ "${asize:-0}" -lt 128 ] ||
		[ $(((${rsize:-0} - 8 - asize) % 8)) != 0 ] || [ $((${rsize:-0} - 8 - asize)) -lt 8 ]; then
		fail "$name: the first record is type ${rtype:-?} of ${rsize:-?} bytes, attr.size ${asize:-?} (want HEADER_ATTR, 64, with an attr of 128 bytes or more and its ids)"
	else
		pass "$name: a pipe-mode stream (PERFILE2, header 16, HEADER_ATTR with attr.size $asize and $(((rsize - 8 - asize) / 8)) ids)"
	fi
}

# stdout_kept NAME ERR DATA: the command's output (MARK_OUT_, which its
# arguments do not hold whole: they are in the stream's CMDLINE) is in
# peo's stderr, not in the stream.
mark=(printf '%s%s\n' MARK_ OUT_)
stdout_kept() {
	if grep -aq MARK_OUT_ "$3"; then
		fail "$1: the command's standard output is in the stream"
	elif ! grep -q '^MARK_OUT_$' "$2"; then
		fail "$1: the command's standard output is neither in the stream nor on stderr"
	else
		pass "$1: the command's standard output went to stderr, not into the stream"
	fi
}

# recorded NAME RC ERR: peo record exited 0 with its summary and no error.
recorded() {
	if [ "$2" != 0 ] || grep -q '^peo record:' "$3" || ! grep -q 'Captured and wrote' "$3"; then
		fail "$1: peo record exited $2: $(grep -v '^MARK_OUT_$' "$3" | head -2 | tr '\n' ' ')"
		return 1
	fi
}

# ---------------------------------------------------- where stdout goes
"$peo" record -e cpu-clock -o - -- "${mark[@]}" 2>"$tmp/pipe.err" | cat >"$tmp/pipe.data"
recorded "into a pipe" "${PIPESTATUS[0]}" "$tmp/pipe.err" && {
	is_stream "into a pipe" "$tmp/pipe.data"
	stdout_kept "into a pipe" "$tmp/pipe.err" "$tmp/pipe.data"
}
"$peo" record -e cpu-clock -o - -- "${mark[@]}" >"$tmp/file.data" 2>"$tmp/file.err"
recorded "into a regular file" $? "$tmp/file.err" && {
	is_stream "into a regular file" "$tmp/file.data"
	stdout_kept "into a regular file" "$tmp/file.err" "$tmp/file.data"
	# perf writes the same, to the same file
	perf record -e cpu-clock -o - -- true >"$tmp/perf_file.data" 2>/dev/null
	is_stream "perf record -o - into a regular file" "$tmp/perf_file.data"
	perf script -i - -F pid,tid,time,ip,event <"$tmp/file.data" >"$tmp/file.pscript" 2>"$tmp/file.perr"
	"$peo" script -i - -F pid,tid,time,ip,event <"$tmp/file.data" >"$tmp/file.oscript" 2>&1
	if [ -s "$tmp/file.pscript" ]; then
		same "into a regular file" "perf script -i - < FILE and peo script" "$tmp/file.oscript" "$tmp/file.pscript"
	else
		fail "into a regular file: perf script -i - reads no samples: $(head -2 "$tmp/file.perr" | tr '\n' ' ')"
	fi
}
"$peo" record -e cpu-clock -o - -- "${mark[@]}" >/dev/null 2>"$tmp/null.err"
recorded "into /dev/null" $? "$tmp/null.err" &&
	pass "into /dev/null: written as a stream, without an error (file mode's seek and truncate fail there)"

# -z: perf record -z -o - compresses its stream (COMPRESSED feature first,
# ratio 0); peo's reads alike in perf script and peo script
"$peo" record -z -e cpu-clock -o - -- "$W" -b 200 2>"$tmp/z.err" | cat >"$tmp/z.data"
recorded "-z into a pipe" "${PIPESTATUS[0]}" "$tmp/z.err" && {
	perf report -i - --header-only <"$tmp/z.data" >"$tmp/z.header" 2>&1
	"$peo" script -i - --stats <"$tmp/z.data" >"$tmp/z.stats" 2>&1
	perf script -i - -F pid,tid,time,ip,event <"$tmp/z.data" >"$tmp/z.pscript" 2>"$tmp/z.perr"
	"$peo" script -i - -F pid,tid,time,ip,event <"$tmp/z.data" >"$tmp/z.oscript" 2>&1
	if ! grep -q 'compressed : Zstd' "$tmp/z.header" || ! grep -q 'COMPRESSED events' "$tmp/z.stats"; then
		fail "-z into a pipe: no COMPRESSED feature or records: $(grep compress "$tmp/z.header")"
	elif [ -s "$tmp/z.pscript" ]; then
		same "-z into a pipe" "perf script -i - and peo script" "$tmp/z.oscript" "$tmp/z.pscript"
	else
		fail "-z into a pipe: perf script -i - reads no samples: $(head -2 "$tmp/z.perr" | tr '\n' ' ')"
	fi
}

# ---------------------------------------------------- standard output unusable
# one_sentence NAME WANT RC ERR: peo record failed with one line on
# stderr, matching WANT, and nothing of the recording after it.
one_sentence() {
	local n
	n=$(grep -c . "$4")
	if [ "$3" = 0 ]; then
		fail "$1: peo record exited 0"
	elif [ "$n" != 1 ] || ! grep -qE "$2" "$4" || grep -qi 'invalid seek' "$4"; then
		fail "$1: want one sentence matching '$2', got $n lines: $(head -3 "$4" | tr '\n' ' ')"
	else
		pass "$1: one sentence (exit $3): $(cat "$4")"
	fi
}
"$peo" record -e cpu-clock -o - -- "$W" -b 10 >&- 2>"$tmp/closed.err"
one_sentence "stdout closed" "standard output is closed" $? "$tmp/closed.err"
"$peo" record -e cpu-clock -o - -- "$W" -b 10 1</dev/null 2>"$tmp/rdonly.err"
one_sentence "stdout read-only" "standard output is open for reading only" $? "$tmp/rdonly.err"
if [ -w /dev/full ]; then
	"$peo" record -e cpu-clock -o - -- "$W" -b 10 >/dev/full 2>"$tmp/full.err"
	one_sentence "stdout /dev/full" "No space left on device" $? "$tmp/full.err"
else
	skip "stdout /dev/full: there is no writable /dev/full here"
fi

# ---------------------------------------------------- 20 -g streams, four readers
# perf script in pipe mode prints each frame's symbol even under -F ip (in
# file mode it does not); peo script prints the addresses: compare those.
addrs() { sed -E 's/^(\t *[0-9a-f]+) .*$/\1/'; }
runs=20 ok_script=0 ok_report=0 ok_inject=0 ok_peo=0 bad=
for ((i = 1; i <= runs; i++)); do
	g=$tmp/g$i
	"$peo" record -g -e cpu-clock -o - -- "$W" -b 100 2>"$g.err" | cat >"$g.data"
	if [ "${PIPESTATUS[0]}" != 0 ]; then
		bad+=" $i:record"
		continue
	fi
	if perf script -i - -F pid,tid,time,ip,event <"$g.data" >"$g.praw" 2>"$g.perr" && [ -s "$g.praw" ]; then
		ok_script=$((ok_script + 1))
	else
		bad+=" $i:perf-script($?)"
	fi
	addrs <"$g.praw" >"$g.pscript"
	"$peo" script -i - -F pid,tid,time,ip,event <"$g.data" >"$g.oscript" 2>&1
	if [ -s "$g.pscript" ] && cmp -s "$g.oscript" "$g.pscript"; then
		ok_peo=$((ok_peo + 1))
	else
		bad+=" $i:peo-script-differs"
		[ -s "$tmp/diff_g" ] || diff "$g.oscript" "$g.pscript" | head -6 >"$tmp/diff_g"
	fi
	# perf report: the whole report (it segfaulted), and its counts as peo's
	"$peo" script -i - --stats <"$g.data" >"$g.ostats" 2>&1
	if perf report -i - --stdio <"$g.data" >/dev/null 2>&1 &&
		perf report -i - --stats <"$g.data" >"$g.pstats" 2>/dev/null &&
		cmp -s "$g.ostats" "$g.pstats"; then
		ok_report=$((ok_report + 1))
	else
		bad+=" $i:perf-report"
	fi
	# perf inject passes the stream through: perf script reads the same samples in its output
	if perf inject -i - -o - <"$g.data" 2>/dev/null >"$g.inj" && [ -s "$g.pscript" ] &&
		perf script -i - -F pid,tid,time,ip,event <"$g.inj" 2>/dev/null | addrs | cmp -s - "$g.pscript"; then
		ok_inject=$((ok_inject + 1))
	else
		bad+=" $i:perf-inject"
	fi
	rm -f "$g".*
done
for r in "perf script:$ok_script" "perf report --stdio and --stats (as peo script --stats):$ok_report" \
	"perf inject, then perf script:$ok_inject" "peo script, as perf script:$ok_peo"; do
	if [ "${r##*:}" = "$runs" ]; then
		pass "-g streams: $runs/$runs read by ${r%:*}"
	else
		fail "-g streams: ${r##*:}/$runs read by ${r%:*}; failed:$bad"
		[ -s "$tmp/diff_g" ] && sed 's/^/      /' "$tmp/diff_g"
	fi
done

# ---------------------------------------------------- the reader goes away
# gone NAME RC ERR WHEN: peo record ended with 141 (as perf, which SIGPIPE
# kills) and said once that the reader went away, WHEN (a pattern).
gone() {
	local n
	n=$(grep -c "reader closed the pipe" "$3")
	if [ "$2" = 124 ] || [ "$2" = 137 ]; then
		fail "$1: peo record was still running after the reader left (killed by timeout)"
	elif [ "$2" != 141 ] || [ "$n" != 1 ] || ! grep -qE "$4" "$3" ||
		[ "$(grep -c '^peo record' "$3")" != 1 ]; then
		fail "$1: want exit 141 and one sentence, got exit $2: $(head -3 "$3" | tr '\n' ' ')"
	else
		pass "$1: peo record stopped (exit 141, as perf's SIGPIPE): $(cat "$3")"
	fi
}
# head -c 100 leaves while the recorder starts: the command, 60 s of
# burning, is never run (perf dies at its next write too); the recorder
# must not run it out (timeout 30 s)
timeout -s KILL 30 "$peo" record -e cpu-clock -o - -- "$W" -b 60000 2>"$tmp/head.err" | head -c 100 >/dev/null
gone "head -c 100" "${PIPESTATUS[0]}" "$tmp/head.err" "recording stopped"

# a reader that leaves once the command runs, and runs quietly (sleep: no
# samples, nothing written that would fail): the recorder notices anyway.
# The command goes on, as perf leaves it.
: >"$tmp/quiet.sub"
(
	echo "$BASHPID" >"$tmp/quiet.sub"
	timeout -s KILL 30 "$peo" record -e cpu-clock -o - -- sleep 60 2>"$tmp/quiet.err"
	echo $? >"$tmp/quiet.rc"
) | (head -c 100 >/dev/null; while [ ! -e "$tmp/quiet.go" ]; do sleep 0.05; done) &
qpipe=$!
sleeper=
for ((t = 0; t < 600; t++)); do # 30 s at most for the command to exec
	sub=$(cat "$tmp/quiet.sub")
	rec=$([ -n "$sub" ] && child_of "$(child_of "$sub")") # sub -> timeout -> peo
	cmd=$([ -n "$rec" ] && child_of "$rec")
	if [ -n "$cmd" ] && [ "$(cat "/proc/$cmd/comm" 2>/dev/null)" = sleep ]; then
		sleeper=$cmd
		break
	fi
	sleep 0.05
done
touch "$tmp/quiet.go"
wait "$qpipe"
if [ -z "$sleeper" ]; then
	fail "quiet reader: the command never ran: $(head -2 "$tmp/quiet.err" | tr '\n' ' ')"
else
	gone "quiet reader" "$(cat "$tmp/quiet.rc")" "$tmp/quiet.err" "the command goes on"
	if [ -d "/proc/$sleeper" ]; then
		pass "quiet reader: the command is left running, as perf leaves it"
		kill "$sleeper"
	else
		fail "quiet reader: the command was ended (perf leaves it running)"
	fi
fi

# ---------------------------------------------------- streamed, then SIGKILL
# The command burns 500 ms (some 2000 samples at 4000 a second), then
# sleeps: with the burn over and the recorder still running, the stream
# must hold its samples (written round by round, not buffered to the end);
# then SIGKILL, which lands while nothing is written, and both readers read
# the stream up to its last round.
samples() { grep -c 'cpu-clock:' "$1"; }
: >"$tmp/kill.sub"
(
	echo "$BASHPID" >"$tmp/kill.sub"
	exec "$peo" record -e cpu-clock -o - -- sh -c '"$0" -b 500 && exec sleep 120' "$W" 2>"$tmp/kill.err"
) | cat >"$tmp/kill.data" &
kpipe=$!
krec= kcmd= early=0
for ((t = 0; t < 600; t++)); do # 30 s at most for the burn to end
	krec=$(cat "$tmp/kill.sub")
	c=$([ -n "$krec" ] && child_of "$krec")
	if [ -n "$c" ] && [ "$(cat "/proc/$c/comm" 2>/dev/null)" = sleep ]; then
		kcmd=$c
		break
	fi
	sleep 0.05
done
end=$((SECONDS + 30)) running=
while [ -n "$kcmd" ] && [ "$SECONDS" -lt "$end" ]; do # and 30 s for its samples to come through
	cat "$tmp/kill.data" >"$tmp/early.data"
	running=$([ -d "/proc/$krec" ] && echo yes) # the recorder, before that snapshot
	perf script -i - -F pid,tid,time,ip,event <"$tmp/early.data" >"$tmp/early.pscript" 2>/dev/null
	early=$(samples "$tmp/early.pscript")
	[ "$early" -gt 0 ] && break
	sleep 0.2
done
[ -n "$krec" ] && kill -KILL "$krec" 2>/dev/null
wait "$kpipe"
[ -n "$kcmd" ] && kill "$kcmd" 2>/dev/null
if [ -z "$kcmd" ]; then
	fail "streamed: the command never got to its sleep: $(head -2 "$tmp/kill.err" | tr '\n' ' ')"
elif [ "$early" -gt 0 ] && [ "$running" = yes ]; then
	pass "streamed: the burn's $early samples are in the stream while the recorder runs"
else
	fail "streamed: no sample in the stream 30 s after the burn ended (buffered, not streamed): $(head -2 "$tmp/kill.err" | tr '\n' ' ')"
fi
perf script -i - -F pid,tid,time,ip,event <"$tmp/kill.data" >"$tmp/kill.pscript" 2>"$tmp/kill.perr"
"$peo" script -i - -F pid,tid,time,ip,event <"$tmp/kill.data" >"$tmp/kill.oscript" 2>"$tmp/kill.oerr"
np=$(samples "$tmp/kill.pscript")
no=$(samples "$tmp/kill.oscript")
if [ "$np" -gt 0 ] && [ "$np" -ge "$early" ]; then
	pass "SIGKILL: perf script -i - reads $np samples of the $(stat -c %s "$tmp/kill.data")-byte stream"
else
	fail "SIGKILL: perf script -i - reads $np samples (before the kill: $early): $(head -2 "$tmp/kill.perr" | tr '\n' ' ')"
fi
if [ "$np" -gt 0 ] && [ "$no" = "$np" ] && cmp -s "$tmp/kill.oscript" "$tmp/kill.pscript"; then
	pass "SIGKILL: peo script -i - reads the same $no samples"
else
	fail "SIGKILL: peo script -i - reads $no samples, perf script $np: $(head -2 "$tmp/kill.oerr" | tr '\n' ' ')"
fi

echo "record_pipe: $passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
