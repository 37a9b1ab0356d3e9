//! How each SQL dialect undoes a step of a clustered run (`crosscheck_core::cluster`): the
//! statements of a savepoint, the clear, the inverse DELETE of a row just inserted, and which
//! undo `--undo auto` picks.
//!
//! What the engines allow (each checked by `crates/cli/tests/cli/cluster.rs` on the engine):
//! - SQLite: `SAVEPOINT` outside a transaction opens one, and releasing the outermost commits
//!   it, so no BEGIN.
//! - PostgreSQL: a savepoint outside a transaction block is an error, so BEGIN first; an error
//!   aborts the whole transaction ("current transaction is aborted") until a rollback, so a
//!   node whose queries may fail holds a savepoint of its own and rolls back to it.
//! - MariaDB: under autocommit each statement is its own transaction and a savepoint dies at
//!   once, so START TRANSACTION first; DDL commits implicitly and drops every savepoint, so a
//!   step with DDL cannot be rolled back to (the clustered run then rebuilds the node).
//! - DuckDB: no savepoints at all (DuckDB 2.0.0: "SAVEPOINT" is a syntax error), so inverse or
//!   reset only.
//!
//! `auto`, as measured by `examples/cluster_bench.rs` (figures in the README's "Clustered
//! execution"): a savepoint on PostgreSQL and MariaDB, where every autocommitted INSERT and
//! inverse DELETE is a commit of its own and one transaction with rollbacks is faster (MariaDB
//! 1.1 s against 2.9 s, PostgreSQL 3.6 s against 4.2 s on a 3,906-node trie); the inverse
//! DELETE on SQLite (as fast or faster, no transaction) and DuckDB (no savepoints).

use crosscheck_core::cluster::uniform::Writer;
use crosscheck_core::cluster::{Undo, UndoTexts};

/// The dialects a clustered run knows how to undo on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UndoDialect {
    Sqlite,
    Postgres,
    MariaDb,
    DuckDb,
}

impl UndoDialect {
    /// The dialect an engine says it speaks (`EngineInfo::dialect`), if a clustered run can
    /// undo on it.
    pub fn of(dialect: &str) -> Option<UndoDialect> {
        Some(match dialect {
            "sqlite" => UndoDialect::Sqlite,
            "postgres" => UndoDialect::Postgres,
            "mariadb" => UndoDialect::MariaDb,
            "duckdb" => UndoDialect::DuckDb,
            _ => return None,
        })
    }
}

/// The undo statements of one dialect over one schema.
#[derive(Clone, Debug)]
pub struct SqlUndo {
    pub dialect: UndoDialect,
    /// The tables as the dialect prints their names, in creation order (a table after those its
    /// foreign keys name).
    tables: Vec<String>,
}

impl SqlUndo {
    pub fn new(dialect: UndoDialect, tables: Vec<String>) -> SqlUndo {
        SqlUndo { dialect, tables }
    }

    /// The statement that deletes exactly one row of `table` equal to `row` (printed column
    /// names and literals), whatever other copies or NULLs the table holds: the inverse of the
    /// INSERT that added it. With `key` (indices into `row` of a key no NULL is in), the row is
    /// found by it alone.
    pub fn delete_row(&self, table: &str, row: &[(String, String)], key: Option<&[usize]>) -> String {
        let cols: Vec<&(String, String)> = match key {
            Some(k) => k.iter().filter_map(|&i| row.get(i)).collect(),
            None => row.iter().collect(),
        };
        if key.is_some() && !cols.is_empty() {
            let cond: Vec<String> = cols.iter().map(|(c, v)| format!("{c} = {v}")).collect();
            return format!("DELETE FROM {table} WHERE {}", cond.join(" AND "));
        }
        // NULL-safe equality, since a NULL must match the NULL it was inserted as.
        let same = |(c, v): &&(String, String)| match self.dialect {
            UndoDialect::Sqlite => format!("{c} IS {v}"),
            UndoDialect::MariaDb => format!("{c} <=> {v}"),
            UndoDialect::Postgres | UndoDialect::DuckDb => format!("{c} IS NOT DISTINCT FROM {v}"),
        };
        let cond =
            if cols.is_empty() { "TRUE".to_string() } else { cols.iter().map(same).collect::<Vec<_>>().join(" AND ") };
        // One copy only: a bag may hold the row twice, and only the last INSERT is undone.
        match self.dialect {
            UndoDialect::Sqlite | UndoDialect::DuckDb => {
                format!("DELETE FROM {table} WHERE rowid = (SELECT max(rowid) FROM {table} WHERE {cond})")
            }
            UndoDialect::Postgres => {
                format!("DELETE FROM {table} WHERE ctid = (SELECT ctid FROM {table} WHERE {cond} LIMIT 1)")
            }
            UndoDialect::MariaDb => format!("DELETE FROM {table} WHERE {cond} LIMIT 1"),
        }
    }
}

