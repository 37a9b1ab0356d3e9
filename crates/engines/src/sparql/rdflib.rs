//! rdflib (PyPI `rdflib`, pure Python) behind the Python host (`bridge/rdflib.py`): one
//! in-memory `Graph` as the default graph. A query past its limit is interrupted inside Python
//! by an alarm, so the store survives it. `rdflib=/path/to/venv` (or its python) runs another
//! release.

use super::bridged::{Bridged, PythonHost};
use crate::transport::bridge::Library;
use crate::Entry;
use std::time::Duration;

const LIB: Library = Library {
    host: "rdflib",
    product: "rdflib",
    module: "rdflib",
    install: "scripts/install-rdf-engines.sh (or: .venv/bin/pip install rdflib)",
};

pub static FACTORY: Entry<Bridged<PythonHost>> = Entry {
    name: "rdflib",
    describe: "rdflib (PyPI) behind the Python host, one in-memory graph; rdflib=/path/to/venv (or its python) for another release",
    opener: Bridged { lib: LIB, dialect: "rdflib", grace: Duration::from_secs(2), host: PythonHost { lib: LIB } },
};
