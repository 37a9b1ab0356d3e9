//! Bitwuzla from PyPI (Python API only) behind the bridge: bit-vectors, floating point,
//! arrays and uninterpreted functions.

use super::BridgeFactory;

pub static FACTORY: BridgeFactory = BridgeFactory {
    name: "bitwuzla",
    describe: "Bitwuzla from PyPI (Python API) behind a long-lived bridge process",
    which: "bitwuzla",
    dialect: "smtlib",
    install: "scripts/install-smt-solvers.sh (pip install bitwuzla into .venv)",
};
