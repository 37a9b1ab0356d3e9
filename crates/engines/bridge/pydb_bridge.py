"""crosscheck's bridge to an in-process SQL engine's Python module (DuckDB, or Turso through
`pyturso`), chosen by the first argument (`duckdb` by default): JSON lines on stdin and stdout.

Requests:  {"op": "run", "sql": "...", "timeout_ms": 5000}   {"op": "reset"}
Replies:   {"done": true} | {"columns": [...], "types": [...], "rows": [[...]]}
           | {"error": "...", "kind": "CatalogException"} | {"timeout": true}
At start the bridge writes {"hello": "<engine version>"}.

Values keep their type: JSON null, booleans, integers (64-bit; larger ones as {"b": "digits"}),
floats (finite; {"f": "inf" | "-inf" | "nan"} otherwise), {"d": "1.50"} for DECIMAL,
strings, {"x": "hex"} for BLOB, {"s": "..."} for any other type, as DuckDB prints it.
A statement running past its timeout is interrupted (con.interrupt), so the database survives.
"""
import decimal
import json
import math
import os
import sys
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


class DuckDb:
    """DuckDB's own module: typed results, interrupts, resets by ATTACH."""

    def __init__(self):
        import duckdb

        self.m = duckdb
        self.version = duckdb.__version__
        self.Error = duckdb.Error
        self.Interrupted = duckdb.InterruptException
        self.con = self.connect()
        self.resets = 0
        self.current = "memory"

    def connect(self):
        con = self.m.connect(":memory:")
        # The progress bar costs time and is not an answer.
        con.execute("SET enable_progress_bar = false")
        return con

    def reset(self):
        # A fresh in-memory database attached beside the old one, which is then detached:
        # 1 ms instead of 27 ms for a new connection. Every 500 resets, a new connection all
        # the same, so that nothing a session set accumulates for long.
        self.resets += 1
        name = "db%d" % self.resets
        try:
            if self.resets % 500 == 0:
                raise self.Error("renew the connection")
            self.con.execute("ATTACH ':memory:' AS %s; USE %s" % (name, name))
            try:
                self.con.execute("DETACH %s" % self.current)
            except self.Error:
                pass
            self.current = name
        except self.Error:
            try:
                self.con.close()
            except Exception:
                pass
            self.con = self.connect()
            self.current = "memory"

    def run(self, sql):
        """(description, rows) or (None, None) for a statement without a result."""
        cur = self.con.execute(sql)
        desc = cur.description
        if desc is None:
            return None, None
        # Fetch everything, a status row included: DuckDB 2 refuses new work on a connection
        # with an unfinished result.
        rows = cur.fetchall()
        if statusish(desc) and not returns_rows(self.con, sql, self.Error):
            return None, None
        return [(d[0], str(d[1])) for d in desc], rows


class Turso:
    """Turso (a SQLite rewrite in Rust) through `pyturso`, a sqlite3-like module."""

    def __init__(self):
        import importlib.metadata

        import turso

        self.m = turso
        self.version = importlib.metadata.version("pyturso")
        self.Error = turso.Error
        self.Interrupted = ()
        self.con = turso.connect(":memory:")

    def reset(self):
        try:
            self.con.close()
        except Exception:
            pass
        self.con = self.m.connect(":memory:")

    def run(self, sql):
        cur = self.con.cursor()
        try:
            cur.execute(sql)
        except self.Error as e:
            if "one statement at a time" not in str(e):
                raise
            # A script: its statements' results are not returned.
            self.con.executescript(sql)
            return None, None
        desc = cur.description
        if desc is None:
            return None, None
        return [(d[0], "") for d in desc], cur.fetchall()


DRIVERS = {"duckdb": DuckDb, "turso": Turso}


def main():
    # Replies get a private copy of stdout, and file descriptor 1 becomes stderr: an engine
    # writing to stdout itself (DuckDB draws a progress bar there for a query past 2 s) would
    # otherwise put lines between replies, and every later reply would answer the request
    # before it.
    out = os.fdopen(os.dup(1), "w")
    sys.stdout.flush()
    os.dup2(2, 1)
    db = DRIVERS[sys.argv[1] if len(sys.argv) > 1 else "duckdb"]()
    watchdog = Watchdog()
    out.write(json.dumps({"hello": db.version}) + "\n")
    out.flush()
    for line in sys.stdin:
        if not line.strip():
            continue
        req = json.loads(line)
        op = req.get("op")
        if op == "reset":
            db.reset()
            reply = {"done": True}
        elif op == "run":
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
        else:
            reply = {"error": "bridge: unknown op %r" % (op,), "kind": "Bridge"}
        out.write(json.dumps(reply, allow_nan=False) + "\n")
        out.flush()
    # End of input: leave at once, without the interpreter's teardown (and its noise on stderr).
    out.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
