#!/usr/bin/env bash
# kallsyms_load.sh [BUILD [N]] - how long the symbolizer takes to load the
# kernel's symbols (sym_kernel_load: read, sort, end, choose aliases), from
# /proc/kallsyms and from a copy of it in a file, against reading the
# file alone (cat: for /proc/kallsyms most of the time is the kernel
# writing the text).  N runs of each (default 15), alternating; prints the
# minimum and the median in ms (noise only adds time: the minimum is the
# cost).  A report, not a test: exits 0 unless a load fails.
#
# BUILD is a CMake build of peo with PEO_TESTS=ON (default build): its
# tests/sym_kernel_lookup is the loader (--time prints the load's wall time).
set -uo pipefail
build=${1:-build}
n=${2:-15}
lookup=$build/tests/sym_kernel_lookup
[ -x "$lookup" ] || { echo "kallsyms_load: no $lookup: build with -DPEO_TESTS=ON" >&2; exit 1; }
[ -r /proc/kallsyms ] || { echo "kallsyms_load: skipped: /proc/kallsyms is not readable"; exit 0; }
. "$(dirname "$0")/common.sh" # median

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cp /proc/kallsyms "$tmp/kallsyms"
load_ms() { # FILE...: the load time sym_kernel_lookup prints
	"$lookup" --time "$@" </dev/null 2>&1 | sed -n 's/.* in \([0-9.]*\) ms$/\1/p'
}
cat_ms() { # FILE: reading it through (cat's start included), in ms
	local t0 t1
	t0=$(date +%s%N)
	cat "$1" >/dev/null
	t1=$(date +%s%N)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f\n", (b - a) / 1e6 }'
}
for ((i = 0; i < n; i++)); do
	load_ms >>"$tmp/live" || exit 1
	load_ms "$tmp/kallsyms" >>"$tmp/copy" || exit 1
	cat_ms /proc/kallsyms >>"$tmp/cat_live"
	cat_ms "$tmp/kallsyms" >>"$tmp/cat_copy"
done
echo "kallsyms: $(wc -l </proc/kallsyms) lines; $("$lookup" --time </dev/null 2>&1 | head -1)"
printf '%-36s %8s %8s\n' "ms, $n runs" min median
for row in "load /proc/kallsyms:live" "cat /proc/kallsyms:cat_live" "load a copy in a file:copy" \
	"cat the copy:cat_copy"; do
	f=$tmp/${row#*:}
	printf '%-36s %8s %8s\n' "${row%%:*}" "$(sort -n "$f" | head -1)" "$(median <"$f")"
done
