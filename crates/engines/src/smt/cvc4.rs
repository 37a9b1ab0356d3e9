//! CVC4 1.8 (Debian): the ancestor of cvc5, still the solver many tools pin. Debian builds it
//! without SymFPU, so floating point stops it with a "Fatal failure": no `theory:fp`.

use super::Binary;
use crate::Entry;

pub static FACTORY: Entry<Binary> = Entry {
    name: "cvc4",
    describe: "CVC4 over SMT-LIB stdin (Debian cvc4), one process per worker; cvc4=/path/to/cvc4[+key=value] for another build",
    opener: Binary {
        tool: "cvc4",
        args: &["--lang", "smt2", "--incremental", "--strings-exp"],
        dialect: "smtlib",
        install: "scripts/install-smt-solvers.sh (apt-get install cvc4)",
        lister: super::options::Lister::CvcHelp,
    },
};
