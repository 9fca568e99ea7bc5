#!/usr/bin/env bash
# tp_format_compare.sh PEO TP_SYNTH - tracepoint payloads printed by peo
# script and perf script from the same made-up formats: print fmts with the
# helpers and conversions kernels use (__print_hex, __print_array, dynamic
# arrays, %pI4/%pI6c/%pISpc, %p of NULL, flags and symbolic tables, casts,
# kernel variables), in a directory laid out as tracefs that tp_synth writes
# into a perf.data's TRACING_DATA with samples of chosen bytes.  Where perf
# 6.1 misprints (reads past a buffer, fails on arithmetic in an argument),
# peo's own line is checked instead.  Exits 1 when a check fails, 77 when
# perf is missing or this machine's tracefs has no header_page and
# header_event to make the tracing data with.
set -u
. "$(dirname "$0")/compare_common.sh"
compare_begin tp_format_compare.sh "$@"
synth=$W
tfs=$tmp/tracefs
mkdir -p "$tfs/events/peotest"
for h in header_page header_event; do # perf reads these first; any kernel's do
	if [ -r "/sys/kernel/tracing/events/$h" ]; then
		cp "/sys/kernel/tracing/events/$h" "$tfs/events/"
	else
		echo "SKIP: no /sys/kernel/tracing/events/$h to make the tracing data with"
		exit 77
	fi
done

# event NAME ID FIELDS PRINT-FMT: a format file after the four common fields.
next_id=9000
event() {
	local d=$tfs/events/peotest/$1
	mkdir -p "$d"
	echo "$2" >"$d/id"
	printf 'name: %s\nID: %s\nformat:\n%s\n%s\n%s\n%s\n\n%s\n\nprint fmt: %s\n' "$1" "$2" \
		$'\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;' \
		$'\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;' \
		$'\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;' \
		$'\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;' "$3" "$4" >"$d/format"
}
# common ID: the common fields' bytes (type ID, pid 42), little-endian hex
common() { printf '%02x%02x00002a000000' $(($1 & 255)) $(($1 >> 8)); }

