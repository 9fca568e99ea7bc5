#!/usr/bin/env bash
# sym_elf_compare.sh SYM_LOOKUP SYM_SAMPLE SYM_SAMPLE_CXX [MUSL_SYM_LOOKUP] -
# peo's ELF symbol tables (sym_binary_load, printed by tests/sym_lookup)
# against perf script: the sample programs recorded with -g and with
# --call-graph dwarf, and for every user frame perf prints as
# `ADDR sym+0xOFF (dso)` (ADDR: the offset in the file), peo's table gives
# the same sym+0xOFF for that file offset.  The dsos are the programs, libc,
# libstdc++, ld.so... as perf finds them (libc's symbols from its debug file
# when libc6-dbg is installed, for peo and perf alike).
# One difference is perf 6.1's and is counted apart, not failed: a PLT
# entry, which perf 6.1 shows inside _init (it extends _init's end over
# .plt before it adds the PLT's symbols) and peo names "name@plt".
# With MUSL_SYM_LOOKUP (sym_lookup linked as the musl-static command is,
# Debian's glibc-built libdw.a inside), its answers must be the same.
# Prints PASS/FAIL per check; exits 1 when any fails, 77 when perf cannot
# record here or peo was built without elfutils.
set -u
. "$(dirname "$0")/compare_common.sh"
compare_begin sym_elf_compare.sh "$@"
lookup=$peo cxx=${3:?usage: sym_elf_compare.sh SYM_LOOKUP SYM_SAMPLE SYM_SAMPLE_CXX [MUSL_SYM_LOOKUP]}
musl=${4:-}
lookup=$(realpath "$lookup") W=$(realpath "$W") cxx=$(realpath "$cxx")
[ -n "$musl" ] && musl=$(realpath "$musl")
if ! perf record -q -N -o "$tmp/probe.data" -e cpu-clock -- true >/dev/null 2>&1; then
	echo "SKIP: perf record cannot record cpu-clock here"
	exit 77
fi
if ! "$lookup" "$W" >/dev/null 2>"$tmp/err"; then
	if grep -q "without elfutils" "$tmp/err"; then
		echo "SKIP: $(cat "$tmp/err")"
		exit 77
	fi
fi

# frames NAME: perf script's user frames of $tmp/NAME.data as "dso<TAB>addr<TAB>sym+0xoff"
frames() {
	perf script -i "$tmp/$1.data" -F ip,sym,symoff,dso --no-inline 2>/dev/null |
		sed -nE 's/^[[:space:]]+([0-9a-f]+) (.*) \(([^()]*)\)$/\3\t\1\t\2/p' |
		grep -v -e '^\[' -e '^//anon' | sort -u
}

# check NAME: each dso's frames looked up by peo, against perf's names
check() {
	local name=$1 dso n total=0 known=0 bad=0
	frames "$name" >"$tmp/$name.frames"
	if [ ! -s "$tmp/$name.frames" ]; then
		fail "$name: perf script printed no user frame"
		return
	fi
	: >"$tmp/$name.ours"
	for dso in $(cut -f1 "$tmp/$name.frames" | sort -u); do
		[ -f "$dso" ] || continue
		awk -F'\t' -v d="$dso" '$1 == d { print $2 }' "$tmp/$name.frames" >"$tmp/addrs"
		if ! xargs "$lookup" "$dso" <"$tmp/addrs" >"$tmp/one" 2>"$tmp/err"; then
			fail "$name: peo cannot read $dso: $(cat "$tmp/err")"
			continue
		fi
		if [ -n "$musl" ]; then
			xargs "$musl" "$dso" <"$tmp/addrs" >"$tmp/one-musl" 2>&1
			cmp -s "$tmp/one" "$tmp/one-musl" ||
				{ fail "$name: the musl build reads $dso otherwise:"; diff "$tmp/one" "$tmp/one-musl" | head -4; }
		fi
		sed "s|^|$dso\t|; s| |\t|" "$tmp/one" >>"$tmp/$name.ours"
	done
	sort -u -o "$tmp/$name.ours" "$tmp/$name.ours"
	# dso addr perf-sym peo-sym
	join -t "$(printf '\t')" <(awk -F'\t' '{ print $1 " " $2 "\t" $3 }' "$tmp/$name.frames" | sort) \
		<(awk -F'\t' '{ print $1 " " $2 "\t" $3 }' "$tmp/$name.ours" | sort) >"$tmp/$name.joined"
	while IFS=$'\t' read -r where theirs ours; do
		total=$((total + 1))
		[ "$theirs" = "$ours" ] && continue
		if [[ $theirs == _init+0x* && $ours == *@plt+0x* ]]; then
			known=$((known + 1))
			continue
		fi
		bad=$((bad + 1))
		[ $bad -le 5 ] && echo "      $where: perf $theirs, peo $ours"
	done <"$tmp/$name.joined"
	n=$(wc -l <"$tmp/$name.frames")
	if [ "$total" -ne "$n" ]; then
		fail "$name: peo answered $total of perf's $n (dso, address) frames"
	elif [ $bad -eq 0 ]; then
		pass "$name: $total user frame addresses in $(cut -f1 "$tmp/$name.frames" | sort -u | wc -l) dsos," \
			"same sym+off as perf script ($known PLT frames perf 6.1 shows in _init)"
	else
		fail "$name: $bad of $total user frame addresses named otherwise than perf script (above)"
	fi
}

cd "$tmp" || exit 1
perf record -q -N -e cpu-clock -F 2000 -g -o "$tmp/c-fp.data" -- "$W" 1 >/dev/null 2>&1
check c-fp
perf record -q -N -e cpu-clock -F 1000 --call-graph dwarf -o "$tmp/c-dwarf.data" -- "$W" 1 >/dev/null 2>&1
check c-dwarf
perf record -q -N -e cpu-clock -F 2000 -g -o "$tmp/cxx-fp.data" -- "$cxx" 0.5 >/dev/null 2>&1
check cxx-fp
perf record -q -N -e cpu-clock -F 1000 --call-graph dwarf -o "$tmp/cxx-dwarf.data" -- "$cxx" 0.3 >/dev/null 2>&1
check cxx-dwarf

echo "sym_elf_compare: $passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
