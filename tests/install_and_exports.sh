#!/usr/bin/env bash
# libpeo.so exports exactly the symbols in src/libpeo.map, carries the major
# version in its soname, and an installed tree builds a program through
# pkg-config.  Usage: install_and_exports.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=$1 build=$2
so=$(readlink -f "$build/libpeo.so")
fail() { echo "FAIL: $*" >&2; exit 1; }

soname=$(readelf -d "$so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$soname" = "libpeo.so.0" ] || fail "soname is '$soname', expected libpeo.so.0"

want=$(sed -n 's/^[[:space:]]*\(peo_[a-z0-9_]*\);$/\1/p' "$src/src/libpeo.map" | sort)
have=$(nm -D --defined-only "$so" | awk '$2 ~ /[TDBR]/ {print $3}' | sed 's/@.*//' | grep -v '^PEO_' | sort)
if [ "$want" != "$have" ]; then
	diff <(echo "$want") <(echo "$have") >&2 || true
	fail "exported symbols differ from src/libpeo.map (< map, > library)"
fi
echo "exports: $(echo "$have" | wc -l) symbols, exactly the version script's"

# Every exported function is declared in a public header.
for sym in $have; do
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
	"$libdir/libpeo.a" "$libdir/libpeo.so.0" bin/peo; do
	[ -e "$prefix/$f" ] || fail "make install did not install $f"
done
export PKG_CONFIG_PATH=$prefix/$libdir/pkgconfig
flags=$(pkg-config --cflags --libs libpeo)
cc -o "$prefix/count_sw" "$src/examples/count_sw.c" $flags -Wl,-rpath,"$prefix/$libdir"
"$prefix/count_sw" >/dev/null || fail "the example built from the installed tree failed"
cc -static -o "$prefix/count_sw_static" "$src/examples/count_sw.c" -I"$prefix/include" "$prefix/$libdir/libpeo.a"
"$prefix/count_sw_static" >/dev/null || fail "the example linked with libpeo.a failed"
echo "install: headers, libpeo.so/.a, libpeo.pc and peo installed; the example builds with pkg-config and statically"
