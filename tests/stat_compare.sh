#!/usr/bin/env bash
# stat_compare.sh PEO WORKLOAD - compare `peo stat` with `perf stat` and with
# the truth.
#
# WORKLOAD is tests/workload, whose work is known exactly (-n N getppid calls,
# -m M fresh pages, -s MS of spinning, -e STATUS, -k SIGNAL, -w to wait for a
# byte on stdin first).  The checks:
#    1. exact tracepoint counts (syscalls:sys_enter_getppid), peo and perf
#    2. page-faults and task-clock close to perf's
#    3. the default event list and the human table's header and footer
#    4. -x, field counts and -j key sets equal to perf's, line by line
#    5. -I intervals
#    6. targets: -p, -t, -a, -C, -A -a
#    7. the exit status is the command's
#    8. SIGINT still prints the totals
#    9. -o FILE
#   10. errors name the bad event / CPU
#   11. -G CGROUPS (a cgroup this script makes and removes; skipped, and
#       said so, where no cgroup can be made): the count and its runtime,
#       -x cgroup field and -j "cgroup" key as perf's, one cgroup per event
#       (exact getppid counts), and the errors
#   12. lists and --per-thread: -p A,B and -t A,B count exactly the sum of
#       two workloads' getppid calls and end by themselves when both have;
#       the header names the list as given; --per-thread -p/-t A,B print one
#       line per thread and event with perf's -x fields and -j keys;
#       --per-thread -a prints each thread with a non-zero count (a
#       workload's exactly), as perf 6.1 does; bad lists and --per-thread
#       without -p/-t/-a are refused by both
# Each check prints PASS or FAIL with what it compared.  Exits 1 when any
# check fails, 77 (skip) when perf is missing or cannot count the getppid
# tracepoint here, else 0.
set -u

peo=${1:?usage: stat_compare.sh PEO WORKLOAD}
workload=${2:?usage: stat_compare.sh PEO WORKLOAD}

# perf must not read a user's ~/.perfconfig; numbers are printed the C way.
export PERF_CONFIG=/dev/null
export LC_ALL=C

getppid_ev=syscalls:sys_enter_getppid
# tracefs_mount, wait_counting (the helpers only: this script counts its own)
. "$(dirname "$0")/compare_common.sh"

# ------------------------------------------------------------------ skips
if ! command -v perf >/dev/null 2>&1; then
	echo "SKIP: perf is not installed; nothing to compare peo stat with"
	exit 77
fi
tracefs_mount # a fresh machine has none: the tracepoint checks need it
if [ -n "$tracefs_why" ]; then
	echo "SKIP: $tracefs_why"
	exit 77
fi
if ! perf stat -e "$getppid_ev" true >/dev/null 2>&1; then
	echo "SKIP: 'perf stat -e $getppid_ev true' fails here; the tracepoint is unavailable"
	exit 77
fi
for f in "$peo" "$workload"; do
	if [ ! -x "$f" ]; then
		echo "FAIL: '$f' is not executable"
		exit 1
	fi
done
if ! command -v python3 >/dev/null 2>&1; then
	echo "SKIP: python3 is not installed; it checks the -j lines"
	exit 77
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/peo-stat-compare.XXXXXX") || exit 1
bg_pids=()
cleanup() {
	local p
	for p in "${bg_pids[@]}"; do
		kill -KILL "$p" 2>/dev/null
	done
	exec 9>&- 2>/dev/null
	wait 2>/dev/null
	[ -n "${cg_dir:-}" ] && rmdir "$cg_dir" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---------------------------------------------------------------- helpers
npass=0
nfail=0
nskip=0
skip() { nskip=$((nskip + 1)); printf 'SKIP  %s\n' "$*"; }
pass() { npass=$((npass + 1)); printf 'PASS  %s\n' "$*"; }
fail() { nfail=$((nfail + 1)); printf 'FAIL  %s\n' "$*"; }
# detail FILE...: indented copy of files, for a FAIL's explanation.
detail() { local f; for f; do sed 's/^/        | /' "$f"; done; }
check() { # check COND-EXIT-STATUS MESSAGE
	if [ "$1" -eq 0 ]; then pass "$2"; else fail "$2"; fi
}

# run_peo OUT ARGS...: `peo stat ARGS`, its stderr (where the counts go) in
# OUT, the command's stdout discarded; returns peo's exit status.
run_peo() {
	local out=$1
	shift
	"$peo" stat "$@" >/dev/null 2>"$out"
}
# run_perf OUT ARGS...: the same with `perf stat`.  perf 6.1's --per-thread
# -a gives up when a process exits while it lists /proc ("failed to parse
# CPUs map"): that run is tried again, up to three times.  Its warning for a
# thread that ended before its name was read is no count line: dropped.
run_perf() {
	local out=$1 rc i
	shift
	for i in 1 2 3; do
		perf stat "$@" >/dev/null 2>"$out"
		rc=$?
		grep -q '^failed to parse CPUs map' "$out" || break
	done
	sed -i "/^Couldn't resolve comm name for pid [0-9]*\$/d" "$out"
	return $rc
}

# Background commands of a script ignore SIGINT (bash, without job control);
# a user's Ctrl-C reaches a foreground command with SIGINT at its default.
# start_bg OUT CMD...: start CMD that way, stderr to OUT; sets bg_pid.
if env --default-signal=INT true 2>/dev/null; then
	sigdefault=(env --default-signal=INT)
else
	sigdefault=()
fi
start_bg() {
	local out=$1
	shift
	"${sigdefault[@]}" "$@" >/dev/null 2>"$out" &
	bg_pid=$!
	bg_pids+=("$bg_pid")
}
# wait_bg PID SECONDS: wait for PID to end (killing it after SECONDS);
# sets bg_rc.  Returns 1 if it had to be killed.
wait_bg() {
	local pid=$1 limit=$2 i
	for ((i = 0; i < limit * 10; i++)); do
		running "$pid" || break
		sleep 0.1
	done
	if running "$pid"; then
		kill -KILL "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
		bg_rc=137
		return 1
	fi
	wait "$pid" 2>/dev/null
	bg_rc=$?
	return 0
}
# running PID: PID exists and is not a zombie waiting to be reaped.
running() {
	local st
	st=$(awk '{ sub(/^.*\) /, ""); print $1 }' "/proc/$1/stat" 2>/dev/null) || return 1
	[ -n "$st" ] && [ "$st" != Z ]
}

# exit_status CMD...: "exit N" or "signal S" for how CMD ended (bash's $?
# cannot tell 143 from death by SIGTERM).  CMD's stderr goes to $tmp/es.err.
exit_status() {
	python3 - "$@" 2>/dev/null <<'EOF'
import os, subprocess, sys
with open(os.environ["ES_ERR"], "w") as err:
    r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=err)
print("signal %d" % -r.returncode if r.returncode < 0 else "exit %d" % r.returncode)
EOF
}
export ES_ERR=$tmp/es.err

