#!/usr/bin/env bash
# make check-hw: peo's hardware paths, for real, in an arm64 guest under
# QEMU's software emulation, which has a CPU PMU (armv8_pmuv3) and kprobes:
#   - Debian's arm64 kernel and arm64 cmocka come from Debian's archive
#     through apt with a private state directory (the host's dpkg is left
#     alone), cached in PEO_HW_CACHE (default /var/cache/peo-hw);
#   - peo, its tests and the workload are cross-built for aarch64 (BUILD,
#     default build-hw); an initramfs holds them and tests/hw/guest_init.c;
#   - the guest runs every test and peo stat / peo record -e cycles (also
#     with --call-graph dwarf and fp on the workload's recursion), prints
#     the results on its serial console and powers off; this script reads
#     them, decodes the guest's perf.data files and reads them with the
#     host's peo script, checking that the stacks unwind down to main.  It fails on a failed test, a missing result, or a guest that
#     runs past PEO_HW_TIMEOUT seconds (default 300).
set -uo pipefail
build=${1:-build-hw}
host_peo=${2:-build/peo}
cache=${PEO_HW_CACHE:-/var/cache/peo-hw}
limit=${PEO_HW_TIMEOUT:-300}
# the tests that run in the guest (cmocka, cross-built)
tests=(test_hw test_abi_uapi test_features test_negotiate test_event_open test_counter test_ring test_sys test_record test_target test_errors test_event_parse test_probe_attrs test_sampler)
root_dir=$(cd "$(dirname "$0")/.." && pwd)

say() { echo "=== check-hw: $*"; }

if [ "$(uname -m)" != x86_64 ]; then
	say "skipped: the cross toolchain and guest are set up for an x86_64 host"
	exit 0
fi

"$root_dir/scripts/install-deps.sh" --hw || { say "FAILED: installing what it needs"; exit 1; }

# Debian's arm64 packages, through apt with a state of its own.
mkdir -p "$cache/apt/lists/partial" "$cache/apt/archives/partial" || exit 1
touch "$cache/apt/status"
apt_opts=(-o "Dir::State=$cache/apt" -o "Dir::State::Lists=$cache/apt/lists"
	-o "Dir::State::status=$cache/apt/status" -o "Dir::Cache=$cache/apt"
	-o "Dir::Cache::archives=$cache/apt/archives" -o APT::Architecture=arm64
	-o "APT::Architectures::=arm64" -o Debug::NoLocking=1 -o APT::Sandbox::User=root)
kernel=$(ls "$cache"/k/boot/vmlinuz-* 2>/dev/null | head -1)
if [ -z "$kernel" ] || [ ! -e "$cache/sysroot/usr/include/cmocka.h" ] ||
	[ ! -e "$cache/busybox/bin/busybox" ]; then
	say "fetching Debian's arm64 kernel, cmocka and busybox into $cache"
	apt-get "${apt_opts[@]}" update >/dev/null || { say "FAILED: apt-get update (arm64)"; exit 1; }
	image=$(apt-cache "${apt_opts[@]}" depends linux-image-arm64 | awk '/Depends: linux-image-/ { print $2; exit }')
	(cd "$cache" && apt-get "${apt_opts[@]}" download "$image" libcmocka0 libcmocka-dev \
		busybox-static >/dev/null) || { say "FAILED: downloading $image, cmocka, busybox"; exit 1; }
	rm -rf "$cache/k" "$cache/sysroot" "$cache/busybox"
	dpkg-deb -x "$cache"/busybox-static_*.deb "$cache/busybox" || exit 1
	dpkg-deb -x "$cache/$image"_*.deb "$cache/k" || exit 1
	for deb in "$cache"/libcmocka0_*.deb "$cache"/libcmocka-dev_*.deb; do
		dpkg-deb -x "$deb" "$cache/sysroot" || exit 1
	done
	kernel=$(ls "$cache"/k/boot/vmlinuz-* | head -1)
fi
say "kernel $(basename "$kernel")"

# The cross-build: static peo, the tests against arm64 cmocka.
say "cross-building for aarch64 ($build)"
export PEO_HW_SYSROOT=$cache/sysroot
mkdir -p "$build" || exit 1
cmake -S "$root_dir" -B "$build" -DCMAKE_TOOLCHAIN_FILE="$root_dir/cmake/aarch64-linux-gnu.cmake" \
	-DPEO_TESTS=ON -DPEO_BENCH=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo >"$build/cmake.log" 2>&1 ||
	{ cat "$build/cmake.log"; say "FAILED: cmake"; exit 1; }
