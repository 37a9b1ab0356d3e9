# What the RDF stores hosted in Python share (rdflib, pyoxigraph): requests, replies, terms, and
# the alarm that interrupts a query past its deadline.
"""
Requests:  {"op": "query" | "update", "text": "<SPARQL>", "timeout_ms": 5000}   {"op": "reset"}
           (the adapter tells queries from updates)
Replies:   {"done": true} | {"vars": ["x", ...], "rows": [[term|null, ...]]} | {"ask": true}
           | {"error": "..."} | {"timeout": true}

A term is spelt as in the SPARQL 1.1 JSON results format: {"type": "uri", "value": ...},
{"type": "bnode", "value": label}, {"type": "literal", "value": lexical, "datatype": iri}
or {"type": "literal", "value": lexical, "xml:lang": tag}; unbound is null. Terms are the
store's own, unnormalized: the SPARQL leg normalizes.
"""
import signal


class RdfTimeout(BaseException):
    # A BaseException, so that a library's own `except Exception` cannot swallow it.
    pass


def _alarm(signum, frame):
    raise RdfTimeout()


class RdfHost:
    """Runs requests on a store object with `version`, `reset()`, `update(text)` and
    `query(text) -> ("ask", bool) | ("select", vars, rows)`."""

    def __init__(self, store):
        self.store = store
        self.version = store.version
        signal.signal(signal.SIGALRM, _alarm)

    def handle(self, req):
        if req.get("op") == "reset":
            self.store.reset()
            return {"done": True}
        text = req.get("text", "")
        # SIGALRM interrupts pure-Python evaluation (rdflib) between bytecodes; native code
        # (pyoxigraph) is interrupted when it next returns to Python, else the adapter kills the
        # host after a grace period.
        signal.setitimer(signal.ITIMER_REAL, max(1, req.get("timeout_ms", 10000)) / 1000.0)
        try:
            if req.get("op") == "update":
                self.store.update(text)
                return {"done": True}
            answer = self.store.query(text)
            if answer[0] == "ask":
                return {"ask": bool(answer[1])}
            return {"vars": answer[1], "rows": answer[2]}
        except RdfTimeout:
            return {"timeout": True}
        except RecursionError as e:
            return {"error": "RecursionError: %s" % e}
        except Exception as e:
            return {"error": "%s: %s" % (type(e).__name__, e)}
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)


def lit(lexical, datatype, lang):
    if lang:
        return {"type": "literal", "value": lexical, "xml:lang": lang}
    return {"type": "literal", "value": lexical, "datatype": datatype or XSD_STRING}


XSD_STRING = "http://www.w3.org/2001/XMLSchema#string"