# csv_lines FILE: the non-empty lines of a -x, output.
csv_lines() { grep -v '^[[:space:]]*$' "$1"; }
# field_count LINE: number of -x, fields.
field_count() { awk -F, '{ print NF }' <<<"$1"; }
# csv_event LINE PREFIX: the event field of a -x, line with PREFIX leading
# columns (CPU, comm-tid, timestamp).
csv_event() { awk -F, -v i=$(($2 + 3)) '{ print $i }' <<<"$1"; }
# csv_value FILE EVENT [PREFIX]: the value column of EVENT's first line.
csv_value() {
	awk -F, -v ev="$2" -v p="${3:-0}" '$(p + 3) == ev { print $(p + 1); exit }' "$1"
}
# csv_values FILE EVENT [PREFIX]: the value column of all of EVENT's lines.
csv_values() {
	awk -F, -v ev="$2" -v p="${3:-0}" '$(p + 3) == ev { print $(p + 1) }' "$1"
}
# median3 A B C
median3() { printf '%s\n' "$@" | sort -g | sed -n 2p; }
# fcmp EXPR: awk's truth of a numeric expression as an exit status.
fcmp() { awk "BEGIN { exit !($1) }"; }
squeeze() { tr -s ' ' <<<"$1" | sed 's/^ //; s/ $//'; }
is_number() { [[ $1 =~ ^[0-9]+(\.[0-9]+)?$ ]]; }

