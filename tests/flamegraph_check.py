#!/usr/bin/env python3
"""flamegraph_check.py SVG FOLDED [PNG] - what tests/flamegraph_browser.sh
checks without a browser: the SVG is well-formed XML, its frames stand
where the folded stacks say (the root spans the width and weighs them
all, each thread's frame weighs its lines' sum, a frame lies within its
caller's span), tooltips say samples and a share; and, given the
screenshot, that it shows the frames (a PNG decoded here: the frame
rows coloured, several hues, the root's grey bar at the bottom)."""
import re
import struct
import sys
import xml.etree.ElementTree as ET
import zlib

NS = '{http://www.w3.org/2000/svg}'


def fail(why):
    print('FAIL: ' + why)
    sys.exit(1)


def frames_of(svg_path):
    root = ET.parse(svg_path).getroot()
    out = []
    for g in root.iter(NS + 'g'):
        if g.get('class') != 'f':
            continue
        title = g.find(NS + 'title').text
        rect = g.find(NS + 'rect')
        m = re.match(r'^(.*) \((\d+) samples?, ([0-9.]+)%\)$', title)
        if not m:
            fail('a tooltip without samples and share: %r' % title)
        out.append({'name': m.group(1), 'samples': int(m.group(2)), 'pct': float(m.group(3)),
                    'x': int(g.get('data-x')), 'w': int(g.get('data-w')), 'd': int(g.get('data-d')),
                    'px': float(rect.get('x')), 'pw': float(rect.get('width'))})
    return root, out


def check_svg(svg_path, folded_path):
    root, frames = frames_of(svg_path)
    lines = [l.rsplit(' ', 1) for l in open(folded_path, encoding='utf-8', errors='replace')
             if l.strip()]
    total = sum(int(w) for _, w in lines)
    roots = [f for f in frames if f['d'] == 0]
    if len(roots) != 1 or roots[0]['name'] != 'all' or roots[0]['w'] != total:
        fail('the root: %r, the folded weight %d' % (roots, total))
    width = float(root.get('width'))
    if abs(roots[0]['pw'] - (width - 20)) > 0.2:
        fail('the root is %.1f px wide, not the width less the margins' % roots[0]['pw'])
    by_comm = {}
    for stack, w in lines:
        comm = stack.split(';')[0]
        by_comm[comm] = by_comm.get(comm, 0) + int(w)
    comms = {f['name']: f['w'] for f in frames if f['d'] == 1}
    if comms != {c: w for c, w in by_comm.items() if w * (width - 20) / total >= 0.1}:
        fail('threads\' frames %r, the folded lines say %r' % (comms, by_comm))
    # each frame within one frame a level down (its caller)
    spans = {}
    for f in frames:
        spans.setdefault(f['d'], []).append((f['x'], f['x'] + f['w']))
    for f in frames:
        if f['d'] and not any(a <= f['x'] and f['x'] + f['w'] <= b for a, b in spans[f['d'] - 1]):
            fail('frame %s at depth %d stands on no caller' % (f['name'], f['d']))
    print('svg: %d frames, %d threads, well placed' % (len(frames), len(comms)))


def png_pixels(path):
    data = open(path, 'rb').read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        fail('not a PNG: ' + path)
    at, idat, w = 8, b'', 0
    while at < len(data):
        n, kind = struct.unpack('>I4s', data[at:at + 8])
        body = data[at + 8:at + 8 + n]
        if kind == b'IHDR':
            w, h, depth, ctype, _, _, interlace = struct.unpack('>IIBBBBB', body)
            if depth != 8 or ctype not in (2, 6) or interlace:
                fail('a PNG this check cannot read (depth %d, colour type %d)' % (depth, ctype))
            bpp = 3 if ctype == 2 else 4
        elif kind == b'IDAT':
            idat += body
        at += 12 + n
    raw, rows, prev = zlib.decompress(idat), [], bytearray(w * bpp)
    stride = w * bpp
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * bpp:x * bpp + 3]) for x in range(w)])
        prev = line
    return w, h, rows


def check_png(png_path, svg_path):
    root, frames = frames_of(svg_path)
    w, h, rows = png_pixels(png_path)
    all_frame = [f for f in frames if f['d'] == 0][0]
    height = float(root.get('height'))
    y_all = int((height - 34 - 16 + 8) * h / height)  # the root's row, mid-height
    row = rows[y_all]
    grey = sum(1 for r, g, b in row if abs(r - g) < 12 and 160 <= r <= 210 and b >= r)
    if grey < w * 0.8:
        fail('the root\'s grey bar is not across the screenshot (%d of %d pixels)' % (grey, w))
    hues = set()
    coloured = 0
    for y in range(0, h, 4):
        for x in range(0, w, 4):
            r, g, b = rows[y][x]
            if r > 150 and b < 100:  # reds, oranges, yellows: user and kernel frames
                coloured += 1
                hues.add((r // 32, g // 32))
    if coloured < 50 or len(hues) < 3:
        fail('the screenshot shows few frames: %d warm pixels, %d hues' % (coloured, len(hues)))
    print('png: %dx%d, the root bar across, %d frame pixels sampled in %d hues'
          % (w, h, coloured, len(hues)))


if __name__ == '__main__':
    check_svg(sys.argv[1], sys.argv[2])
    if len(sys.argv) > 3:
        check_png(sys.argv[3], sys.argv[1])
    print('PASS')
