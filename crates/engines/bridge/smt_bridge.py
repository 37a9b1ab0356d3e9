"""Long-lived bridge for SMT solvers that PyPI ships only as Python libraries (bitwuzla, cvc5).

crosscheck talks to it exactly as to a solver binary: SMT-LIB text on stdin, answers on stdout.
A script ends at a line holding `(echo "<marker>")`; the bridge then runs the whole script on a
fresh solver (so `(reset)` is implicit), prints what the solver prints, and the marker. Errors
are printed as `(error "...")`, as solvers do, and the bridge goes on with the next script.

Usage: python smt_bridge.py bitwuzla|cvc5 [--version]
"""

import sys


def run_bitwuzla(text):
    import bitwuzla

    tm = bitwuzla.TermManager()
    opts = bitwuzla.Options()
    opts.set(bitwuzla.Option.PRODUCE_MODELS, True)
    parser = bitwuzla.Parser(tm, opts)
    # The parser prints answers itself, on the C++ stream; it is flushed before returning.
    parser.parse(text, False, False)


def run_cvc5(text):
    import cvc5

    tm = cvc5.TermManager()
    solver = cvc5.Solver(tm)
    sm = cvc5.SymbolManager(tm)
    parser = cvc5.InputParser(solver, sm)
    parser.setStringInput(cvc5.InputLanguage.SMT_LIB_2_6, text, "input")
    while True:
        cmd = parser.nextCommand()
        if cmd.isNull():
            break
        out = cmd.invoke(solver, sm)
        if out:
            sys.stdout.write(out if out.endswith("\n") else out + "\n")
            sys.stdout.flush()


def version(which):
    if which == "bitwuzla":
        import bitwuzla

        return "bitwuzla " + bitwuzla.version()
    import cvc5

    return "cvc5 " + getattr(cvc5, "__version__", "unknown")


def main():
    if len(sys.argv) < 2 or sys.argv[1] not in ("bitwuzla", "cvc5"):
        sys.stderr.write("usage: smt_bridge.py bitwuzla|cvc5 [--version]\n")
        return 2
    which = sys.argv[1]
    if "--version" in sys.argv[2:]:
        print(version(which))
        return 0
    run = run_bitwuzla if which == "bitwuzla" else run_cvc5
    lines = []
    for line in sys.stdin:
        stripped = line.strip()
        if stripped.startswith('(echo "') and stripped.endswith('")'):
            marker = stripped[len('(echo "') : -2]
            text = "".join(lines)
            lines = []
            try:
                run(text)
            except Exception as e:  # a parse or solver error is an answer, not the bridge's end
                msg = str(e).replace("\\", "\\\\").replace('"', '""')
                sys.stdout.write('(error "%s")\n' % msg)
            sys.stdout.write(marker + "\n")
            sys.stdout.flush()
        else:
            lines.append(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