cmake --build "$build" -j"$(nproc)" --target peo_tool workload "${tests[@]}" >"$build/build.log" 2>&1 ||
	{ tail -30 "$build/build.log"; say "FAILED: build"; exit 1; }
aarch64-linux-gnu-gcc -static -O2 -Wall -Werror -o "$build/guest_init" "$root_dir/tests/hw/guest_init.c" ||
	{ say "FAILED: guest_init"; exit 1; }

# The initramfs: /init, /peo, /workload, /tests, the shared libraries the
# tests need, and a shell (busybox) for the tests that run commands.
img=$build/initramfs
rm -rf "$img" && mkdir -p "$img"/{tests,lib,proc,sys,tmp,dev,bin} || exit 1
cp "$cache/busybox/bin/busybox" "$img/bin/busybox" && ln -s busybox "$img/bin/sh" || exit 1 # popen, system
# a real /bin/true (test_record follows a child that execs it), and the
# fixtures test_event_parse finds by its source path
printf 'int main(void) { return 0; }\n' | aarch64-linux-gnu-gcc -static -O2 -x c -o "$img/bin/true" - || exit 1
mkdir -p "$img$root_dir/tests" && cp -R "$root_dir/tests/fixtures" "$img$root_dir/tests/" || exit 1
cp "$build/guest_init" "$img/init" && cp "$build/peo" "$img/peo" &&
	cp "$build/tests/workload" "$img/workload" || exit 1
# the workload again with its return addresses signed where they are saved
# (pointer authentication: QEMU's cpu max has it), as the build above
aarch64-linux-gnu-gcc -O2 -g -fno-omit-frame-pointer -mbranch-protection=pac-ret -pthread \
	-o "$img/workload-pac" "$root_dir/tests/workload.c" || { say "FAILED: workload-pac"; exit 1; }
for t in "${tests[@]}"; do cp "$build/tests/$t" "$img/tests/" || exit 1; done
for lib in /usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1 /usr/aarch64-linux-gnu/lib/libc.so.6 \
	/usr/aarch64-linux-gnu/lib/libm.so.6 "$cache"/sysroot/usr/lib/aarch64-linux-gnu/libcmocka.so.0; do
	cp -L "$lib" "$img/lib/" || exit 1
done
python3 "$root_dir/tests/hw/mkcpio.py" "$img" "$build/initramfs.cpio" && gzip -1 -f "$build/initramfs.cpio" ||
	{ say "FAILED: the initramfs"; exit 1; }

say "booting the guest (at most ${limit}s)"
console=$build/console.log
booted=$SECONDS
timeout "$limit" qemu-system-aarch64 -M virt -cpu max -smp 2 -m 1024 \
	-icount shift=4,align=off,sleep=off -nographic -nic none -no-reboot \
	-kernel "$kernel" -initrd "$build/initramfs.cpio.gz" \
	-append "console=ttyAMA0 rdinit=/init panic=-1 quiet" </dev/null >"$console" 2>&1
qstatus=$?
say "the guest ran $((SECONDS - booted)) s (PEO_HW_TIMEOUT: $limit)"
tr -d '\r' <"$console" >"$console.txt"

status=0
if ! grep -q '^PEO-HW-END' "$console.txt"; then
	tail -40 "$console.txt"
	[ $qstatus -eq 124 ] && say "FAILED: the guest ran past ${limit}s" || say "FAILED: the guest stopped early"
	exit 1
fi
# each test's cmocka summary, the skips with their reasons, and what failed
grep -E '^\[ SUMMARY  \]' "$console.txt" | sed 's/^/    /'
grep -E '^\[  SKIP    \] reason:' "$console.txt" | sort | uniq -c | sed 's/^/    skip: /'
while read -r _ name rc; do
	case $rc in
	0) say "$name: passed" ;;
	77) say "$name: skipped (every case)" ;;
	*) say "$name: FAILED (exit $rc)"; status=1 ;;
	esac
