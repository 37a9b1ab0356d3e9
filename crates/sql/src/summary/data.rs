//! Orderly generation of databases (seed 004 §4.5, without SAT): every database the data
//! constraints allow, one per isomorphism class under permutations of the interchangeable text
//! atoms.
//!
//! Every possible row of every table gets a global index (tables in foreign-key order:
//! referenced tables first). A database is a set of row indices, read as a bit vector whose
//! index 0 is the most significant bit. A database is *canonical* when no permutation of the
//! free atoms maps it to a greater bit vector; its *parent* is it minus its least significant
//! row, and the parent of a canonical database is canonical, so a depth-first search that adds
//! rows in increasing index order and keeps only canonical children meets each class exactly
//! once. Rules that survive deleting the last row prune during the search: keys, row bounds,
//! NOT NULL (at the row level) and foreign keys (the referenced table is complete before a
//! referencing row is added). Only text is permuted: integers are ordered and stay fixed, and
//! so do atoms a query names as constants.

use super::mixed::{Check, Step};
use super::spec::{ColType, Spec, SpecError};
use crate::ast::{BinOp, ColRef, Expr, Lit, Stmt};
use crosscheck_core::Value;
use std::cmp::Ordering;
use std::collections::HashMap;

/// A cell of a generated row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Val {
    Null,
    Int(i64),
    /// Text atom `i` (`v{i}`).
    Atom(usize),
}

impl Val {
    pub fn value(self) -> Value {
        match self {
            Val::Null => Value::Null,
            Val::Int(i) => Value::Int(i),
            Val::Atom(i) => Value::Text(Spec::atom(i)),
        }
    }

    fn lit(self) -> Lit {
        match self {
            Val::Null => Lit::Null,
            Val::Int(i) => Lit::Int(i),
            Val::Atom(i) => Lit::Text(Spec::atom(i)),
        }
    }
}

/// One possible row.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Row {
    pub table: usize,
    pub values: Vec<Val>,
}

/// The rows a search may add, the symmetry group acting on them, and the rules.
pub struct Universe<'s> {
    spec: &'s Spec,
    pub rows: Vec<Row>,
    /// For each non-identity permutation of the free atoms, the image of each row.
    images: Vec<Vec<usize>>,
    /// Tables in the order their rows are numbered.
    pub order: Vec<usize>,
    /// Each check with the position (in `order`) of the last table it reads.
    checks: Vec<(Check, Option<usize>)>,
}

/// What a search did besides finding databases.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Pruned {
    /// Children dropped by a key, foreign key or row bound.
    pub by_rule: u64,
    /// Children dropped because an isomorphic database comes first.
    pub by_symmetry: u64,
    /// Children dropped by a mixed-constraint check over complete tables (with their subtrees).
    pub by_check: u64,
}

