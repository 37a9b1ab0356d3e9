//! The summary's tests as a test trie (seed 004 ch. 5): the orderly search tree of databases
//! *is* the trie. The root is the empty database after `CREATE TABLE`; a child adds one row
//! (`INSERT`, undone by the `DELETE` of that row); each node runs the queries of its class
//! whose expected output on the node's database exists and meets the output constraints.
//! Queries are pure, so they never branch the trie.
//!
//! The expected answers of the node being run wait in a shared [`Pending`] until the
//! observer of the execution takes them, so no more than one node's answers are held.

use super::data::{Pruned, Universe};
use super::eval::evaluate;
use super::query::SummaryQuery;
use super::{Class, Summary};
use crate::ast::{ColumnDef, Stmt};
use crate::dialect::Dialect;
use crate::print::ToSql;
use crosscheck_core::cluster::{Step, TestTree};
use crosscheck_core::Rows;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// A test waiting for its answer: which query, on which database, expecting what.
#[derive(Clone, Debug)]
pub struct Expected {
    /// Index into [`Summary::queries`].
    pub query: usize,
    /// The database as row indices of the tree's universe.
    pub db: Vec<usize>,
    pub rows: Rows,
}

/// Expected answers by the id the tree gave the query at its node.
pub type Pending = Rc<RefCell<HashMap<u64, Expected>>>;

/// Counts of what the tree left out.
#[derive(Clone, Copy, Debug, Default, serde::Serialize)]
pub struct Skipped {
    /// Query × database pairs without a single expected answer.
    pub not_evaluable: u64,
    /// Pairs whose expected answer the output constraints drop.
    pub filtered_by_output: u64,
}

/// One class's tests in one dialect.
pub struct SummaryTree<'a> {
    summary: &'a Summary,
    pub universe: Universe<'a>,
    queries: Vec<(usize, &'a SummaryQuery, String)>,
    dialect: &'static dyn Dialect,
    pending: Pending,
    serial: u64,
    pub pruned: Pruned,
    pub skipped: Skipped,
    /// Time spent listing children and computing expected answers.
    pub generate: std::time::Duration,
}

impl<'a> SummaryTree<'a> {
    pub fn new(
        summary: &'a Summary,
        class: &Class,
        dialect: &'static dyn Dialect,
        pending: Pending,
    ) -> Result<SummaryTree<'a>, super::spec::SpecError> {
        let universe = Universe::new(&summary.spec, &class.fixed)?;
        let all = summary.queries();
        let queries =
            class.queries.iter().map(|&i| (i, all[i], all[i].to_select(&summary.spec).to_sql(dialect))).collect();
        Ok(SummaryTree {
            summary,
            universe,
            queries,
            dialect,
            pending,
            serial: 0,
            pruned: Pruned::default(),
            skipped: Skipped::default(),
            generate: std::time::Duration::ZERO,
        })
    }
}

/// `CREATE TABLE` of every table of the spec, referenced tables first (a one-column key as
/// PRIMARY KEY; the generated data satisfies every key and foreign key whether or not the
/// engine is told).
pub fn schema(summary: &Summary) -> Vec<Stmt> {
    let order = super::data::table_order(&summary.spec).unwrap_or_else(|_| (0..summary.spec.tables.len()).collect());
    order
        .iter()
        .map(|&t| &summary.spec.tables[t])
        .map(|t| Stmt::CreateTable {
            name: t.name.clone(),
            columns: t
                .columns
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    let mut def = ColumnDef::plain(&c.name, c.ty.sql());
                    def.primary_key = t.key == [i];
                    def.not_null = c.not_null && !def.primary_key;
                    def
                })
                .collect(),
        })
        .collect()
}

impl TestTree for SummaryTree<'_> {
    type Node = Vec<usize>;

    fn root(&mut self) -> Vec<usize> {
        Vec::new()
    }

    fn setup(&mut self) -> Vec<String> {
        schema(self.summary).iter().map(|s| s.to_sql(self.dialect)).collect()
    }

    fn children(&mut self, node: &Vec<usize>) -> Vec<(Step, Vec<usize>)> {
        let t = std::time::Instant::now();
        let kids = self.universe.children(node, &mut self.pruned);
        let out = kids
            .into_iter()
            .map(|child| {
                let r = child.last().copied().unwrap_or_default();
                let apply = vec![self.universe.insert(r).to_sql(self.dialect)];
                let inverse = vec![self.universe.delete(r).to_sql(self.dialect)];
                (Step { apply, inverse }, child)
            })
            .collect();
        self.generate += t.elapsed();
        out
    }

    fn queries(&mut self, node: &Vec<usize>) -> Vec<(u64, String)> {
        if !self.universe.is_test(node) {
            return Vec::new();
        }
        let t = std::time::Instant::now();
        let tables = self.universe.tables(node);
        self.serial += 1;
        let mut out = Vec::new();
        let mut pending = self.pending.borrow_mut();
        for (k, (qi, q, sql)) in self.queries.iter().enumerate() {
            match evaluate(&self.summary.spec, q, &tables) {
                Ok(rows) if self.summary.keeps(&rows) => {
                    let id = self.serial << 20 | k as u64;
                    pending.insert(id, Expected { query: *qi, db: node.clone(), rows });
                    out.push((id, sql.clone()));
                }
                Ok(_) => self.skipped.filtered_by_output += 1,
                Err(_) => self.skipped.not_evaluable += 1,
            }
        }
        self.generate += t.elapsed();
        out
    }
}
