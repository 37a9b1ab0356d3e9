# What the SMT solvers hosted in Python share (cvc5, Bitwuzla): a script runs on a fresh solver
# (so `(reset)` is implicit) and the reply carries what the solver printed, as a solver binary
# would print it; an error is printed as `(error "...")`, as solvers do, and the host goes on.
"""
Requests:  {"op": "run", "script": "<SMT-LIB>"}
Replies:   {"out": "<what the solver printed>"}
"""


class SmtHost:
    """The requests of a solver: `run(text, printed)` appends what the solver prints to
    `printed`, so that answers before an error are kept, as a solver binary keeps them."""

    def __init__(self, version, run):
        self.version = version
        self.run = run

    def handle(self, req):
        if req.get("op") != "run":
            return {"out": '(error "bridge: unknown op %s")\n' % req.get("op")}
        printed = []
        try:
            self.run(req["script"], printed)
        except Exception as e:  # a parse or solver error is an answer, not the host's end
            msg = str(e).replace("\\", "\\\\").replace('"', '""')
            printed.append('(error "%s")\n' % msg)
        return {"out": "".join(printed)}
