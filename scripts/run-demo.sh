#!/usr/bin/env bash
# make run: peo's main job on a built-in workload.
set -euo pipefail
build=${1:-build}
echo "\$ peo --version"
"$build/peo" --version
echo
echo "\$ peo stat -- workload -n 20000 -m 1000 -s 50   (tests/workload.c: 20000 getppid calls, 1000 fresh pages, 50 ms of CPU)"
"$build/peo" stat -- "$build/tests/workload" -n 20000 -m 1000 -s 50
echo "\$ peo stat -e syscalls:sys_enter_getppid,page-faults -x, -- workload -n 20000 -m 1000"
"$build/peo" stat -e syscalls:sys_enter_getppid,page-faults -x, -- "$build/tests/workload" -n 20000 -m 1000
echo
echo "\$ peo features"
"$build/peo" features
echo
echo "\$ count_sw   (examples/count_sw.c: software counters around a piece of work)"
"$build/examples/count_sw"
echo
echo "\$ peo attr '{task-clock,page-faults}:u'   (the attrs an event string encodes to)"
"$build/peo" attr '{task-clock,page-faults}:u'
echo
echo "\$ peo list sw"
"$build/peo" list sw
