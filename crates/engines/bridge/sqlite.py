# SQLite through a Python's own `sqlite3` module (host.py runs it; sqldb.py has what SQL engines
# share): `sqlite=/path/to/venv` compares the SQLite that Python carries, and
# `sqlite=/path/to/libsqlite3.so` runs this module with that library preloaded (LD_PRELOAD), whose
# path crosscheck passes in CROSSCHECK_SQLITE_LIBRARY so the module can check the preload took.


class Sqlite:
    """SQLite through `sqlite3`, giving what rusqlite gives in process: storage classes as they
    are (no declared-type conversion), text decoded leniently, statements in autocommit."""

    def __init__(self):
        import sqlite3

        self.m = sqlite3
        self.version = sqlite3.sqlite_version
        self.check_preload()
        self.Error = sqlite3.Error
        # An interrupt is an OperationalError like any other; SqlHost's watchdog tells them apart.
        self.Interrupted = ()
        self.con = self.connect()

    def check_preload(self):
        # A Python whose _sqlite3 is linked statically ignores LD_PRELOAD: it would report its own
        # SQLite while the user believes the library runs. Refuse to start instead.
        lib = os.environ.get("CROSSCHECK_SQLITE_LIBRARY")
        if not lib:
            return
        import ctypes

        try:
            so = ctypes.CDLL(lib)
            so.sqlite3_libversion.restype = ctypes.c_char_p
            wanted = so.sqlite3_libversion().decode()
        except (OSError, AttributeError) as e:
            sys.stderr.write("%s is not a SQLite shared library: %s\n" % (lib, e))
            sys.exit(1)
        if wanted != self.version:
            sys.stderr.write(
                "%s carries SQLite %s but this Python's sqlite3 module runs SQLite %s "
                "(linked statically, so the library cannot be preloaded)\n" % (lib, wanted, self.version)
            )
            sys.exit(1)

    def connect(self):
        # isolation_level=None: the module would otherwise open transactions on its own before
        # DML, which rusqlite does not do (and a generated BEGIN would then fail).
        con = self.m.connect(":memory:", isolation_level=None, check_same_thread=False)
        # Text that is not UTF-8 (CAST(x'ff' AS TEXT)) is an error by default; rusqlite replaces
        # invalid sequences, and so does this.
        con.text_factory = lambda b: b.decode("utf-8", "replace")
        return con

    def reset(self):
        try:
            self.con.close()
        except Exception:
            pass
        self.con = self.connect()

    def run(self, sql):
        cur = self.con.execute(sql)
        desc = cur.description
        if desc is None:
            return None, None
        # No declared types: a REAL column must not be taken for a single-precision FLOAT.
        return [(d[0], "") for d in desc], cur.fetchall()


MODULES["sqlite"] = lambda: SqlHost(Sqlite())
