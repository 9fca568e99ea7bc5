#!/usr/bin/env python3
"""layers.py - print the layer graph of libpeo and fail on an edge that runs up.

Each file of src/ (and tools/, the command) belongs to one layer of
docs/DESIGN.md, found by the first pattern of LAYERS that its path matches.
A file uses another through an #include "..." line, or by calling (or
reading) a symbol that the other defines: the symbols come from `nm` of
the object files, so a call made through a header or a macro counts too.
A layer may use itself and the layers below it; a use of a layer above is
an error, named with its files and symbols (every cycle between layers
contains such an edge), and so is any use of the library's own files by
the command, which is built on the public API alone.

usage: scripts/layers.py [--build DIR] [--quiet]
  --build DIR  take the objects of DIR (a CMake build of peo) where they are
               newer than their source and its headers; compile the others
               (cc -c -O0) into a temporary folder.  Without it all are
               compiled.
  --quiet      print only the errors.
"""
import argparse
import fnmatch
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor

# Bottom first.  Patterns are matched against the path from the repository
# root, first match wins, and "*" also matches "/": a rule for a file name
# holds wherever that file moves.  A new file that no rule matches is an
# error: add it here, to the layer whose concern it serves (and say so in
# docs/DESIGN.md when it starts a layer).
LAYERS = [
    ("common", "the error sentence, option structs and their sizes, /proc, /sys, ELF "
               "and kallsyms readers, spelling suggestions: helpers any layer may call",
     ["src/internal.h", "src/sized.h", "src/error.c", "src/opts.c", "src/sysfs.c",
      "src/suggest.c", "src/elf_symbols.c", "src/kallsyms.c", "src/prefault.c"]),
    ("syscall", "the ABI: the system call and each ioctl, attr fields and sizes, "
                "the names of the generic events",
     ["src/sys.c", "src/attr_fields.c", "src/attr_host.c", "src/describe.c",
      "src/event_names.c"]),
    ("features", "what the running kernel accepts, probed with bare system calls",
     ["src/features.c"]),
    ("open", "opening an attr: size negotiation, a failure's cause and fix",
     ["src/explain.c", "src/negotiate.c", "src/features_report.c"]),
    ("events", "event strings, PMUs, probes and tracepoint ids, opened with "
               "perf's fallbacks",
     ["src/event*", "src/pmu.c", "src/probe.c"]),
    ("counting", "counters and groups on any target, their reads and scaling",
     ["src/counter*", "src/count.c", "src/group.c", "src/target.c", "src/mmap_read.c",
      "src/child.c"]),
    ("sampling", "the mmap ring and sets of rings",
     ["src/ring*"]),
    ("records", "the record parser",
     ["src/record*"]),
    ("tracepoint", "tracepoint formats, print_fmt and its expressions "
                   "(below perf.data, which reads them from its tracing section)",
     ["src/tracepoint/*", "src/tp_*"]),
    ("sampler", "sampling in one object: events opened on a target, their rings "
                "joined, records parsed and bound to their events, tracepoint fields",
     ["src/sampler*"]),
    ("perf.data", "perf.data files: read, ordered, written",
     ["src/perfdata/*", "src/perfdata*"]),
    ("symbols", "addresses of processes turned into functions: the process "
                "model, binaries' and the kernel's symbol tables",
     ["src/symbols/*"]),
    ("profile", "samples aggregated by stack (peo report, flame graphs, pprof)",
     ["src/profile/*"]),
    ("command", "the peo command, on the public API alone",
     ["tools/*"]),
]
PUBLIC_API_ONLY = "command"  # includes no file of another layer
SOURCE_DIRS = ["src", "tools"]
LIBRARY_DIR = "src"  # whose objects nm reads (tools use the public API)


def layer_of(path):
    for rank, (name, _, patterns) in enumerate(LAYERS):
        if any(fnmatch.fnmatchcase(path, p) for p in patterns):
            return rank
    return None


def sources(root):
    out = []
    for top in SOURCE_DIRS:
        for d, _, files in os.walk(os.path.join(root, top)):
            for f in files:
                if f.endswith((".c", ".h")):
                    out.append(os.path.relpath(os.path.join(d, f), root))
    return sorted(out)


INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def includes(root, files):
    """{(from, to): [name as written]} for quoted includes of files we know."""
    known = set(files)
    edges = defaultdict(list)
    for f in files:
        with open(os.path.join(root, f), encoding="utf-8", errors="replace") as fh:
            text = fh.read()
        for m in INCLUDE.finditer(text):
            name = m.group(1)
            for base in (os.path.dirname(f), *SOURCE_DIRS):
                cand = os.path.normpath(os.path.join(base, name))
                if cand in known:
                    edges[(f, cand)].append(name)
                    break  # else a public header (include/) or the system's
    return edges


def fresh_object(build, root, src):
    """The object of @src in CMake build @build, if newer than the source and
    the headers its dependency file lists; else None."""
    obj = os.path.join(build, "CMakeFiles", "peo_objects.dir", src + ".o")
    if not os.path.exists(obj):
        return None
    built = os.path.getmtime(obj)
    deps = [os.path.join(root, src)]
    try:
        with open(obj + ".d", encoding="utf-8", errors="replace") as fh:
            deps += fh.read().replace("\\\n", " ").split(":", 1)[1].split()
    except (OSError, IndexError):
        pass
    for d in deps:
        d = d if os.path.isabs(d) else os.path.join(build, d)
        if os.path.exists(d) and os.path.getmtime(d) > built:
            return None
    return obj


