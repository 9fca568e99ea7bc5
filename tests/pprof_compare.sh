#!/usr/bin/env bash
# pprof_compare.sh PEO WORKLOAD - peo report --pprof read by go tool pprof
# (Debian's golang-go), on recordings of the workload made here by peo
# record: frame pointers (-g) and --call-graph dwarf (inlined functions).
# -raw: the sample types (samples/count, cpu/nanoseconds), the workload's
# mapping first with its build id (readelf's), its functions with source
# lines, inlined ones as extra lines of a location.  -top: each
# function's flat and cum shares are peo report's --no-children and
# --children rows (-g file; with dwarf, pprof gives an inlined function's
# samples to it, perf's rows to the function it is in).  -traces: the
# stacks and their nanoseconds are --folded's lines.  Exits 77 when peo
# was built without protobuf-c or go is missing.
set -u
peo=${1:?usage: pprof_compare.sh PEO WORKLOAD}
W=${2:?usage: pprof_compare.sh PEO WORKLOAD}
here=$(dirname "$(realpath "$0")")
. "$here/compare_common.sh" # pass, fail (no perf needed here)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
export PEO_DEBUG_CACHE=$tmp/debug-cache
passed=0 failed=0 skipped=0

if ! "$peo" record -g -F 2000 -o "$tmp/fp.data" -- "$W" -r 12 -b 300 >"$tmp/rec" 2>&1; then
	echo "SKIP: peo record -g fails here: $(head -c 300 "$tmp/rec")"
	exit 77
fi
if ! "$peo" report -i "$tmp/fp.data" --pprof "$tmp/fp.pb.gz" 2>"$tmp/err"; then
	if grep -q "built without protobuf-c" "$tmp/err"; then
		echo "SKIP: $(cat "$tmp/err")"
		exit 77
	fi
	fail "--pprof: $(cat "$tmp/err")"
fi
grep -q "the profile is in $tmp/fp.pb.gz" "$tmp/err" && pass "--pprof wrote the file and said so" ||
	fail "--pprof said: $(cat "$tmp/err")"
if [ "$(head -c 2 "$tmp/fp.pb.gz" | od -An -tx1 | tr -d ' ')" = 1f8b ]; then
	pass "gzipped"
else
	fail "not gzipped"
fi
if "$peo" report -i "$tmp/fp.data" --pprof /nonexistent/dir/p.pb.gz 2>"$tmp/err" ||
	! grep -q "pprof /nonexistent/dir/p.pb.gz: No such file or directory" "$tmp/err"; then
	fail "an unwritable --pprof: $(cat "$tmp/err")"
else
	pass "an unwritable --pprof FILE: refused, named"
fi
if ! command -v go >/dev/null 2>&1; then
	echo "SKIP: go is not installed (apt-get install golang-go): nothing reads the profile back"
	echo "pprof_compare: $passed passed, $failed failed"
	[ "$failed" -eq 0 ] && exit 77
	exit 1
fi
export GOCACHE=$tmp/gocache GOPATH=$tmp/gopath HOME=${HOME:-$tmp}
pprof() { go tool pprof "$@" 2>"$tmp/pprof.err"; }

# -raw: what the file holds
pprof -raw "$tmp/fp.pb.gz" >"$tmp/raw"
id=$(readelf -n "$W" | awk '/Build ID/ { print $3 }')
if grep -q '^samples/count cpu/nanoseconds\[dflt\]' "$tmp/raw"; then
	pass "-raw: sample types samples/count and cpu/nanoseconds (the default)"
else
	fail "-raw: sample types: $(grep -A1 '^Samples' "$tmp/raw" | tail -1) $(head -c 200 "$tmp/pprof.err")"
fi
if grep -q "^1: 0x[0-9a-f]*/0x[0-9a-f]*/0x0 $(realpath "$W") $id \[FN\]\[FL\]\[LN\]" "$tmp/raw"; then
	pass "-raw: the workload's mapping first, its build id $id, functions, files and lines"
else
	fail "-raw: mappings: $(grep -A3 '^Mappings' "$tmp/raw")"
fi
if grep -Eq ' burn_loop .*workload\.c:[1-9][0-9]* ' "$tmp/raw"; then
	pass "-raw: burn_loop's locations name workload.c and a line"
else
	fail "-raw: no burn_loop location with a line: $(grep -m2 burn_loop "$tmp/raw")"
fi

# -top: the shares of peo report's rows
pprof -top -nodecount=100000 -nodefraction=0 -edgefraction=0 -sample_index=1 -unit=ns \
	"$tmp/fp.pb.gz" >"$tmp/top"
"$peo" report -i "$tmp/fp.data" --no-children -s sym -q >"$tmp/flat" 2>/dev/null
"$peo" report -i "$tmp/fp.data" --children -s sym -q >"$tmp/cum" 2>/dev/null
if out=$(python3 "$here/pprof_compare.py" top "$tmp/top" "$tmp/flat" "$tmp/cum"); then
	pass "-g: $out"
else
	fail "-g: $out"
fi
# -traces: the folded stacks
for kind in fp dwarf; do
	if [ $kind = dwarf ]; then
		"$peo" record --call-graph dwarf -F 1000 -o "$tmp/dwarf.data" -- "$W" -r 10 -b 300 \
			>/dev/null 2>&1 &&
			"$peo" report -i "$tmp/dwarf.data" --pprof "$tmp/dwarf.pb.gz" 2>/dev/null ||
			{ fail "dwarf: recording or --pprof failed"; continue; }
	fi
	pprof -traces -sample_index=1 -unit=ns "$tmp/$kind.pb.gz" >"$tmp/traces"
	"$peo" report -i "$tmp/$kind.data" --folded >"$tmp/folded" 2>/dev/null
	if out=$(python3 "$here/pprof_compare.py" traces "$tmp/traces" "$tmp/folded"); then
		pass "$kind: $out"
	else
		fail "$kind: $out"
	fi
done
# now_ms is inlined into burn_loop (main calls its own copy): where a
# stack passed it there (how many do depends on where the timer fell), its
# location has burn_loop's line too
pprof -raw "$tmp/dwarf.pb.gz" >"$tmp/raw"
if ! grep -q ';burn_loop;now_ms[; ]' "$tmp/folded"; then
	echo "SKIP  dwarf: no sample's stack passed the now_ms inlined in burn_loop this time"
elif grep -A1 ' now_ms .*workload\.c:[1-9]' "$tmp/raw" | grep -Eq '^ +burn_loop .*workload\.c:[1-9]'; then
	pass "dwarf: the inlined now_ms's location lists burn_loop, its caller, as a second line"
else
	fail "dwarf: no location of now_ms with burn_loop as its caller: $(grep -m1 -A1 now_ms "$tmp/raw")"
fi
# the whole machine: threads without a comm (":-1" in the report), whose
# samples carry pid and tid labels alone
if "$peo" record -a -F 999 -o "$tmp/sys.data" -- sleep 0.3 >/dev/null 2>&1; then
	if "$peo" report -i "$tmp/sys.data" --pprof "$tmp/sys.pb.gz" 2>"$tmp/err" &&
		pprof -raw "$tmp/sys.pb.gz" >"$tmp/raw" && grep -q 'pid:\[' "$tmp/raw"; then
		pass "-a: written and read back ($(grep -c 'pid:\[' "$tmp/raw") samples with a pid label)"
	else
		fail "-a: $(head -c 400 "$tmp/err") $(head -c 200 "$tmp/pprof.err")"
	fi
else
	echo "SKIP  -a: peo record -a is not allowed here"
fi
echo "pprof_compare: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
