# Bitwuzla through its Python API (host.py runs it; smtlib.py has what solvers share).
import tempfile


def bitwuzla_run(text, printed):
    import bitwuzla

    tm = bitwuzla.TermManager()
    opts = bitwuzla.Options()
    opts.set(bitwuzla.Option.PRODUCE_MODELS, True)
    parser = bitwuzla.Parser(tm, opts)
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


def bitwuzla_host():
    import bitwuzla

    return SmtHost("bitwuzla " + bitwuzla.version(), bitwuzla_run)


MODULES["bitwuzla"] = bitwuzla_host
