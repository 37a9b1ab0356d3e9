#!/usr/bin/env python3
"""Long-lived bridge to Nemo (PyPI nemo-python) for crosscheck's datalog leg.

One JSON object per line on stdin: {"program": "<nemo rules>", "output": "<predicate>"}.
One JSON object per line on stdout: {"rows": [[...], ...]} or {"error": "..."}.
Integers stay integers; strings come back in Nemo's own (quoted) spelling.
"""
import json
import os
import sys

try:
    import nmo_python as nemo
except Exception as e:  # reported to the Rust side, which says how to install it
    print(json.dumps({"error": "cannot import nmo_python: %s" % e}), flush=True)
    sys.exit(3)

# Answers get a private copy of stdout and file descriptor 1 becomes stderr: anything Nemo
# itself writes to stdout would otherwise be read as the next answer.
out_file = os.fdopen(os.dup(1), "w")
sys.stdout.flush()
os.dup2(2, 1)
out_file.write(json.dumps({"ready": True}) + "\n")
out_file.flush()
for line in sys.stdin:
    try:
        req = json.loads(line)
        engine = nemo.NemoEngine(nemo.load_string(req["program"]))
        engine.reason()
        rows = []
        for row in engine.result(req["output"]):
            rows.append([v if isinstance(v, int) else str(v) for v in row])
        out = {"rows": rows}
    except Exception as e:
        out = {"error": "%s: %s" % (type(e).__name__, e)}
    except BaseException as e:  # a Rust panic inside Nemo (pyo3's PanicException)
        if type(e).__name__ != "PanicException":
            raise
        out = {"crash": "panic: %s" % e}
    out_file.write(json.dumps(out) + "\n")
    out_file.flush()
