#!/usr/bin/env bash
# script_vs_perf.sh [PEO [WORKLOAD [RINGS_SYNTH]]] - peo script against perf on a perf.data
# of at least 200 MB made here (a getppid tracepoint sampled on every hit,
# with callchains), each measured in the same run: `peo script --stats` vs
# `perf report --stats`, and `peo script -F ...` (text, and --json) vs
# `perf script -F ...` with the same fields (and JSON against perf data
# convert --to-json, perf's JSON).  Prints the median wall time of
# RUNS (default 5) alternating runs, timed in nanoseconds (time(1)'s 10 ms
# steps are a third of a --stats run), bytes and records per second, peak
# RSS, and the ratios perf/peo (higher is better; the goals: 5x for
# --stats, 20x for script), and the I/O floors: cat reading the file and
# writing the same text, or peo's JSON, the kernel's share that no reader
# can go below.  Then a made-up file as perf record -a writes on 64 CPUs
# (RINGS_SYNTH, tests/rings_synth: 64 rings a round to merge by time),
# text against perf script; sched_switch's long print fmt, default
# fields; and a perf record --threads directory.  The outputs are compared
# too: a benchmark of wrong output is worthless.
set -uo pipefail
peo=${1:-build/peo}
W=${2:-build/tests/workload}
rings_synth=${3:-build/tests/rings_synth}
calls=${CALLS:-2300000}
command -v perf >/dev/null || { echo "script_vs_perf: skipped: perf is not installed"; exit 0; }
export PERF_CONFIG=/dev/null LC_ALL=C
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
export PEO_DEBUG_CACHE=$tmp/debug-cache # peo's own, not the user's
f=$tmp/big.data
perf record -q -m 512 -o "$f" -g -e syscalls:sys_enter_getppid -c 1 -- "$W" -n "$calls" >/dev/null 2>&1 ||
	{ echo "script_vs_perf: skipped: perf record of the getppid tracepoint fails here"; exit 0; }
size=$(stat -c %s "$f")
# records_in FILE: how many records FILE holds
records_in() { "$peo" script -i "$1" --stats | awk '/TOTAL events/ { print $3 }'; }
records=$(records_in "$f")

runs=${RUNS:-5}

# time_of LABEL CMD...: wall seconds and peak KiB of one run, output to
# $tmp/LABEL.out; a run that fails stops the benchmark (its time would be
# worthless, and formats not compared would hide it).
time_of() {
	local label=$1 start end rc; shift
	rm -f "$tmp/$label.out" # truncating the last run's output is not the tool's time
	start=$(date +%s%N)
	/usr/bin/time -f "%M" -o "$tmp/$label.time" "$@" >"$tmp/$label.out" 2>"$tmp/$label.err"
	rc=$?
	end=$(date +%s%N)
	if [ $rc != 0 ]; then
		echo "script_vs_perf: $* failed (exit $rc): $(head -c 300 "$tmp/$label.err")" >&2
		exit 1
	fi
	echo "$(( (end - start) / 1000 )) $(cat "$tmp/$label.time")" |
		awk '{ printf "%.4f %s\n", $1 / 1e6, $2 }'
}
. "$(dirname "$0")/common.sh" # median

