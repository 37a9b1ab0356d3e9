# Bitwuzla through its Python API (host.py runs it; smtlib.py has what solvers share).
import tempfile


def bitwuzla_options_with(flags):
    import bitwuzla

    opts = bitwuzla.Options()
    opts.set(bitwuzla.Option.PRODUCE_MODELS, True)
    for name, value in flags:
        if not opts.is_valid(name):
            raise ValueError("unknown option --%s" % name)
        # Options.set takes a mode's name as a string and numbers and Booleans as such.
        opt = opts.option(name)
        kind = str(bitwuzla.OptionInfo(opts, opt).kind())
        if kind.endswith("BOOL"):
            opts.set(opt, value in ("true", "1", "yes"))
        elif kind.endswith("NUMERIC"):
            opts.set(opt, int(value))
        else:
            opts.set(opt, value)
    return opts


def bitwuzla_run(text, printed, flags):
    import bitwuzla

    tm = bitwuzla.TermManager()
    parser = bitwuzla.Parser(tm, bitwuzla_options_with(flags))
    # The parser prints answers itself, on the C++ stream (file descriptor 1, which the host
    # points at stderr); it is flushed before returning, so fd 1 goes to a file meanwhile.
    with tempfile.TemporaryFile() as f:
        os.dup2(f.fileno(), 1)
        try:
            parser.parse(text, False, False)
        finally:
            os.dup2(2, 1)
            f.seek(0)
            printed.append(f.read().decode("utf-8", "replace"))


def bitwuzla_options(flags):
    """Every option with its domain; a mode is listed with the values this build accepts
    (a PyPI build lists SAT solvers it was compiled without)."""
    import bitwuzla

    opts = bitwuzla_options_with(flags)
    out = []
    for opt in bitwuzla.Option:
        info = bitwuzla.OptionInfo(opts, opt)
        kind = str(info.kind())
        item = {"name": info.lng(), "group": ""}
        if kind.endswith("BOOL"):
            item.update(kind="bool", default=str(info.dflt()).lower())
        elif kind.endswith("NUMERIC"):
            item.update(kind="int", min=info.min(), max=info.max(), default=str(info.dflt()))
        elif kind.endswith("MODE"):
            modes = []
            for m in info.modes():
                try:
                    bitwuzla.Options().set(opt, m)
                    modes.append(m)
                except Exception:
                    pass
            item.update(kind="choice", values=modes, default=str(info.dflt()))
        else:
            item.update(kind="other", type=kind.split(".")[-1].lower())
        out.append(item)
    return out


def bitwuzla_host():
    import bitwuzla

    return SmtHost("bitwuzla " + bitwuzla.version(), bitwuzla_run, bitwuzla_options)


MODULES["bitwuzla"] = bitwuzla_host
