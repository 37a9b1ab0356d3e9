# DuckDB through its own Python module (host.py runs it; sqldb.py has what SQL engines share).


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


MODULES["duckdb"] = lambda: SqlHost(DuckDb())
