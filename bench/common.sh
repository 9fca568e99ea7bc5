# common.sh - what the bench/*_vs_perf.sh scripts share (sourced).

# The median of the numbers on stdin, one a line (of the middle two when
# there is an even count of them).
median() {
	sort -n | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# timed_run BENCH LABEL CMD...: "seconds peak-KiB" of one run of CMD, its
# output in $tmp/LABEL.out; a failed run stops BENCH, saying so.  The
# previous runs' output is written back first (sync, untimed): on 2 CPUs
# the kernel's writeback of a gigabyte another run left took a core from
# this one (peo script -g of 208 MB: 0.59 s after a quiet spell, 1.46 s
# after perf's 1.1 GB).
timed_run() {
	local bench=$1 label=$2 start end; shift 2
	rm -f "$tmp/$label.out"
	sync
	start=$(date +%s%N)
	/usr/bin/time -f "%M" -o "$tmp/$label.mem" "$@" >"$tmp/$label.out" 2>"$tmp/$label.err" ||
		{ echo "$bench: $* failed: $(head -c 300 "$tmp/$label.err")" >&2; exit 1; }
	end=$(date +%s%N)
	echo "$(( (end - start) / 1000 )) $(cat "$tmp/$label.mem")" | awk '{ printf "%.4f %s\n", $1 / 1e6, $2 }'
}
