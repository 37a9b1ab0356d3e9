"""crosscheck's host for engines that PyPI ships as Python libraries: one long-lived process
per engine instance, JSON lines on stdin and stdout.

Run as `python -I -c SOURCE <module> [--version]`, where SOURCE is this file, then one file per
library (duckdb.py, turso.py, cvc5.py, bitwuzla.py, nemo.py, rdflib.py, pyoxigraph.py, and what
some of them share: sqldb.py, smtlib.py, rdfhost.py), then a last line calling main(). A module registers a factory in MODULES; what it
builds has `version` and `handle(request) -> reply` (dicts). Adding a library is one file here
and one line in crates/engines/src/transport/bridge.rs (HOST). Comunica's Node host (comunica.js)
speaks the same protocol.

`--options FLAG...` prints the engine's option list as JSON after checking the flags (the SMT
solvers, smtlib.py). At start the host writes {"hello": "<engine version>"}; then one reply per request line.
"""
import json
import os
import sys

MODULES = {}


def main():
    name = sys.argv[1] if len(sys.argv) > 1 else "duckdb"
    if name not in MODULES:
        sys.stderr.write("usage: host <%s> [--version]\n" % "|".join(sorted(MODULES)))
        return 2
    if "--version" in sys.argv[2:]:
        print(MODULES[name]().version)
        return 0
    if sys.argv[2:3] == ["--options"]:
        # The engine's option list, after checking the flags the user gave (smtlib.py).
        try:
            print(json.dumps(MODULES[name]().options(sys.argv[3:])))
        except Exception as e:
            sys.stderr.write("%s\n" % e)
            return 2
        return 0
    # Replies get a private copy of stdout, and file descriptor 1 becomes stderr: an engine
    # writing to stdout itself (DuckDB draws a progress bar there for a query past 2 s) would
    # otherwise put lines between replies, and every later reply would answer the request
    # before it.
    out = os.fdopen(os.dup(1), "w")
    sys.stdout.flush()
    os.dup2(2, 1)
    engine = MODULES[name]()
    out.write(json.dumps({"hello": engine.version}) + "\n")
    out.flush()
    for line in sys.stdin:
        if not line.strip():
            continue
        reply = engine.handle(json.loads(line))
        out.write(json.dumps(reply, allow_nan=False) + "\n")
        out.flush()
    # End of input: leave at once, without the interpreter's teardown (and its noise on stderr).
    out.flush()
    os._exit(0)
