#!/usr/bin/env python3
"""dwarf_stacks_compare.py PEO_OUT PERF_OUT - peo script's --call-graph
dwarf stacks against perf script 6.1's, stack by stack (a stack: a sample's
header line and its frame lines, up to the blank line).

Each pair is counted as one of:
  same       byte for byte;
  alias      perf 6.1's alias bug only: where a function's DWARF name is
             another alias of its ELF symbol (libc's read is
             __GI___libc_read), perf prints `ADDR alias+0xOFF (inlined)` and
             drops the function's own line; peo prints
             `ADDR sym+0xOFF (dso)`, the same ADDR and OFF;
  perf_dup   perf printed a function's own line twice where peo prints a
             function inlined there before it (seen once: glibc's atof
             inlined into a C++ main, `1091 main+0x11 (cxx)` twice);
  plt        perf 6.1 names a PLT entry as _init+0xN (it stretches _init
             over .plt before it adds the PLT's symbols); peo names it
             `name@plt` (as sym_elf_compare.sh counts it);
  perf_end   perf's libunwind gave up where a function has no CFI (libm's
             _fini) and printed `ffffffffffffffff [unknown] ([unknown])`;
             peo's stack has perf's frames before it and goes on;
  other      anything else (printed, first 5).
Prints the counts; exits 1 when the stacks' number or headers differ or any
is `other`.
"""
import re
import sys

FRAME = re.compile(r"^\t *([0-9a-f]+) (.*)\+0x([0-9a-f]+) \((.*)\)$")
PERF_END = "\tffffffffffffffff [unknown] ([unknown])"


def stacks(path):
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        text = f.read()
    return [s.split("\n") for s in text.split("\n\n") if s.strip("\n")]


def alias_line(perf, peo):
    """perf's `ADDR alias+0xOFF (inlined)` for peo's `ADDR sym+0xOFF (dso)`."""
    a, b = FRAME.match(perf), FRAME.match(peo)
    return (a and b and a.group(4) == "inlined" and b.group(4) != "inlined"
            and a.group(1) == b.group(1) and a.group(3) == b.group(3))


def dup_line(perf, peo, perf_next):
    """perf's own line printed twice where peo has an inlined one."""
    a, b = FRAME.match(perf), FRAME.match(peo)
    return (perf == perf_next and a and b and b.group(4) == "inlined" and a.group(4) != "inlined"
            and a.group(1) == b.group(1) and a.group(3) == b.group(3))


def plt_line(perf, peo):
    """perf's `ADDR _init+0xN (dso)` for peo's `ADDR name@plt+0xM (dso)`."""
    a, b = FRAME.match(perf), FRAME.match(peo)
    return (a and b and a.group(2) == "_init" and b.group(2).endswith("@plt")
            and a.group(1) == b.group(1) and a.group(4) == b.group(4))


def classify(peo, perf):
    if peo == perf:
        return "same"
    if perf[-1] == PERF_END and peo[:len(perf) - 1] == perf[:-1] and len(peo) >= len(perf):
        return "perf_end"
    if len(peo) != len(perf) or peo[0] != perf[0]:
        return "other"
    kind = "same"
    for i, (a, b) in enumerate(zip(peo, perf)):
        if a == b:
            continue
        if alias_line(b, a):
            kind = "alias" if kind == "same" else kind
        elif plt_line(b, a):
            kind = "plt"
        elif dup_line(b, a, perf[i + 1] if i + 1 < len(perf) else None):
            kind = "perf_dup"
        else:
            return "other"
    return kind


def main():
    peo, perf = stacks(sys.argv[1]), stacks(sys.argv[2])
    if len(peo) != len(perf):
        print(f"peo printed {len(peo)} stacks, perf {len(perf)}")
        return 1
    counts = {"same": 0, "alias": 0, "plt": 0, "perf_dup": 0, "perf_end": 0, "other": 0}
    shown = 0
    for a, b in zip(peo, perf):
        kind = classify(a, b)
        counts[kind] += 1
        if kind == "other" and shown < 5:
            shown += 1
            print("  differs (< peo, > perf):")
            for line in a:
                print("    < " + line)
            for line in b:
                print("    > " + line)
    print(" ".join(f"{k}={v}" for k, v in counts.items()) + f" of {len(peo)}")
    return 1 if counts["other"] else 0


if __name__ == "__main__":
    sys.exit(main())
