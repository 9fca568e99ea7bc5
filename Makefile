# Thin wrapper over CMake.  `make run` and `make check` are the two commands
# a newcomer types; everything else is CMake's.
BUILD      ?= build
ASAN_BUILD ?= build-asan
FUZZ_BUILD ?= build-fuzz
TSAN_BUILD ?= build-tsan
FUZZ_SECONDS ?= 60
PREFIX     ?= /usr/local
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)

SOAK_SECONDS ?= 180

HW_BUILD   ?= build-hw
INSTALL_BUILD ?= build-install

.PHONY: all deps run check check-fast check-valgrind check-tsan check-hw fuzz soak bench install clean

all: deps
	@cmake -S . -B $(BUILD) -DPEO_TESTS=ON >/dev/null
	@cmake --build $(BUILD) -j$(JOBS) >/dev/null || cmake --build $(BUILD) -j1

deps:
	@bash scripts/install-deps.sh

# peo's main job on a built-in workload.
run: all
	@bash scripts/run-demo.sh $(BUILD)

# Every test: gcc build, then clang with ASan+UBSan.
check: deps
	@bash scripts/check.sh $(BUILD) $(ASAN_BUILD) $(JOBS) $(TSAN_BUILD) $(FUZZ_BUILD)

# Only the normal build's tests (no sanitizer pass).
check-fast: all
	cd $(BUILD) && ctest --output-on-failure -j$(JOBS)

# peo's hardware paths for real, in an arm64 guest under QEMU (a CPU PMU,
# kprobes, an older kernel): scripts/check-hw.sh.
check-hw: all
	@bash scripts/check-hw.sh $(HW_BUILD) $(BUILD)/peo

# The cmocka tests under valgrind memcheck.
check-valgrind: all
	@bash scripts/valgrind.sh $(BUILD)

# The threaded tests under ThreadSanitizer (make check runs this too).
check-tsan: deps
	@bash scripts/tsan.sh $(TSAN_BUILD) $(JOBS)

# Each libFuzzer target in fuzz/ for FUZZ_SECONDS, on a temporary copy of its corpus.
fuzz: deps
	@bash scripts/fuzz.sh $(FUZZ_BUILD) $(FUZZ_SECONDS) $(JOBS)

# peo record -a and peo stat -I 100 for SOAK_SECONDS under a fork/exec load:
# flat memory, a whole file, every loss reported (not part of check: minutes).
soak: all
	@bash tests/soak.sh $(BUILD)/peo $(BUILD)/tests/workload $(SOAK_SECONDS)

# Every benchmark, each with its baseline in the same run (raw syscalls, perf
# stat, perf record, perf script, perf report), then one table of the figures
# and their ratios (docs/performance.md holds one such table).
bench: all
	@bash bench/report.sh $(BUILD)

# The library, the command, headers, pkg-config and CMake files, man pages
# and examples, built without the tests (none of their tools needed).
install:
	@bash scripts/install-deps.sh --build
	cmake -S . -B $(INSTALL_BUILD) -DPEO_TESTS=OFF -DCMAKE_INSTALL_PREFIX=$(PREFIX) >/dev/null
	cmake --build $(INSTALL_BUILD) -j$(JOBS)
	cmake --install $(INSTALL_BUILD)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD) $(TSAN_BUILD) $(HW_BUILD) $(INSTALL_BUILD)
