#!/usr/bin/env bash
# make run: peo's main job on the bundled workload (tests/workload.c, whose
# work is known exactly): record it, read the recording back, count it.
# Each step says what it shows.  What a step needs and this machine lacks
# (tracefs, which tracepoints need, is mounted here as root; perf) is said
# in a note and the tour goes on; it never stops half-way.  Exits 1 when a
# step failed for any other reason.
set -uo pipefail
build=${1:-build}
peo=$build/peo W=$build/tests/workload
tmp=$(mktemp -d "${TMPDIR:-/tmp}/peo-demo.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C PERF_CONFIG=/dev/null
failed=0

# step "WHAT IT SHOWS": a step's heading.
step() { printf '\n== %s\n' "$1"; }
# show "AS TYPED" CMD...: print the command as a user types it (peo,
# workload, peo.data), run CMD; a failure is said and counted, not fatal.
show() {
	local typed=$1 rc
	shift
	printf '$ %s\n' "$typed"
	"$@"
	rc=$?
	if [ $rc -ne 0 ]; then
		echo "   (this step failed: exit $rc)"
		failed=$((failed + 1))
	fi
	return $rc
}
# note TEXT: a step this machine cannot show, and why.
note() { echo "   (skipped: $*)"; }

echo "\$ peo --version"
"$peo" --version || { echo "no $peo: build first (make)"; exit 1; }
# Tracepoints need tracefs (mounted here if it is not and this is root) and
# the right to open them: probed, and a step without them says why.
tracefs=$(bash "$(dirname "$0")/tracefs.sh")
case $tracefs in *"mounted it"*) echo "($tracefs: tracepoints need it)" ;; esac
if "$peo" record -o "$tmp/probe.data" -e syscalls:sys_enter_getppid -- true >/dev/null 2>"$tmp/probe.err"; then
	have_tp=1
else
	have_tp=0 tp_why=$(grep -m1 'tracefs\|tracepoint\|denied\|paranoid' "$tmp/probe.err" || head -1 "$tmp/probe.err")
	tp_why=${tp_why#peo record: }
	case $tracefs in *"not mounted"*) tp_why=$tracefs ;; esac
fi

step "1. Record: sample a command's CPU into a perf.data (cpu-clock, 4000 samples a second, as perf record)"
echo "   workload -b 200 burns 200 ms of CPU in its function burn_loop()"
show "peo record -o peo.data -- workload -b 200" \
	"$peo" record -o "$tmp/peo.data" -- "$W" -b 200
recorded=$?

step "2. Read it back: one line per sample (command, thread, time, period, event, ip and its function)"
if [ $recorded -eq 0 ]; then
	show "peo script -i peo.data | sed -n '300,303p'    (four samples from the middle)" \
		sh -c '"$1" script -i "$2" | sed -n 300,303p' sh "$peo" "$tmp/peo.data"
	echo "   each ip named as perf script names it, through the maps the file holds:"
	show "peo script -i peo.data --show-mmap-events | grep 'MMAP2.*r-xp.*workload'    (the workload's code)" \
		sh -c '"$1" script -i "$2" --show-mmap-events | grep "MMAP2.*r-xp.*workload"' sh "$peo" "$tmp/peo.data"
	step "3. What the file holds: its records counted by type, as perf report --stats counts them"
	show "peo script -i peo.data --stats" "$peo" script -i "$tmp/peo.data" --stats
	step "3b. Where the time went: the samples by command, binary and function, as perf report prints them"
	show "peo report -i peo.data -q | head -5" \
		sh -c '"$1" report -i "$2" -q | head -5' sh "$peo" "$tmp/peo.data"
	step "4. perf reads peo's file too: its symbols, by perf report"
	if command -v perf >/dev/null 2>&1; then
		show "perf report -i peo.data --sort dso,sym --stdio | head -4" \
			sh -c 'perf report -i "$1" --sort dso,sym --stdio 2>/dev/null | grep -v "^#" | grep . | head -4' \
			sh "$tmp/peo.data"
	else
		note "perf is not installed (Debian: apt-get install linux-perf)"
	fi
else
	note "the recording failed (step 1)"
fi

step "5. Tracepoints: the kernel's own events with their fields, decoded by the formats peo record keeps in the file"
echo "   workload -m 100 maps 100 fresh pages (0x64000 bytes), advises and unmaps them"
if [ $have_tp -eq 1 ]; then
	show "peo record -o tp.data -e syscalls:sys_enter_madvise,syscalls:sys_enter_munmap,sched:sched_process_exit -- workload -m 100" \
		"$peo" record -o "$tmp/tp.data" \
		-e syscalls:sys_enter_madvise,syscalls:sys_enter_munmap,sched:sched_process_exit -- "$W" -m 100 &&
		show "peo script -i tp.data" "$peo" script -i "$tmp/tp.data" &&
		{
			echo "   the same as JSON Lines, for programs (one object per record; the fields by name):"
			show "peo script -i tp.data --json | grep -m1 madvise" \
				sh -c '"$1" script -i "$2" --json | grep -m1 madvise' sh "$peo" "$tmp/tp.data"
		}
else
	note "$tp_why"
fi

step "6. Count: exact counts of what the workload did (20000 getppid calls, 1000 fresh pages, 50 ms of CPU)"
if [ $have_tp -eq 1 ]; then
	events=task-clock,page-faults,syscalls:sys_enter_getppid
else
	events=task-clock,page-faults
	note "the getppid tracepoint: $tp_why"
fi
show "peo stat -e $events -- workload -n 20000 -m 1000 -s 50" \
	"$peo" stat -e "$events" -- "$W" -n 20000 -m 1000 -s 50

step "7. Event strings: the perf_event_attr a perf-style event string encodes to"
show "peo attr page-faults:u" "$peo" attr page-faults:u

step "8. Where the time went, with the callers: a flame graph of the workload 12 calls deep"
echo "   workload -r 12 -b 300 burns 300 ms in burn_loop(), under 12 calls of burn_deep()"
graph=$(realpath "$build")/flamegraph.svg
if show "peo record -g -o deep.data -- workload -r 12 -b 300" \
	"$peo" record -g -o "$tmp/deep.data" -- "$W" -r 12 -b 300; then
	echo "   the busiest function and its callers, as perf report prints its call graph:"
	show "peo report -i deep.data --no-children -q | head -7" \
		sh -c '"$1" report -i "$2" --no-children -q | head -7' sh "$peo" "$tmp/deep.data"
	show "peo report -i deep.data --flamegraph $graph" \
		"$peo" report -i "$tmp/deep.data" --flamegraph "$graph" &&
		echo "   in the browser: a click on a frame zooms to it; Search finds functions"
fi

echo
echo "More: peo features (what this kernel accepts), peo list, peo COMMAND --help."
if [ $failed -ne 0 ]; then
	echo "make run: $failed step(s) failed (above)"
	exit 1
fi
