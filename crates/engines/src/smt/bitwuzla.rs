//! Bitwuzla from PyPI (Python API only) behind the bridge: bit-vectors, floating point,
//! arrays and uninterpreted functions.

use super::Bridged;
use crate::transport::bridge::Library;
use crate::Entry;

pub static FACTORY: Entry<Bridged> = Entry {
    name: "bitwuzla",
    describe: "Bitwuzla from PyPI (Python API) behind a long-lived bridge process; bitwuzla=/path/to/venv (or its python)[+key=value] for another one",
    opener: Bridged {
        lib: Library {
            host: "bitwuzla",
            product: "bitwuzla",
            module: "bitwuzla",
            install: "scripts/install-smt-solvers.sh (pip install bitwuzla into .venv)",
        },
        dialect: "smtlib",
    },
};
