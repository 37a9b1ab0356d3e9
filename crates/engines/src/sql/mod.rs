//! SQL engines, one file each, and the registry: adding an engine is one file and one line here.
//! Private servers and bridges live in `crate::transport`; `server` stays reachable here for
//! callers that named it with the SQL engines.

use crosscheck_core::EngineFactory;

pub mod duckdb;
#[cfg(feature = "gluesql")]
pub mod gluesql;
pub mod mariadb;
pub mod pgwire;
pub mod postgres;
pub mod served;
pub use crate::transport::server;
pub mod sqlite;
pub mod turso;

/// Every SQL engine crosscheck knows.
pub fn registry() -> Vec<&'static dyn EngineFactory> {
    vec![
        &sqlite::FACTORY,
        &duckdb::FACTORY,
        &postgres::FACTORY,
        &mariadb::FACTORY,
        &turso::FACTORY,
        #[cfg(feature = "gluesql")]
        &gluesql::FACTORY,
    ]
}
