//! Turso, a rewrite of SQLite in Rust (young: a good differential target against SQLite), through
//! its Python module `pyturso` behind the same bridge process as DuckDB (see `duckdb.rs`), so a
//! crash costs only the bridge. It speaks SQLite's dialect. The `turso` crate is a pre-release
//! with an async API; the Python module needs no build. `turso=/path/to/venv` for another one.

use super::duckdb::Flavor;
use crate::transport::bridge::Library;
use crate::Entry;

pub static FACTORY: Entry<Flavor> = Entry {
    name: "turso",
    describe: "Turso, a SQLite rewrite in Rust (PyPI pyturso), behind a bridge process, in memory; turso=/path/to/venv (or its python) for another one",
    opener: Flavor {
        lib: Library {
            host: "turso",
            product: "Turso",
            module: "turso",
            install: "scripts/install-sql-engines.sh (or: python3 -m venv .venv && .venv/bin/pip install pyturso)",
        },
        version_code: "import importlib.metadata, turso; print(importlib.metadata.version('pyturso'))",
        // What Turso lacks of SQLite's dialect is the SQL leg's knowledge (`crosscheck_sql::lacks`).
        dialect: "sqlite",
        shell: Some("tursodb"),
    },
};
