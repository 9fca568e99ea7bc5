#!/usr/bin/env python3
"""callgraph_compare.py PEO_OUT PERF_OUT [--skip-rows FILE] - the call
graphs under the rows of peo report --stdio against perf report's (any
-g mode): for each row both print, its graph the same, but for the order
of branches (or chains) of the same share, which follows where perf
happened to load each binary.  Rows printed once by one side alone are
report_compare.py's to judge.  Rows whose graphs differ where perf 6.1
names a frame "(inlined)" by its DWARF name, or peo by its ELF symbol
where perf names it by DWARF, or an address in no map (report_compare.py's
kinds; also a row of such an address, which perf keys by another) are
counted apart as "perf-named".
Prints "rows=N same=N perf-named=N other=N"; exits 1 when other>0 or no
row has a graph on both sides while perf prints one."""
import re
import sys

ROW = re.compile(r"^ +([0-9.]+)%(?: +([0-9.]+)%)?  (.*)$")
BRANCH = re.compile(r"^([ |]*)--([^-]+)--(.*)$")


def blocks(path):
    """{row line: [graph lines]} of rows printed once."""
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.read().split("\n")
    out, seen, row, event = {}, {}, None, ""
    for line in lines:
        if line.startswith("# (Tip:"):
            break
        if line.startswith("# Samples:"):
            event = line
        if ROW.match(line):
            row = event + "\n" + line.rstrip()
            seen[row] = seen.get(row, 0) + 1
            out[row] = []
        elif line.startswith("#"):
            row = None
        elif row is not None and line.strip():
            out[row].append(line.rstrip())
    return {r: g for r, g in out.items() if seen[r] == 1}


def canon_graph(lines):
    """A graph's tree, its siblings sorted: the same text for graphs that
    differ only in the order of equal branches."""
    left = 3 if any(l.lstrip().startswith("---") for l in lines) else 0
    root = {"run": [], "share": "", "kids": []}
    stack = [root]  # stack[d]: the branch open at depth d
    for line in lines:
        body = line[12:]
        if set(body) <= set("| "):
            continue  # a line between branches
        if body == "|":  # "|" then "---name": the one branch's start
            continue
        if body.startswith("---"):
            root["run"].append(body[3:])
            continue
        m = BRANCH.match(body[left:])
        if m:
            depth = len(m.group(1)) // 11 + 1
            node = {"run": [m.group(3)], "share": m.group(2), "kids": []}
            del stack[depth:]
            stack[-1]["kids"].append(node)
            stack.append(node)
            continue
        name = body.lstrip("| ")
        depth = (len(body) - len(name) - left) // 11
        del stack[depth + 1:]
        stack[-1]["run"].append(name)

    def text(n):
        kids = sorted((text(k) for k in n["kids"]), reverse=True)
        return "(%s:%s[%s])" % (n["share"], ";".join(n["run"]), ",".join(kids))
    return text(root)


def canon(lines):
    if any(BRANCH.match(l[12:]) or l[12:].startswith("---") or l[12:].startswith("|")
           for l in lines if len(l) > 12):
        return canon_graph(lines)
    # flat: "value" then the chain's frames, one a line; folded: one a line
    chains, cur = [], []
    for line in lines:
        if re.match(r"^ {11}\S", line) and cur:
            chains.append(cur)
            cur = []
        cur.append(line.strip())
    if cur:
        chains.append(cur)
    return "\n".join(sorted("|".join(c) for c in chains))


def main():
    files = [a for a in sys.argv[1:] if not a.startswith("--")]
    peo, perf = blocks(files[0]), blocks(files[1])
    count = {"rows": 0, "same": 0, "perf-named": 0, "other": 0}
    graphs = 0
    for row, perf_graph in perf.items():
        if row not in peo:
            continue
        count["rows"] += 1
        peo_graph = peo[row]
        graphs += bool(perf_graph and peo_graph)
        if peo_graph == perf_graph or canon(peo_graph) == canon(perf_graph):
            count["same"] += 1
        elif any("(inlined)" in l or re.search(r"\b0x[0-9a-f]+$", l) for l in perf_graph + peo_graph) \
                or re.search(r"\] (0x[0-9a-f]+|0+)( |$)", row):
            count["perf-named"] += 1
        else:
            count["other"] += 1
            if count["other"] <= 3:
                print("row %r:" % row)
                for a, b in zip(peo_graph + [""] * len(perf_graph),
                                perf_graph + [""] * len(peo_graph)):
                    if a != b:
                        print("  peo:  %r\n  perf: %r" % (a, b))
                        break
                print("  peo's %d lines, perf's %d" % (len(peo_graph), len(perf_graph)))
    print(" ".join("%s=%d" % kv for kv in count.items()))
    has_perf_graphs = any(perf.values())
    return 1 if count["other"] or (has_perf_graphs and not graphs) else 0


if __name__ == "__main__":
    sys.exit(main())