impl<'s> Universe<'s> {
    /// The universe for `spec`, with atoms named in `fixed` kept out of the permutations.
    pub fn new(spec: &'s Spec, fixed: &[String]) -> Result<Universe<'s>, SpecError> {
        let order = table_order(spec)?;
        let mut rows = Vec::new();
        for &t in &order {
            let domains: Vec<Vec<Val>> = spec.tables[t]
                .columns
                .iter()
                .map(|c| {
                    let mut d: Vec<Val> = match c.ty {
                        ColType::Text => (0..spec.data.text_atoms).map(Val::Atom).collect(),
                        ColType::Int => spec.data.int_values.iter().map(|&i| Val::Int(i)).collect(),
                    };
                    if spec.data.nulls && !c.not_null {
                        d.insert(0, Val::Null);
                    }
                    d
                })
                .collect();
            for values in product(&domains) {
                rows.push(Row { table: t, values });
            }
        }
        let index: HashMap<&Row, usize> = rows.iter().enumerate().map(|(i, r)| (r, i)).collect();
        let free: Vec<usize> = (0..spec.data.text_atoms).filter(|&a| !fixed.contains(&Spec::atom(a))).collect();
        let mut images = Vec::new();
        for perm in permutations(&free).into_iter().skip(1) {
            let mut map: Vec<usize> = (0..spec.data.text_atoms).collect();
            for (from, to) in free.iter().zip(&perm) {
                map[*from] = *to;
            }
            let image = rows
                .iter()
                .map(|r| {
                    let values =
                        r.values.iter().map(|v| if let Val::Atom(a) = v { Val::Atom(map[*a]) } else { *v }).collect();
                    index.get(&Row { table: r.table, values }).copied().unwrap_or(usize::MAX)
                })
                .collect();
            images.push(image);
        }
        let pos = |t: &usize| order.iter().position(|o| o == t);
        let checks = spec
            .steps
            .iter()
            .filter_map(|s| match s {
                Step::Check { check, .. } => Some((check.clone(), check.reads.iter().filter_map(pos).max())),
                Step::Generate { .. } => None,
            })
            .collect();
        Ok(Universe { spec, rows, images, order, checks })
    }

    /// The children of database `db` (sorted row indices) in search order, with the pruning
    /// counted into `pruned`.
    pub fn children(&self, db: &[usize], pruned: &mut Pruned) -> Vec<Vec<usize>> {
        let start = db.last().map_or(0, |&l| l + 1);
        let mut out = Vec::new();
        for r in start..self.rows.len() {
            if !self.allowed(db, r) {
                pruned.by_rule += 1;
                continue;
            }
            let mut child = db.to_vec();
            child.push(r);
            if !self.canonical(&child) {
                pruned.by_symmetry += 1;
            } else if !self.complete_checks_hold(&child) {
                pruned.by_check += 1;
            } else {
                out.push(child);
            }
        }
        out
    }

    /// Whether row `r` may join `db` under the rules that survive deleting the last row.
    fn allowed(&self, db: &[usize], r: usize) -> bool {
        let row = &self.rows[r];
        let table = &self.spec.tables[row.table];
        let same = || db.iter().map(|&i| &self.rows[i]).filter(|o| o.table == row.table);
        if let Some(max) = self.spec.data.max_rows {
            if same().count() >= max {
                return false;
            }
        }
        if !table.key.is_empty() && same().any(|o| table.key.iter().all(|&k| o.values[k] == row.values[k])) {
            return false;
        }
        table.foreign.iter().all(|fk| {
            let vals: Vec<Val> = fk.columns.iter().map(|&c| row.values[c]).collect();
            vals.contains(&Val::Null)
                || db
                    .iter()
                    .map(|&i| &self.rows[i])
                    .any(|o| o.table == fk.table && fk.to.iter().zip(&vals).all(|(&c, v)| o.values[c] == *v))
        })
    }

    /// The checks whose tables can no longer change below `db` (every table they read comes
    /// before the table of `db`'s last row) hold on it.
    fn complete_checks_hold(&self, db: &[usize]) -> bool {
        let Some(&last) = db.last() else { return true };
        let p = self.order.iter().position(|&t| t == self.rows[last].table).unwrap_or(0);
        let complete: Vec<&Check> =
            self.checks.iter().filter(|(_, l)| l.is_none_or(|l| l < p)).map(|(c, _)| c).collect();
        complete.is_empty() || {
            let tables = self.tables(db);
            complete.iter().all(|c| c.holds(&tables))
        }
    }

    /// Whether `db` is a test database: every check holds on it.
    pub fn is_test(&self, db: &[usize]) -> bool {
        self.checks.is_empty() || {
            let tables = self.tables(db);
            self.checks.iter().all(|(c, _)| c.holds(&tables))
        }
    }

    /// Whether no permutation maps `db` to a greater bit vector.
    pub fn canonical(&self, db: &[usize]) -> bool {
        let mut img = Vec::with_capacity(db.len());
        self.images.iter().all(|image| {
            img.clear();
            img.extend(db.iter().map(|&r| image[r]));
            img.sort_unstable();
            bits_cmp(&img, db) != Ordering::Greater
        })
    }

    /// Visits every canonical test database depth-first (the empty one first, if it is a
    /// test); returns what was pruned.
    pub fn for_each(&self, visit: &mut dyn FnMut(&[usize])) -> Pruned {
        let mut pruned = Pruned::default();
        let mut stack = vec![Vec::new()];
        while let Some(db) = stack.pop() {
            if self.is_test(&db) {
                visit(&db);
            }
            let mut kids = self.children(&db, &mut pruned);
            kids.reverse();
            stack.extend(kids);
        }
        pruned
    }

    /// `INSERT` of row `r`.
    pub fn insert(&self, r: usize) -> Stmt {
        let row = &self.rows[r];
        let table = &self.spec.tables[row.table];
        Stmt::Insert {
            table: table.name.clone(),
            columns: table.columns.iter().map(|c| c.name.clone()).collect(),
            values: row.values.iter().map(|v| Expr::Lit(v.lit())).collect(),
        }
    }

    /// The `DELETE` that removes exactly row `r` (by key, else by every column: rows of a
    /// database are distinct).
    pub fn delete(&self, r: usize) -> Stmt {
        let row = &self.rows[r];
        let table = &self.spec.tables[row.table];
        let cols: Vec<usize> =
            if table.key.is_empty() { (0..table.columns.len()).collect() } else { table.key.clone() };
        let conds = cols.into_iter().map(|c| {
            let col = Box::new(Expr::Col(ColRef { table: String::new(), column: table.columns[c].name.clone() }));
            match row.values[c] {
                Val::Null => Expr::Postfix(crate::ast::PostOp::IsNull, col),
                v => Expr::Binary(BinOp::Eq, col, Box::new(Expr::Lit(v.lit()))),
            }
        });
        let where_ = conds.reduce(|a, b| Expr::Binary(BinOp::And, Box::new(a), Box::new(b)));
        Stmt::Delete { table: table.name.clone(), where_ }
    }

    /// The rows of `db` per table (indexed like `Spec::tables`).
    pub fn tables(&self, db: &[usize]) -> Vec<Vec<Vec<Val>>> {
        let mut out = vec![Vec::new(); self.spec.tables.len()];
        for &r in db {
            out[self.rows[r].table].push(self.rows[r].values.clone());
        }
        out
    }
}

/// Bit-vector order of two sorted index sets (index 0 most significant).
fn bits_cmp(a: &[usize], b: &[usize]) -> Ordering {
    for (x, y) in a.iter().zip(b) {
        match x.cmp(y) {
            Ordering::Less => return Ordering::Greater,
            Ordering::Greater => return Ordering::Less,
            Ordering::Equal => {}
        }
    }
    a.len().cmp(&b.len())
}

/// Tables with every referenced table before the tables that reference it.
/// The order the mixed constraints generate tables in; within one step, referenced tables
/// first. A foreign key to a table generated later is an error.
pub fn table_order(spec: &Spec) -> Result<Vec<usize>, SpecError> {
    let mut order: Vec<usize> = Vec::new();
    let mut placed = vec![false; spec.tables.len()];
    let mut steps: Vec<Vec<usize>> = Vec::new();
    for s in &spec.steps {
        if let Step::Generate { tables } = s {
            let defs: Vec<usize> = if tables.is_empty() {
                (0..spec.tables.len()).filter(|t| !steps.iter().flatten().any(|x| x == t)).collect()
            } else {
                tables.iter().filter(|t| !steps.iter().flatten().any(|x| x == *t)).copied().collect()
            };
            steps.push(defs);
        }
    }
    for mut step in steps {
        while !step.is_empty() {
            let next =
                step.iter().position(|&t| spec.tables[t].foreign.iter().all(|fk| placed[fk.table] && fk.table != t));
            let Some(i) = next else {
                let names: Vec<&str> = step.iter().map(|&t| spec.tables[t].name.as_str()).collect();
                let msg = format!("foreign keys of {} name a table generated later or form a cycle", names.join(", "));
                return Err(SpecError(msg));
            };
            let t = step.remove(i);
            placed[t] = true;
            order.push(t);
        }
    }
    Ok(order)
}

/// Every tuple of the domains, in lexicographic order.
fn product(domains: &[Vec<Val>]) -> Vec<Vec<Val>> {
    domains.iter().fold(vec![Vec::new()], |acc, d| {
        acc.iter().flat_map(|prefix| d.iter().map(move |v| [prefix.as_slice(), &[*v]].concat())).collect()
    })
}

/// Every permutation of `items`, the identity first.
pub fn permutations(items: &[usize]) -> Vec<Vec<usize>> {
    if items.is_empty() {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for (i, &first) in items.iter().enumerate() {
        let rest: Vec<usize> = items.iter().enumerate().filter(|&(j, _)| j != i).map(|(_, &x)| x).collect();
        for mut p in permutations(&rest) {
            p.insert(0, first);
            out.push(p);
        }
    }
    out
}
