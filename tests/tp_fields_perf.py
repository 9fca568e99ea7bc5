# tp_fields_perf.py - run by `perf script -s` for script_compare.sh: each
# tracepoint sample's own fields (not the common_* ones) as perf decodes
# them, a JSON line each, to compare with peo script --json's "fields".
import json


def trace_unhandled(event_name, context, fields, sample):
    own = {k: list(v) if isinstance(v, (bytes, bytearray)) else v
           for k, v in fields.items() if not k.startswith("common_")}
    print(json.dumps({"event": event_name, "fields": own}, sort_keys=True))