# compare NAME FIELDS PRINT-FMT PAYLOAD-AFTER-HEAD... [-- WANT]: perf's line
# and peo's for each payload; with WANT (a line per payload), peo's against
# it and perf's not used.
compare() {
	local name=$1 fields=$2 fmt=$3 want="" args=() p
	shift 3
	next_id=$((next_id + 1))
	event "$name" "$next_id" "$fields" "$fmt"
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		args+=("peotest:$name=$(common $next_id)$1")
		shift
	done
	[ $# -gt 0 ] && { shift; want=$(printf '%s\n' "$@"); }
	if ! "$synth" "$tmp/$name.data" "$tfs" "${args[@]}" 2>"$tmp/$name.err"; then
		fail "$name: tp_synth: $(head -c 300 "$tmp/$name.err")"
		return
	fi
	"$peo" script -i "$tmp/$name.data" -F trace >"$tmp/$name.peo" 2>&1
	if [ -n "$want" ]; then
		echo "$want" >"$tmp/$name.want"
	else
		perf script -i "$tmp/$name.data" -F trace 2>/dev/null >"$tmp/$name.want"
	fi
	local against=perf
	[ -z "$want" ] || against="the lines expected"
	same "$name" "$(head -c 100 "$tmp/$name.peo" | tr '\n' '|') against $against" \
		"$tmp/$name.peo" "$tmp/$name.want"
}

# Field layouts (offsets after the 8 bytes of common fields) are in each
# FIELDS; payloads are the bytes from offset 8 on, little-endian.
U8BUF=$'\tfield:__data_loc u8[] buf;\toffset:8;\tsize:4;\tsigned:0;\n\tfield:unsigned int len;\toffset:12;\tsize:4;\tsigned:0;'
# dynamic arrays: buf's 5 bytes at 16 (then none), hex and arrays of bytes
compare hex "$U8BUF" \
	'"h=[%s] s=[%s] a=[%s] n=%u", __print_hex(__get_dynamic_array(buf), __get_dynamic_array_len(buf)), __print_hex_str(__get_dynamic_array(buf), REC->len), __print_array(__get_dynamic_array(buf), __get_dynamic_array_len(buf), 1), __get_dynamic_array_len(buf)' \
	10000500030000000102ab0cff 1000000000000000
ARRAYS=$'\tfield:__data_loc u32[] vals;\toffset:8;\tsize:4;\tsigned:0;\n\tfield:u8 mac[6];\toffset:12;\tsize:6;\tsigned:0;\n\tfield:__data_loc s16[] sv;\toffset:20;\tsize:4;\tsigned:1;'
ARRAY_BYTES=18000c00aabbccddeeff000024000400'01000000ffffffff00010000'feff0500
# elements of 4 and 2 bytes (unsigned, as perf prints them), a fixed array in hex
compare arrays "$ARRAYS" \
	'"a4=[%s] a2=[%s] mac=[%s] n=%u", __print_array(__get_dynamic_array(vals), 3, 4), __print_array(__get_dynamic_array(sv), 2, 2), __print_hex(REC->mac, 6), __get_dynamic_array_len(vals)' \
	"$ARRAY_BYTES"
# perf reads past the array for a count larger than it, and cannot
# evaluate arithmetic in __print_array's count: peo stops at the array's
# end, and divides
compare arrays_bounded "$ARRAYS" \
	'"big=[%s] a4=[%s]", __print_hex(__get_dynamic_array(vals), 100), __print_array(__get_dynamic_array(vals), __get_dynamic_array_len(vals) / 4, 4)' \
	"$ARRAY_BYTES" -- "big=[01 00 00 00 ff ff ff ff 00 01 00 00] a4=[1 4294967295 256]"
# network addresses, by payload: 10.0.0.1, ::ffff:192.168.1.2 and fe80::1
# port 443 in a sockaddr_in6; 0.0.0.0, 2001:db8::1:0:0:1 and 127.0.0.1
# port 8080 in a sockaddr_in; 1.2.3.4, ::1 and a sockaddr of another
# family (AF_UNIX: nothing printed, as perf)
ADDRS=$'\tfield:__u8 a4[4];\toffset:8;\tsize:4;\tsigned:0;\n\tfield:__u8 a6[16];\toffset:12;\tsize:16;\tsigned:0;\n\tfield:__u8 sa[28];\toffset:28;\tsize:28;\tsigned:0;'
compare addresses "$ADDRS" \
	'"%pI4 %pI6c %pI6 %pISpc %pISc", REC->a4, REC->a6, REC->a6, REC->sa, REC->sa' \
	0a00000100000000000000000000ffffc0a801020a0001bb00000000fe80000000000000000000000000000100000000 \
	000000002001'0db8000000000001000000000001'0200'1f90'7f000001'0000000000000000'000000000000000000000000 \
	01020304000000000000000000000000000000010100000000000000000000000000000000000000000000000000000000
# an address in a char array, in the byte orders %pI4 names; a string's precision
compare addresses_more $'\tfield:unsigned char sa[16];\toffset:8;\tsize:16;\tsigned:0;\n\tfield:__u8 a4[4];\toffset:24;\tsize:4;\tsigned:0;\n\tfield:char comm[8];\toffset:28;\tsize:8;\tsigned:0;' \
	'"%pISpc %pI4 %pI4l %pI4h %pI4n [%.3s] [%.10s]", REC->sa, REC->a4, REC->a4, REC->a4, REC->a4, REC->comm, REC->comm' \
	02000050c0a8000a0000000000000000'01020304'6162636465000000
# a field of another size than its address's: INVALIDIPv4/INVALIDIPv6, as
# perf prints them (a sockaddr of another family: nothing)
compare address_sizes $'\tfield:__u8 a3[3];\toffset:8;\tsize:3;\tsigned:0;\n\tfield:__u8 a8[8];\toffset:11;\tsize:8;\tsigned:0;\n\tfield:__u8 a20[20];\toffset:19;\tsize:20;\tsigned:0;' \
	'"[%pI4] [%pI4] [%pI6] [%pI6c] [%pI6] [%pISpc] [%pISpc] [%pISc]", REC->a3, REC->a8, REC->a8, REC->a8, REC->a20, REC->a3, REC->a8, REC->a20' \
	0102030a0b0c0d0e0f1011fe80000000000000000000000000000001aabbccdd \
	0102030200000000000000020000000000000000000000000000000000000000 \
	01020302000000000000000a0000000000000000000000000000000000000000
# %p of NULL is "(nil)"; a kernel string's address with no printk formats in the file
compare pointers $'\tfield:void * p;\toffset:8;\tsize:8;\tsigned:0;\n\tfield:const char * s;\toffset:16;\tsize:8;\tsigned:0;' \
	'"p=%p s=%s", REC->p, REC->s' \
	00000000000000001234567800000000 efbeadde00000000a2a2818200000000
# tables: names the format does not define never match alone, and are 0
# inside an expression; numbers match as values; flags of 0 print nothing
# (the kernel's own trace neither)
compare tables $'\tfield:unsigned int mode;\toffset:8;\tsize:4;\tsigned:0;' \
	'"%s %s %s %s", __print_symbolic(REC->mode, { MODE_ABS, "ABS" }, { 1, "REL" }), __print_flags(REC->mode, "|", { 0x1, "A" }, { 0x4, "C" }), __print_flags(REC->mode, "|", { 0, "NONE" }, { 0x1, "A" }), __print_flags(REC->mode, "|", { FOO | 4, "F4" }, { (1UL << SOME_BIT), "S" })' \
	00000000 01000000 10000000 05000000
# flags named by undefined constants: perf prints the first name for 0
# (writeback's inode states); the kernel, knowing the values, nothing
compare tables_undefined $'\tfield:unsigned int mode;\toffset:8;\tsize:4;\tsigned:0;' \
	'"[%s]", __print_flags(REC->mode, "|", { I_DIRTY_SYNC, "SYNC" }, { I_DIRTY_PAGES, "PAGES" })' \
	00000000 10000000 -- "[]" "[0x10]"
# kernel idioms: an array's elements, casts to typedefs and struct
# pointers, an undefined kernel variable (0, as perf takes it), __builtin_expect
compare idioms $'\tfield:unsigned long args[3];\toffset:8;\tsize:24;\tsigned:0;\n\tfield:unsigned long pfn;\toffset:32;\tsize:8;\tsigned:0;' \
	'"NR (%lx, %lx) page=%p ofs=%lld err=%ld", REC->args[0], REC->args[2], REC->pfn != -1UL ? (((struct page *)vmemmap_base) + (REC->pfn)) : ((void *)0), ((loff_t)REC->pfn) << 12, __builtin_expect(!!((unsigned long)(void *)(REC->pfn) >= (unsigned long)-4095), 0) ? REC->pfn : 0' \
	07000000000000000024000000000000ff00000000000000'0700000000000000' \
	000000000000000000000000000000000000000000000000'ffffffffffffffff' \
	000000000000000000000000000000000000000000000000'01f0ffffffffffff'
# characters, as tcp's hash failure events print their flags ("%c%c..."),
# a comma and an escape among them: perf 6.1 prints %c of a character as
# ">c<", so the lines C gives are checked
compare chars $'\tfield:__u8 syn;\toffset:8;\tsize:1;\tsigned:0;\n\tfield:__u8 fin;\toffset:9;\tsize:1;\tsigned:0;' \
	"\"[%c%c%c] %d\", REC->syn ? 'S' : ' ', REC->fin ? 'F' : ',', REC->syn ? '\\\\' : '.', 'A' + REC->fin" \
	0100 0001 0000 -- '[S,\] 65' '[ F.] 66' '[ ,.] 65'
# an argument nested 190 parentheses deep (the interpreter's, for its
# subscript: it recursed past a formatting thread's 128 KiB musl stack and
# crashed peo script), and a chain of 3,000 operators (too deep a tree to
# compile: the interpreter's, which takes a chain in a loop)
deep="$(printf '(%.0s' {1..190})REC->args[1]$(printf ')%.0s' {1..190})"
chain="REC->args[1]$(printf ' + REC->args[0]%.0s' {1..3000})"
compare deep $'\tfield:unsigned long args[3];\toffset:8;\tsize:24;\tsigned:0;' \
	"\"%lu %lu\", $deep, $chain" \
	010000000000000007000000000000000000000000000000 -- "7 3007"
# kernel strings behind a `const char *` field: the writer copies tracefs'
# printk formats into TRACING_DATA, as perf record does (a string's
# trailing \n is not printed)
printf '0xffffffff8283d1a6 : "scale up"\n0xffffffff8283d1b0 : "two\\n"\n' >"$tfs/printk_formats"
compare kernel_strings $'\tfield:const char * s;\toffset:8;\tsize:8;\tsigned:0;' '"[%s]", REC->s' \
	a6d18382ffffffff b0d18382ffffffff -- "[scale up]" "[two]"
perf script -i "$tmp/kernel_strings.data" -F trace 2>/dev/null >"$tmp/kernel_strings.perf"
same kernel_strings "perf's lines from the file and the lines expected" "$tmp/kernel_strings.perf" \
	"$tmp/kernel_strings.want"
rm "$tfs/printk_formats" # the others' files have none
# a helper neither evaluates: the fields raw after [FAILED TO PARSE], as
# perf prints them (unsigned longs and pointers in hex, a signed short two
# wide, a byte array that reads as text as text, others as ARRAY[...])
compare raw_fields $'\tfield:unsigned long pfn;\toffset:8;\tsize:8;\tsigned:0;\n\tfield:long sl;\toffset:16;\tsize:8;\tsigned:1;\n\tfield:int i;\toffset:24;\tsize:4;\tsigned:1;\n\tfield:short s;\toffset:28;\tsize:2;\tsigned:1;\n\tfield:u8 name[4];\toffset:30;\tsize:4;\tsigned:0;\n\tfield:void * p;\toffset:40;\tsize:8;\tsigned:0;\n\tfield:unsigned int u;\toffset:48;\tsize:4;\tsigned:0;\n\tfield:u8 zero[4];\toffset:52;\tsize:4;\tsigned:0;\n\tfield:__data_loc u32[] d;\toffset:56;\tsize:4;\tsigned:0;\n\tfield:char comm[8];\toffset:60;\tsize:8;\tsigned:0;\n\tfield:u16 us;\toffset:68;\tsize:2;\tsigned:0;\n\tfield:u8 bin[3];\toffset:70;\tsize:3;\tsigned:0;' \
	'"%d", jiffies_to_msecs(REC->i)' \
	ff00000000000000fbfffffffffffffffdffffff05006162636400000000000010000000000000000700000000000000'4a000400'61626300000000000500'01ff02'0009000000
# json_fields NAME WANT...: the "fields" of peo script --json's samples
# in $tmp/NAME.data, an object a line, against WANT (written down from
# the format: by type, not by perf, which has no JSON of them)
json_fields() {
	local name=$1
	shift
	"$peo" script -i "$tmp/$name.data" --json 2>&1 | grep '"type":"SAMPLE"' |
		sed -n 's/.*,"fields":\({[^}]*}\).*/\1/p' >"$tmp/$name.json"
	printf '%s\n' "$@" >"$tmp/$name.json.want"
	same "$name" "--json fields" "$tmp/$name.json" "$tmp/$name.json.want"
}
json_fields raw_fields '{"pfn":"0xff","sl":-5,"i":-3,"s":5,"name":[97,98,99,100],"p":"0x10","u":7,"zero":[0,0,0,0],"d":[9,0,0,0],"comm":"abc","us":5,"bin":[1,255,2]}'
json_fields idioms '{"args":["0x7","0x2400","0xff"],"pfn":"0x7"}' \
	'{"args":["0x0","0x0","0x0"],"pfn":"0xffffffffffffffff"}' \
	'{"args":["0x0","0x0","0x0"],"pfn":"0xfffffffffffff001"}'
json_fields pointers '{"p":"0x0","s":"0x78563412"}' '{"p":"0xdeadbeef","s":"0x8281a2a2"}'
# an unsigned char array is bytes, a char array text
json_fields addresses_more '{"sa":[2,0,0,80,192,168,0,10,0,0,0,0,0,0,0,0],"a4":[1,2,3,4],"comm":"abcde"}'
# strings escaped (a quote, a backslash, control bytes); a field past the
# payload is null
compare strings $'\tfield:char c[8];\toffset:8;\tsize:8;\tsigned:0;\n\tfield:__data_loc char[] str;\toffset:16;\tsize:4;\tsigned:0;\n\tfield:int past;\toffset:200;\tsize:4;\tsigned:1;' \
	'"[%s] [%s]", REC->c, __get_str(str)' 6122625c01000000'18000400'00000000'78097900'
json_fields strings '{"c":"a\"b\\\u0001","str":"x\u0009y","past":null}'

echo
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
