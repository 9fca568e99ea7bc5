#!/usr/bin/env bash
# libpeo.so exports exactly the symbols in src/libpeo.map, each at the
# version node the map puts it in, defines exactly the map's nodes, and
# carries the major version in its soname; an installed tree builds a
# program through pkg-config.  Usage: install_and_exports.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=$1 build=$2
so=$(readlink -f "$build/libpeo.so")
fail() { echo "FAIL: $*" >&2; exit 1; }

soname=$(readelf -d "$so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$soname" = "libpeo.so.0" ] || fail "soname is '$soname', expected libpeo.so.0"

# Each symbol of the map at its node: SYMBOL@@NODE for its newest node (the
# default version), SYMBOL@NODE for older ones (a compat body kept with
# .symver); a node's name is the word before its '{'.
map=$src/src/libpeo.map
want=$(sed 's,/\*.*\*/,,; /\/\*/,/\*\//d' "$map" | awk '
	/^[[:space:]]*PEO_[0-9.]+[[:space:]]*\{/ { node = $1 }
	/^[[:space:]]*peo_[a-z0-9_]*;$/ { sub(/;$/, "", $1); sym[++k] = $1; at[k] = node; n[$1]++ }
	END { for (i = 1; i <= k; i++) print sym[i] (++seen[sym[i]] < n[sym[i]] ? "@" : "@@") at[i] }' |
	sort)
have=$(nm -D --defined-only "$so" | awk '$2 != "A" {print $3}' | sort)
[ -n "$want" ] || fail "no symbols read from $map"
if [ "$want" != "$have" ]; then
	diff <(echo "$want") <(echo "$have") >&2 || true
	fail "exported symbols (with their versions) differ from src/libpeo.map (< map, > library)"
fi
# The version nodes the library defines: the map's, besides the soname's own.
want_nodes=$(sed 's,/\*.*\*/,,; /\/\*/,/\*\//d' "$map" |
	sed -n 's/^[[:space:]]*\(PEO_[0-9.]*\)[[:space:]]*{.*/\1/p' | sort)
have_nodes=$(readelf -V "$so" | sed -n '/\.gnu\.version_d/,/^$/p' |
	sed -n 's/.*Flags: none .*Name: \(.*\)$/\1/p' | sort)
if [ "$want_nodes" != "$have_nodes" ]; then
	diff <(echo "$want_nodes") <(echo "$have_nodes") >&2 || true
	fail "version nodes differ from src/libpeo.map (< map, > library)"
fi
echo "exports: $(echo "$have" | wc -l) symbols at $(echo "$have_nodes" | wc -l) version node(s)," \
	"exactly the version script's"

# Every exported function is declared in a public header.
for sym in $(echo "$have" | sed 's/@.*//'); do
	grep -q "\b$sym(" "$src"/include/peo/*.h || fail "$sym is exported but not declared in include/peo/"
done

prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" >/dev/null
pc=$(find "$prefix" -name libpeo.pc | head -n1)
[ -n "$pc" ] || fail "make install did not install libpeo.pc"
libdir=$(dirname "$(dirname "$pc")")
libdir=${libdir#"$prefix"/}
for f in include/peo/peo.h include/peo/abi.h include/peo/sys.h include/peo/common.h \
	include/peo/sampler.h "$libdir/libpeo.a" "$libdir/libpeo.so.0" bin/peo \
	"$libdir/cmake/peo/peoConfig.cmake" share/doc/peo/examples/sample_syscalls.c \
	share/man/man1/peo.1 share/man/man3/libpeo.3; do
	[ -e "$prefix/$f" ] || fail "make install did not install $f"
done
export PKG_CONFIG_PATH=$prefix/$libdir/pkgconfig
flags=$(pkg-config --cflags --libs libpeo)
cc -o "$prefix/count_sw" "$src/examples/count_sw.c" $flags -Wl,-rpath,"$prefix/$libdir"
"$prefix/count_sw" >/dev/null || fail "the example built from the installed tree failed"
cc -static -o "$prefix/count_sw_static" "$src/examples/count_sw.c" -I"$prefix/include" "$prefix/$libdir/libpeo.a"
"$prefix/count_sw_static" >/dev/null || fail "the example linked with libpeo.a failed"
# find_package(peo): a CMake project links the imported targets
proj=$prefix/cmake-user
mkdir -p "$proj"
cat >"$proj/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.18)
project(peo_user C)
find_package(peo 0 REQUIRED)
add_executable(count_sw "$(realpath "$src")/examples/count_sw.c")
target_link_libraries(count_sw peo::peo)
set_target_properties(count_sw PROPERTIES BUILD_RPATH "$prefix/$libdir")
add_executable(count_sw_static "$(realpath "$src")/examples/count_sw.c")
target_link_libraries(count_sw_static peo::peo_static)
CMAKE
cmake -S "$proj" -B "$proj/build" -DCMAKE_PREFIX_PATH="$prefix" >"$proj/cmake.log" 2>&1 &&
	cmake --build "$proj/build" >>"$proj/cmake.log" 2>&1 ||
	{ tail -20 "$proj/cmake.log" >&2; fail "a CMake project could not build with find_package(peo)"; }
"$proj/build/count_sw" >/dev/null || fail "the example built with find_package(peo) failed"
"$proj/build/count_sw_static" >/dev/null || fail "the example linked with peo::peo_static failed"
echo "install: headers, libpeo.so/.a, libpeo.pc, the CMake package and peo installed; the example" \
	"builds with pkg-config, statically, and with find_package(peo)"
