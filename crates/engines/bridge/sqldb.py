# What the SQL engines hosted in Python share (DuckDB, Turso through `pyturso`): their requests
# and replies, typed values, and a watchdog that interrupts a statement past its deadline.
"""
Requests:  {"op": "run", "sql": "...", "timeout_ms": 5000}   {"op": "reset"}
Replies:   {"done": true} | {"columns": [...], "types": [...], "rows": [[...]]}
           | {"error": "...", "kind": "CatalogException"} | {"timeout": true}

Values keep their type: JSON null, booleans, integers (64-bit; larger ones as {"b": "digits"}),
floats (finite; {"f": "inf" | "-inf" | "nan"} otherwise), {"d": "1.50"} for DECIMAL,
strings, {"x": "hex"} for BLOB, {"s": "..."} for any other type, as DuckDB prints it.
A statement running past its timeout is interrupted (con.interrupt), so the database survives.
"""
import decimal
import math
import threading
import time

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


def returns_rows(con, sql, error):
    try:
        stmts = con.extract_statements(sql)
    except error:
        return True
    if not stmts:
        return True
    kind = str(stmts[-1].type).rsplit(".", 1)[-1]
    return kind in QUERY_TYPES or "returning" in sql.lower()


class Watchdog:
    """One thread that interrupts the running statement at its deadline (a thread per
    statement would cost more than a simple query)."""

    def __init__(self):
        self.cv = threading.Condition()
        self.armed = None  # (deadline, ticket, connection)
        self.ticket = 0
        self.fired = -1
        t = threading.Thread(target=self.loop, daemon=True)
        t.start()

    def arm(self, con, seconds):
        with self.cv:
            self.ticket += 1
            self.armed = (time.monotonic() + seconds, self.ticket, con)
            self.cv.notify()
            return self.ticket

    def disarm(self, ticket):
        """True if the statement of this ticket was interrupted."""
        with self.cv:
            if self.armed is not None and self.armed[1] == ticket:
                self.armed = None
            return self.fired == ticket

    def loop(self):
        with self.cv:
            while True:
                if self.armed is None:
                    self.cv.wait()
                    continue
                deadline, ticket, con = self.armed
                left = deadline - time.monotonic()
                if left > 0:
                    self.cv.wait(left)
                    continue
                self.armed = None
                self.fired = ticket
                con.interrupt()


class SqlHost:
    """The requests of a SQL engine: `db` has version, con, Error, Interrupted, reset() and
    run(sql) -> (description, rows) or (None, None)."""

    def __init__(self, db):
        self.db = db
        self.version = db.version
        self.watchdog = Watchdog()

    def handle(self, req):
        db, watchdog = self.db, self.watchdog
        op = req.get("op")
        if op == "reset":
            db.reset()
            return {"done": True}
        if op != "run":
            return {"error": "bridge: unknown op %r" % (op,), "kind": "Bridge"}
        timeout_ms = req.get("timeout_ms") or 0
        ticket = watchdog.arm(db.con, timeout_ms / 1000.0) if timeout_ms > 0 else None
        try:
            desc, rows = db.run(req["sql"])
            if desc is None:
                reply = {"done": True}
            else:
                reply = {
                    "columns": [d[0] for d in desc],
                    "types": [d[1] for d in desc],
                    "rows": [[enc(v) for v in r] for r in rows],
                }
        except db.Interrupted:
            reply = {"timeout": True}
        except db.Error as e:
            reply = {"error": str(e), "kind": type(e).__name__}
        except Exception as e:  # a value the bridge cannot convert, say
            reply = {"error": "bridge: %s: %s" % (type(e).__name__, e), "kind": "Bridge"}
        if ticket is not None and watchdog.disarm(ticket) and "error" in reply:
            reply = {"timeout": True}
        return reply
