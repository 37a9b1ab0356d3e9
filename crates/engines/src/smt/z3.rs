//! Z3: the PyPI `z3-solver` binary in the project virtualenv (5.x), else the one on PATH
//! (Debian's 4.8). `--engines z3@new,z3@old=/usr/bin/z3` compares two versions.

use super::Binary;
use crate::Entry;

pub static FACTORY: Entry<Binary> = Entry {
    name: "z3",
    describe: "Z3 over SMT-LIB stdin (z3 -in), one process per worker; z3=/path/to/z3[+key=value] for another build",
    opener: Binary {
        tool: "z3",
        args: &["-in"],
        dialect: "z3",
        install: "scripts/install-smt-solvers.sh (pip install z3-solver into .venv, or apt-get install z3)",
        lister: super::options::Lister::Z3,
    },
};
