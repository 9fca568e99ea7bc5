#!/usr/bin/env python3
"""burn_chains.py DEPTH SCRIPT_OUTPUT - of the samples `peo script` shows
taken inside the workload's burn_loop (its inlined functions included), how
many show the whole chain `workload -r DEPTH` makes: burn_loop under at
least DEPTH-1 burn_deep frames (burn_deep(0) tail-calls burn_loop, so DEPTH
is the most), then main.  Prints one line of counts; exits 1 when no sample
is in burn_loop or fewer than half of them have the whole chain."""
import re
import sys
from collections import Counter

FRAME = re.compile(r"^\t\s*[0-9a-f]+ (\S+?)(?:\+0x[0-9a-f]+)? \((.*)\)$")


def stacks(lines):
    """Each sample's frames (function names, inlined frames left out)."""
    frames = None
    for line in lines:
        if not line.startswith("\t"):
            if frames is not None:
                yield frames
            frames = [] if line.strip() else None
            continue
        m = FRAME.match(line.rstrip("\n"))
        if frames is not None and m and m.group(2) != "inlined":
            frames.append(m.group(1))
    if frames is not None:
        yield frames


def main():
    depth = int(sys.argv[1])
    with open(sys.argv[2], encoding="utf-8", errors="replace") as f:
        all_stacks = list(stacks(f))
    in_loop = [s for s in all_stacks if s and s[0] == "burn_loop"]
    deep = Counter()
    full = 0
    for s in in_loop:
        n = 1
        while n < len(s) and s[n] == "burn_deep":
            n += 1
        deep[n - 1] += 1
        if n - 1 >= depth - 1 and n < len(s) and s[n] == "main":
            full += 1
    shown = ", ".join(f"{k}: {v}" for k, v in sorted(deep.items()))
    print(f"{len(all_stacks)} samples, {len(in_loop)} in burn_loop, {full} of them under "
          f">= {depth - 1} burn_deep frames down to main (burn_deep frames: samples {{{shown}}})")
    return 0 if in_loop and full * 2 >= len(in_loop) else 1


if __name__ == "__main__":
    sys.exit(main())
