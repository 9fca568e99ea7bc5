#!/usr/bin/env python3
"""report_compare.py PEO_OUT PERF_OUT - peo report --stdio against perf
report --stdio (perf's closing tip dropped): the header lines and every
row the same, but for rows perf 6.1 prints wrongly, each counted by kind:
  unknown  an address in no map, its [k]/[.] taken from another frame
           (perf keeps the level of the sample's ip, or of an earlier
           sample's frame), so it moves among the ties;
  inlined  a dwarf-unwound frame perf names by its DWARF name "(inlined)"
           where the ELF symbol (an alias) names the function (peo names
           it by the symbol, as peo script does): counted on both sides,
           rows of the same percentages and binary as such a perf row;
  split    one function perf reports on two rows (two maps of one binary)
           whose percentages add up to peo's one row.
With --loose-inlined (a --children report of dwarf stacks), every row
of a binary where perf prints an "(inlined)" row and that differs is
counted as inlined.  With --srcline (a srcline or srcfile key), two more:
  a2l      perf's "??:0" (or ":0") rows, where its addr2line gave up on a
           binary after 123 failures (perf names every later address of
           it so), and peo's rows of a function's or binary's offset
           ("name+N", "bin[hex]") that no perf row matches;
  unit     a line perf names by its compilation unit's file where the
           line table says a header inlined there: the same row but for
           the file's name.
Prints "same=N unknown=N inlined=N split=N other=N"; exits 1 when other>0
or a header line differs."""
import re
import sys

ROW = re.compile(r"^ +([0-9.]+)%(?: +([0-9.]+)%)?  (.*)$")


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.read().split("\n")
    # perf ends with "#", "# (Tip: ...)", "#": not peo's to print
    for i, line in enumerate(lines):
        if line.startswith("# (Tip:"):
            lines = lines[:i - 1]
            break
    # the header's lines (the call graphs under the rows are
    # callgraph_compare.py's)
    head = [l for l in lines if l.startswith("#")]
    rows = [l for l in lines if ROW.match(l)]
    return head, rows


def pcts(row):
    m = ROW.match(row)
    return (m.group(1), m.group(2))


def keys(row):
    return ROW.match(row).group(3).rstrip()


