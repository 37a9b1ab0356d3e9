//! Which collation a result column carries, as SQLite derives it
//! (<https://sqlite.org/datatype3.html#assigning_collating_sequences_from_sql>).
//!
//! Oracles that deduplicate or group (DISTINCT, GROUP BY, MIN/MAX) may legally return any
//! member of a set of equal values ('a' or 'A' under NOCASE). Those columns are compared
//! folded; every other column is compared exactly, so a folded comparison never hides a bug in
//! a BINARY column.

use crate::ast::{Collation, Expr, Select, Stmt};

/// Collations of the base tables' and views' columns, read from the setup.
pub struct Collations<'a> {
    setup: &'a [Stmt],
}

impl<'a> Collations<'a> {
    pub fn new(setup: &'a [Stmt]) -> Collations<'a> {
        Collations { setup }
    }

    /// Whether the setup or query has any collation but BINARY; when not, nothing is folded.
    pub fn any(&self, extra: &[&Expr]) -> bool {
        let mut found = false;
        let mut check = |e: &Expr| {
            if matches!(e, Expr::Collate(_, c) if *c != Collation::Binary) {
                found = true;
            }
        };
        for s in self.setup {
            match s {
                Stmt::CreateTable { columns, .. }
                    if columns.iter().any(|c| c.collate.is_some_and(|c| c != Collation::Binary)) =>
                {
                    return true;
                }
                Stmt::CreateView { select, .. } => select.visit_exprs(&mut check),
                _ => {}
            }
        }
        for e in extra {
            e.visit(&mut check);
        }
        found
    }

    /// The collation of column `column` of table or view `table`.
    fn column(&self, table: &str, column: &str, depth: u32) -> Collation {
        for s in self.setup {
            match s {
                Stmt::CreateTable { name, columns } if name == table => {
                    return columns
                        .iter()
                        .find(|c| c.name == column)
                        .and_then(|c| c.collate)
                        .unwrap_or(Collation::Binary);
                }
                Stmt::CreateView { name, columns, select } if name == table && depth < 4 => {
                    let Some(i) = columns.iter().position(|c| c == column) else { return Collation::Binary };
                    return match select.items.get(i) {
                        Some(item) => self.of(&item.expr, select, depth + 1),
                        None => Collation::Binary,
                    };
                }
                _ => {}
            }
        }
        Collation::Binary
    }

    /// The collation of `e`, evaluated in the FROM scope of `scope`: a column's own, through
    /// CAST and unary plus; an explicit COLLATE; otherwise, if an explicit COLLATE sits in the
    /// tree, that of the leftmost operand holding one; otherwise BINARY.
    pub fn of(&self, e: &Expr, scope: &Select, depth: u32) -> Collation {
        match e {
            Expr::Col(c) => {
                let table = scope
                    .from
                    .iter()
                    .chain(scope.joins.iter().map(|j| &j.table))
                    .find(|t| t.visible() == c.table)
                    .map_or(c.table.as_str(), |t| t.name.as_str());
                self.column(table, &c.column, depth)
            }
            Expr::Collate(_, c) => *c,
            Expr::Cast(inner, _) | Expr::Unary(crate::ast::UnOp::Pos, inner) => self.of(inner, scope, depth),
            _ => {
                for child in e.children() {
                    if has_explicit_collate(child) {
                        return self.of(child, scope, depth);
                    }
                }
                Collation::Binary
            }
        }
    }
}

fn has_explicit_collate(e: &Expr) -> bool {
    matches!(e, Expr::Collate(..)) || e.children().iter().any(|c| has_explicit_collate(c))
}
