# CozoDB through PyPI `cozo-embedded` (host.py runs it), for `cozo=/path/to/venv` beside the
# cozo crate built into crosscheck. The Rust side adds the script's `:timeout` (as it does in
# process), so the host only runs scripts and converts answers.
"""
Requests:  {"op": "run", "sql": "<CozoScript>", "timeout_ms": 5000}   {"op": "reset"}
Replies:   {"columns": [...], "types": [], "rows": [[...]]} | {"error": "..."}  (values as sqldb.py)
"""


class Cozo:
    def __init__(self):
        import importlib.metadata

        import cozo_embedded

        self.m = cozo_embedded
        self.version = importlib.metadata.version("cozo-embedded")
        self.db = self.new_db()

    def new_db(self):
        return self.m.CozoDbPy("mem", "", "{}")

    def handle(self, req):
        op = req.get("op")
        if op == "reset":
            self.db = self.new_db()
            return {"done": True}
        if op != "run":
            return {"error": "bridge: unknown op %r" % (op,), "kind": "Bridge"}
        try:
            named = self.db.run_script(req["sql"], {}, False)
        except Exception as e:
            return {"error": message_of(e)}
        try:
            rows = [[cozo_value(v) for v in r] for r in named.get("rows", [])]
        except Exception as e:  # a value the bridge cannot convert
            return {"error": "bridge: %s: %s" % (type(e).__name__, e), "kind": "Bridge"}
        return {"columns": list(named.get("headers", [])), "types": [], "rows": rows}


def message_of(e):
    """The diagnostic's message, as the crate's error displays it in process."""
    arg = e.args[0] if e.args else None
    if isinstance(arg, dict) and isinstance(arg.get("message"), str):
        return arg["message"]
    return str(e)


def cozo_value(v):
    # Lists and other structured values are not what the Datalog leg asks for; they are text.
    if isinstance(v, (list, dict)):
        return {"s": json.dumps(v)}
    return enc(v)


MODULES["cozo"] = lambda: Cozo()
