//! Z3: the PyPI `z3-solver` binary in the project virtualenv (5.x), else the one on PATH
//! (Debian's 4.8). `--engines z3@new,z3@old=/usr/bin/z3` compares two versions.

use super::BinaryFactory;

pub static FACTORY: BinaryFactory = BinaryFactory {
    name: "z3",
    describe: "Z3 over SMT-LIB stdin (z3 -in), one process per worker; z3=/path/to/z3[+key=value] for another build",
    tool: "z3",
    args: &["-in"],
    version_args: &["--version"],
    dialect: "z3",
    caps: &[
        "check-sat-using",
        "z3-extensions",
        "theory:int",
        "theory:real",
        "theory:nia",
        "theory:bv",
        "theory:array",
        "theory:string",
        "theory:fp",
        "theory:uf",
        "theory:sorts",
        "quantifiers",
        "incremental",
    ],
    install: "scripts/install-smt-solvers.sh (pip install z3-solver into .venv, or apt-get install z3)",
};

/// Z3 parameters that select heuristics or alternative procedures, never the semantics.
pub const SAFE_OPTIONS: &[(&str, &[&str])] = &[
    ("smt.arith.solver", &["2", "6"]),
    ("smt.random_seed", &["1", "2", "3", "7", "42"]),
    ("sat.random_seed", &["1", "5", "9"]),
    ("smt.phase_selection", &["0", "1", "2", "4", "5"]),
    ("smt.relevancy", &["0", "1"]),
    ("rewriter.flat", &["false"]),
    ("smt.arith.random_initial_value", &["true"]),
    ("smt.restart_strategy", &["0", "2", "3"]),
    ("rewriter.hoist_mul", &["true"]),
    ("rewriter.arith_lhs", &["true"]),
];
