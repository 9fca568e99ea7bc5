#!/usr/bin/env bash
# record_faults.sh PEO WORKLOAD - peo record (file mode) loses nothing when
# things go wrong:
#   - an existing output is kept as FILE.old, as perf keeps it;
#   - a command that cannot start leaves FILE (and FILE.old) as they were
#     (perf 6.1 renames FILE to FILE.old and leaves a broken 632-byte FILE);
#   - a second recorder of a FILE (or of FILE.old) another peo record is
#     writing is refused, naming that recorder's pid, and the first's file
#     is whole;
#   - a full disk (a 300 KiB tmpfs) stops the recording with the message
#     once, a file perf script and peo script read, and a summary that
#     counts the samples the file holds (also with -z: perf needs the
#     COMPRESSED feature to read it);
#   - SIGKILL leaves the header, the attrs and the records of each round
#     written so far (perf leaves the records since its last wakeup unread
#     in the rings; both leave data size 0 in the header).
# Prints PASS/FAIL/SKIP per check; exits 1 when any fails, 77 when perf is
# missing or peo cannot record here.
set -u
. "$(dirname "$0")/compare_common.sh"
compare_begin record_faults.sh "$@"

# perf's stderr has a warning (record_compare.sh's test, loss aside)
warns() {
	grep -vE "^Warning:$|^Processed [0-9]+ (events|samples) and lost .*!$|^Check IO/CPU overload!$" "$1" |
		grep -qiE "warning|error|failed|unsupported|corrupt"
}
# header FILE: "DATA_OFFSET DATA_SIZE" from the perf.data header
header() { od -An -t u8 -j 40 -N 16 "$1" | awk '{ print $1, $2 }'; }
# readable NAME FILE: perf script and peo script both read FILE, the same samples
readable() {
	local name=$1 f=$2
	perf script -i "$f" -F pid,tid,time,ip >"$tmp/$name.pscript" 2>"$tmp/$name.perr"
	"$peo" script -i "$f" -F pid,tid,time,ip >"$tmp/$name.oscript" 2>"$tmp/$name.oerr"
	local orc=$?
	if warns "$tmp/$name.perr"; then
		fail "$name: perf script warns: $(head -3 "$tmp/$name.perr" | tr '\n' ' ')"
	elif [ $orc -ne 0 ]; then
		fail "$name: peo script fails: $(head -2 "$tmp/$name.oerr" | tr '\n' ' ')"
	elif ! cmp -s "$tmp/$name.pscript" "$tmp/$name.oscript"; then
		fail "$name: perf script and peo script differ (< perf, > peo):"
		diff "$tmp/$name.pscript" "$tmp/$name.oscript" | head -4 | sed 's/^/      /'
	else
		pass "$name: perf script and peo script read it alike ($(wc -l <"$tmp/$name.pscript") samples)"
	fi
}
# no_temp DIR NAME: no file of a recording left under its own name
no_temp() {
	local left
	left=$(ls "$1" | grep -F "$2.peo-")
	if [ -z "$left" ]; then
		pass "$2: no file left under a name of its own"
	else
		fail "$2: left behind: $left"
	fi
}

if ! "$peo" record -e cpu-clock -o "$tmp/probe.data" -- true >/dev/null 2>"$tmp/probe.err"; then
	echo "SKIP: peo record -e cpu-clock cannot record here: $(head -1 "$tmp/probe.err")"
	exit 77
fi
rm -f "$tmp/probe.data"

# ---- an existing FILE becomes FILE.old, as perf keeps it
d=$tmp/old
mkdir "$d"
echo "a file that was here" >"$d/f.data"
cp "$d/f.data" "$tmp/before"
if "$peo" record -e cpu-clock -o "$d/f.data" -- "$W" -b 50 >/dev/null 2>"$tmp/old.err" &&
	cmp -s "$d/f.data.old" "$tmp/before"; then
	pass "old: the file that was there is f.data.old"
else
	fail "old: f.data.old is not the file that was there: $(ls "$d" | tr '\n' ' ') $(head -2 "$tmp/old.err")"
fi
readable old "$d/f.data"
cp "$d/f.data" "$tmp/first"
"$peo" record -e cpu-clock -o "$d/f.data" -- "$W" -b 50 >/dev/null 2>&1
if cmp -s "$d/f.data.old" "$tmp/first"; then
	pass "old: a second recording keeps the first as f.data.old"
else
	fail "old: the second recording's f.data.old is not the first recording"
fi
: >"$d/empty.data" # perf writes over an empty file and keeps no .old
"$peo" record -e cpu-clock -o "$d/empty.data" -- true >/dev/null 2>&1
if [ -s "$d/empty.data" ] && [ ! -e "$d/empty.data.old" ]; then
	pass "old: an empty file is written over, no .old, as perf"
