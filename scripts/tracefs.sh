#!/usr/bin/env bash
# tracefs.sh: makes sure tracefs is mounted, which tracepoints need (their
# ids and formats live there).  A fresh machine may not have it mounted; as
# root this mounts it at /sys/kernel/tracing, mode 0755, as perf itself
# would.  Prints one line saying what it did or why it could not; exits 0
# when tracefs is there (mounted before or now), 1 when it is not.
# -q: says nothing when tracefs was mounted already.
quiet=0
[ "${1:-}" = -q ] && quiet=1
for d in /sys/kernel/tracing /sys/kernel/debug/tracing; do
	if [ -e "$d/events" ]; then
		[ $quiet -eq 1 ] || echo "tracefs: mounted at $d"
		exit 0
	fi
done
if [ "$(id -u)" -ne 0 ]; then
	echo "tracefs: not mounted, and mounting it needs root (as root: mount -t tracefs nodev /sys/kernel/tracing)"
	exit 1
fi
if mount -t tracefs -o mode=755 nodev /sys/kernel/tracing 2>/dev/null ||
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null; then
	echo "tracefs: was not mounted; mounted it at /sys/kernel/tracing"
	exit 0
fi
if [ -e /sys/kernel/tracing/events ]; then # another mounted it meanwhile
	echo "tracefs: mounted at /sys/kernel/tracing"
	exit 0
fi
echo "tracefs: not mounted, and 'mount -t tracefs nodev /sys/kernel/tracing' failed (a kernel without CONFIG_TRACING, or a container without the right)"
exit 1
