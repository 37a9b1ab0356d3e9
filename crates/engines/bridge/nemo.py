# Nemo (PyPI nemo-python) for the Datalog engine `nemo` (host.py runs it). A request is
# {"program": "<nemo rules>", "output": "<predicate>"}; the reply {"rows": [[...], ...]},
# {"error": "..."} or, for a Rust panic inside Nemo, {"crash": "panic: ..."}. Integers stay
# integers; other values come back in Nemo's own (quoted) spelling.


class NemoHost:
    def __init__(self):
        import importlib.metadata
        import nmo_python

        self.nemo = nmo_python
        self.version = importlib.metadata.version("nemo-python")

    def handle(self, req):
        nemo = self.nemo
        try:
            engine = nemo.NemoEngine(nemo.load_string(req["program"]))
            engine.reason()
            rows = []
            for row in engine.result(req["output"]):
                rows.append([v if isinstance(v, int) else str(v) for v in row])
            return {"rows": rows}
        except Exception as e:
            return {"error": "%s: %s" % (type(e).__name__, e)}
        except BaseException as e:  # pyo3's PanicException derives from BaseException
            if type(e).__name__ != "PanicException":
                raise
            return {"crash": "panic: %s" % e}


MODULES["nemo"] = NemoHost
