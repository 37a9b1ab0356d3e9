# The embedded Cypher engines PyPI ships as Python libraries (Kuzu, and LadybugDB, its fork
# under another module name), for the Cypher leg (host.py runs them; the Rust side is
# crates/engines/src/cypher/bridged.rs). One in-memory database per instance.
"""
Requests:  {"op": "run", "text": "<statements separated by ';' + newline>", "timeout_ms": 5000}
           {"op": "reset"}
Replies:   {"done": true} (the last statement returned no columns)
           | {"columns": [...], "rows": [[value, ...]]} (the last statement's answer)
           | {"error": "..."} | {"timeout": true}

A value is JSON: null, a boolean, an integer (no fraction in its text), a float (always a
fraction or exponent in its text, so JSON keeps the two apart), a string, a list, or
{"map": {...}}; a float JSON cannot spell (inf, nan) is {"float": "inf"}; anything else the
engine returns (a node or relationship object, a date) is {"other": "<its text>"}.
"""
import decimal
import importlib
import math


class GraphDb:
    def __init__(self, module):
        self.m = importlib.import_module(module)
        self.version = self.m.__version__
        self.reset()

    def reset(self):
        self.db = self.m.Database(":memory:")
        self.conn = self.m.Connection(self.db)

    def handle(self, req):
        if req.get("op") == "reset":
            self.reset()
            return {"done": True}
        self.conn.set_query_timeout(max(1, int(req.get("timeout_ms", 10000))))
        last = None
        try:
            for stmt in req.get("text", "").split(";\n"):
                if stmt.strip():
                    last = self.conn.execute(stmt)
            if last is None or not last.get_column_names():
                return {"done": True}
            rows = [[value(v) for v in row] for row in last.get_all()]
            return {"columns": last.get_column_names(), "rows": rows}
        except RuntimeError as e:
            # Kuzu's interrupt (set_query_timeout) raises "Interrupted."
            if str(e).strip().startswith("Interrupted"):
                return {"timeout": True}
            return {"error": str(e)}
        except Exception as e:
            return {"error": "%s: %s" % (type(e).__name__, e)}


def value(v):
    if v is None or isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, float):
        # repr keeps every digit; JSON would refuse inf and nan.
        return v if math.isfinite(v) else {"float": repr(v)}
    if isinstance(v, decimal.Decimal):
        # Kuzu's sum() of INT64 is an INT128, which Python gets as a Decimal.
        return int(v) if v == v.to_integral_value() else {"float": str(v)}
    if isinstance(v, (list, tuple)):
        return [value(x) for x in v]
    if isinstance(v, dict):
        if "_id" in v or "_label" in v:
            return {"other": str(v)}
        return {"map": {str(k): value(x) for k, x in v.items()}}
    return {"other": str(v)}


MODULES["kuzu"] = lambda: GraphDb("kuzu")
MODULES["ladybug"] = lambda: GraphDb("ladybug")
