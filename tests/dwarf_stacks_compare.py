#!/usr/bin/env python3
"""dwarf_stacks_compare.py PEO_OUT PERF_OUT - peo script's --call-graph
dwarf stacks against perf script 6.1's, stack by stack (a stack: a sample's
header line and its frame lines, up to the blank line).  With -F srcline,
the source line under a frame ("  file.c:30") goes with its frame.

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
  perf_file  perf 6.1's srcline names another file at the same line:
             binutils 2.40's addr2line, which perf runs, names the unit's
             .c file for code a DWARF 5 unit has from another file (a
             header, or a .c it includes) (libc's __libc_start_call_main, from
             libc_start_call_main.h, as libc-start.c:58; libdw and
             llvm-dwarfdump name the header; test_sym_srcline.c checks
             peo's answer against lines the code marks);
  perf_symfile  where the debug information has no line for a frame, perf
             6.1's addr2line names the file of the ELF file symbol before
             it with line 0 (`crtstuff.c:0` for __do_global_dtors_aux);
             peo says `??:0`, as perf does where there is no such symbol;
  other      anything else (printed, first 5).
Prints the counts; exits 1 when the stacks' number or headers differ or any
is `other`.
"""
import re
import sys

FRAME = re.compile(r"^\t *([0-9a-f]+) (.*)\+0x([0-9a-f]+) \((.*)\)$")
PERF_END = "\tffffffffffffffff [unknown] ([unknown])"


SRCLINE = re.compile(r"^  (\S.*)$")


SRCLINE_LINE = re.compile(r"^  \S+( \(inlined\))?$")


def with_srclines(lines):
    """Each srcline line joined to the line above it, after a newline (a
    srcline has no blank; a padded comm's line does)."""
    out = []
    for line in lines:
        if SRCLINE_LINE.match(line) and out:
            out[-1] += "\n" + line
        else:
            out.append(line)
    return out


def stacks(path):
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        text = f.read()
    return [with_srclines(s.split("\n")) for s in text.split("\n\n") if s.strip("\n")]


def split(line):
    """A line's frame part and its srcline (None without); an inlined
    frame's mark, which perf prints after the srcline, back on the frame."""
    frame, _, src = line.partition("\n")
    if src.endswith(" (inlined)"):
        frame, src = frame + " (inlined)", src[:-len(" (inlined)")]
    return frame, (src or None)


def header_file(perf_src, peo_src):
    """perf's `A:N` where peo's is `B:N` (perf 6.1's addr2line file bug)."""
    a, b = SRCLINE.match(perf_src), SRCLINE.match(peo_src)
    if not (a and b):
        return False
    fa, _, na = a.group(1).rpartition(":")
    fb, _, nb = b.group(1).rpartition(":")
    return na == nb and fa != fb




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
    if (split(perf[-1])[0] == PERF_END and peo[:len(perf) - 1] == perf[:-1]
            and len(peo) >= len(perf)):
        return "perf_end"
    if len(peo) != len(perf) or split(peo[0])[0] != split(perf[0])[0]:
        return "other"
    kind = "same"
    for i, (line_a, line_b) in enumerate(zip(peo, perf)):
        if line_a == line_b:
            continue
        (a, src_a), (b, src_b) = split(line_a), split(line_b)
        if a == b:
            pass
        elif alias_line(b, a):
            kind = "alias" if kind == "same" else kind
        elif plt_line(b, a):
            kind = "plt"
        elif dup_line(b, a, split(perf[i + 1])[0] if i + 1 < len(perf) else None):
            kind = "perf_dup"
        else:
            return "other"
        if src_a == src_b:
            continue
        if src_a and src_b and header_file(src_b, src_a):
            kind = "perf_file" if kind == "same" else kind
            continue
        if src_a == "  ??:0" and src_b and src_b.endswith(":0"):
            kind = "perf_symfile" if kind == "same" else kind
            continue
        return "other"
    return kind


def main():
    peo, perf = stacks(sys.argv[1]), stacks(sys.argv[2])
    if len(peo) != len(perf):
        print(f"peo printed {len(peo)} stacks, perf {len(perf)}")
        return 1
    counts = {"same": 0, "alias": 0, "plt": 0, "perf_dup": 0, "perf_end": 0, "perf_file": 0,
              "perf_symfile": 0, "other": 0}
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
