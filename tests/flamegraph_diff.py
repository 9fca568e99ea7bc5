#!/usr/bin/env python3
"""flamegraph_diff.py DIFF_SVG DIFF_FOLDED BEFORE_FOLDED AFTER_FOLDED FUNC
- peo report's differential outputs of two recordings against their own
folded stacks: --folded of both files is each stack with its weight
before and after (0 where absent), sorted bytewise; the differential
SVG's root weighs the after's total, each frame's tooltip gives its
share after and before and the change in points, its colour red where
the share grew and blue where it shrank; FUNC's frames (a function whose
share changed) say the shares its stacks have in each file."""
import re
import sys
import xml.etree.ElementTree as ET

NS = '{http://www.w3.org/2000/svg}'
TIP = re.compile(r'^(.*) \((\d+) samples?, ([0-9.]+)%; before ([0-9.]+)%, ([-+][0-9.]+)\)$')


def fail(why):
    print('FAIL: ' + why)
    sys.exit(1)


def folded(path):
    out = {}
    for line in open(path, encoding='utf-8', errors='replace'):
        if line.strip():
            stack, w = line.rstrip('\n').rsplit(' ', 1)
            out[stack] = int(w)
    return out


def main():
    svg, diff_folded, before_path, after_path, func = sys.argv[1:6]
    before, after = folded(before_path), folded(after_path)
    want = ['%s %d %d' % (s, before.get(s, 0), after.get(s, 0))
            for s in sorted(set(before) | set(after), key=lambda s: s.encode())]
    got = [l.rstrip('\n') for l in open(diff_folded, encoding='utf-8', errors='replace')]
    if got != want:
        bad = next(i for i in range(max(len(got), len(want)))
                   if i >= len(got) or i >= len(want) or got[i] != want[i])
        fail('--folded of both, line %d: %r, want %r' % (
            bad + 1, got[bad] if bad < len(got) else None, want[bad] if bad < len(want) else None))
    total_b, total_a = sum(before.values()), sum(after.values())
    root = ET.parse(svg).getroot()
    frames = 0
    coloured = 0
    func_seen = 0
    for g in root.iter(NS + 'g'):
        if g.get('class') != 'f':
            continue
        frames += 1
        m = TIP.match(g.find(NS + 'title').text)
        if not m:
            fail('a tooltip without the shares before and after: %r' % g.find(NS + 'title').text)
        name, after_pct, before_pct, change = m.group(1), float(m.group(3)), float(m.group(4)), float(m.group(5))
        if abs(after_pct - before_pct - change) > 0.011:
            fail('%s: %.2f%% after, %.2f%% before, but a change of %+.2f' % (name, after_pct, before_pct, change))
        if int(g.get('data-d')) == 0 and int(g.get('data-w')) != total_a:
            fail('the root weighs %s, the after\'s total is %d' % (g.get('data-w'), total_a))
        fill = tuple(int(v) for v in re.match(r'rgb\((\d+),(\d+),(\d+)\)',
                                              g.find(NS + 'rect').get('fill')).groups())
        if change >= 0.05 and not (fill[0] == 255 and fill[2] < 255):
            fail('%s grew %+.2f points but is coloured %r, not red' % (name, change, fill))
        if change <= -0.05 and not (fill[2] == 255 and fill[0] < 255):
            fail('%s shrank %+.2f points but is coloured %r, not blue' % (name, change, fill))
        coloured += abs(change) >= 0.05
        if name == func:
            # FUNC's share in each file: its stacks' weights (one path to it)
            share = lambda f, t: 100.0 * sum(w for s, w in f.items() if (';' + func) in s) / t
            if abs(share(after, total_a) - after_pct) > 0.011 or abs(share(before, total_b) - before_pct) > 0.011:
                fail('%s: %.2f%% after and %.2f%% before in the SVG, %.2f%% and %.2f%% in the stacks' % (
                    func, after_pct, before_pct, share(after, total_a), share(before, total_b)))
            func_seen += 1
    if not func_seen:
        fail('no frame of %s' % func)
    print('%d frames, %d coloured by a change; --folded of both: %d lines, as the two files\' lines joined'
          % (frames, coloured, len(got)))


if __name__ == '__main__':
    main()
