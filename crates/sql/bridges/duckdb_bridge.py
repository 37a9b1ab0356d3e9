"""crosscheck's bridge to DuckDB's Python module: JSON lines on stdin and stdout.

Requests:  {"op": "run", "sql": "...", "timeout_ms": 5000}   {"op": "reset"}
Replies:   {"done": true} | {"columns": [...], "types": [...], "rows": [[...]]}
           | {"error": "...", "kind": "CatalogException"} | {"timeout": true}
At start the bridge writes {"hello": "<duckdb version>"}.

Values keep their type: JSON null, booleans, integers (64-bit; larger ones as {"b": "digits"}),
floats (finite; {"f": "inf" | "-inf" | "nan"} otherwise), {"d": "1.50"} for DECIMAL,
strings, {"x": "hex"} for BLOB, {"s": "..."} for any other type, as DuckDB prints it.
A statement running past its timeout is interrupted (con.interrupt), so the database survives.
"""
import decimal
import json
import math
import sys
import threading

import duckdb

I64_MIN, I64_MAX = -(2**63), 2**63 - 1


def enc(v):
    if v is None or v is True or v is False:
        return v
    t = type(v)
    if t is int:
        return v if I64_MIN <= v <= I64_MAX else {"b": str(v)}
    if t is float:
        if math.isfinite(v):
            return v
        return {"f": "nan" if v != v else ("inf" if v > 0 else "-inf")}
    if t is str:
        return v
    if t is decimal.Decimal:
        return {"d": str(v)}
    if t is bytes or t is bytearray or t is memoryview:
        return {"x": bytes(v).hex()}
    return {"s": str(v)}


# DDL, DML and SET report a status as a one-column result ("Count" / "Success"): those are
# "done", unless the statement is a query (or has RETURNING) that happens to look the same.
STATUS = ((("Count", "BIGINT"),), (("Success", "BOOLEAN"),))
QUERY_TYPES = {"SELECT", "EXPLAIN", "PRAGMA", "CALL", "RELATION", "EXECUTE"}


def statusish(desc):
    return tuple((d[0], str(d[1])) for d in desc) in STATUS


def returns_rows(con, sql):
    try:
        stmts = con.extract_statements(sql)
    except duckdb.Error:
        return True
    if not stmts:
        return True
    kind = str(stmts[-1].type).rsplit(".", 1)[-1]
    return kind in QUERY_TYPES or "returning" in sql.lower()


def main():
    out = sys.stdout
    con = duckdb.connect(":memory:")
    out.write(json.dumps({"hello": duckdb.__version__}) + "\n")
    out.flush()
    for line in sys.stdin:
        if not line.strip():
            continue
        req = json.loads(line)
        op = req.get("op")
        if op == "reset":
            try:
                con.close()
            except Exception:
                pass
            con = duckdb.connect(":memory:")
            reply = {"done": True}
        elif op == "run":
            timeout_ms = req.get("timeout_ms") or 0
            timer = None
            fired = []
            if timeout_ms > 0:
                c = con

                def stop():
                    fired.append(True)
                    c.interrupt()

                timer = threading.Timer(timeout_ms / 1000.0, stop)
                timer.daemon = True
                timer.start()
            try:
                cur = con.execute(req["sql"])
                desc = cur.description
                if desc is None or (statusish(desc) and not returns_rows(con, req["sql"])):
                    reply = {"done": True}
                else:
                    rows = cur.fetchall()
                    reply = {
                        "columns": [d[0] for d in desc],
                        "types": [str(d[1]) for d in desc],
                        "rows": [[enc(v) for v in r] for r in rows],
                    }
            except duckdb.InterruptException:
                reply = {"timeout": True}
            except duckdb.Error as e:
                reply = {"error": str(e), "kind": type(e).__name__}
            except Exception as e:  # a value the bridge cannot convert, say
                reply = {"error": "bridge: %s: %s" % (type(e).__name__, e), "kind": "Bridge"}
            finally:
                if timer is not None:
                    timer.cancel()
            if fired and "timeout" not in reply and "error" in reply:
                reply = {"timeout": True}
        else:
            reply = {"error": "bridge: unknown op %r" % (op,), "kind": "Bridge"}
        out.write(json.dumps(reply, allow_nan=False) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
