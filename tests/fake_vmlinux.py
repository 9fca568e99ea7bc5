#!/usr/bin/env python3
# fake_vmlinux.py OUT - a vmlinux made from this machine's
# /proc/kallsyms, for tests that need one where none is installed: an
# ELF executable whose .text spans [_text, _etext) and .init.text
# [_sinittext, _einittext) (both NOBITS: no code, only addresses), whose
# .symtab holds the kernel's text symbols of kallsyms in them (t/T
# local/global, w/W weak; each function sized up to the next address, as
# a compiler's are; the section bounds as untyped labels, as the linker
# script's are), and whose .note.gnu.build-id holds the running kernel's
# build id (from /sys/kernel/notes).  Built with as, ld and objcopy
# --add-symbol; prints the symbol count.  (A copy moved elsewhere, as
# KASLR moves the kernel: objcopy --change-addresses.)
# Exits 77 (with a reason) when kallsyms hides addresses or a tool fails.
import os
import subprocess
import sys

LABELS = {"_text", "_stext", "_etext", "_sinittext", "_einittext"}


def skip(why):
    print("SKIP: " + why)
    sys.exit(77)


def running_build_id():
    data = open("/sys/kernel/notes", "rb").read()
    at = 0
    while at + 12 <= len(data):
        namesz, descsz, ntype = (int.from_bytes(data[at + i:at + i + 4], "little")
                                 for i in (0, 4, 8))
        name_at = at + 12
        desc_at = name_at + (namesz + 3) // 4 * 4
        if ntype == 3 and data[name_at:name_at + namesz].rstrip(b"\0") == b"GNU":
            return data[desc_at:desc_at + descsz].hex()
        at = desc_at + (descsz + 3) // 4 * 4
    skip("/sys/kernel/notes holds no GNU build id")


def main():
    out = sys.argv[1]
    build_id = running_build_id()
    lines = []
    for line in open("/proc/kallsyms"):
        f = line.split()
        if len(f) == 3:  # the kernel's own (modules have a fourth field)
            lines.append((int(f[0], 16), f[1], f[2]))
    marks = {name: addr for addr, t, name in lines if name in LABELS and t in "Tt"}
    if not lines or not any(a for a, _, _ in lines):
        skip("/proc/kallsyms hides the kernel's addresses")
    if any(n not in marks for n in LABELS):
        skip("/proc/kallsyms lacks one of " + ", ".join(sorted(LABELS)))
    sections = [(".text", marks["_text"], marks["_etext"]),
                (".init.text", marks["_sinittext"], marks["_einittext"])]
    text = sorted((a, t, n) for a, t, n in lines if t in "tTwW")
    addrs = sorted({a for a, _, _ in text})
    next_addr = {a: b for a, b in zip(addrs, addrs[1:])}
    syms = []
    for addr, t, name in text:
        for sec, lo, hi in sections:
            if lo <= addr <= hi:
                break
        else:
            continue
        if name in LABELS:
            flags = "global"
            size = 0
        else:
            flags = ("weak" if t in "wW" else "global" if t == "T" else "local") + ",function"
            size = min(next_addr.get(addr, hi), hi) - addr
        syms.append((name, sec, addr - lo, flags, size, addr))
    tmp = out + ".d"
    os.makedirs(tmp, exist_ok=True)
    with open(tmp + "/sections.s", "w") as f:
        for sec, lo, hi in sections:
            # the input sections named apart: gas makes any .text PROGBITS
            f.write('.section fake%s,"ax",@nobits\n.skip %d\n' % (sec, hi - lo))
    with open(tmp + "/link.ld", "w") as f:
        # the note first: a section with bytes after the NOBITS ones would
        # make the linker write them out (20 MB of zeros)
        f.write("SECTIONS {\n  .note.gnu.build-id 0x%x : { *(.note.gnu.build-id) }\n"
                % (sections[0][1] - 4096))
        for sec, lo, hi in sections:
            f.write("  %s 0x%x : { *(fake%s) }\n" % (sec, lo, sec))
        f.write("}\n")
    with open(tmp + "/symbols", "w") as f:
        for name, sec, off, flags, size, _ in syms:
            f.write("--add-symbol %s=%s:0x%x,%s\n" % (name, sec, off, flags))
    run = [["as", "-o", tmp + "/sections.o", tmp + "/sections.s"],
           ["ld", "-o", tmp + "/linked", "-T", tmp + "/link.ld", "--build-id=0x" + build_id,
            "-e", "0", tmp + "/sections.o"],
           ["objcopy", "@" + tmp + "/symbols", tmp + "/linked", tmp + "/named"]]
    for cmd in run:
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode:
            skip("%s failed: %s" % (cmd[0], r.stderr.strip()[:300]))
    set_sizes(tmp + "/named", out, syms)
    print(len(syms))


def set_sizes(path, out, syms):
    """objcopy --add-symbol gives no sizes: write each function's st_size
    into the .symtab, found by its name and address."""
    import struct
    data = bytearray(open(path, "rb").read())
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", data, 0x3a)
    for i in range(shnum):
        sh = shoff + i * shentsize
        sh_type, = struct.unpack_from("<I", data, sh + 4)
        if sh_type != 2:  # SHT_SYMTAB
            continue
        off, size = struct.unpack_from("<QQ", data, sh + 0x18)
        entsize, = struct.unpack_from("<Q", data, sh + 0x38)
        strtab_sh = shoff + struct.unpack_from("<I", data, sh + 0x28)[0] * shentsize
        stroff, = struct.unpack_from("<Q", data, strtab_sh + 0x18)
        sizes = {(n, v): sz for n, _, _, _, sz, v in syms}
        for e in range(off, off + size, entsize):
            st_name, = struct.unpack_from("<I", data, e)
            value, = struct.unpack_from("<Q", data, e + 8)
            end = data.index(b"\0", stroff + st_name)
            sz = sizes.get((data[stroff + st_name:end].decode(), value))
            if sz:
                struct.pack_into("<Q", data, e + 16, sz)
    open(out, "wb").write(data)


main()
