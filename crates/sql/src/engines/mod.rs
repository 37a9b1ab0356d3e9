//! SQL engines, one file each, and the registry: adding an engine is one file and one line here.

use crosscheck_core::EngineFactory;

pub mod duckdb;
#[cfg(feature = "gluesql")]
pub mod gluesql;
pub mod mariadb;
pub mod pgwire;
pub mod postgres;
pub mod server;
pub mod sqlite;
pub mod turso;

/// Every SQL engine crosscheck knows.
pub fn registry() -> Vec<&'static dyn EngineFactory> {
    vec![
        &sqlite::SqliteFactory,
        &duckdb::DuckDbFactory,
        &postgres::PostgresFactory,
        &mariadb::MariaDbFactory,
        &turso::TursoFactory,
        #[cfg(feature = "gluesql")]
        &gluesql::GlueSqlFactory,
    ]
}
