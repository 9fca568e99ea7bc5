#!/usr/bin/env python3
"""stackcollapse.py [FILE] - folded stacks from perf script's default
output, by the rules of FlameGraph's stackcollapse-perf.pl (default
options), for the tests to hold peo report --folded against perf: written
here from the format's description, since Debian ships no FlameGraph.

A sample's header line "comm tid[/pid] ... [period] event:" starts a
stack; its frame lines "addr name[+0xoff] (dso)" follow, innermost first;
a blank line ends it.  The line: comm (spaces as '_'), then the frames
outermost first, joined by ';', then the summed weight (the header's
period, else 1); a stack no blank line ends is not counted.  Only the first event a header names (one ending in
"event:") is kept.  A frame's name loses its +0x offset; one starting
with '(' is dropped; "a->b" is two frames; [unknown] becomes the dso's
base name in brackets where the dso is known; ';' becomes ':', from the
first '(' not opening "(anonymous namespace)" on is cut (unless it looks
like a Go method, pkg.(*T).f), quotes go.  Lines are sorted bytewise."""
import re
import sys

HEADER = re.compile(r'^(\S.+?)\s+(\d+)/*(\d+)*\s+')
PERIOD_EVENT = re.compile(r':\s*(\d+)*\s+(\S+):\s*$')
FRAME = re.compile(r'^\s*(\w+)\s*(.+) \((.*)\)')


def tidy(func, pname):
    func = func.replace(';', ':')
    if not re.search(r'\.\(.*\)\.', func):
        func = re.sub(r'\((?!anonymous namespace\)).*', '', func, count=1)
    func = func.replace('"', '').replace("'", '')
    if pname.startswith('java') and '/' in func and func.startswith('L'):
        func = func[1:]
    return func


def collapse(lines):
    folded = {}
    stack, pname, period, event_filter = [], None, 1, ''
    for line in lines:
        if line.startswith('#'):
            continue
        line = line.rstrip('\n')
        if line == '':
            if pname:
                key = ';'.join([pname] + stack)
                folded[key] = folded.get(key, 0) + period
            stack, pname = [], None
            continue
        m = HEADER.match(line)
        if m:
            comm = m.group(1)
            period = 1
            pe = PERIOD_EVENT.search(line)
            if pe:
                event = pe.group(2)
                if event_filter == '':
                    event_filter = event
                elif event != event_filter:
                    continue
                if pe.group(1) and pe.group(1) != '0':
                    period = int(pe.group(1))
            pname = comm.replace(' ', '_')
            continue
        m = FRAME.match(line)
        if not m:
            print('stackcollapse.py: unrecognized line: ' + line, file=sys.stderr)
            continue
        if not pname:
            continue
        pc, rawfunc, mod = m.groups()
        rawfunc = re.sub(r'\+0x[\da-f]+$', '', rawfunc)
        if rawfunc.startswith('('):
            continue
        parts = []
        for func in rawfunc.split('->'):
            if func == '[unknown]':
                func = '[' + (re.sub(r'.*/', '', mod) if mod != '[unknown]' else 'unknown') + ']'
            parts.append(tidy(func, pname))
        stack = parts + stack
    return folded  # a stack no blank line ends is not counted


def main():
    src = open(sys.argv[1], encoding='utf-8', errors='surrogateescape') if len(sys.argv) > 1 \
        else sys.stdin
    folded = collapse(src)
    out = sys.stdout.buffer
    for k in sorted(folded, key=lambda s: s.encode('utf-8', 'surrogateescape')):
        out.write(k.encode('utf-8', 'surrogateescape') + b' ' + str(folded[k]).encode() + b'\n')


if __name__ == '__main__':
    main()
