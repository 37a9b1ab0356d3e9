//! cvc5: Debian's CLI (1.0.x) as `cvc5`, and PyPI's library (1.4.x) behind the Python bridge
//! as `cvc5-py`, so the two releases can be compared.

use super::{Binary, Bridged};
use crate::transport::bridge::Library;
use crate::Entry;

pub static FACTORY: Entry<Binary> = Entry {
    name: "cvc5",
    describe: "cvc5 CLI over SMT-LIB stdin (Debian cvc5), one process per worker; cvc5=/path/to/cvc5[+key=value] for another build",
    opener: Binary {
        tool: "cvc5",
        args: &["--lang", "smt2", "--incremental"],
        dialect: "smtlib",
        install: "scripts/install-smt-solvers.sh (apt-get install cvc5)",
        lister: super::options::Lister::CvcHelp,
    },
};

pub static PY_FACTORY: Entry<Bridged> = Entry {
    name: "cvc5-py",
    describe: "cvc5 from PyPI (Python API) behind a long-lived bridge process; cvc5-py=/path/to/venv (or its python)[+key=value] for another one",
    opener: Bridged {
        lib: Library {
            host: "cvc5",
            product: "cvc5",
            module: "cvc5",
            install: "scripts/install-smt-solvers.sh (pip install cvc5 into .venv)",
        },
        dialect: "smtlib",
    },
};
