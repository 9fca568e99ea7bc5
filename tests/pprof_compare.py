#!/usr/bin/env python3
"""pprof_compare.py - go tool pprof's reading of peo report --pprof
against peo report's own numbers, for tests/pprof_compare.sh.

  top TOP NO_CHILDREN CHILDREN: TOP is `go tool pprof -top -unit=ns
  -sample_index=1` of the profile; NO_CHILDREN and CHILDREN are `peo
  report -q -s sym` with --no-children and --children.  Each function's
  flat share (its ns over the total, printed %.2f as perf does) is its
  row's, and its cum share its --children row's, for every name that has
  one row (a name both in the kernel and in user code has two in peo's
  table, one in pprof's); rows of unnamed addresses are left out.

  traces TRACES FOLDED: TRACES is `go tool pprof -traces -unit=ns
  -sample_index=1`; FOLDED is peo report --folded.  The stacks (function
  names, leaf first; pprof marks an inlined one "(inline)") and their ns
  are the folded lines' (comm dropped),
  but for stacks with an unnamed frame (<unknown> in pprof, [dso] in the
  folded lines).
Prints one line of counts; exits 1 at the first difference."""
import re
import sys


def fail(why):
    print('FAIL: ' + why)
    sys.exit(1)


def report_rows(path, children):
    rows = {}
    for line in open(path, encoding='utf-8', errors='replace'):
        parts = line.split()
        if not parts or not parts[0].endswith('%'):
            continue
        if children:
            pct, name = parts[0], ' '.join(parts[3:])
        else:
            pct, name = parts[0], ' '.join(parts[2:])
        rows.setdefault(name, []).append(pct.rstrip('%'))
    return rows


def top(top_path, flat_path, cum_path):
    total, fns = None, {}
    for line in open(top_path, encoding='utf-8', errors='replace'):
        m = re.match(r'Showing nodes accounting for \d+ns, [0-9.]+% of (\d+)ns total', line)
        if m:
            total = int(m.group(1))
        m = re.match(r'^\s*(\d+)ns\s+\S+\s+\S+\s+(\d+)ns\s+\S+\s+(.*)$', line)
        if m:
            fns[m.group(3)] = (int(m.group(1)), int(m.group(2)))
    if not total or not fns:
        fail('no functions in pprof -top')
    flat, cum = report_rows(flat_path, False), report_rows(cum_path, True)
    checked = 0
    for name, (f, c) in fns.items():
        if name.startswith('0x') or ' 0x' in name:
            continue
        want_flat, want_cum = '%.2f' % (100.0 * f / total), '%.2f' % (100.0 * c / total)
        if name in flat and len(flat[name]) == 1 and flat[name][0] != want_flat:
            fail('%s: pprof flat %s%%, peo report --no-children %s%%' % (name, want_flat, flat[name][0]))
        if name in cum and len(cum[name]) == 1 and cum[name][0] != want_cum:
            fail('%s: pprof cum %s%%, peo report --children %s%%' % (name, want_cum, cum[name][0]))
        if f and name not in flat:
            fail('%s: %dns flat in pprof, no row in peo report' % (name, f))
        checked += 1
    print('top: %d functions, flat and cum shares the same as peo report\'s rows' % checked)


def traces(traces_path, folded_path):
    got, stack, value = {}, [], None
    for line in open(traces_path, encoding='utf-8', errors='replace'):
        line = line.rstrip('\n')
        if line.startswith('-----------+'):
            if value is not None:
                got[tuple(stack)] = got.get(tuple(stack), 0) + value
            stack, value = [], None
            continue
        m = re.match(r'^\s*(\d+)ns\s+(.*)$', line)
        if m:  # an inlined function's line says so: " (inline)"
            value, stack = int(m.group(1)), [re.sub(r' \(inline\)$', '', m.group(2).strip())]
        elif value is not None and line.startswith('             '):
            stack.append(re.sub(r' \(inline\)$', '', line.strip()))
    if value is not None:
        got[tuple(stack)] = got.get(tuple(stack), 0) + value
    want = {}
    for line in open(folded_path, encoding='utf-8', errors='replace'):
        names, w = line.rstrip('\n').rsplit(' ', 1)
        key = tuple(reversed(names.split(';')[1:]))
        want[key] = want.get(key, 0) + int(w)
    unnamed = lambda k: any(n == '<unknown>' or n.startswith('[') for n in k)
    g = {k: v for k, v in got.items() if not unnamed(k)}
    w = {k: v for k, v in want.items() if not unnamed(k)}
    if g != w:
        for k in sorted(set(g) | set(w)):
            if g.get(k) != w.get(k):
                fail('stack %s: pprof %s ns, folded %s' % (';'.join(k), g.get(k), w.get(k)))
    print('traces: %d stacks the same as the folded lines (%d with an unnamed frame left out)'
          % (len(g), len(got) - len(g)))


if __name__ == '__main__':
    if sys.argv[1] == 'top':
        top(*sys.argv[2:5])
    else:
        traces(*sys.argv[2:4])
