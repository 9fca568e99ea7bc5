# samples_perf.py - run by `perf script -s` for script_compare.sh: each
# sample's fields as perf decodes them, a JSON line each, to compare with
# peo script --json's SAMPLE objects (json_records_compare.py).
import json


def process_event(event):
    s = event["sample"]
    keep = ("pid", "tid", "cpu", "ip", "time", "addr", "phys_addr", "weight", "transaction",
            "datasrc")
    out = {k: s[k] for k in keep if k in s}
    out["event"] = event["ev_name"]
    print(json.dumps(out, sort_keys=True))
