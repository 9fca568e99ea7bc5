# tp_fields_compare.py PEO-JSON PERF-FIELDS - the "fields" of each tracepoint
# sample in peo script --json's output against what perf decodes for the
# same samples (tp_fields_perf.py's lines), in order.  Prints what agreed,
# or exits non-zero naming the first sample and field that did not.
#
# perf hands over integers as numbers (a signed one of 4 bytes or fewer as
# its unsigned value), strings as strings, and other arrays as their bytes;
# it takes a byte array that reads as text (all zeros too) for a string,
# and a char array with bytes other than text after its NUL for bytes.
# peo goes by the field's type: "0x..." for pointers and unsigned longs, an
# array of elements for an integer array.
import json
import sys


def number(v):
    return int(v, 16) if isinstance(v, str) else v


def text_of(byte_values):
    return bytes(byte_values).split(b"\0")[0].decode("latin-1")


def same(ours, theirs):
    if isinstance(theirs, str):
        return text_of(ours) == theirs if isinstance(ours, list) else ours == theirs
    if isinstance(theirs, list):
        if isinstance(ours, str):
            return text_of(theirs) == ours
        if not isinstance(ours, list) or not ours:
            return ours == theirs
        size = len(theirs) // len(ours)
        if size * len(ours) != len(theirs):
            return False
        as_bytes = b"".join((number(e) % (1 << 8 * size)).to_bytes(size, "little") for e in ours)
        return list(as_bytes) == theirs
    ours = number(ours)
    if ours % (1 << 64) == theirs % (1 << 64):
        return True
    return ours < 0 and any(ours % (1 << bits) == theirs for bits in (8, 16, 32))


def main():
    peo = [json.loads(line) for line in open(sys.argv[1])]
    peo = [r for r in peo if r["type"] == "SAMPLE" and "raw_size" in r]
    perf = [json.loads(line) for line in open(sys.argv[2]) if line.startswith("{")]
    if len(peo) != len(perf):
        sys.exit(f"{len(peo)} tracepoint samples, perf {len(perf)}")
    if not peo:
        sys.exit("no tracepoint sample to compare")
    checked = 0
    for i, (ours, theirs) in enumerate(zip(peo, perf)):
        fields = ours.get("fields", {})
        if sorted(fields) != sorted(theirs["fields"]):
            sys.exit(f"sample {i} ({ours['event']}): fields {sorted(fields)}, "
                     f"perf {sorted(theirs['fields'])}")
        for name, value in theirs["fields"].items():
            if not same(fields[name], value):
                sys.exit(f"sample {i} ({ours['event']}): {name} = {fields[name]!r}, "
                         f"perf {value!r}")
            checked += 1
    print(f"{len(peo)} samples' {checked} fields")


main()