def compile_objects(root, srcs, out):
    cc = os.environ.get("CC") or shutil.which("cc") or "gcc"
    flags = ["-c", "-O0", "-w", "-D_GNU_SOURCE", "-I" + os.path.join(root, "include"),
             "-I" + os.path.join(root, "src")]
    if any(os.path.exists(os.path.join(d, "zstd.h"))
           for d in ("/usr/include", "/usr/local/include")):
        flags.append("-DPEO_HAVE_ZSTD")

    def one(src):
        obj = os.path.join(out, src.replace("/", "__") + ".o")
        r = subprocess.run([cc, *flags, os.path.join(root, src), "-o", obj],
                           capture_output=True, text=True)
        if r.returncode:
            sys.exit("layers: cannot compile %s:\n%s" % (src, r.stderr))
        return src, obj

    with ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        return dict(pool.map(one, srcs))


def symbol_uses(root, build, files):
    """{(from, to): set(symbol)}: @from uses a global symbol that @to defines."""
    srcs = [f for f in files if f.startswith(LIBRARY_DIR + "/") and f.endswith(".c")]
    objects = {}
    if build:
        for s in srcs:
            obj = fresh_object(build, root, s)
            if obj:
                objects[s] = obj
    tmp = tempfile.mkdtemp(prefix="peo-layers-")
    try:
        objects.update(compile_objects(root, [s for s in srcs if s not in objects], tmp))
        src_of = {obj: s for s, obj in objects.items()}
        # One nm for all: "OBJECT:[VALUE] TYPE NAME" per symbol.
        r = subprocess.run(["nm", "-A", *src_of], capture_output=True, text=True, check=True)
        defined, used = {}, defaultdict(set)
        for line in r.stdout.splitlines():
            obj, _, rest = line.partition(":")
            parts = rest.split()
            if obj not in src_of:
                continue
            if len(parts) == 2 and parts[0] == "U":
                used[src_of[obj]].add(parts[1])
            elif len(parts) == 3 and parts[1] in "TDBRCGSVW":
                defined[parts[2]] = src_of[obj]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    edges = defaultdict(set)
    for s, names in used.items():
        for n in names:
            d = defined.get(n)
            if d and d != s:
                edges[(s, d)].add(n)
    return edges


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    files = sources(root)

    unmapped = [f for f in files if layer_of(f) is None]
    if unmapped:
        for f in unmapped:
            print("layers: %s is on no layer: add it to a layer's patterns in LAYERS "
                  "at the top of scripts/layers.py (bottom layer first)" % f, file=sys.stderr)
        return 1

    uses = defaultdict(lambda: [0, 0, []])  # (from layer, to layer) -> [includes, symbols, detail]
    for (a, b), names in includes(root, files).items():
        la, lb = layer_of(a), layer_of(b)
        if la != lb:
            e = uses[(la, lb)]
            e[0] += len(names)
            e[2].append("%s includes %s" % (a, b))
    build = os.path.abspath(args.build) if args.build else None
    for (a, b), names in symbol_uses(root, build, files).items():
        la, lb = layer_of(a), layer_of(b)
        if la != lb:
            e = uses[(la, lb)]
            e[1] += len(names)
            e[2].append("%s uses %s of %s" % (a, ", ".join(sorted(names)), b))

    if not args.quiet:
        print("layers, bottom first (a layer may use those below it):")
        for rank, (name, what, _) in enumerate(LAYERS):
            print("  %2d %-11s %s" % (rank, name, what))
        print("edges between layers (#include lines, symbols used):")
        for (la, lb) in sorted(uses, key=lambda k: (k[0], k[1])):
            inc, sym, _ = uses[(la, lb)]
            print("  %-11s -> %-11s %3d includes %4d symbols%s" %
                  (LAYERS[la][0], LAYERS[lb][0], inc, sym, "   UPWARD" if lb > la else ""))
    sys.stdout.flush()  # the graph before the errors
    api_only = [r for r, (name, _, _) in enumerate(LAYERS) if name == PUBLIC_API_ONLY]
    upward = sorted(k for k in uses if k[1] > k[0] or k[0] in api_only)
    for (la, lb) in upward:
        print("layers: %s uses %s, %s:" % (LAYERS[la][0], LAYERS[lb][0],
              "a layer above it" if lb > la else "but is built on the public API alone"),
              file=sys.stderr)
        for d in sorted(uses[(la, lb)][2]):
            print("    " + d, file=sys.stderr)
    if upward:
        print("layers: %d edge(s) break the layering: move the code to the layer it serves, "
              "or pass what the lower layer needs down to it (docs/DESIGN.md, Layers)"
              % len(upward), file=sys.stderr)
        return 1
    if not args.quiet:
        print("layers: no edge runs upward")
    return 0


if __name__ == "__main__":
    sys.exit(main())