else
	fail "old: empty file: $(ls -l "$d" | grep empty | tr '\n' ' ')"
fi
# /dev/null is no file to rename or to cut: peo writes through it, as perf
if "$peo" record -e cpu-clock -o /dev/null -- "$W" -b 20 >/dev/null 2>"$tmp/null.err" && [ -c /dev/null ]; then
	pass "old: -o /dev/null records, and /dev/null stays a device"
else
	fail "old: -o /dev/null: $(head -2 "$tmp/null.err" | tr '\n' ' ')"
fi
no_temp "$d" f.data

# ---- a command that cannot start leaves FILE and FILE.old as they were
cp "$d/f.data" "$tmp/keep"
cp "$d/f.data.old" "$tmp/keep.old"
"$peo" record -e cpu-clock -o "$d/f.data" -- "$tmp/no-such-command" >/dev/null 2>"$tmp/nostart.err"
status=$?
if [ $status -ne 0 ] && grep -q "no-such-command" "$tmp/nostart.err"; then
	pass "no start: peo record fails saying why: $(head -1 "$tmp/nostart.err" | cut -c1-120)"
else
	fail "no start: exit $status, stderr: $(head -2 "$tmp/nostart.err" | tr '\n' ' ')"
fi
if cmp -s "$d/f.data" "$tmp/keep" && cmp -s "$d/f.data.old" "$tmp/keep.old"; then
	pass "no start: f.data and f.data.old are untouched"
else
	fail "no start: f.data or f.data.old changed"
fi
"$peo" record -e cpu-clock -o "$d/new.data" -- "$tmp/no-such-command" >/dev/null 2>&1
if [ ! -e "$d/new.data" ]; then
	pass "no start: no new.data made"
else
	fail "no start: a new.data was made ($(stat -c %s "$d/new.data") bytes)"
fi
no_temp "$d" f.data
no_temp "$d" new.data

# ---- two recorders of one path: the second is refused, the first's file is whole
# busy NAME PATH OTHER: peo record -o PATH runs (its command waits on a
# FIFO); a second peo record -o OTHER must be refused naming PATH and the
# first's pid.  $d/OTHER's content before is kept.
busy() {
	local name=$1 path=$2 other=$3 rec i status before=
	rm -f "$tmp/go"
	mkfifo "$tmp/go"
	exec 9<>"$tmp/go"
	"$peo" record -e cpu-clock -o "$d/$path" -- "$W" -w -b 200 <"$tmp/go" >/dev/null 2>"$tmp/$name.err1" &
	rec=$!
	for ((i = 0; i < 600; i++)); do # FILE gets its name once the command runs
		[ -e "$d/$path" ] && break
		sleep 0.05
	done
	[ "$other" != "$path" ] && [ -e "$d/$other" ] && before=$(md5sum <"$d/$other")
	"$peo" record -e cpu-clock -o "$d/$other" -- "$W" -b 50 >/dev/null 2>"$tmp/$name.err2"
	status=$?
	echo >&9
	exec 9>&-
	wait "$rec"
	if [ $status -ne 0 ] && grep -q "$path is being written by another recorder (pid $rec)" "$tmp/$name.err2"; then
		pass "$name: the second recorder is refused: $(head -1 "$tmp/$name.err2" | cut -c1-140)"
	else
		fail "$name: second recorder: exit $status, stderr: $(head -2 "$tmp/$name.err2" | tr '\n' ' ')"
	fi
	if [ -n "$before" ]; then
		if [ "$(md5sum <"$d/$other")" = "$before" ]; then
			pass "$name: $other is untouched"
		else
			fail "$name: $other changed"
		fi
	fi
	readable "$name" "$d/$path"
	no_temp "$d" "$other"
}
d=$tmp/busy
mkdir "$d"
busy busy f.data f.data
echo "a file that was here" >"$d/g.data"
busy busy_old g.data.old g.data # publishing g.data would replace the g.data.old being written

