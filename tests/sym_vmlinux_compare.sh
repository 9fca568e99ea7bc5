#!/usr/bin/env bash
# sym_vmlinux_compare.sh PEO WORKLOAD FAKE_VMLINUX_PY - peo script -k
# (the kernel's symbols from a vmlinux: src/symbols/vmlinux.c,
# kernel_image.c) against perf script -k, byte for byte.  No vmlinux is
# installed here, so fake_vmlinux.py makes one from /proc/kallsyms with
# the running kernel's build id (.text and .init.text, sized functions,
# perf's aliases); then, on a perf and a peo recording of a workload in
# the kernel (-g):
#   - that vmlinux, and a copy linked 16 MB lower (as KASLR moves a
#     kernel: both tools relocate by the recording's _text), default
#     fields and -F ip,sym,symoff,dso;
#   - the perf recording with two kernel frames moved into .init.text
#     (perf's map "[kernel.kallsyms].init.text") and between the sections
#     (in no map);
#   - no -k, from the vmlinux's folder: both find ./vmlinux (perf 6.1's
#     first candidate after its build-id cache);
#   - a copy with another build id, a file that is not ELF, a missing
#     file: peo's own expected output (perf 6.1 names no kernel function
#     then; peo keeps kallsyms' names and says why in one note).
# Exits 1 when one differs, 77 when perf cannot record kernel callchains
# or no vmlinux can be made here.
set -u
. "$(dirname "$0")/compare_common.sh"
compare_begin sym_vmlinux_compare.sh "$@"
make_vmlinux=${3:?usage: sym_vmlinux_compare.sh PEO WORKLOAD FAKE_VMLINUX_PY}
peo_without_notes
real_peo=$1
if ! perf record -q -o "$tmp/probe.data" -e cpu-clock -g -- true >/dev/null 2>&1; then
	echo "SKIP: perf record cannot record cpu-clock with callchains here"
	exit 77
fi
for tool in as ld objcopy python3; do
	if ! command -v $tool >/dev/null; then
		echo "SKIP: $tool is missing: no vmlinux can be made"
		exit 77
	fi
done
# The files go in a folder of their own: perf record run beside a
# ./vmlinux would name the kernel after it (and cache it in ~/.debug).
mkdir "$tmp/k"
k=$tmp/k/vmlinux
python3 "$make_vmlinux" "$k" >"$tmp/make.out" 2>&1
case $? in
0) echo "      made $k: $(cat "$tmp/make.out") symbols" ;;
77) cat "$tmp/make.out"; exit 77 ;;
*) echo "FAIL  fake_vmlinux.py: $(tail -3 "$tmp/make.out")"; exit 1 ;;
esac
objcopy --change-addresses=-0x1000000 "$k" "$tmp/k/vmlinux.moved"
id=$(readelf -n "$k" | sed -n 's/.*Build ID: //p')
other=0011223344556677889900112233445566778899
python3 - "$k" "$tmp/k/vmlinux.other" "$id" "$other" <<'EOF'
import sys
data = open(sys.argv[1], "rb").read()
old, new = bytes.fromhex(sys.argv[3]), bytes.fromhex(sys.argv[4])
assert data.count(old) == 1
open(sys.argv[2], "wb").write(data.replace(old, new))
EOF
echo "not an ELF file" >"$tmp/k/notelf"

work='"$0" "$@" && dd if=/dev/zero of=/dev/null bs=64k count=20000 2>/dev/null'
W_ARGS=(-n 300000 -m 20000)
if ! perf record -q -o "$tmp/perf.data" -e cpu-clock -F 4000 -g -- sh -c "$work" "$W" \
	"${W_ARGS[@]}" >"$tmp/perf.rec" 2>&1; then
	echo "FAIL  perf record failed: $(head -2 "$tmp/perf.rec" | tr '\n' ' ')"
	exit 1
fi
if ! "$real_peo" record -o "$tmp/peo.data" -e cpu-clock -F 4000 -g -- sh -c "$work" "$W" \
	"${W_ARGS[@]}" >"$tmp/peo.rec" 2>&1; then
	fail "peo record failed: $(head -2 "$tmp/peo.rec" | tr '\n' ' ')"
fi

# The perf recording with two kernel frames moved: one into .init.text
# (start_kernel's address plus 0x10), one between _etext and _sinittext.
init=$(awk '$3 == "start_kernel" { print $1; exit }' /proc/kallsyms)
gap=$(awk '$3 == "_etext" { print $1; exit }' /proc/kallsyms)
python3 - "$tmp/perf.data" "$tmp/moved.data" "$init" "$gap" <<'EOF' >"$tmp/moved.out"
import struct, subprocess, sys
src, dst, init, gap = sys.argv[1], sys.argv[2], int(sys.argv[3], 16), int(sys.argv[4], 16)
out = subprocess.run(["perf", "script", "-i", src, "-F", "ip"], capture_output=True,
                     text=True).stdout.split()
# two kernel frames perf printed once each; the last bytes of that value
# (a sample's ip field, which perf does not print with a callchain, may
# hold it too, before its callchain)
kernel = [a for a in out if a.startswith("ffff") and out.count(a) == 1]
data = bytearray(open(src, "rb").read())
moved = 0
for old, new in zip(kernel[5:], (init + 0x10, gap + 0x100)):
    at = data.rfind(struct.pack("<Q", int(old, 16)))
    if at >= 0:
        data[at:at + 8] = struct.pack("<Q", new)
        moved += 1
