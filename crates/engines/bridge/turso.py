# Turso through `pyturso`, a sqlite3-like module (host.py runs it; sqldb.py has what SQL
# engines share).


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


MODULES["turso"] = lambda: SqlHost(Turso())
