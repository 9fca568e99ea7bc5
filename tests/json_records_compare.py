# json_records_compare.py PEO-JSON PERF-SAMPLES PERF-TEXT - peo script
# --json's records against perf's reading of the same file:
#   PERF-SAMPLES: samples_perf.py's lines (perf script -s), in order;
#   PERF-TEXT: perf script -F pid,tid,time,event,iregs,uregs,phys_addr,
#     data_page_size,code_page_size --show-switch-events
#     --show-namespace-events --show-cgroup-events.
# Each SAMPLE's pid, tid, cpu, ip, time, addr, phys_addr, data_src,
# weight, transaction and event against the first; its registers and page
# sizes, and the SWITCH, NAMESPACES and CGROUP records, against the second.
# Prints what agreed, or exits non-zero naming the first record that did not.
import json
import re
import sys

SAMPLE = re.compile(r"^\s*(\d+)/(\d+)\s+\d+\.\d+:\s+(\S+):\s+ABI:(\d+)\s+(.*?)\s+ABI:(\d+)\s+(.*?)"
                    r"\s+([0-9a-f]+) (\S+) (\S+)\s*$")
SWITCH = re.compile(r"PERF_RECORD_(SWITCH(?:_CPU_WIDE)?) (IN|OUT)\s*(preempt)?\s*"
                    r"(?:(?:next|prev) pid/tid:\s*(\d+)/(\d+))?")
NAMESPACES = re.compile(r"PERF_RECORD_NAMESPACES (\d+)/(\d+) - nr_namespaces: (\d+)")
NS_ENTRY = re.compile(r"\d+/\w+: (\d+)/0x([0-9a-f]+)")
CGROUP = re.compile(r"PERF_RECORD_CGROUP cgroup: (\d+) (.*)$")


def number(v):
    return int(v, 16) if isinstance(v, str) else v


def page_size(n):
    if not n:
        return "N/A"
    for unit in ("", "K", "M", "G"):
        if n < 1024:
            return f"{n}{unit}"
        n //= 1024
    return f"{n}T"


def regs_of(text):
    return [int(v, 16) for v in re.findall(r"\w+:0x([0-9a-f]+)", text)]


def perf_text_records(path):
    """perf's text lines as (kind, fields) in order; namespaces span lines."""
    out, lines = [], open(path, errors="replace").read().split("\n")
    for i, line in enumerate(lines):
        if m := NAMESPACES.search(line):
            rest = " ".join(lines[i + 1:i + 1 + (int(m[3]) + 3) // 4])
            out.append(("NAMESPACES", (int(m[1]), int(m[2]),
                                       [(int(d), int(n, 16)) for d, n in NS_ENTRY.findall(rest)])))
        elif m := SWITCH.search(line):
            pair = (int(m[4]), int(m[5])) if m[4] else None
            out.append((m[1], (m[2] == "OUT", bool(m[3]), pair)))
        elif m := CGROUP.search(line):
            out.append(("CGROUP", (int(m[1]), m[2])))
        elif m := SAMPLE.match(line):
            out.append(("SAMPLE", (int(m[1]), int(m[2]), m[3], int(m[4]), regs_of(m[5]),
                                   int(m[6]), regs_of(m[7]), int(m[8], 16), m[9], m[10])))
    return out


def fail(i, rec, what):
    sys.exit(f"record {i} ({rec['type']} at {rec.get('time', rec.get('sample_time'))}): {what}")


def main():
    peo = [json.loads(line) for line in open(sys.argv[1])]
    samples = [json.loads(line) for line in open(sys.argv[2]) if line.startswith("{")]
    text = perf_text_records(sys.argv[3])
    kinds = ("SAMPLE", "SWITCH", "SWITCH_CPU_WIDE", "NAMESPACES", "CGROUP")
    ours = [r for r in peo if r["type"] in kinds]
    if len(ours) != len(text):
        sys.exit(f"{len(ours)} records of {', '.join(kinds)}; perf printed {len(text)}")
    nsamples = sum(r["type"] == "SAMPLE" for r in ours)
    if nsamples != len(samples):
        sys.exit(f"{nsamples} samples; perf's script saw {len(samples)}")
    if not nsamples:
        sys.exit("no sample to compare")
    k = 0
    for i, (r, (kind, t)) in enumerate(zip(ours, text)):
        if r["type"] != kind:
            fail(i, r, f"perf has a {kind} here")
        if kind == "SAMPLE":
            s = samples[k]
            k += 1
            want = {"pid": s["pid"], "tid": s["tid"], "cpu": s["cpu"], "ip": s["ip"],
                    "time": s["time"], "addr": s["addr"], "phys_addr": s["phys_addr"],
                    "data_src": s["datasrc"], "weight": s["weight"],
                    "transaction": s["transaction"], "event": s["event"]}
            # a field the sample lacks is perf's "none": cpu -1, others 0
            absent = {"cpu": 0xffffffff}
            got = {key: r["event"] if key == "event" else number(r.get(key, absent.get(key, 0)))
                   for key in want}
            if got != want:
                fail(i, r, f"{got} against perf's {want}")
            line = (r["pid"], r["tid"], r["event"], r["regs_intr"]["abi"],
                    [int(v, 16) for v in r["regs_intr"]["regs"]], r["regs_user"]["abi"],
                    [int(v, 16) for v in r["regs_user"]["regs"]], int(r["phys_addr"], 16),
                    page_size(r["data_page_size"]), page_size(r["code_page_size"]))
            if line != t:
                fail(i, r, f"{line} against perf's line {t}")
        elif kind.startswith("SWITCH"):
            pair = (r["next_prev_pid"], r["next_prev_tid"]) if "next_prev_pid" in r else None
            if (r["out"], r["preempt"], pair) != t:
                fail(i, r, f"{(r['out'], r['preempt'], pair)} against perf's {t}")
        elif kind == "NAMESPACES":
            got = (r["pid"], r["tid"], [(n["dev"], n["inode"]) for n in r["namespaces"]])
            if got != t:
                fail(i, r, f"{got} against perf's {t}")
        elif (r["id"], r["path"]) != t:
            fail(i, r, f"{(r['id'], r['path'])} against perf's {t}")
    counts = {kind: sum(r["type"] == kind for r in ours) for kind in kinds}
    print(", ".join(f"{n} {kind}" for kind, n in counts.items() if n))


main()
