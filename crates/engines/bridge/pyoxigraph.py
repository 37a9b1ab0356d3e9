# Oxigraph through PyPI pyoxigraph for the SPARQL engine `oxigraph-py` (host.py runs it;
# rdfhost.py has the requests, replies and terms): another Oxigraph release than the one built
# into crosscheck, so two releases can be compared. One in-memory Store.


class PyOxigraph:
    def __init__(self):
        import pyoxigraph

        self.m = pyoxigraph
        self.version = pyoxigraph.__version__
        self.reset()

    def reset(self):
        self.store = self.m.Store()

    def update(self, text):
        self.store.update(text)

    def query(self, text):
        m = self.m
        res = self.store.query(text)
        if isinstance(res, m.QueryBoolean):
            return ("ask", bool(res))
        if not isinstance(res, m.QuerySolutions):
            raise ValueError("not a SELECT or ASK query (%s)" % type(res).__name__)
        names = [v.value for v in res.variables]
        rows = [[self.term(s[i]) for i in range(len(names))] for s in res]
        return ("select", names, rows)

    def term(self, t):
        m = self.m
        if t is None:
            return None
        if isinstance(t, m.NamedNode):
            return {"type": "uri", "value": t.value}
        if isinstance(t, m.BlankNode):
            return {"type": "bnode", "value": t.value}
        if isinstance(t, m.Literal):
            return lit(t.value, t.datatype.value, t.language)
        return {"type": "other", "value": str(t)}


MODULES["oxigraph-py"] = lambda: RdfHost(PyOxigraph())
