//! cvc5: Debian's CLI (1.0.x) as `cvc5`, and PyPI's library (1.4.x) behind the Python bridge
//! as `cvc5-py`, so the two releases can be compared.

use super::{BinaryFactory, BridgeFactory};

const CAPS: &[&str] = &[
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
];

pub static FACTORY: BinaryFactory = BinaryFactory {
    name: "cvc5",
    describe: "cvc5 CLI over SMT-LIB stdin (Debian cvc5), one process per worker",
    tool: "cvc5",
    args: &["--lang", "smt2", "--incremental"],
    version_args: &["--version"],
    dialect: "smtlib",
    caps: CAPS,
    install: "scripts/install-smt-solvers.sh (apt-get install cvc5)",
};

pub static PY_FACTORY: BridgeFactory = BridgeFactory {
    name: "cvc5-py",
    describe: "cvc5 from PyPI (Python API) behind a long-lived bridge process",
    which: "cvc5",
    dialect: "smtlib",
    caps: CAPS,
    install: "scripts/install-smt-solvers.sh (pip install cvc5 into .venv)",
};

pub const SAFE_OPTIONS: &[(&str, &[&str])] = &[
    ("seed", &["1", "2", "3", "17"]),
    ("sat-random-seed", &["1", "5"]),
    ("simplification", &["none"]),
    ("decision", &["justification", "internal"]),
    ("arith-rewrite-equalities", &["true"]),
    ("nl-ext-tplanes", &["true"]),
    ("repeat-simp", &["true"]),
];
