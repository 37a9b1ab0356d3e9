# cvc5 through its Python API (host.py runs it; smtlib.py has what solvers share).


def cvc5_run(text, printed):
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
            printed.append(out if out.endswith("\n") else out + "\n")


def cvc5_host():
    import cvc5

    return SmtHost("cvc5 " + getattr(cvc5, "__version__", "unknown"), cvc5_run)


MODULES["cvc5"] = cvc5_host