# human_events FILE: the event names of a human table, in order (the text
# before '#', without "( 50.00%)" notes; the last word is the event).
human_events() {
	awk '/ Performance counter stats for/ { on = 1; next }
	     /seconds time elapsed/ { on = 0 }
	     on && NF { sub(/#.*/, ""); gsub(/\([^)]*\)/, ""); if (NF) print $NF }' "$1"
}
# human_not_supported FILE: events whose value is <not supported>.
human_not_supported() {
	awk '/ Performance counter stats for/ { on = 1; next }
	     /seconds time elapsed/ { on = 0 }
	     on && /<not supported>/ { sub(/#.*/, ""); print $NF }' "$1"
}

# online_cpus: the online CPU numbers, one a line.
online_cpus() {
	local r a b
	tr ',' '\n' </sys/devices/system/cpu/online | while IFS=- read -r a b; do
		[ -n "$a" ] || continue
		for ((r = a; r <= ${b:-$a}; r++)); do echo "$r"; done
	done
}

# compare_csv MODE PREFIX PEOFILE PERFFILE [same-lines]: every -x, line of
# peo has perf's field count for the same event; every event of perf's is
# in peo's output.  With same-lines, the line counts must match too.
compare_csv() {
	local mode=$1 prefix=$2 pf=$3 rf=$4 same=${5:-}
	local -A nf_perf=()
	local line ev nf bad=0 why="" npeo=0 nperf=0
	while IFS= read -r line; do
		nperf=$((nperf + 1))
		ev=$(csv_event "$line" "$prefix")
		ev=${ev:-(no event field)}
		[ -n "${nf_perf[$ev]+x}" ] || nf_perf[$ev]=$(field_count "$line")
	done < <(csv_lines "$rf")
	local -A seen=()
	while IFS= read -r line; do
		npeo=$((npeo + 1))
		ev=$(csv_event "$line" "$prefix")
		ev=${ev:-(no event field)}
		nf=$(field_count "$line")
		seen[$ev]=1
		if [ -z "${nf_perf[$ev]+x}" ]; then
			bad=1; why+="\n        peo line for an event perf did not print: $line"
		elif [ "$nf" != "${nf_perf[$ev]}" ]; then
			bad=1
			why+="\n        $nf fields (perf: ${nf_perf[$ev]}): peo:  $line"
			why+="\n                                        perf: $(grep -m1 -F ",$ev," "$rf")"
		fi
	done < <(csv_lines "$pf")
	for ev in "${!nf_perf[@]}"; do
		[ -n "${seen[$ev]+x}" ] || { bad=1; why+="\n        perf printed $ev, peo did not"; }
	done
	if [ -n "$same" ] && [ "$npeo" -ne "$nperf" ]; then
		bad=1; why+="\n        $npeo lines from peo, $nperf from perf"
	fi
	if [ "$nperf" -eq 0 ]; then
		bad=1; why+="\n        perf printed no lines (test problem)"
	fi
	if [ $bad -eq 0 ]; then
		pass "-x, $mode: $npeo peo lines, each with perf's field count for its event (perf: $nperf lines)"
	else
		fail "-x, $mode: field counts differ from perf's$(printf '%b' "$why")"
	fi
}

# compare_json MODE PEOFILE PERFFILE: every -j line of peo parses and has the
# key set of perf's line for the same event.
compare_json() {
	local mode=$1 pf=$2 rf=$3 out
	out=$(python3 - "$pf" "$rf" <<'EOF'
import json, sys
def lines(path):
    with open(path) as f:
        return [l.rstrip("\n") for l in f if l.strip()]
bad = []
perf = {}
for l in lines(sys.argv[2]):
    try:
        o = json.loads(l)
    except ValueError as e:
        bad.append("perf's own line does not parse (%s): %s" % (e, l))
        continue
    perf.setdefault(o.get("event"), (sorted(o), l))
seen = set()
n = 0
for l in lines(sys.argv[1]):
    n += 1
    try:
        o = json.loads(l)
    except ValueError as e:
        bad.append("not JSON (%s): %s" % (e, l))
        continue
    if not isinstance(o, dict):
        bad.append("not an object: %s" % l)
        continue
    ev = o.get("event")
    seen.add(ev)
    if ev not in perf:
        bad.append("event perf did not print: %s" % l)
        continue
    keys, pl = perf[ev]
    if sorted(o) != keys:
        extra = sorted(set(o) - set(keys))
        missing = sorted(set(keys) - set(o))
        bad.append("keys differ (peo extra %s, peo missing %s):\n          peo:  %s\n          perf: %s"
                   % (extra, missing, l, pl))
for ev in perf:
    if ev not in seen:
        bad.append("perf printed %s, peo did not" % ev)
if not perf:
    bad.append("perf printed no lines (test problem)")
print("%d %d" % (n, len(perf)))
for b in bad:
    print("        " + b)
sys.exit(1 if bad else 0)
EOF
	)
	local rc=$? first rest
	first=${out%%$'\n'*}
	rest=${out#"$first"}
	if [ $rc -eq 0 ]; then
		pass "-j $mode: ${first%% *} peo lines parse as JSON, each with perf's key set for its event (${first##* } perf events)"
	else
		fail "-j $mode: JSON lines differ from perf's$rest"
	fi
}

# fifo_workload ARGS...: start `workload -w ARGS` reading a FIFO whose write
# end is fd 9; sets wl_pid.  `feed_workload` releases it.
fifo_workload() {
	rm -f "$tmp/fifo"
	mkfifo "$tmp/fifo"
	"$workload" -w "$@" <"$tmp/fifo" &
	wl_pid=$!
	bg_pids+=("$wl_pid")
	exec 9>"$tmp/fifo"
}
feed_workload() {
	echo x >&9
	exec 9>&-
	wait "$wl_pid"
}
# A command that says when it starts and runs until this script tells it
# to end, so that a tool counts a workload (-t, -a) from before it works
# until after, however long each takes on this machine.  peo and perf
# start their command once every counter is open and enabled (--per-thread
# -a opens hundreds, one by one): tell_open before starting the tool (the
# FIFOs opened read-write, so nothing blocks), tell_started to wait (at
# most 30 s) for the command, tell_end once the work is done.
until_told=(sh -c 'echo >"$1"; read -r _ <"$2"' sh "$tmp/started" "$tmp/told")
tell_open() {
	rm -f "$tmp/told" "$tmp/started"
	mkfifo "$tmp/told" "$tmp/started"
	exec 8<>"$tmp/told" 7<>"$tmp/started"
}
tell_started() {
	read -t 30 -r _ <&7
}
tell_end() {
	echo >&8
	exec 8>&- 7>&-
}

W=$workload
echo "peo: $peo"
echo "perf: $(perf --version)"
echo "workload: $W"
echo

# ====================================================== 1. exact tracepoint
echo "== 1. $getppid_ev for 'workload -n 20000'"
run_peo "$tmp/1.peo" -x, -e "$getppid_ev" -- "$W" -n 20000
rc_peo=$?
run_perf "$tmp/1.perf" -x, -e "$getppid_ev" -- "$W" -n 20000
v_peo=$(csv_value "$tmp/1.peo" "$getppid_ev")
v_perf=$(csv_value "$tmp/1.perf" "$getppid_ev")
if [ $rc_peo -eq 0 ] && [ "$v_peo" = 20000 ]; then
	pass "peo counts $getppid_ev = $v_peo (expected 20000)"
else
	fail "peo counts $getppid_ev = '${v_peo}' (expected 20000), exit $rc_peo"; detail "$tmp/1.peo"
fi
if [ -n "$v_perf" ] && [ "$v_peo" = "$v_perf" ]; then
	pass "peo's count equals perf's ($v_perf)"
else
	fail "peo's count '$v_peo' differs from perf's '$v_perf'"
fi

# ======================================================= 2. faults and time
echo
echo "== 2. page-faults ('workload -m 5000') and task-clock ('workload -s 200')"
pf_peo=()
pf_perf=()
for i in 1 2 3; do
	run_peo "$tmp/2.peo" -x, -e page-faults -- "$W" -m 5000
	pf_peo+=("$(csv_value "$tmp/2.peo" page-faults)")
	run_perf "$tmp/2.perf" -x, -e page-faults -- "$W" -m 5000
	pf_perf+=("$(csv_value "$tmp/2.perf" page-faults)")
done
m_peo=$(median3 "${pf_peo[@]}")
m_perf=$(median3 "${pf_perf[@]}")
if is_number "$m_peo" && is_number "$m_perf" && fcmp "$m_peo - $m_perf <= 50 && $m_perf - $m_peo <= 50" &&
	fcmp "$m_peo >= 5000"; then
	pass "page-faults median peo $m_peo (${pf_peo[*]}) vs perf $m_perf (${pf_perf[*]}): within 50, >= 5000"
else
	fail "page-faults median peo '$m_peo' (${pf_peo[*]}) vs perf '$m_perf' (${pf_perf[*]}): not within 50 or < 5000"
	detail "$tmp/2.peo"
fi
run_peo "$tmp/2t.peo" -x, -e task-clock -- "$W" -s 200
run_perf "$tmp/2t.perf" -x, -e task-clock -- "$W" -s 200
tc_peo=$(csv_value "$tmp/2t.peo" task-clock)
tc_perf=$(csv_value "$tmp/2t.perf" task-clock)
unit_peo=$(awk -F, '$3 == "task-clock" { print $2; exit }' "$tmp/2t.peo")
if is_number "$tc_peo" && is_number "$tc_perf" && fcmp "$tc_peo >= 190 && $tc_perf >= 190" &&
	fcmp "$tc_peo / $tc_perf >= 0.5 && $tc_peo / $tc_perf <= 2"; then
	pass "task-clock peo $tc_peo $unit_peo vs perf $tc_perf msec: both >= 190, ratio within [0.5, 2]"
else
	fail "task-clock peo '$tc_peo' '$unit_peo' vs perf '$tc_perf' msec: want both >= 190 msec, ratio within [0.5, 2]"
	detail "$tmp/2t.peo"
fi

# ===================================================== 3. default, human
echo
echo "== 3. default events, human output ('workload -n 100')"
run_peo "$tmp/3.peo" -- "$W" -n 100
run_perf "$tmp/3.perf" -- "$W" -n 100
ev_peo=$(human_events "$tmp/3.peo" | tr '\n' ' ')
ev_perf=$(human_events "$tmp/3.perf" | tr '\n' ' ')
if [ -n "$ev_perf" ] && [ "$ev_peo" = "$ev_perf" ]; then
	pass "same default events in the same order: $ev_peo"
else
	fail "default events differ: peo [$ev_peo] perf [$ev_perf]"; detail "$tmp/3.peo"
fi
ns_peo=$(human_not_supported "$tmp/3.peo" | tr '\n' ' ')
ns_perf=$(human_not_supported "$tmp/3.perf" | tr '\n' ' ')
if [ "$ns_peo" = "$ns_perf" ]; then
	pass "same events <not supported>: [${ns_peo% }]"
else
	fail "<not supported> events differ: peo [$ns_peo] perf [$ns_perf]"
fi
hdr_perf=$(grep -m1 'Performance counter stats for' "$tmp/3.perf")
hdr_peo=$(grep -m1 'Performance counter stats for' "$tmp/3.peo")
if [ -n "$hdr_peo" ] && [ "$hdr_peo" = "$hdr_perf" ]; then
	pass "header line equals perf's: '$hdr_peo'"
else
	fail "header line: peo '$hdr_peo' perf '$hdr_perf'"
fi
for what in 'seconds time elapsed' 'seconds user' 'seconds sys'; do
	line=$(grep -E "^ +[0-9]+\.[0-9]{9} $what\$" "$tmp/3.peo")
	if [ -n "$line" ]; then
		pass "'$what' line present: '$line'"
	else
		fail "no '   N.NNNNNNNNN $what' line in peo's output (perf: '$(grep -m1 "$what" "$tmp/3.perf")')"
	fi
done
# System-wide, perf counts cpu-clock where a command's count uses task-clock.
run_peo "$tmp/3a.peo" -a -- "$W" -n 100
run_perf "$tmp/3a.perf" -a -- "$W" -n 100
ev_peo=$(human_events "$tmp/3a.peo" | tr '\n' ' ')
ev_perf=$(human_events "$tmp/3a.perf" | tr '\n' ' ')
if [ -n "$ev_perf" ] && [ "$ev_peo" = "$ev_perf" ]; then
	pass "-a: same default events in the same order: $ev_peo"
else
	fail "-a: default events differ: peo [$ev_peo] perf [$ev_perf]"
	echo "        peo:";  detail "$tmp/3a.peo"
	echo "        perf:"; detail "$tmp/3a.perf"
fi
# The table's shape, blank lines included: same number of lines as perf's.
n_peo=$(wc -l <"$tmp/3.peo")
n_perf=$(wc -l <"$tmp/3.perf")
if [ "$n_peo" -eq "$n_perf" ]; then
	pass "human output has perf's $n_perf lines (blank lines included)"
else
	fail "human output has $n_peo lines, perf's $n_perf"
	echo "        peo:";  detail "$tmp/3.peo"
	echo "        perf:"; detail "$tmp/3.perf"
fi

# ================================================== 4. machine-readable
# compare_formats TAG [cgroup]: for each mode on stdin, "NAME|PREFIX COLUMNS|
# SAME-LINES|ARGS", run peo and perf with -x, and with -j, and compare the
# fields and keys line by line (and the cgroup column's place and values).
compare_formats() {
	local tag=$1 cgroup=${2:-} modes fmt name prefix same args
	modes=$(cat)
	for fmt in x j; do
		if [ $fmt = x ]; then fo=("-x,"); else fo=(-j); fi
		while IFS='|' read -r name prefix same args; do
			# shellcheck disable=SC2086  # ARGS split on purpose
			eval "set -- $args"
			run_peo "$tmp/$tag.peo" "${fo[@]}" "$@"
			run_perf "$tmp/$tag.perf" "${fo[@]}" "$@"
			if [ $fmt = x ]; then
				compare_csv "$name" "$prefix" "$tmp/$tag.peo" "$tmp/$tag.perf" "$same"
				[ -z "$cgroup" ] || compare_cgroup_csv "$name" "$prefix" "$tmp/$tag.peo" "$tmp/$tag.perf"
			else
				compare_json "$name" "$tmp/$tag.peo" "$tmp/$tag.perf"
				[ -z "$cgroup" ] || compare_cgroup_json "$name" "$tmp/$tag.peo" "$tmp/$tag.perf"
			fi
		done <<<"$modes"
	done
}

echo
echo "== 4. -x, field counts and -j key sets against perf's"
evlist="task-clock,page-faults,context-switches,$getppid_ev,cycles"
# Spinning process for --per-thread -p (counted for the duration of sleep).
"$W" -s 60000 &
spin_pid=$!
bg_pids+=("$spin_pid")
sleep 0.2
compare_formats 4 <<EOF
default events|0|same|-- "$W" -n 2000 -m 100
-e list|0|same|-e $evlist -- "$W" -n 2000 -m 100
-A -a|1|same|-A -a -e $evlist -- "$W" -n 2000
--per-thread -p|1||--per-thread -p $spin_pid -e task-clock,page-faults,$getppid_ev -- sleep 0.3
-I 100|1||-I 100 -e $evlist -- "$W" -s 250
-r 3|0|same|-r 3 -- "$W" -n 2000 -m 100
-r 3 -e list|0|same|-r 3 -e $evlist -- "$W" -n 2000 -m 100
EOF
kill "$spin_pid" 2>/dev/null
wait "$spin_pid" 2>/dev/null

# ============================================================ 5. intervals
echo
echo "== 5. -I 100 on 'workload -s 350'"
run_peo "$tmp/5.peo" -x, -I 100 -e task-clock,page-faults -- "$W" -s 350
run_perf "$tmp/5.perf" -x, -I 100 -e task-clock,page-faults -- "$W" -s 350
for ev in task-clock page-faults; do
	res=$(awk -F, -v ev="$ev" '
		$4 == ev {
			n++
			if ($1 !~ /^ *[0-9]+\.[0-9]+$/) { bad = bad " non-timestamp first column \"" $1 "\";" }
			else if (n > 1 && $1 + 0 <= last) { bad = bad " timestamp " $1 " after " last ";" }
			last = $1 + 0
		}
		END { printf "%d|%s", n, bad }' "$tmp/5.peo")
	n=${res%%|*}
	bad=${res#*|}
	n_perf=$(awk -F, -v ev="$ev" '$4 == ev' "$tmp/5.perf" | wc -l)
	if [ "$n" -ge 3 ] && [ -z "$bad" ]; then
		pass "-I 100: $n $ev intervals (perf: $n_perf), timestamps first and increasing"
	else
		fail "-I 100: $n $ev intervals (want >= 3; perf: $n_perf)$bad"; detail "$tmp/5.peo"
	fi
done

# =============================================================== 6. targets
echo
echo "== 6. targets"
# -p: attach to a waiting workload, let it run, then Ctrl-C peo.
fifo_workload -n 20000
start_bg "$tmp/6p.peo" "$peo" stat -x, -e "$getppid_ev" -p "$wl_pid"
peo_pid=$bg_pid
wait_counting "$peo_pid" # the counter open before the workload starts, however long it takes
feed_workload
sleep 0.3
kill -INT "$peo_pid" 2>/dev/null
wait_bg "$peo_pid" 10
rc=$bg_rc
v=$(csv_value "$tmp/6p.peo" "$getppid_ev")
# perf the same way, for reference.
fifo_workload -n 20000
start_bg "$tmp/6p.perf" perf stat -x, -e "$getppid_ev" -p "$wl_pid"
perf_pid=$bg_pid
wait_counting "$perf_pid"
feed_workload
sleep 0.3
kill -INT "$perf_pid" 2>/dev/null
wait_bg "$perf_pid" 10
v_perf=$(csv_value "$tmp/6p.perf" "$getppid_ev")
if [ "$v" = 20000 ]; then
	pass "-p PID (then SIGINT): $getppid_ev = $v (expected 20000; perf: $v_perf; peo exit $rc)"
else
	fail "-p PID (then SIGINT): $getppid_ev = '$v' (expected 20000; perf: $v_perf; peo exit $rc)"
	detail "$tmp/6p.peo"
fi

# -t: the same, for the length of a command that ends once the workload has.
fifo_workload -n 20000
tell_open
start_bg "$tmp/6t.peo" "$peo" stat -x, -e "$getppid_ev" -t "$wl_pid" -- "${until_told[@]}"
peo_pid=$bg_pid
tell_started
feed_workload
tell_end
wait_bg "$peo_pid" 20
rc=$bg_rc
v=$(csv_value "$tmp/6t.peo" "$getppid_ev")
if [ "$v" = 20000 ]; then
	pass "-t TID -- COMMAND: $getppid_ev = $v (expected 20000; peo exit $rc)"
else
	fail "-t TID -- COMMAND: $getppid_ev = '$v' (expected 20000; peo exit $rc)"; detail "$tmp/6t.peo"
fi

run_peo "$tmp/6a.peo" -x, -a -e "$getppid_ev" -- "$W" -n 20000
rc=$?
v=$(csv_value "$tmp/6a.peo" "$getppid_ev")
if is_number "$v" && [ "$v" -ge 20000 ] && [ $rc -eq 0 ]; then
	pass "-a -- workload -n 20000: $getppid_ev = $v (>= 20000)"
else
	fail "-a -- workload -n 20000: $getppid_ev = '$v' (want >= 20000), exit $rc"; detail "$tmp/6a.peo"
fi

run_peo "$tmp/6c.peo" -x, -C 0 -e "$getppid_ev" -- taskset -c 0 "$W" -n 20000
rc=$?
v=$(csv_value "$tmp/6c.peo" "$getppid_ev")
if is_number "$v" && [ "$v" -ge 20000 ] && [ $rc -eq 0 ]; then
	pass "-C 0 -- taskset -c 0 workload -n 20000: $getppid_ev = $v (>= 20000)"
else
	fail "-C 0 -- taskset -c 0 workload -n 20000: $getppid_ev = '$v' (want >= 20000), exit $rc"
	detail "$tmp/6c.peo"
fi

mapfile -t cpus < <(online_cpus)
want_cpus=$(printf 'CPU%s ' "${cpus[@]}")
run_peo "$tmp/6A.peo" -x, -A -a -e task-clock,"$getppid_ev" -- "$W" -n 100
for ev in task-clock "$getppid_ev"; do
	got=$(awk -F, -v ev="$ev" '$4 == ev { printf "%s ", $1 }' "$tmp/6A.peo")
	if [ "$got" = "$want_cpus" ]; then
		pass "-A -a: one $ev line per online CPU: $got"
	else
		fail "-A -a: $ev lines for [$got], online CPUs [$want_cpus]"; detail "$tmp/6A.peo"
	fi
done

# ========================================================= 7. exit status
echo
echo "== 7. exit status"
run_peo "$tmp/7.peo" -- "$W" -e 7
rc=$?
check $((rc != 7)) "peo stat -- workload -e 7: exit $rc (expected 7)"
run_peo "$tmp/7.peo" -- false
rc=$?
check $((rc != 1)) "peo stat -- false: exit $rc (expected 1)"
nocmd=$tmp/no-such-command
run_peo "$tmp/7n.peo" -- "$nocmd"
rc=$?
errline=$(grep -m1 -F "no-such-command" "$tmp/7n.peo")
if [ $rc -ne 0 ] && [ -n "$errline" ]; then
	pass "peo stat -- NONEXISTENT: exit $rc, error names it: '$errline'"
else
	fail "peo stat -- NONEXISTENT: exit $rc, error line naming it: '$errline' (perf says 'Workload failed: No such file or directory', exit 255)"
	detail "$tmp/7n.peo"
fi
how=$(exit_status "$peo" stat -- "$W" -k 15)
case $how in
'exit 143') pass "peo stat -- workload -k 15: exit 143 (the shell's code for SIGTERM)" ;;
'signal 15') pass "peo stat -- workload -k 15: peo killed by SIGTERM, like its command" ;;
*) fail "peo stat -- workload -k 15: $how (expected exit 143 or death by SIGTERM)"; detail "$ES_ERR" ;;
esac
if grep -q 'Performance counter stats' "$ES_ERR"; then
	pass "peo stat -- workload -k 15 still printed the counts"
else
	fail "peo stat -- workload -k 15 printed no counts (perf prints them)"; detail "$ES_ERR"
fi

# ================================================================ 8. SIGINT
echo
echo "== 8. SIGINT ends 'peo stat -e task-clock -a' (no command)"
start_bg "$tmp/8.peo" "$peo" stat -e task-clock -a
peo_pid=$bg_pid
wait_counting "$peo_pid" # its SIGINT handler is set before it opens
kill -INT "$peo_pid" 2>/dev/null
if wait_bg "$peo_pid" 10; then
	tl=$(grep -E '[0-9] +msec +task-clock' "$tmp/8.peo")
	el=$(grep -E '^ +[0-9]+\.[0-9]+ seconds time elapsed$' "$tmp/8.peo")
	if [ -n "$tl" ] && [ -n "$el" ]; then
		pass "after SIGINT (exit $bg_rc): '$(squeeze "$tl")' and '$(squeeze "$el")'"
	else
		fail "after SIGINT (exit $bg_rc): no task-clock or no elapsed line"; detail "$tmp/8.peo"
	fi
else
	fail "peo stat -a did not end within 10 s of SIGINT"; detail "$tmp/8.peo"
fi

# ================================================================== 9. -o
echo
echo "== 9. -o FILE"
run_peo "$tmp/9.err" -o "$tmp/9.out" -e task-clock -- "$W" -n 100
rc=$?
if [ $rc -eq 0 ] && grep -q 'task-clock' "$tmp/9.out" 2>/dev/null &&
	grep -q 'Performance counter stats' "$tmp/9.out"; then
	pass "-o FILE: the table is in FILE"
else
	fail "-o FILE: no table in FILE (exit $rc)"; [ -f "$tmp/9.out" ] && detail "$tmp/9.out"
fi
if grep -q -e 'task-clock' -e 'Performance counter stats' -e 'seconds time elapsed' "$tmp/9.err"; then
	fail "-o FILE: counts on stderr too"; detail "$tmp/9.err"
else
	pass "-o FILE: stderr has no counts ($(wc -c <"$tmp/9.err") bytes)"
fi

# ============================================================== 10. errors
echo
echo "== 10. errors"
run_peo "$tmp/10e.peo" -e no-such-event -- true
rc=$?
if [ $rc -ne 0 ] && grep -q 'no-such-event' "$tmp/10e.peo"; then
	pass "-e no-such-event: exit $rc, error: '$(grep -m1 'no-such-event' "$tmp/10e.peo")'"
else
	fail "-e no-such-event: exit $rc, want non-zero and the event named"; detail "$tmp/10e.peo"
fi
run_peo "$tmp/10c.peo" -C 99999 -a -- true
rc=$?
if [ $rc -ne 0 ] && grep -q '99999' "$tmp/10c.peo"; then
	pass "-C 99999 -a: exit $rc, error: '$(grep -m1 '99999' "$tmp/10c.peo")'"
else
	fail "-C 99999 -a: exit $rc, want non-zero and the CPU named"; detail "$tmp/10c.peo"
fi

# ============================================================= 11. cgroups
echo
echo "== 11. -G CGROUPS (a workload spinning in a cgroup of our own)"

# compare_cgroup_csv MODE PREFIX PEOFILE PERFFILE: every -x, line of peo
# has, right after the event (field PREFIX + 4), the cgroup perf printed
# for that event; perf must have printed a cgroup column at all.
compare_cgroup_csv() {
	local mode=$1 prefix=$2 pf=$3 rf=$4 out
	out=$(awk -F, -v p="$prefix" '
		FNR == 1 { file++ }
		!NF { next }
		file == 1 { ev = $(p + 3); if (!(ev in want)) want[ev] = $(p + 4); n_perf++; next }
		{
			ev = $(p + 3); n++
			if (!(ev in want)) { bad = bad "\n        no perf line for event " ev ": " $0 }
			else if ($(p + 4) != want[ev]) {
				bad = bad "\n        field " p + 4 " is \"" $(p + 4) "\", perf: \"" want[ev] "\": " $0
			}
		}
		END {
			named = 0
			for (ev in want) if (want[ev] != "") named = 1
			if (!named) bad = bad "\n        perf printed no cgroup in field " p + 4 " (test problem)"
			printf "%d%s", n, bad
		}' "$rf" "$pf")
	local first=${out%%$'\n'*}
	local rest=${out#"$first"}
	if [ -z "$rest" ] && [ "$first" -gt 0 ]; then
		pass "-x, $mode: $first peo lines carry perf's cgroup in field $((prefix + 4)), after the event"
	else
		fail "-x, $mode: cgroup column differs from perf's ($first peo lines)$rest"
		echo "        peo:";  detail "$pf"
		echo "        perf:"; detail "$rf"
	fi
}

# compare_cgroup_json MODE PEOFILE PERFFILE: every -j line of peo has a
# "cgroup" key with the value perf gave that event.
compare_cgroup_json() {
	local mode=$1 pf=$2 rf=$3 out
	out=$(python3 - "$pf" "$rf" <<'EOF'
import json, sys
def objs(path):
    with open(path) as f:
        return [json.loads(l) for l in f if l.strip()]
bad = []
try:
    perf = {}
    for o in objs(sys.argv[2]):
        if "cgroup" not in o:
            bad.append("perf's line has no \"cgroup\" key (test problem): %s" % json.dumps(o))
        perf.setdefault(o.get("event"), o.get("cgroup"))
    n = 0
    for o in objs(sys.argv[1]):
        n += 1
        ev = o.get("event")
        if "cgroup" not in o:
            bad.append("no \"cgroup\" key: %s" % json.dumps(o))
        elif ev in perf and o["cgroup"] != perf[ev]:
            bad.append("\"cgroup\" : %r, perf: %r: %s" % (o["cgroup"], perf[ev], json.dumps(o)))
except ValueError as e:
    bad.append("a line is not JSON: %s" % e)
    n = 0
print(n)
for b in bad:
    print("        " + b)
sys.exit(1 if bad or not n else 0)
EOF
	)
	local rc=$? first=${out%%$'\n'*}
	if [ $rc -eq 0 ]; then
		pass "-j $mode: $first peo lines carry a \"cgroup\" key with perf's value"
	else
		fail "-j $mode: \"cgroup\" keys differ from perf's ($first peo lines)${out#"$first"}"
	fi
}

# perf finds a v1 perf_event hierarchy first, else the cgroup2 one.
cg_mnt=$(awk '$3 == "cgroup" && $4 ~ /(^|,)perf_event(,|$)/ { print $2; exit }' /proc/mounts)
[ -n "$cg_mnt" ] || cg_mnt=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
cg_name=peo-stat-compare.$$
if [ -z "$cg_mnt" ]; then
	skip "-G: no perf_event or cgroup2 hierarchy is mounted"
elif ! mkdir "$cg_mnt/$cg_name" 2>/dev/null; then
	skip "-G: cannot create cgroup $cg_mnt/$cg_name"
else
	cg_dir=$cg_mnt/$cg_name
	"$W" -s 60000 &
	spin_pid=$!
	bg_pids+=("$spin_pid")
	if ! echo "$spin_pid" >"$cg_dir/cgroup.procs" 2>/dev/null; then
		skip "-G: cannot move a process into $cg_dir"
	else
		CG=$cg_name
		# the command moves itself into CG and spins 100 ms of CPU there: the
		# cgroup's count has those at least (the spinner's share of a loaded
		# machine over a time is not the test's to know)
		spin_in_cg=(sh -c 'echo $$ >"$1/cgroup.procs" && exec "$2" -s 100' sh "$cg_dir" "$W")
		run_peo "$tmp/11.peo" -x, -a -e task-clock,page-faults -G "$CG" -- "${spin_in_cg[@]}"
		v=$(csv_value "$tmp/11.peo" task-clock)
		if is_number "$v" && fcmp "$v >= 95"; then
			pass "-G: task-clock of the cgroup, whose command spins 100 ms of CPU: $v msec (>= 95)"
		else
			fail "-G: task-clock of the cgroup, whose command spins 100 ms of CPU: '$v' msec (want >= 95)"
			detail "$tmp/11.peo"
		fi
		# A cgroup's task-clock runs exactly while its event does, so the
		# event-runtime is the count (perf: within ns).  Counters switched
		# on from another CPU start from a stale cgroup clock instead.
		# The stale start shows in some runs only: take a dozen.
		bad=""
		for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
			run_peo "$tmp/11r.peo" -x, -a -e task-clock,page-faults -G "$CG" -- sleep 0.05
			bad+=$(awk -F, '$3 == "task-clock" {
				d = $5 - $1 * 1e6
				if ($1 !~ /^[0-9.]+$/ || d < -10000 || d > 500000) printf " [%s msec, runtime %s ns]", $1, $5
				found = 1 }
				END { if (!found) printf " [no task-clock line]" }' "$tmp/11r.peo")
		done
		if [ -z "$bad" ]; then
			pass "-G: event-runtime equals the task-clock count (within 0.5 ms) in 12 runs of 0.05 s"
		else
			fail "-G: event-runtime is not the task-clock count (want within 0.5 ms):$bad"
		fi

		# Columns and keys against perf's, line by line, and the cgroup's place.
		compare_formats 11c cgroup <<EOF
-G CG|0|same|-a -e task-clock,page-faults -G $CG -- sleep 0.2
-G CG,,CG|0|same|-a -e task-clock,page-faults,context-switches -G $CG,,$CG -- sleep 0.2
-G CG -e EV|0|same|-a -e task-clock,page-faults -G $CG -e context-switches -- sleep 0.2
-A -G ,CG|1|same|-A -a -e page-faults,task-clock -G ,$CG -- sleep 0.2
-I 100 -G CG|1||-I 100 -a -e task-clock,page-faults -G $CG -- sleep 0.25
EOF

		# -G per event: the same tracepoint twice, the first in CG only; the
		# command moves itself into CG, then becomes the workload.
		in_cg=(sh -c 'echo $$ >"$1/cgroup.procs" && exec "$2" -n 20000' sh "$cg_dir" "$W")
		run_peo "$tmp/11n.peo" -x, -a -e "$getppid_ev,$getppid_ev" -G "$CG," -- "${in_cg[@]}"
		rc=$?
		run_perf "$tmp/11n.perf" -x, -a -e "$getppid_ev,$getppid_ev" -G "$CG," -- "${in_cg[@]}"
		got=$(awk -F, -v ev="$getppid_ev" '$3 == ev { printf "%s[%s] ", $1, $4 }' "$tmp/11n.peo")
		ref=$(awk -F, -v ev="$getppid_ev" '$3 == ev { printf "%s[%s] ", $1, $4 }' "$tmp/11n.perf")
		read -r first second <<<"$got"
		if [ $rc -eq 0 ] && [ "$first" = "20000[$CG]" ] && [[ $second =~ ^([0-9]+)\[\]$ ]] &&
			[ "${BASH_REMATCH[1]}" -ge 20000 ]; then
			pass "-e getppid,getppid -G CG, (workload -n 20000 in CG): $got(want 20000 in CG, >= 20000 in none; perf: $ref)"
		else
			fail "-e getppid,getppid -G CG, (workload -n 20000 in CG): '$got' exit $rc (want 20000[$CG] then >= 20000[]; perf: $ref)"
			detail "$tmp/11n.peo"
		fi

		# Errors: each names the argument and says what to do.
		# NAME | WANT IN THE MESSAGE | ARGS
		while IFS='|' read -r name want args; do
			# shellcheck disable=SC2086  # ARGS split on purpose
			eval "set -- $args"
			run_peo "$tmp/11e.peo" "$@"
			rc=$?
			if [ $rc -ne 0 ] && grep -q -F -- "$want" "$tmp/11e.peo"; then
				pass "$name: exit $rc, '$(head -c 300 "$tmp/11e.peo")'"
			else
				fail "$name: exit $rc, want non-zero and '$want' in the message"; detail "$tmp/11e.peo"
			fi
		done <<EOF
more cgroups than events|-G '$CG,$CG'|-a -e task-clock -G $CG,$CG -- true
-G before any -e|-e EVENTS -G|-a -G $CG -e task-clock -- true
no such cgroup|no-such-cgroup.$$|-a -e task-clock -G no-such-cgroup.$$ -- true
a group split over cgroups|its group leader 'task-clock'|-a -e '{task-clock,page-faults}' -G $CG, -- true
-G without -a or -C|add -a or -C|-e task-clock -G $CG -- true
EOF
	fi
	kill -KILL "$spin_pid" 2>/dev/null
	wait "$spin_pid" 2>/dev/null
	rmdir "$cg_dir" 2>/dev/null && cg_dir=
fi

# ======================================================= 12. lists, threads
echo
echo "== 12. -p/-t lists and --per-thread (-p A,B; -a)"

# fifo_workloads N...: one `workload -w -n N` per argument, all reading one
# FIFO whose write end is fd 9; sets wl_pids and wl_list ("A,B") once each
# has exec'd.  feed_workloads writes a byte for each (a tool started
# meanwhile holds fd 9 too, so no EOF comes) and reaps them.
fifo_workloads() {
	local n p i
	rm -f "$tmp/fifo"
	mkfifo "$tmp/fifo"
	wl_pids=()
	for n; do
		"$workload" -w -n "$n" <"$tmp/fifo" &
		wl_pids+=("$!")
		bg_pids+=("$!")
	done
	exec 9>"$tmp/fifo"
	wl_list=$(IFS=,; echo "${wl_pids[*]}")
	for p in "${wl_pids[@]}"; do
		for ((i = 0; i < 50; i++)); do
			[ "$(cat "/proc/$p/comm" 2>/dev/null)" = workload ] && break
			sleep 0.05
		done
	done
}
feed_workloads() {
	printf "%${#wl_pids[@]}s" "" >&9
	exec 9>&-
	wait "${wl_pids[@]}" 2>/dev/null
}
# stat_cmd TOOL: sets cmd to `peo stat` or `perf stat`.
stat_cmd() {
	if [ "$1" = peo ]; then cmd=("$peo" stat); else cmd=(perf stat); fi
}

# attach_list TOOL OUT OPT: TOOL stat -x, -e getppid OPT A,B on two waiting
# workloads (20000 and 30000 calls), no command: it must end by itself once
# both have exited.  Sets got (the count) and how (how it ended).
attach_list() {
	local out=$2 opt=$3 tpid
	stat_cmd "$1"
	fifo_workloads 20000 30000
	start_bg "$out" "${cmd[@]}" -x, -e "$getppid_ev" "$opt" "$wl_list"
	tpid=$bg_pid
	wait_counting "$tpid" 2 # a counter on each workload
	feed_workloads
	if wait_bg "$tpid" 15; then how="ended by itself, exit $bg_rc"; else how="killed after 15 s"; fi
	got=$(csv_value "$out" "$getppid_ev")
}
for opt in -p -t; do
	attach_list perf "$tmp/12l.perf" "$opt"
	ref="$got ($how)"
	attach_list peo "$tmp/12l.peo" "$opt"
	if [ "$got" = 50000 ] && [ "$how" = "ended by itself, exit 0" ]; then
		pass "$opt A,B (20000 + 30000 getppid calls): peo $got, $how; perf $ref"
	else
		fail "$opt A,B (20000 + 30000 getppid calls): peo '$got', $how (want 50000, ended by itself); perf $ref"
		detail "$tmp/12l.peo"
	fi
done

# Two spinners for the formats; the header names the list as it was given.
"$W" -s 60000 &
spin_a=$!
"$W" -s 60000 &
spin_b=$!
bg_pids+=("$spin_a" "$spin_b")
sleep 0.2
run_peo "$tmp/12h.peo" -e task-clock -p "$spin_a, $spin_b" -- sleep 0.1
run_perf "$tmp/12h.perf" -e task-clock -p "$spin_a, $spin_b" -- sleep 0.1
hdr_peo=$(grep -m1 'Performance counter stats for' "$tmp/12h.peo")
hdr_perf=$(grep -m1 'Performance counter stats for' "$tmp/12h.perf")
if [ -n "$hdr_perf" ] && [ "$hdr_peo" = "$hdr_perf" ]; then
	pass "-p 'A, B': header equals perf's: '$hdr_peo'"
else
	fail "-p 'A, B': header '$hdr_peo', perf's '$hdr_perf'"; detail "$tmp/12h.peo"
fi

compare_formats 12 <<MODES
-p A,B|0|same|-p $spin_a,$spin_b -e task-clock,page-faults,$getppid_ev -- sleep 0.3
--per-thread -p A,B|1|same|--per-thread -p $spin_a,$spin_b -e task-clock,page-faults,$getppid_ev -- sleep 0.3
--per-thread -t B,A|1|same|--per-thread -t $spin_b,$spin_a -e task-clock,page-faults -- sleep 0.3
--per-thread -a|1||--per-thread -a -e task-clock,page-faults -- sleep 0.3
MODES

# per_thread_lines FILE: "thread event" of each -x, line, sorted.
per_thread_lines() { awk -F, 'NF { print $1, $4 }' "$1" | sort; }
want=$(for ev in task-clock page-faults "$getppid_ev"; do
	for p in "$spin_a" "$spin_b"; do echo "workload-$p $ev"; done
done | sort)
pt_args=(-x, --per-thread -p "$spin_a,$spin_b" -e "task-clock,page-faults,$getppid_ev" -- sleep 0.2)
run_peo "$tmp/12t.peo" "${pt_args[@]}"
run_perf "$tmp/12t.perf" "${pt_args[@]}"
got=$(per_thread_lines "$tmp/12t.peo")
ref=$(per_thread_lines "$tmp/12t.perf")
if [ "$got" = "$want" ] && [ "$ref" = "$want" ]; then
	pass "--per-thread -p A,B: one 'workload-TID' line per thread and event, as perf ($(wc -l <<<"$got") lines)"
else
	fail "--per-thread -p A,B: not one line per thread and event"
	echo "        want:"; sed 's/^/        | /' <<<"$want"
	echo "        peo:";  sed 's/^/        | /' <<<"$got"
	echo "        perf:"; sed 's/^/        | /' <<<"$ref"
fi
kill "$spin_a" "$spin_b" 2>/dev/null
wait "$spin_a" "$spin_b" 2>/dev/null

# --per-thread -a: a workload that runs meanwhile has its own line, exact;
# perf leaves out every thread whose count is 0.
# per_thread_all TOOL OUT: TOOL stat --per-thread -a -x, -e getppid -- COMMAND
# while a workload makes 20000 calls (COMMAND ends once it has); sets got
# (the workload line's count).
# Both list every thread and then open a counter on each: one that ends
# meanwhile fails the run (perf: "failed to parse CPUs map", peo: "No
# such process"), which a busy machine's short-lived processes make
# likely; such a run is tried again, up to three times, as run_perf does.
per_thread_all() {
	local out=$2 tpid try
	stat_cmd "$1"
	for try in 1 2 3; do
		fifo_workloads 20000
		tell_open
		start_bg "$out" "${cmd[@]}" --per-thread -a -x, -e "$getppid_ev" -- "${until_told[@]}"
		tpid=$bg_pid
		tell_started
		feed_workloads
		tell_end
		wait_bg "$tpid" 20
		grep -qE '^failed to parse CPUs map|No such process' "$out" || break
	done
	got=$(awk -F, -v t="workload-${wl_pids[0]}" '$1 == t { print $2 }' "$out")
}
per_thread_all perf "$tmp/12a.perf"
ref=$got
per_thread_all peo "$tmp/12a.peo"
if [ "$got" = 20000 ]; then
	pass "--per-thread -a: the workload's own line counts $got (want 20000; perf: '$ref')"
else
	fail "--per-thread -a: the workload's line counts '$got' (want 20000; perf: '$ref')"
	detail "$tmp/12a.peo"
fi
bad=$(awk -F, 'NF && ($1 !~ /.-[0-9]+$/ || $2 !~ /^[0-9.]+$/ || $2 + 0 == 0)' "$tmp/12a.peo")
n=$(grep -c . "$tmp/12a.peo")
if [ -z "$bad" ] && [ "$n" -ge 1 ]; then
	pass "--per-thread -a: all $n lines are 'comm-tid' with a non-zero count (perf: $(grep -c . "$tmp/12a.perf") lines)"
else
	fail "--per-thread -a: $n lines; want each 'comm-tid' with a non-zero count (perf skips zeros):"
	sed 's/^/        | /' <<<"$bad"
fi

# Refused by both.  NAME | WANT IN PEO'S MESSAGE | ARGS
while IFS='|' read -r name want args; do
	# shellcheck disable=SC2086  # ARGS split on purpose
	eval "set -- $args"
	run_peo "$tmp/12e.peo" "$@"
	rc=$?
	run_perf "$tmp/12e.perf" "$@"
	rc_perf=$?
	if [ $rc -ne 0 ] && [ $rc_perf -ne 0 ] && grep -q -F -- "$want" "$tmp/12e.peo"; then
		pass "$name: refused (exit $rc; perf $rc_perf): '$(head -c 300 "$tmp/12e.peo")'"
	else
		fail "$name: exit $rc (perf $rc_perf), want both non-zero and '$want' in peo's message"
		detail "$tmp/12e.peo"
	fi
done <<ERRORS
-p with a missing pid|item 2, pid 999999999|-e task-clock -p $$,999999999 -- true
-p with a space for a comma|item 1, "$$ $$"|-e task-clock -p '$$ $$' -- true
-p with an empty item|item 2 is empty|-e task-clock -p $$,,$$ -- true
--per-thread alone|--per-thread needs -p PIDS, -t TIDS, or -a|--per-thread -e task-clock -- true
--per-thread -a -C 0|-C counts CPUs, not threads|--per-thread -a -C 0 -e task-clock -- true
ERRORS

echo
echo "$npass passed, $nfail failed, $nskip skipped"
[ "$nfail" -eq 0 ]