open(dst, "wb").write(data)
print(moved)
EOF

# both NAME WHAT ARGS...: perf script and peo script of the same
# arguments, their standard output compared.
both() {
	local name=$1 what=$2
	shift 2
	perf script "$@" >"$tmp/$name.perf" 2>"$tmp/$name.perf.err"
	"$peo" script "$@" >"$tmp/$name.peo" 2>"$tmp/$name.peo.err"
	same "$name" "$what" "$tmp/$name.peo" "$tmp/$name.perf"
}
differs_without_k=" " # the recordings whose -k checks are skipped
for rec in perf peo moved; do
	[ -s "$tmp/$rec.data" ] || continue
	# without -k first: a difference there is not the vmlinux's
	perf script -i "$tmp/$rec.data" >"$tmp/$rec-nok.perf" 2>/dev/null
	"$peo" script -i "$tmp/$rec.data" >"$tmp/$rec-nok.peo" 2>/dev/null
	if ! cmp -s "$tmp/$rec-nok.peo" "$tmp/$rec-nok.perf"; then
		skip "$rec: peo script and perf script differ without -k already; first difference:"
		diff "$tmp/$rec-nok.peo" "$tmp/$rec-nok.perf" | head -12 | sed 's/^/      /'
		differs_without_k="$differs_without_k$rec "
		continue
	fi
	for v in vmlinux vmlinux.moved; do
		both "$rec-$v" "perf script -k $v (default fields)" -i "$tmp/$rec.data" -k "$tmp/k/$v"
		both "$rec-$v-F" "perf script -k $v -F ip,sym,symoff,dso" -i "$tmp/$rec.data" \
			-k "$tmp/k/$v" -F ip,sym,symoff,dso
	done
	n=$(grep -c '(\[kernel.kallsyms\])$' "$tmp/$rec-vmlinux.perf")
	if [ "$n" -gt 0 ]; then
		pass "$rec: perf named $n kernel frames from the vmlinux"
	else
		fail "$rec: perf printed no kernel frame named from the vmlinux"
	fi
done
if [[ "$differs_without_k" == *" moved "* ]]; then
	skip "moved: its recording differs without -k (above)"
elif [ "$(cat "$tmp/moved.out")" = 2 ] && grep -q '\[kernel.kallsyms\].init.text)$' "$tmp/moved-vmlinux.perf"; then
	pass "moved: perf and peo name a frame of [kernel.kallsyms].init.text: $(grep -m1 -o '[^ ]* (\[kernel.kallsyms\].init.text)$' "$tmp/moved-vmlinux.peo")"
else
	fail "moved: no frame moved into .init.text ($(cat "$tmp/moved.out") frames moved)"
fi

# No -k: from the vmlinux's folder, both take ./vmlinux.
if [[ "$differs_without_k" == *" perf "* ]]; then
	skip "cwd: perf's recording differs without -k (above)"
else
	(cd "$tmp/k" && perf script -i "$tmp/perf.data" >"$tmp/cwd.perf" 2>/dev/null &&
		"$peo" script -i "$tmp/perf.data" >"$tmp/cwd.peo" 2>/dev/null)
	same cwd "no -k, ./vmlinux found as perf finds it" "$tmp/cwd.peo" "$tmp/cwd.perf"
	if cmp -s "$tmp/cwd.peo" "$tmp/perf-vmlinux.peo"; then
		pass "cwd: ./vmlinux gave what -k gives"
	else
		fail "cwd: ./vmlinux did not give what -k gives"
	fi
fi

# Unusable files: peo prints what it prints without -k, and one note.
"$real_peo" script -i "$tmp/perf.data" >"$tmp/plain.peo" 2>/dev/null
unusable() { # NAME FILE WHAT-THE-NOTE-SAYS...
	local name=$1 file=$2 want
	shift 2
	"$real_peo" script -i "$tmp/perf.data" -k "$file" >"$tmp/$name.peo" 2>"$tmp/$name.err"
	same "$name" "-k $file: the output without -k" "$tmp/$name.peo" "$tmp/plain.peo"
	for want in "peo script: note: $file" "$@" "the kernel's symbols come from kallsyms instead"; do
		if grep -qF -- "$want" "$tmp/$name.err"; then
			pass "$name: the note says '$want'"
		else
			fail "$name: no note says '$want': $(cat "$tmp/$name.err")"
		fi
	done
}
unusable other "$tmp/k/vmlinux.other" "has build id $other" "not the recorded kernel's $id"
echo "      other: perf 6.1 names $(grep -c '\[unknown\] (\[kernel.kallsyms\])$' \
	<(perf script -i "$tmp/perf.data" -k "$tmp/k/vmlinux.other" 2>/dev/null)) kernel frames [unknown] instead"
unusable notelf "$tmp/k/notelf" "not a readable ELF file"
"$real_peo" script -i "$tmp/perf.data" -k "$tmp/k/missing" >"$tmp/missing.peo" 2>"$tmp/missing.err"
rc=$?
if [ $rc -eq 2 ] && [ ! -s "$tmp/missing.peo" ] &&
	grep -qF "peo script: -k $tmp/k/missing: No such file or directory" "$tmp/missing.err"; then
	pass "missing: refused (exit 2): $(cat "$tmp/missing.err")"
else
	fail "missing: exit $rc: $(cat "$tmp/missing.err")"
fi

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