done < <(grep '^PEO-HW-RESULT ' "$console.txt")
chains=(dwarf fp pac-dwarf pac-fp) # guest_init.c's recordings of the workload's callchains
for t in "${tests[@]}" peo-features peo-stat peo-record "${chains[@]/#/peo-record-}"; do
	grep -q "^PEO-HW-RESULT $t " "$console.txt" || { say "$t: no result"; status=1; }
done
if [ $status -ne 0 ]; then
	grep -E '^\[  (FAILED|ERROR) +\]|error:|Failure' "$console.txt" | head -30
fi

# peo features on the guest's older kernel: what it lacks, config3 among them
sed -n '/^PEO-HW-FEATURES/,/^PEO-HW-RESULT peo-features/p' "$console.txt" >"$build/features.txt"
if grep -qE '^ +config3 +[0-9.]+ +no ' "$build/features.txt"; then
	say "peo features on $(basename "$kernel"): $(grep -cE ' no +' "$build/features.txt") features missing, config3 among them:"
	grep -E ' no +' "$build/features.txt" | head -8 | sed 's/^/    /'
else
	say "FAILED: peo features on the guest does not report config3 missing"
	status=1
fi

# peo stat's lines, and the guest's perf.data read on the host
sed -n '/Performance counter stats/,/seconds sys/p' "$console.txt" | sed 's/^/    /'
# guest_file NAME: the file the guest sent (base64 between markers) as $build/NAME
guest_file() {
	sed -n "/^PEO-HW-FILE-BEGIN $1\$/,/^PEO-HW-FILE-END $1\$/p" "$console.txt" |
		grep -v '^PEO-HW-FILE' | base64 -d >"$build/$1" 2>/dev/null
}
guest_file hw.data
if "$host_peo" script -i "$build/hw.data" --stats >"$build/hw.stats" 2>&1 &&
	samples=$(awk '/^ *SAMPLE events:/ { print $3; exit }' "$build/hw.stats") && [ "${samples:-0}" -gt 0 ] &&
	"$host_peo" script -i "$build/hw.data" -F event | grep -q cycles; then
	say "peo record -e cycles in the guest: $samples samples; the host's peo script reads them as cycles"
else
	say "FAILED: the guest's perf.data: $(head -5 "$build/hw.stats" | tr '\n' ' ')"
	status=1
fi
# The workload's recursion (-r 12) recorded with callchains, read on the
# host: the arm64 stacks unwound from the samples' registers and stack
# copies (dwarf) or taken from the frame pointers (fp), symbolized from the
# initramfs's files (--symfs: the guest's paths under it); pac-: the
# workload with signed return addresses.
depth=12
for mode in "${chains[@]}"; do
	guest_file $mode.data
	if ! "$host_peo" script -i "$build/$mode.data" --symfs "$img" --kallsyms /dev/null \
		>"$build/$mode.script" 2>"$build/$mode.err"; then
		say "FAILED: peo script of the guest's $mode.data: $(head -3 "$build/$mode.err" | tr '\n' ' ')"
		status=1
	elif counts=$(python3 "$root_dir/tests/hw/burn_chains.py" $depth "$build/$mode.script"); then
		say "peo record $mode in the guest, read on the host: $counts"
	else
		say "FAILED: peo record $mode in the guest, read on the host: $counts"
		status=1
	fi
	# perf 6.1 reads arm64's frame-pointer callchains here (not its dwarf
	# stacks: "target platform=arm64 is not supported"): the same bytes
	case $mode in *fp) ;; *) continue ;; esac
	if ! command -v perf >/dev/null; then
		say "$mode.data: not compared with perf script (no perf here)"
	elif perf script -i "$build/$mode.data" --symfs "$img" >"$build/$mode.perf" 2>/dev/null &&
		"$host_peo" script -i "$build/$mode.data" --symfs "$img" >"$build/$mode.peo" 2>/dev/null &&
		cmp -s "$build/$mode.perf" "$build/$mode.peo"; then
		say "$mode.data: peo script prints what perf script prints ($(wc -l <"$build/$mode.perf") lines)"
	else
		say "FAILED: $mode.data: peo script differs from perf script:"
		diff "$build/$mode.perf" "$build/$mode.peo" | head -10
		status=1
	fi
done
[ $status -eq 0 ] && say "passed" || say "FAILED"
exit $status
