#!/usr/bin/env bash
# Installs what peo's build and tests need, when it is missing (Debian 12);
# with --hw, only what make check-hw needs besides (its host build came
# through make deps already); with --build, only what building and
# installing the library and the command need (make install: no test
# tools, no cmocka, clang, valgrind, perf or browser).
# The library itself needs libc only (zstd, elfutils and libiberty are optional
# features); cmocka, clang and the rest are for tests.
# Besides packages, tracefs: the tests and make run use tracepoints, and a
# fresh machine may not have it mounted (scripts/tracefs.sh mounts it as root).
set -euo pipefail

need=()
have_cmd() { command -v "$1" >/dev/null 2>&1; }
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }

if [ "${1:-}" = --build ]; then # make install: the library, the command and their options
	have_cmd cmake || need+=(cmake)
	have_cmd make || need+=(make)
	have_cmd gcc || need+=(gcc)
	have_cmd g++ || need+=(g++)
	have_cmd musl-gcc || need+=(musl-tools)
	have_cmd pkg-config || need+=(pkg-config)
	have_pkg linux-libc-dev || need+=(linux-libc-dev)
	have_pkg libzstd-dev || need+=(libzstd-dev)
	have_pkg libdw-dev || need+=(libdw-dev)
	have_pkg libelf-dev || need+=(libelf-dev)
	have_pkg libiberty-dev || need+=(libiberty-dev)
	have_pkg libdeflate-dev || need+=(libdeflate-dev)
	have_cmd protoc-c || need+=(protobuf-c-compiler)
	have_pkg libprotobuf-c-dev || need+=(libprotobuf-c-dev)
elif [ "${1:-}" = --hw ]; then # make check-hw: an arm64 guest under QEMU, cross-built tests
	have_cmd qemu-system-aarch64 || need+=(qemu-system-arm)
	have_cmd aarch64-linux-gnu-gcc || need+=(gcc-aarch64-linux-gnu)
	have_cmd aarch64-linux-gnu-g++ || need+=(g++-aarch64-linux-gnu)
	[ -e /usr/aarch64-linux-gnu/lib/libc.a ] || need+=(libc6-dev-arm64-cross)
else
	have_cmd cmake || need+=(cmake)
	have_cmd make || need+=(make)
	have_cmd gcc || need+=(gcc)
	have_cmd g++ || need+=(g++)
	have_cmd clang || need+=(clang)
	have_cmd musl-gcc || need+=(musl-tools) # the peo command links statically against musl
	have_cmd pkg-config || need+=(pkg-config)
	have_pkg libcmocka-dev || need+=(libcmocka-dev)
	have_pkg libzstd-dev || need+=(libzstd-dev) # compressed perf.data (perf record -z)
	# binaries' symbols (elfutils) and C++/Rust names (libiberty's demangler)
	have_pkg libdw-dev || need+=(libdw-dev)
	have_pkg libelf-dev || need+=(libelf-dev)
	have_pkg libiberty-dev || need+=(libiberty-dev)
	# compressed DWARF in debug files, inflated fast (libdw falls back to zlib)
	have_pkg libdeflate-dev || need+=(libdeflate-dev)
	# debug files from a debuginfod server when DEBUGINFOD_URLS says one
	# (libdw loads libdebuginfod); the server, for tests/sym_debuginfod.sh
	have_pkg libdebuginfod1 || need+=(libdebuginfod1)
	have_cmd debuginfod || need+=(debuginfod)
	have_pkg libclang-rt-14-dev || need+=(libclang-rt-14-dev)
	have_pkg linux-libc-dev || need+=(linux-libc-dev)
	have_cmd python3 || need+=(python3) # the compare scripts parse perf's output
	have_cmd perf || need+=(linux-perf) # the oracle peo's encodings are compared with
	have_cmd valgrind || need+=(valgrind) # make check-valgrind
	have_cmd groff || need+=(groff-base) # tests/man_pages.sh renders docs/man
	have_cmd man || need+=(man-db)
	# tests/flamegraph_browser.sh opens peo's flame graphs in a real browser
	have_cmd chromium || need+=(chromium)
	# peo report --pprof (protobuf-c, optional), read back by go tool pprof
	have_cmd protoc-c || need+=(protobuf-c-compiler)
	have_pkg libprotobuf-c-dev || need+=(libprotobuf-c-dev)
	have_cmd go || need+=(golang-go)
fi

if [ "${1:-}" != --hw ] && [ "${1:-}" != --build ]; then
	bash "$(dirname "$0")/tracefs.sh" -q || true # says why not; tracepoint tests then skip
fi
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ] || ! have_cmd apt-get; then
	echo "peo needs these packages: ${need[*]}" >&2
	echo "install them (as root): apt-get install -y ${need[*]}" >&2
	exit 1
fi
echo "installing: ${need[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get install -y --no-install-recommends "${need[@]}" >/dev/null ||
	{ apt-get update >/dev/null && apt-get install -y --no-install-recommends "${need[@]}" >/dev/null; }
