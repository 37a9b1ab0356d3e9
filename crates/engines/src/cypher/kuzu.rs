//! Kuzu (PyPI `kuzu`, 0.11.3 the last release) in process behind the Python host
//! (`bridge/graphdb.py`): one in-memory database per instance, schema first (the leg prints
//! node and relationship tables before the graph). `kuzu=/path/to/venv` (or its python) runs
//! another release, so two releases can be compared. Kuzu interrupts a query past its limit
//! itself (`Connection.set_query_timeout`); one it does not stop within the grace kills the host.

use super::bridged::GraphLibrary;
use crate::transport::bridge::Library;
use crate::Entry;
use std::time::Duration;

const LIB: Library = Library {
    host: "kuzu",
    product: "Kuzu",
    module: "kuzu",
    install: "scripts/install-graph-engines.sh (or: .venv/bin/pip install kuzu==0.11.3)",
};

pub static FACTORY: Entry<GraphLibrary> = Entry {
    name: "kuzu",
    describe:
        "Kuzu (PyPI kuzu) in memory behind the Python host; kuzu=/path/to/venv (or its python) for another release",
    opener: GraphLibrary { lib: LIB, dialect: "kuzu", grace: Duration::from_secs(2) },
};