# ---- a full disk: a 300 KiB tmpfs
full() {
	local name=$1 f samples
	f=$tmp/small/$name.data
	shift
	"$peo" record "$@" -e cpu-clock -F 20000 -o "$f" -- "$W" -b 3000 >/dev/null 2>"$tmp/$name.err"
	status=$?
	if ! grep -q "No space left" "$tmp/$name.err"; then
		skip "$name: the recording fit in 300 KiB (exit $status); nothing to check"
		return
	fi
	if [ $status -ne 0 ] && [ "$(grep -c "No space left" "$tmp/$name.err")" -eq 1 ] &&
		grep "No space left" "$tmp/$name.err" | grep -qF "$f"; then
		pass "$name: peo record fails, saying so once with the path: $(grep 'No space' "$tmp/$name.err" | cut -c1-120)"
	else
		fail "$name: exit $status, stderr: $(head -4 "$tmp/$name.err" | tr '\n' ' ')"
	fi
	read -r off size < <(header "$f")
	if [ "$size" -gt 0 ] && [ $((off + size)) -le "$(stat -c %s "$f")" ]; then
		pass "$name: the header names $size bytes of data, all in the file"
	else
		fail "$name: header data offset $off size $size, file $(stat -c %s "$f") bytes"
	fi
	readable "$name" "$f"
	samples=$(sed -n 's/.*Captured and wrote .*(\([0-9]*\) samples).*/\1/p' "$tmp/$name.err")
	if [ -z "$samples" ]; then # -z's summary gives sizes only, as perf's
		:
	elif [ "$samples" = "$(wc -l <"$tmp/$name.oscript")" ]; then
		pass "$name: the summary counts the $samples samples the file holds"
	else
		fail "$name: the summary says $samples samples; the file holds $(wc -l <"$tmp/$name.oscript")"
	fi
	rm -f "$f"
}
if mkdir "$tmp/small" && mount -t tmpfs -o size=300k tmpfs "$tmp/small" 2>/dev/null; then
	trap 'umount "$tmp/small" 2>/dev/null; rm -rf "$tmp"' EXIT
	full full
	if "$peo" record -z -e cpu-clock -o "$tmp/z.data" -- true >/dev/null 2>"$tmp/z.err"; then
		# compressed 9 to 1 here: a file takes most of the room first
		head -c 220k /dev/zero >"$tmp/small/filler"
		full full_z -z
		rm -f "$tmp/small/filler"
	else
		skip "full_z: peo record -z does not work here: $(head -1 "$tmp/z.err")"
	fi
	no_temp "$tmp/small" full.data
	umount "$tmp/small"
else
	skip "full disk: cannot mount a tmpfs here (needs root)"
fi

# ---- SIGKILL: the header, the attrs and the rounds written so far stay
rm -f "$tmp/go"
mkfifo "$tmp/go"
exec 9<>"$tmp/go"
f=$tmp/killed.data
"$peo" record -e cpu-clock -o "$f" -- "$W" -w -b 5000 <"$tmp/go" >/dev/null 2>&1 &
rec=$!
for ((i = 0; i < 600; i++)); do # named once the command runs
	[ -e "$f" ] && break
	sleep 0.05
done
start=$(stat -c %s "$f" 2>/dev/null || echo 0)
echo >&9
exec 9>&-
for ((i = 0; i < 600; i++)); do # a round of samples written (each goes out as it ends)
	[ "$(stat -c %s "$f" 2>/dev/null || echo 0)" -gt $((start + 4096)) ] && break
	sleep 0.05
done
victim=$(cat "/proc/$rec/task/$rec/children" 2>/dev/null)
{ kill -KILL "$rec"; wait "$rec"; } 2>/dev/null # bash's "Killed" goes too
[ -n "$victim" ] && kill -KILL $victim 2>/dev/null # it outlives peo, as it outlives perf
read -r off size < <(header "$f")
if [ "$(head -c 8 "$f")" = PERFILE2 ] && [ "$size" -eq 0 ] && [ "$(stat -c %s "$f")" -gt "$off" ]; then
	pass "killed: the header (data size 0: not finished, as perf leaves it) and $(($(stat -c %s "$f") - off)) bytes of records after it"
else
	fail "killed: magic $(head -c 8 "$f"), data offset $off size $size, file $(stat -c %s "$f") bytes"
fi
if command -v python3 >/dev/null 2>&1; then
	walked=$(python3 - "$f" "$off" <<'EOF'
import struct, sys
d = open(sys.argv[1], 'rb').read()
at, samples = int(sys.argv[2]), 0
while at + 8 <= len(d):
    t, misc, size = struct.unpack_from('<IHH', d, at)
    if size < 8 or at + size > len(d):
        break
    samples += t == 9
    at += size
print(samples, len(d) - at)
EOF
)
	read -r ksamples torn <<<"$walked"
	if [ "${ksamples:-0}" -gt 0 ]; then
		pass "killed: $ksamples whole samples on disk ($torn bytes after the last whole record)"
	else
		fail "killed: no whole sample after the header ($walked)"
	fi
else
	skip "killed: no python3 to walk the records"
fi
no_temp "$tmp" killed.data

echo "record_faults: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
