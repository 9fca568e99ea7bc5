# compare_common.sh - sourced by the scripts that compare peo with perf:
# `compare_begin NAME "$@"` checks the arguments (PEO WORKLOAD), skips (77)
# when perf is missing, makes $tmp (removed on exit), and defines pass,
# fail and skip, which count into $passed, $failed and $skipped.  Mounts
# tracefs when it is not (a fresh machine, as root: scripts/tracefs.sh);
# $tracefs_why is empty when it is there, else why not (for the skips).
# wait_counting PID and cpu_ticks PID help a check wait for what it needs,
# never for a guessed time.
compare_begin() {
	local name=$1
	shift
	peo=${1:?usage: $name PEO WORKLOAD}
	W=${2:?usage: $name PEO WORKLOAD}
	export PERF_CONFIG=/dev/null LC_ALL=C
	if ! command -v perf >/dev/null 2>&1; then
		echo "SKIP: perf is not installed; $name has nothing to compare peo with"
		exit 77
	fi
	tracefs_mount
	tmp=$(mktemp -d) || exit 1
	trap 'rm -rf "$tmp"' EXIT
	passed=0 failed=0 skipped=0
}
# peo_without_notes: $peo becomes a wrapper that drops peo script's notes
# of what hid symbols (a binary missing: perf says nothing of it) from its
# standard error, the rest as it was, its exit status kept.  For scripts
# that compare text only: $peo is no longer peo's own pid.
peo_without_notes() {
	local real=$peo
	peo=$tmp/peo-without-notes
	cat >"$peo" <<EOF
#!/usr/bin/env bash
{ "$real" "\$@" 2>&1 1>&3 3>&- | grep -v '^peo script: note: ' >&2; exit "\${PIPESTATUS[0]}"; } 3>&1
EOF
	chmod +x "$peo"
}
pass() { echo "PASS  $*"; passed=$((passed + 1)); }
fail() { echo "FAIL  $*"; failed=$((failed + 1)); }
skip() { echo "SKIP  $*"; skipped=$((skipped + 1)); }
# same NAME WHAT PEO-OUT OTHER-OUT: compare peo's output with perf's (or
# the lines expected), show the first difference.
same() {
	local name=$1 what=$2
	if cmp -s "$3" "$4"; then
		pass "$name: $what identical ($(wc -l <"$3") lines)"
	else
		fail "$name: $what differ; first difference (< peo, > other):"
		diff "$3" "$4" | head -6 | sed 's/^/      /'
	fi
}
# tracefs_mount: tracefs mounted, or $tracefs_why says why not.
tracefs_mount() {
	tracefs_why=
	local said
	if ! said=$(bash "$(dirname "${BASH_SOURCE[0]}")/../scripts/tracefs.sh" -q); then
		tracefs_why=$said
	fi
	[ -n "$said" ] && echo "$said"
	return 0
}
# wait_counting PID [N]: wait until PID (peo or perf) holds N (1)
# perf_event fds, i.e. has opened its events (both install their signal
# handlers before that), then a moment for the enable that follows; at
# most 30 s.  Returns 1 when PID ended or the time ran out.
wait_counting() {
	local pid=$1 want=${2:-1} i
	for ((i = 0; i < 600; i++)); do
		if [ "$(ls -l "/proc/$pid/fd" 2>/dev/null | grep -c 'anon_inode:\[perf_event\]')" -ge "$want" ]; then
			sleep 0.2
			return 0
		fi
		[ -d "/proc/$pid" ] || return 1
		sleep 0.05
	done
	return 1
}
# cpu_ticks PID: the user-mode CPU time PID has used, in clock ticks (0 when gone).
cpu_ticks() {
	local st
	st=$(cat "/proc/$1/stat" 2>/dev/null) || { echo 0; return; }
	st=${st##*) }
	set -- $st
	echo "${12:-0}"
}
# child_of PID: the first child process of PID (none: empty).
child_of() {
	local c
	c=$(cat "/proc/$1/task/$1/children" 2>/dev/null)
	echo "${c%% *}"
}