impl UndoTexts for SqlUndo {
    fn begin(&self) -> Option<String> {
        match self.dialect {
            UndoDialect::Postgres => Some("BEGIN".into()),
            UndoDialect::MariaDb => Some("START TRANSACTION".into()),
            UndoDialect::Sqlite | UndoDialect::DuckDb => None,
        }
    }

    fn commit(&self) -> Option<String> {
        self.begin().map(|_| "COMMIT".into())
    }

    fn savepoint(&self, depth: usize) -> Option<String> {
        match self.dialect {
            UndoDialect::DuckDb => None,
            _ => Some(format!("SAVEPOINT cc_{depth}")),
        }
    }

    fn rollback_to(&self, depth: usize) -> String {
        format!("ROLLBACK TO SAVEPOINT cc_{depth}")
    }

    fn release(&self, depth: usize) -> String {
        format!("RELEASE SAVEPOINT cc_{depth}")
    }

    /// Children before the tables their foreign keys name.
    fn reset(&self) -> Vec<String> {
        self.tables.iter().rev().map(|t| format!("DELETE FROM {t}")).collect()
    }

    fn errors_abort(&self) -> bool {
        self.dialect == UndoDialect::Postgres
    }

    fn auto(&self) -> Undo {
        match self.dialect {
            UndoDialect::Postgres | UndoDialect::MariaDb => Undo::Savepoint,
            UndoDialect::Sqlite | UndoDialect::DuckDb => Undo::Inverse,
        }
    }
}

/// The rows of a [`crosscheck_core::cluster::uniform::Uniform`] trie in SQL: one keyed table
/// `cc_rows`, a row per statement, removed by the dialect's inverse DELETE.
pub struct UniformSql(pub SqlUndo);

impl UniformSql {
    pub const TABLE: &'static str = "cc_rows";

    pub fn new(dialect: UndoDialect) -> UniformSql {
        UniformSql(SqlUndo::new(dialect, vec![Self::TABLE.into()]))
    }
}

impl Writer for UniformSql {
    fn setup(&self) -> Vec<String> {
        vec![format!("CREATE TABLE {} (id INTEGER NOT NULL PRIMARY KEY, name VARCHAR(20))", Self::TABLE)]
    }

    fn add(&self, n: u64) -> String {
        format!("INSERT INTO {} VALUES ({n}, 'r{n}')", Self::TABLE)
    }

    fn remove(&self, n: u64) -> Option<String> {
        let row = [("id".to_string(), n.to_string()), ("name".to_string(), format!("'r{n}'"))];
        Some(self.0.delete_row(Self::TABLE, &row, Some(&[0])))
    }

    fn list(&self) -> String {
        format!("SELECT id FROM {} ORDER BY id", Self::TABLE)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(cells: &[(&str, &str)]) -> Vec<(String, String)> {
        cells.iter().map(|(c, v)| (c.to_string(), v.to_string())).collect()
    }

    #[test]
    fn a_keyed_row_is_deleted_by_its_key_and_a_bag_row_once() {
        let u = SqlUndo::new(UndoDialect::MariaDb, vec!["t".into()]);
        let r = row(&[("id", "1"), ("name", "NULL")]);
        assert_eq!(u.delete_row("t", &r, Some(&[0])), "DELETE FROM t WHERE id = 1");
        assert_eq!(u.delete_row("t", &r, None), "DELETE FROM t WHERE id <=> 1 AND name <=> NULL LIMIT 1");
        let pg = SqlUndo::new(UndoDialect::Postgres, vec!["t".into()]);
        assert_eq!(
            pg.delete_row("t", &r, None),
            "DELETE FROM t WHERE ctid = (SELECT ctid FROM t WHERE id IS NOT DISTINCT FROM 1 AND name IS NOT DISTINCT FROM NULL LIMIT 1)"
        );
    }

    #[test]
    fn the_clear_empties_children_first_and_duckdb_has_no_savepoints() {
        let u = SqlUndo::new(UndoDialect::DuckDb, vec!["s".into(), "c".into()]);
        assert_eq!(u.reset(), ["DELETE FROM c", "DELETE FROM s"]);
        assert_eq!(u.savepoint(0), None);
        assert_eq!(SqlUndo::new(UndoDialect::Postgres, Vec::new()).begin().as_deref(), Some("BEGIN"));
        assert!(UndoDialect::of("oracle").is_none());
    }
}
