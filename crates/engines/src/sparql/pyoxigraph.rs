//! Oxigraph through PyPI `pyoxigraph` behind the Python host (`bridge/pyoxigraph.py`): one
//! in-memory `Store`. Registered as `oxigraph-py` beside the built-in `oxigraph` crate, so that
//! two Oxigraph releases can be compared; `oxigraph-py=/path/to/venv` (or its python) runs yet
//! another. The host's alarm interrupts a query when the evaluation next returns to Python
//! (between solutions); a query that stays in Rust past the grace kills the host.

use super::bridged::{Bridged, PythonHost};
use crate::transport::bridge::Library;
use crate::Entry;
use std::time::Duration;

const LIB: Library = Library {
    host: "oxigraph-py",
    product: "pyoxigraph",
    module: "pyoxigraph",
    install: "scripts/install-rdf-engines.sh (or: .venv/bin/pip install pyoxigraph)",
};

pub static FACTORY: Entry<Bridged<PythonHost>> = Entry {
    name: "oxigraph-py",
    describe: "Oxigraph (PyPI pyoxigraph) behind the Python host, in memory, to compare with the built-in oxigraph; oxigraph-py=/path/to/venv (or its python) for another release",
    opener: Bridged { lib: LIB, dialect: "oxigraph", grace: Duration::from_secs(2), host: PythonHost { lib: LIB } },
};
