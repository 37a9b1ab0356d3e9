//! LadybugDB (PyPI `ladybug`, the maintained fork of Kuzu) in process behind the Python host
//! (`bridge/graphdb.py`, the same module as Kuzu's under another import name). It speaks Kuzu's
//! dialect, so `--engines kuzu,ladybug` compares the fork with the last Kuzu release;
//! `ladybug=/path/to/venv` (or its python) runs another release.

use super::bridged::GraphLibrary;
use crate::transport::bridge::Library;
use crate::Entry;
use std::time::Duration;

const LIB: Library = Library {
    host: "ladybug",
    product: "LadybugDB",
    module: "ladybug",
    install: "scripts/install-graph-engines.sh (or: .venv/bin/pip install ladybug)",
};

pub static FACTORY: Entry<GraphLibrary> = Entry {
    name: "ladybug",
    describe: "LadybugDB (PyPI ladybug, Kuzu's fork) in memory behind the Python host; ladybug=/path/to/venv (or its python) for another release",
    opener: GraphLibrary { lib: LIB, dialect: "kuzu", grace: Duration::from_secs(2) },
};
