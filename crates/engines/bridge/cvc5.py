# cvc5 through its Python API (host.py runs it; smtlib.py has what solvers share).


def cvc5_solver(flags):
    import cvc5

    tm = cvc5.TermManager()
    solver = cvc5.Solver(tm)
    for name, value in flags:
        solver.setOption(name, value)
    return tm, solver


def cvc5_run(text, printed, flags):
    import cvc5

    tm, solver = cvc5_solver(flags)
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


def cvc5_options(flags):
    """Every option with its domain; a mode is listed with the values a fresh solver accepts."""
    _, solver = cvc5_solver(flags)
    out = []
    for name in solver.getOptionNames():
        info = solver.getOptionInfo(name)
        kind, default = info.get("type"), info.get("default")
        group = str(info.get("category", "")).split(".")[-1].lower()
        # cvc5's safe and stable modes refuse its expert options.
        item = {"name": name, "group": group, "expert": group == "expert"}
        if kind is bool:
            item.update(kind="bool", default=str(default).lower())
        elif kind is int:
            item.update(kind="int", min=info.get("minimum"), max=info.get("maximum"), default=str(default))
        elif kind == "mode":
            modes = []
            for m in info.get("modes", []):
                try:
                    cvc5_solver([(name, m)])
                    modes.append(m)
                except Exception:
                    pass
            item.update(kind="choice", values=modes, default=str(default))
        else:
            item.update(kind="other", type=getattr(kind, "__name__", str(kind)))
        out.append(item)
    return out


def cvc5_host():
    import cvc5

    return SmtHost("cvc5 " + getattr(cvc5, "__version__", "unknown"), cvc5_run, cvc5_options)


MODULES["cvc5"] = cvc5_host