def main():
    files = [a for a in sys.argv[1:] if not a.startswith("--")]
    peo_head, peo_rows = read(files[0])
    perf_head, perf_rows = read(files[1])
    status = 0
    # perf's "(inlined)" names are wider or narrower than the symbols peo
    # names: the symbol column's header then differs in width alone
    widths_may_differ = any(r.endswith(" (inlined)") for r in perf_rows) or "--srcline" in sys.argv
    norm = (lambda l: re.sub(r"[ .]+$", "", l.rstrip())) if widths_may_differ else str.rstrip
    if [norm(l) for l in peo_head if l.strip()] != [norm(l) for l in perf_head if l.strip()]:
        print("header lines differ:")
        for a, b in zip(peo_head, perf_head):
            if a != b:
                print("  peo:  %r\n  perf: %r" % (a, b))
        status = 1
    count = {"same": 0, "unknown": 0, "inlined": 0, "split": 0, "other": 0}
    if "--srcline" in sys.argv:
        count.update({"a2l": 0, "unit": 0})
    perf_left = {}
    for r in perf_rows:
        perf_left[r] = perf_left.get(r, 0) + 1
    peo_left = []
    for r in peo_rows:
        if perf_left.get(r):
            perf_left[r] -= 1
            count["same"] += 1
        else:
            peo_left.append(r)
    perf_rest = [r for r, n in perf_left.items() for _ in range(n)]
    # the same key on two perf rows that add up to one of peo's
    by_key = {}
    for r in perf_rest:
        by_key.setdefault(keys(r), []).append(r)
    for r in list(peo_left):
        twins = by_key.get(keys(r), [])
        if len(twins) >= 2:
            total = sum(float(pcts(t)[0]) for t in twins)
            if abs(total - float(pcts(r)[0])) <= 0.02 * len(twins):
                count["split"] += 1
                peo_left.remove(r)
                for t in twins:
                    perf_rest.remove(t)
    for r in list(peo_left):
        if "[unknown]" in r or re.search(r"\] (0x[0-9a-f]+|0+)( |$)", r):
            count["unknown"] += 1
            peo_left.remove(r)
    perf_rest = [r for r in perf_rest if not ("[unknown]" in r or re.search(r"\] (0x[0-9a-f]+|0+)( |$)", r))]
    # perf's "(inlined)" outer functions: each stands for one of peo's rows
    # (the same columns before the symbol: percentages, comm, binary; a
    # stack's frames share their percentages, so several may stand for
    # several)
    def prefix(r):
        return r[:r.rfind("[")]
    inl = set(prefix(r) for r in perf_rest if r.endswith(" (inlined)"))
    peo_prefixes = set(prefix(r) for r in peo_rows)
    for r in [r for r in perf_rest if r.endswith(" (inlined)") and prefix(r) in peo_prefixes]:
        perf_rest.remove(r)
        count["inlined"] += 1
    for r in [r for r in peo_left if prefix(r) in inl]:
        peo_left.remove(r)
        count["inlined"] += 1
    # A dwarf stack's frames in a binary where perf names some by DWARF
    # "(inlined)" are named differently from sample to sample by perf (its
    # callchain entries by DWARF, a sample's own row by the ELF symbol), so
    # their rows' percentages differ too: with --loose-inlined the rest of
    # that binary's rows are counted with them, on both sides.
    if "--loose-inlined" in sys.argv:
        def binary(r):
            t = r.split()
            return t[t.index("[.]") - 1] if "[.]" in t and t.index("[.]") > 0 else None
        loose = set(binary(r) for r in perf_rows if r.endswith(" (inlined)")) - {None}
        for side in (peo_left, perf_rest):
            for r in [r for r in side if binary(r) in loose]:
                side.remove(r)
                count["inlined"] += 1
    if "--srcline" in sys.argv:
        def unit(r):  # the row, the file's name left out (its line kept)
            return re.sub(r"[^ ]+\.[a-zA-Z]+(:[0-9]+)?( |$)", r"*\1\2", r.rstrip())
        perf_units = {}
        for r in perf_rest:
            perf_units.setdefault(unit(r), []).append(r)
        for r in list(peo_left):
            if perf_units.get(unit(r)):
                perf_rest.remove(perf_units[unit(r)].pop())
                peo_left.remove(r)
                count["unit"] += 2
        # perf names some of a header's lines by the unit's file and some
        # not: the rows left of the same columns but the file add up alike
        def rest(r):
            return unit(ROW.match(r).group(3))
        for key in set(rest(r) for r in peo_left) & set(rest(r) for r in perf_rest):
            a = [r for r in peo_left if rest(r) == key]
            b = [r for r in perf_rest if rest(r) == key]
            if abs(sum(float(pcts(r)[0]) for r in a) - sum(float(pcts(r)[0]) for r in b)) <= 0.011 * (len(a) + len(b)):
                for r in a:
                    peo_left.remove(r)
                for r in b:
                    perf_rest.remove(r)
                count["unit"] += len(a) + len(b)
        for r in [r for r in perf_rest if re.search(r"(^|  )(\?\?)?:0$", r.rstrip())]:
            perf_rest.remove(r)
            count["a2l"] += 1
        for r in [r for r in peo_left if re.search(r"(\+[0-9]+|\[[0-9a-f]+\])$", r.rstrip())]:
            peo_left.remove(r)
            count["a2l"] += 1
    count["other"] = len(peo_left) + len(perf_rest)
    for r in peo_left[:10]:
        print("peo only:  " + r)
    for r in perf_rest[:10]:
        print("perf only: " + r)
    print(" ".join("%s=%d" % (k, v) for k, v in count.items()))
    if count["other"]:
        status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