# compare TITLE PEO-ARGS -- PERF-ARGS: $runs alternating runs of each.
compare() {
	local title=$1 peo_args perf_args i
	shift
	peo_args=()
	while [ "$1" != "--" ]; do peo_args+=("$1"); shift; done
	shift
	perf_args=("$@")
	: >"$tmp/p.t"; : >"$tmp/f.t"
	for (( i = 0; i < runs; i++ )); do
		time_of peo "$peo" "${peo_args[@]}" >>"$tmp/p.t"
		time_of perf perf "${perf_args[@]}" >>"$tmp/f.t"
	done
	local same=identical
	[ "$title" = "${title#JSON}" ] || same="not compared: other formats"
	[ "$same" != identical ] || cmp -s "$tmp/peo.out" "$tmp/perf.out" || same="DIFFERENT"
	local pt pm ft fm
	pt=$(cut -d' ' -f1 "$tmp/p.t" | median); pm=$(cut -d' ' -f2 "$tmp/p.t" | sort -n | tail -1)
	ft=$(cut -d' ' -f1 "$tmp/f.t" | median); fm=$(cut -d' ' -f2 "$tmp/f.t" | sort -n | tail -1)
	awk -v t="$title" -v pt="$pt" -v pm="$pm" -v ft="$ft" -v fm="$fm" -v sz="$size" -v n="$records" -v same="$same" 'BEGIN {
		if (pt < 0.0001) pt = 0.0001
		printf "%s (outputs %s)\n", t, same
		printf "  %-6s %7.3f s %9.0f MB/s %11.0f records/s %8d KiB peak\n", "peo", pt, sz / pt / 1e6, n / pt, pm
		printf "  %-6s %7.3f s %9.0f MB/s %11.0f records/s %8d KiB peak\n", "perf", ft, sz / ft / 1e6, n / ft, fm
		printf "  perf/peo: %.1fx time, %.1fx memory\n", ft / pt, fm / pm
		printf "RESULT|peo script, %s MB file: %s|%.3f s|perf|%.3f s|%.1f\n", int(sz / 1e6), t, pt, ft, ft / pt
		printf "RESULT|peo script, %s MB file: %s: peak RSS|%d KiB|perf|%d KiB|%.1f\n", int(sz / 1e6), t, pm, fm, fm / pm
	}'
}

echo "# script_vs_perf: $(( size / 1000000 )) MB, $records records ($calls getppid samples with callchains)"
compare "--stats vs perf report --stats" script -i "$f" --stats -- report -i "$f" --stats
compare "text: -F pid,tid,time,ip,event" script -i "$f" -F pid,tid,time,ip,event -- script -i "$f" -F pid,tid,time,ip,event
# io_floor WHAT OUT: the kernel's share alone, cat reading the file and
# writing OUT (the compare just above's output; no parsing, no formatting),
# against that compare's perf time (f.t).  No reader of this file writing
# this text is faster on this machine, so perf/floor bounds what any ratio
# can reach.
io_floor() {
	local what=$1 out=$2 i
	: >"$tmp/floor.t"
	for (( i = 0; i < runs; i++ )); do
		# shellcheck disable=SC2016 # $1 and $2 are the inner shell's
		time_of floor sh -c 'cat "$1" >/dev/null && cat "$2"' sh "$f" "$out" >>"$tmp/floor.t"
	done
	awk -v fl="$(cut -d' ' -f1 "$tmp/floor.t" | median)" -v ft="$(cut -d' ' -f1 "$tmp/f.t" | median)" \
		-v sz="$(( size / 1000000 ))" -v what="$what" -v mb="$(( $(stat -c %s "$out") / 1000000 ))" 'BEGIN {
		printf "I/O floor (cat reads the file, cat writes the %s: %s MB; nothing parsed)\n", what, mb
		printf "  %-6s %7.3f s: perf/floor %.1fx, the most any reader writing this %s can reach here\n", "cat", fl, ft / fl, what
		printf "RESULT|I/O floor, %s MB file: cat it, cat the %s|%.3f s|perf script|%.3f s|%.1f\n", sz, what, fl, ft, ft / fl
	}'
}
io_floor "-F pid,tid,time,ip,event text" "$tmp/perf.out"
# peo's default for this tracepoint is perf's less symbols: its fields, cpu, and the callchain
compare "text: default fields vs perf script -F comm,tid,cpu,time,event,trace,ip" script -i "$f" -- script -i "$f" -F comm,tid,cpu,time,event,trace,ip
compare "JSON Lines vs perf script -F pid,tid,time,ip,event" script -i "$f" --json -- script -i "$f" -F pid,tid,time,ip,event
io_floor "JSON Lines" "$tmp/peo.out" # peo's JSON: more bytes than the text
# Where there are the cores (the JSON default is then 6 workers): JSON
# with text's 4, to see on a many-core machine whether the 2 more help.
if [ "$(nproc)" -ge 8 ]; then
	compare "JSON Lines --workers 4 vs perf script -F pid,tid,time,ip,event" \
		script -i "$f" --json --workers 4 -- script -i "$f" -F pid,tid,time,ip,event
fi
# perf's own JSON (it resolves symbols too; one object for the file, indented)
if [[ $(perf data convert -h 2>&1) == *--to-json* ]]; then # (grep -q's early exit fails a pipefail pipe)
	compare "JSON Lines vs perf data convert --to-json" script -i "$f" --json -- \
		data convert -f -i "$f" --to-json "$tmp/perf.json"
	rm -f "$tmp/perf.json"
