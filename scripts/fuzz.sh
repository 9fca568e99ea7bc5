#!/usr/bin/env bash
# make fuzz: build the libFuzzer targets (clang, ASan+UBSan, -DPEO_FUZZ=ON) and
# run each fuzz/fuzz_NAME.c for FUZZ_SECONDS on a copy of fuzz/corpus/NAME in
# a temporary directory, so the committed seed corpus never grows.  A crash,
# leak or UB report keeps that directory and names the reproducer.
set -uo pipefail
build=${1:-build-fuzz} seconds=${2:-60} jobs=${3:-2}
status=0

echo "=== fuzz: configure and build ($build)"
cmake -S . -B "$build" -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
	-DPEO_FUZZ=ON -DPEO_TESTS=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null || exit 1
cmake --build "$build" --target fuzz_targets -j"$jobs" >/dev/null ||
	{ cmake --build "$build" --target fuzz_targets -j1; exit 1; }

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
for src in fuzz/fuzz_*.c; do
	name=$(basename "$src" .c)
	seeds=fuzz/corpus/${name#fuzz_}
	work=$(mktemp -d "${TMPDIR:-/tmp}/peo-$name.XXXXXX")
	mkdir -p "$work/corpus" "$work/artifacts"
	[ -d "$seeds" ] && cp -R "$seeds"/. "$work/corpus/"
	dict=()
	[ -f "fuzz/$name.dict" ] && dict=(-dict="fuzz/$name.dict")
	echo "=== fuzz: $name for ${seconds}s on a copy of $seeds ($work)"
	if "$build/fuzz/$name" "${dict[@]}" -max_total_time="$seconds" -timeout=10 \
		-print_final_stats=1 -artifact_prefix="$work/artifacts/" "$work/corpus" \
		>"$work/log" 2>&1; then
		grep -E '^(#[0-9]+.*DONE|stat::)' "$work/log"
		echo "=== fuzz: $name: no crash, leak or UB; corpus grew to" \
			"$(ls "$work/corpus" | wc -l) inputs (discarded)"
		rm -rf "$work"
	else
		status=1
		tail -n 60 "$work/log"
		echo "=== fuzz: $name FAILED; reproducer(s), run as $build/fuzz/$name FILE:"
		ls -1 "$work"/artifacts/* 2>/dev/null | sed 's/^/    /'
		echo "    full log: $work/log"
	fi
done
[ $status -eq 0 ] && echo "=== make fuzz: no findings" || echo "=== make fuzz: FINDINGS (above)"
exit $status
