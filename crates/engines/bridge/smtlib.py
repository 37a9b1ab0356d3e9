# What the SMT solvers hosted in Python share (cvc5, Bitwuzla): a script runs on a fresh solver
# (so `(reset)` is implicit) and the reply carries what the solver printed, as a solver binary
# would print it; an error is printed as `(error "...")`, as solvers do, and the host goes on.
"""
Requests:  {"op": "run", "script": "<SMT-LIB>", "flags": ["--name[=value]", ...]}
Replies:   {"out": "<what the solver printed>"}

`host <module> --options [FLAG...]` checks the flags on a fresh solver (exit 2 with the
solver's message when one is refused) and prints the solver's option list as JSON.
"""


def flag_option(flag):
    """`--name=value` as (name, value); `--name` is true and `--no-name` false, as the cvc5
    and Bitwuzla command lines read them."""
    body = flag.lstrip("-")
    if "=" in body:
        name, value = body.split("=", 1)
        return name, value
    if body.startswith("no-"):
        return body[3:], "false"
    return body, "true"


class SmtHost:
    """The requests of a solver: `run(text, printed, flags)` appends what the solver prints to
    `printed`, so that answers before an error are kept, as a solver binary keeps them;
    `options(flags)` checks the flags and lists the solver's options."""

    def __init__(self, version, run, options=None):
        self.version = version
        self.run = run
        self.list_options = options

    def handle(self, req):
        if req.get("op") != "run":
            return {"out": '(error "bridge: unknown op %s")\n' % req.get("op")}
        printed = []
        try:
            self.run(req["script"], printed, [flag_option(f) for f in req.get("flags", [])])
        except Exception as e:  # a parse or solver error is an answer, not the host's end
            msg = str(e).replace("\\", "\\\\").replace('"', '""')
            printed.append('(error "%s")\n' % msg)
        return {"out": "".join(printed)}

    def options(self, flags):
        return self.list_options([flag_option(f) for f in flags])