fi

# Time order over many rings: 64 CPUs' rings a round, 1.28 million samples.
if [ -x "$rings_synth" ] && "$rings_synth" "$tmp/rings.data" 20 64 1000; then
	big_size=$size big_records=$records # compare's figures are of the file it reads
	size=$(stat -c %s "$tmp/rings.data")
	records=$(records_in "$tmp/rings.data")
	echo "# 64 rings a round (as perf record -a on 64 CPUs): $(( size / 1000000 )) MB, $records records"
	compare "text, 64 rings a round: -F tid,time,ip" script -i "$tmp/rings.data" -F tid,time,ip -- \
		script -i "$tmp/rings.data" -F tid,time,ip
	size=$big_size records=$big_records
	rm -f "$tmp/rings.data"
else
	echo "# 64 rings a round: skipped: $rings_synth could not write the file (built? pass its path third)"
fi

# A tracepoint whose print fmt is long: sched_switch (prev_state's mask and
# flags table, ~150 tokens), every switch of perf bench sched pipe on every
# CPU, printed by both by default (its fields as the print fmt says).
sw=$tmp/sched_switch.data
if perf record -q -m 1024 -a -o "$sw" -e sched:sched_switch -- \
	perf bench sched pipe -l "${SWITCHES:-150000}" >/dev/null 2>&1; then
	big_size=$size big_records=$records
	size=$(stat -c %s "$sw")
	records=$(records_in "$sw")
	echo "# sched:sched_switch of perf bench sched pipe: $(( size / 1000000 )) MB, $records records"
	compare "text, sched_switch's print fmt: default fields" script -i "$sw" -- script -i "$sw"
	size=$big_size records=$big_records
	rm -f "$sw"
else
	echo "# sched_switch: skipped: perf record -a -e sched:sched_switch fails here"
fi

# A --threads directory (a data file per ring, each sorted by a first pass
# over it, as perf sorts the directory whole): the workload's 2 threads
# spinning, sampled every 2 us of cpu-clock.
dir=$tmp/threads.data
if perf record -q --threads -o "$dir" -e cpu-clock -c 2000 -- "$W" -s "${SPIN_MS:-8000}" -T 2 \
	>/dev/null 2>&1; then
	big_size=$size big_records=$records
	size=$(du -sb "$dir" | cut -f1)
	records=$(records_in "$dir")
	echo "# perf record --threads directory: $(( size / 1000000 )) MB, $records records"
	compare "text, --threads directory: -F pid,tid,time,ip,event" script -i "$dir" -F pid,tid,time,ip,event -- \
		script -i "$dir" -F pid,tid,time,ip,event
	size=$big_size records=$big_records
	rm -rf "$dir"
else
	echo "# --threads directory: skipped: perf record --threads fails here"
fi

# Peak memory against file size: a file a quarter the size, read the same ways.
small=$tmp/small.data
perf record -q -m 512 -o "$small" -g -e syscalls:sys_enter_getppid -c 1 -- "$W" -n $(( calls / 4 )) >/dev/null 2>&1 &&
{
	echo "peak memory of peo against file size:"
	for file in "$small" "$f"; do
		line="  $(( $(stat -c %s "$file") / 1000000 )) MB:"
		for mode in "--stats" "-F pid,tid,time,ip,event" "--json"; do
			# shellcheck disable=SC2086
			kib=$(time_of mem "$peo" script -i "$file" $mode | cut -d' ' -f2) || exit 1
			line="$line  $mode $kib KiB"
			echo "$mode|$kib" >>"$tmp/mem.$([ "$file" = "$f" ] && echo big || echo small)"
		done
		echo "$line"
	done
	paste -d'|' "$tmp/mem.small" "$tmp/mem.big" | awk -F'|' -v s="$(( $(stat -c %s "$small") / 1000000 ))" \
		-v b="$(( size / 1000000 ))" '{
		printf "RESULT|peo script %s: peak RSS on the %s MB file|%d KiB|the %s MB file|%d KiB|%.2f\n",
			$1, b, $4, s, $2, $2 / $4 }'
}
