#!/usr/bin/env bash
# sym_debuginfod.sh SYM_LOOKUP SAMPLE - a stripped binary's symbols from
# its debug file served by a debuginfod server (elfutils' debuginfod, run
# here on 127.0.0.1 over a directory holding the unstripped SAMPLE): with
# DEBUGINFOD_URLS naming it, libpeo (through libdw, which loads
# libdebuginfod) reads the debug file and names the sample's static
# functions; without DEBUGINFOD_URLS nothing is asked of any server and
# only the stripped file's own symbols are there.  Exits 77 when the
# debuginfod server or libdebuginfod is missing, or SYM_LOOKUP has no
# dynamic libdw (the static musl command cannot load libdebuginfod).
set -u
lookup=${1:?usage: sym_debuginfod.sh SYM_LOOKUP SAMPLE}
sample=${2:?usage: sym_debuginfod.sh SYM_LOOKUP SAMPLE}
command -v debuginfod >/dev/null || { echo "SKIP: the debuginfod server is not installed (Debian: debuginfod)"; exit 77; }
ldconfig -p | grep -q 'libdebuginfod\.so\.1 ' || { echo "SKIP: libdebuginfod.so.1 is not installed"; exit 77; }
ldd "$lookup" 2>/dev/null | grep -q 'libdw\.so' || { echo "SKIP: $lookup has no dynamic libdw to load libdebuginfod"; exit 77; }
tmp=$(mktemp -d) || exit 1
server=
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"' EXIT
passed=0 failed=0
pass() { echo "PASS  $*"; passed=$((passed + 1)); }
fail() { echo "FAIL  $*"; failed=$((failed + 1)); }

mkdir "$tmp/srv"
cp "$sample" "$tmp/srv/sample"
objcopy --strip-all "$sample" "$tmp/stripped" || { echo "FAIL  objcopy --strip-all"; exit 1; }
id=$(readelf -n "$tmp/stripped" | awk '/Build ID/ { print $3 }')
[ -n "$id" ] || { echo "FAIL  the sample has no build id"; exit 1; }
# a port of our own: the first that serves
url=
for port in $((20000 + RANDOM % 10000)) $((30000 + RANDOM % 10000)) $((40000 + RANDOM % 10000)); do
	debuginfod -p "$port" -F "$tmp/srv" -d "$tmp/db.sqlite" >"$tmp/server.log" 2>&1 &
	server=$!
	for ((i = 0; i < 100; i++)); do
		if python3 -c 'import sys, urllib.request as u; u.urlopen(sys.argv[1], timeout=2)' \
			"http://127.0.0.1:$port/buildid/$id/debuginfo" 2>/dev/null; then
			url=http://127.0.0.1:$port
			break 2
		fi
		kill -0 "$server" 2>/dev/null || break
		sleep 0.1
	done
	kill "$server" 2>/dev/null
	wait "$server" 2>/dev/null
	server=
done
[ -n "$url" ] || { echo "SKIP: debuginfod did not serve here: $(tail -2 "$tmp/server.log")"; exit 77; }

# never by surprise: no DEBUGINFOD_URLS, no server asked, the stripped symbols only
env -u DEBUGINFOD_URLS HOME="$tmp" "$lookup" "$tmp/stripped" >"$tmp/none.txt" 2>&1
if grep -q ' hdr_spin$' "$tmp/none.txt"; then
	fail "without DEBUGINFOD_URLS: hdr_spin named, from somewhere"
else
	pass "without DEBUGINFOD_URLS: $(wc -l <"$tmp/none.txt") symbols, hdr_spin not among them"
fi
DEBUGINFOD_URLS=$url DEBUGINFOD_CACHE_PATH=$tmp/cache HOME=$tmp \
	"$lookup" "$tmp/stripped" >"$tmp/served.txt" 2>&1
if grep -q ' hdr_spin$' "$tmp/served.txt" && grep -q ' outer$' "$tmp/served.txt"; then
	pass "with DEBUGINFOD_URLS: $(wc -l <"$tmp/served.txt") symbols, hdr_spin and outer from the served debug file"
else
	fail "with DEBUGINFOD_URLS: the debug file's functions are missing: $(head -3 "$tmp/served.txt" | tr '\n' ' ')"
fi
if [ -s "$tmp/cache/$id/debuginfo" ]; then
	pass "the debug file is in DEBUGINFOD_CACHE_PATH"
else
	fail "no debug file in DEBUGINFOD_CACHE_PATH/$id"
fi
echo "sym_debuginfod: $passed passed, $failed failed"
[ $failed -eq 0 ]
