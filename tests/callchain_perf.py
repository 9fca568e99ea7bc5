# callchain_perf.py - run by `perf script -s` for script_compare.sh: each
# sample's callchain ips as perf resolves them (no context markers), a
# JSON line each, to compare with peo script --json's "callchain".
import json


def process_event(event):
    print(json.dumps([frame["ip"] for frame in event.get("callchain", [])]))
