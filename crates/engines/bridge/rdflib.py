# rdflib (PyPI rdflib) for the SPARQL engine `rdflib` (host.py runs it; rdfhost.py has the
# requests, replies and terms). One in-memory Graph as the default graph.


class RdfLib:
    def __init__(self):
        import rdflib

        self.m = rdflib
        self.version = rdflib.__version__
        self.reset()

    def reset(self):
        self.graph = self.m.Graph()

    def update(self, text):
        self.graph.update(text)

    def query(self, text):
        res = self.graph.query(text)
        if res.type == "ASK":
            return ("ask", res.askAnswer)
        if res.type != "SELECT":
            raise ValueError("not a SELECT or ASK query (%s)" % res.type)
        names = [str(v) for v in (res.vars or [])]
        # Not `for row in res`: rdflib's iterator skips a solution that binds none of the
        # projected variables (`if b:` in Result.__iter__), which is still a row (§18.5).
        variables = res.vars or []
        rows = [[self.term(b.get(v)) for v in variables] for b in res.bindings]
        return ("select", names, rows)

    def term(self, t):
        m = self.m
        if t is None:
            return None
        if isinstance(t, m.URIRef):
            return {"type": "uri", "value": str(t)}
        if isinstance(t, m.BNode):
            return {"type": "bnode", "value": str(t)}
        if isinstance(t, m.Literal):
            dt = str(t.datatype) if t.datatype is not None else None
            return lit(str(t), dt, t.language)
        # A variable or another node kind rdflib should not bind: shown, not dropped.
        return {"type": "other", "value": repr(t)}


MODULES["rdflib"] = lambda: RdfHost(RdfLib())
