# mkcpio.py DIR OUT - a newc cpio archive of DIR (an initramfs for make
# check-hw), with no cpio program needed.
import os, sys, stat
root, out = sys.argv[1], sys.argv[2]
def hdr(name, mode, size, ino, nlink=1):
    name_b = name.encode() + b"\0"
    h = b"070701" + b"".join(b"%08X" % v for v in (ino, mode, 0, 0, nlink, 0, size, 0, 0, 0, 0, len(name_b), 0))
    pad = (4 - (len(h) + len(name_b)) % 4) % 4
    return h + name_b + b"\0" * pad
with open(out, "wb") as f:
    ino = 1
    for dirpath, dirs, files in os.walk(root):
        dirs.sort()
        for n in sorted(dirs) + sorted(files):
            p = os.path.join(dirpath, n)
            rel = os.path.relpath(p, root)
            st = os.lstat(p)
            if stat.S_ISREG(st.st_mode):
                data = open(p, "rb").read()
            elif stat.S_ISLNK(st.st_mode):  # a symlink's data is its target
                data = os.readlink(p).encode()
            else:
                data = b""
            f.write(hdr(rel, st.st_mode, len(data), ino, 2 if stat.S_ISDIR(st.st_mode) else 1))
            f.write(data + b"\0" * ((4 - len(data) % 4) % 4))
            ino += 1
    f.write(hdr("TRAILER!!!", 0, 0, 0))
