# common.sh - what the bench/*_vs_perf.sh scripts share (sourced).

# The median of the numbers on stdin, one a line (of the middle two when
# there is an even count of them).
median() {
	sort -n | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
