//! Random expressions over a scope of columns, typed for strict dialects and loosely typed
//! (mixed types) where every engine of the run is permissive.
//!
//! Constants come mostly from the values actually stored in the database, so that comparisons
//! hit rows and queries return something.

use crate::ast::{Agg, BinOp, Collation, Expr, Func, Item, Lit, Order, PostOp, Select, SqlType, TableRef, UnOp};
use crate::dialect::{cap, Caps};
use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// A column of a table or view, with the values inserted into it.
#[derive(Clone, Debug)]
pub struct ColInfo {
    pub name: String,
    /// `None`: untyped (SQLite), or a view column of unknown type.
    pub ty: Option<SqlType>,
    pub values: Vec<Lit>,
    /// Values equal for GROUP BY are identical here: a typed base-table column (its affinity
    /// makes 0 and 0.0 one value) with BINARY collation. Grouping on other columns lets a
    /// group hold distinguishable members ('a' and 'A', 0 and 0.0).
    pub exact: bool,
}

#[derive(Clone, Debug)]
pub struct TableInfo {
    pub name: String,
    pub columns: Vec<ColInfo>,
    /// A view or a CTE: no base table for views and DML to read.
    pub view: bool,
    /// A derived table's body: the table exists only in the FROM clause that writes it.
    pub body: Option<Box<Select>>,
}

/// What the generator knows about one database and the engines of the run.
#[derive(Clone, Debug)]
pub struct Env {
    pub tables: Vec<TableInfo>,
    pub caps: Caps,
    /// Mixed-type expressions allowed (every engine is permissive).
    pub loose: bool,
    pub funcs: Vec<Func>,
    pub collations: Vec<Collation>,
    /// Stored values per type, the source of most constants.
    pub pool: [Vec<Lit>; TYPES],
    /// How many of the last tables are the query's own (CTEs, derived tables).
    pub own: usize,
}

/// The number of column types, the length of per-type tables.
pub const TYPES: usize = 8;

pub fn ty_index(t: SqlType) -> usize {
    match t {
        SqlType::Bool => 0,
        SqlType::Int => 1,
        SqlType::Real => 2,
        SqlType::Text => 3,
        SqlType::Blob => 4,
        SqlType::Decimal => 5,
        SqlType::Date => 6,
        SqlType::Timestamp => 7,
    }
}

/// The type of a literal, if it has one.
pub fn lit_type(l: &Lit) -> Option<SqlType> {
    match l {
        Lit::Null => None,
        Lit::Bool(_) => Some(SqlType::Bool),
        Lit::Int(_) => Some(SqlType::Int),
        Lit::Real(_) => Some(SqlType::Real),
        Lit::Text(_) => Some(SqlType::Text),
        Lit::Blob(_) => Some(SqlType::Blob),
        Lit::Decimal(_) => Some(SqlType::Decimal),
        Lit::Date(_) => Some(SqlType::Date),
        Lit::Timestamp(_) => Some(SqlType::Timestamp),
    }
}

/// Edge values of each type: zero and negative zero, extremes, empty strings, case and
/// trailing-space variants that collations treat differently, numeric-looking text.
/// `huge`: the run may use reals near the overflow limit (only where overflow to infinity and
/// NaN read the same on every engine: SQLite alone, which shows NaN as NULL).
pub fn edge_value(rng: &mut ChaCha8Rng, t: SqlType, huge: bool) -> Lit {
    match t {
        SqlType::Bool => Lit::Bool(rng.gen()),
        SqlType::Int => {
            const I: &[i64] = &[0, 1, -1, 2, 3, 10, -128, 255, 2147483647, -2147483648, i64::MAX, i64::MIN];
            if rng.gen_bool(0.3) {
                Lit::Int(rng.gen_range(-20..20))
            } else {
                Lit::Int(*I.choose(rng).unwrap_or(&0))
            }
        }
        SqlType::Real => {
            const R: &[f64] = &[0.0, -0.0, 0.5, 1.5, -2.25, 1e-7, 3.25, 1e308, -1e308, 9.223_372_036_854_776e18, 100.0];
            let f = *R.choose(rng).unwrap_or(&0.0);
            Lit::Real(if !huge && f.abs() > 1e300 { f.signum() * 1e15 } else { f })
        }
        SqlType::Text => {
            const T: &[&str] =
                &["", " ", "a", "A", "a ", "ab", "Ab", "b", "0", "1", "-1", "0.5", "1e3", " 1", "%", "_", "x%y"];
            Lit::Text(T.choose(rng).unwrap_or(&"").to_string())
        }
        SqlType::Blob => {
            const B: &[&[u8]] = &[b"", b"\x00", b"a", b"\xff", b"ab"];
            Lit::Blob(B.choose(rng).unwrap_or(&&b""[..]).to_vec())
        }
        SqlType::Decimal | SqlType::Date | SqlType::Timestamp => crate::typed::edge_value(rng, t).unwrap_or(Lit::Null),
    }
}

/// One visible column: the name it is qualified with and where it lives in [`Env::tables`].
#[derive(Clone, Debug)]
pub struct ScopeCol {
    pub visible: String,
    pub table: usize,
    pub column: usize,
}

/// An expression generator over one scope.
pub struct ExprGen<'a> {
    pub rng: &'a mut ChaCha8Rng,
    pub env: &'a Env,
    pub scope: Vec<ScopeCol>,
    /// In HAVING and grouped select lists only these keys (and aggregates) may be columns.
    pub group_keys: Option<Vec<(Expr, Option<SqlType>)>>,
    pub aggregates: bool,
    pub subqueries: bool,
    /// Generating the items of a view or a body that queries read as columns: MariaDB merges
    /// them into the reading query, so an item is evaluated in the context its column is read in.
    pub merged: bool,
    /// Counter for unique subquery aliases.
    pub next_alias: u32,
    /// Generating the inner query of a forced two-level correlation.
    nested: bool,
}

const TYPES_LOOSE: &[SqlType] = &[SqlType::Int, SqlType::Int, SqlType::Real, SqlType::Text, SqlType::Text];

impl<'a> ExprGen<'a> {
    pub fn new(rng: &'a mut ChaCha8Rng, env: &'a Env, scope: Vec<ScopeCol>) -> ExprGen<'a> {
        ExprGen {
            rng,
            env,
            scope,
            group_keys: None,
            aggregates: false,
            subqueries: true,
            merged: false,
            next_alias: 0,
            nested: false,
        }
    }

    fn col(&self, sc: &ScopeCol) -> &'a ColInfo {
        &self.env.tables[sc.table].columns[sc.column]
    }

    /// A value type for a comparison or an operand.
    pub fn any_type(&mut self) -> SqlType {
        let mut t = *TYPES_LOOSE.choose(self.rng).unwrap_or(&SqlType::Int);
        if self.rng.gen_bool(0.05) && self.env.caps.has(cap::BLOB) {
            t = SqlType::Blob;
        }
        // Prefer a type some visible column has, so comparisons involve data.
        if self.rng.gen_bool(0.7) && !self.scope.is_empty() {
            let sc = &self.scope[self.rng.gen_range(0..self.scope.len())];
            if let Some(ct) = self.col(sc).ty {
                if ct != SqlType::Bool || self.env.caps.has(cap::BOOL_TYPE) {
                    t = ct;
                }
            }
        }
        t
    }

    /// A literal of type `t`, usually one stored in the database.
    pub fn literal(&mut self, t: SqlType) -> Expr {
        if self.rng.gen_bool(0.05) {
            // A bare NULL has no type in strict dialects (PostgreSQL: "operator is not unique").
            return if self.env.loose { Expr::Lit(Lit::Null) } else { Expr::Cast(Box::new(Expr::Lit(Lit::Null)), t) };
        }
        let pool = &self.env.pool[ty_index(t)];
        if !pool.is_empty() && self.rng.gen_bool(0.75) {
            return Expr::Lit(pool[self.rng.gen_range(0..pool.len())].clone());
        }
        Expr::Lit(edge_value(self.rng, t, self.env.caps.has(cap::OVERFLOW_TO_REAL)))
    }

    /// A column of type `t` (any column when loose), or a literal if there is none.
    pub(crate) fn column_or_literal(&mut self, t: SqlType) -> Expr {
        if let Some(keys) = &self.group_keys {
            let fit: Vec<&Expr> =
                keys.iter().filter(|(_, kt)| self.env.loose || *kt == Some(t)).map(|(e, _)| e).collect();
            if !fit.is_empty() && self.rng.gen_bool(0.7) {
                return fit[self.rng.gen_range(0..fit.len())].clone();
            }
            return self.literal(t);
        }
        let n = self.scope.len();
        if n > 0 && self.rng.gen_bool(0.75) {
            let start = self.rng.gen_range(0..n);
            let loose_any = self.env.loose && self.rng.gen_bool(0.15);
            for k in 0..n {
                let sc = &self.scope[(start + k) % n];
                let c = self.col(sc);
                let fits = match c.ty {
                    Some(ct) => ct == t || loose_any,
                    None => self.env.loose,
                };
                if fits {
                    return Expr::col(&sc.visible, &c.name);
                }
            }
        }
        self.literal(t)
    }

    /// A boolean expression (a predicate).
    pub fn predicate(&mut self, depth: u32) -> Expr {
        self.expr(SqlType::Bool, depth)
    }

    /// An expression of type `t`; in loose runs, occasionally of another type.
    pub fn expr(&mut self, t: SqlType, depth: u32) -> Expr {
        if self.env.loose && t != SqlType::Bool && self.rng.gen_bool(0.08) {
            let other = self.any_type();
            return self.expr_typed(other, depth);
        }
        self.expr_typed(t, depth)
    }

    fn expr_typed(&mut self, t: SqlType, depth: u32) -> Expr {
        if depth == 0 || (t != SqlType::Bool && self.rng.gen_bool(0.45)) {
            if t == SqlType::Bool {
                return self.comparison(0);
            }
            return self.column_or_literal(t);
        }
        let d = depth - 1;
        match t {
            SqlType::Bool => self.bool_expr(d),
            SqlType::Int => self.int_expr(d),
            SqlType::Real => self.real_expr(d),
            SqlType::Text => self.text_expr(d),
            SqlType::Blob => self.column_or_literal(t),
            SqlType::Decimal => crate::typed::decimal_expr(self, d),
            SqlType::Date | SqlType::Timestamp => crate::typed::temporal_expr(self, t, d),
        }
    }

    pub(crate) fn has(&self, f: Func) -> bool {
        self.env.funcs.contains(&f)
    }

    /// A value stored in the column `e` names, if `e` is a column with values.
    fn value_of_column(&mut self, e: &Expr) -> Option<Expr> {
        let Expr::Col(c) = e else { return None };
        let sc = self.scope.iter().find(|s| s.visible == c.table && self.col(s).name == c.column)?;
        let values = &self.col(sc).values;
        if values.is_empty() {
            return None;
        }
        Some(Expr::Lit(values[self.rng.gen_range(0..values.len())].clone()))
    }

    fn comparison(&mut self, d: u32) -> Expr {
        let t = self.any_type();
        let a = self.expr(t, d);
        // The right side is usually a value stored in the left column (or at least one of the
        // database's), so the comparison selects some rows.
        let b = match self.rng.gen_range(0..10) {
            0..=4 => match self.value_of_column(&a) {
                Some(v) => v,
                None => self.literal(t),
            },
            5..=6 => self.literal(t),
            _ => self.expr(t, d),
        };
        const OPS: &[BinOp] =
            &[BinOp::Eq, BinOp::Ne, BinOp::Lt, BinOp::Le, BinOp::Gt, BinOp::Ge, BinOp::Is, BinOp::IsNot];
        let op = match *OPS.choose(self.rng).unwrap_or(&BinOp::Eq) {
            // Same draw either way, so runs that have null-safe equality keep their stream.
            BinOp::Is if !self.env.caps.has(cap::NULL_SAFE_EQ) => BinOp::Eq,
            BinOp::IsNot if !self.env.caps.has(cap::NULL_SAFE_EQ) => BinOp::Ne,
            op => op,
        };
        Expr::bin(op, a, b)
    }

    fn bool_expr(&mut self, d: u32) -> Expr {
        let choice = self.rng.gen_range(0..21);
        match choice {
            0..=4 => self.comparison(d),
            5 | 6 => {
                let op = if self.rng.gen() { BinOp::And } else { BinOp::Or };
                let a = self.predicate(d);
                let b = self.predicate(d);
                Expr::bin(op, a, b)
            }
            7 => Expr::negate(self.predicate(d)),
            8 => {
                let t = self.any_type();
                let e = self.expr(t, d);
                Expr::post(if self.rng.gen() { PostOp::IsNull } else { PostOp::NotNull }, e)
            }
            9 if self.env.caps.has(cap::IS_TRUE) => {
                const P: &[PostOp] = &[PostOp::IsTrue, PostOp::IsFalse, PostOp::IsNotTrue, PostOp::IsNotFalse];
                let op = *P.choose(self.rng).unwrap_or(&PostOp::IsTrue);
                Expr::post(op, self.predicate(d))
            }
            10 => {
                let t = self.any_type();
                let (e, lo, hi) = (self.expr(t, d), self.literal(t), self.literal(t));
                Expr::Between { expr: Box::new(e), low: Box::new(lo), high: Box::new(hi), not: self.rng.gen_bool(0.3) }
            }
            11 => {
                let t = self.any_type();
                let e = self.expr(t, d);
                let n = self.rng.gen_range(1..=3);
                let list = (0..n).map(|_| self.literal(t)).collect();
                Expr::InList { expr: Box::new(e), list, not: self.rng.gen_bool(0.3) }
            }
            12 | 13 => self.like(d),
            14 if self.subqueries => self.in_subquery(d),
            15 if self.subqueries => self.exists(d),
            16 => {
                let b = self.rng.gen();
                Expr::Lit(Lit::Bool(b))
            }
            17 => self.case(SqlType::Bool, d),
            19 if self.env.caps.has(cap::ROW_VALUES) => self.row_predicate(d),
            20 => crate::typed::mixed_comparison(self, d).unwrap_or_else(|| self.comparison(d)),
            18 if self.env.loose => {
                // A non-boolean value used as a truth value.
                let t = self.any_type();
                self.expr(t, d)
            }
            _ => self.comparison(d),
        }
    }

    fn like(&mut self, d: u32) -> Expr {
        let mut e = self.expr(SqlType::Text, d);
        // An engine that matches a BLOB operand differently (an older SQLite) gets text: the
        // run tests the pattern, not a release's reading of bytes.
        if self.env.caps.has(cap::BLOB) && !self.env.caps.has(cap::BLOB_PATTERNS) {
            e = Expr::Cast(Box::new(e), SqlType::Text);
        }
        // A pattern derived from a stored string, with wildcards mixed in.
        let base = match self.literal(SqlType::Text) {
            Expr::Lit(Lit::Text(s)) => s,
            _ => String::new(),
        };
        let glob = self.env.caps.has(cap::GLOB) && self.rng.gen_bool(0.3);
        let mut p: String = base.chars().take(3).collect();
        // Engines disagree on the case of LIKE: without one rule for the run, no letters.
        if !glob && !self.env.caps.has(cap::LIKE_NOCASE) && !self.env.caps.has(cap::LIKE_CASE) {
            p.retain(|c| !c.is_ascii_alphabetic());
        }
        match self.rng.gen_range(0..4) {
            0 => p.push(if glob { '*' } else { '%' }),
            1 => p.insert(0, if glob { '*' } else { '%' }),
            2 if !p.is_empty() => {
                p.replace_range(0..p.chars().next().map_or(1, char::len_utf8), if glob { "?" } else { "_" })
            }
            _ => {}
        }
        let not = self.rng.gen_bool(0.2);
        let op = match (glob, not) {
            (true, false) => BinOp::Glob,
            (true, true) => BinOp::NotGlob,
            (false, false) => BinOp::Like,
            (false, true) => BinOp::NotLike,
        };
        Expr::bin(op, e, Expr::Lit(Lit::Text(p)))
    }

    /// A subquery over one table, correlated with the current scope.
    fn subquery_select(&mut self, t: SqlType, d: u32) -> Option<(Select, SqlType)> {
        let ti = self.rng.gen_range(0..self.env.tables.len());
        let table = &self.env.tables[ti];
        if table.columns.is_empty() || table.body.is_some() {
            return None;
        }
        let alias = format!("s{}", self.next_alias);
        self.next_alias += 1;
        let mut scope = self.scope.clone();
        for c in 0..table.columns.len() {
            scope.push(ScopeCol { visible: alias.clone(), table: ti, column: c });
        }
        let saved = std::mem::replace(&mut self.scope, scope);
        let ci = self.rng.gen_range(0..table.columns.len());
        let col = &table.columns[ci];
        let ty = if self.env.loose { col.ty.unwrap_or(t) } else { col.ty? };
        let item = Expr::col(&alias, &col.name);
        let mut where_ = if self.rng.gen_bool(0.7) { Some(self.predicate(d.min(1))) } else { None };
        if let Some(nested) = self.correlated_below(&saved, d) {
            where_ = Some(match where_ {
                Some(w) => Expr::bin(BinOp::And, w, nested),
                None => nested,
            });
        }
        self.scope = saved;
        let sel = Select {
            items: vec![Item { expr: item, alias: None }],
            from: vec![TableRef::named(&table.name, Some(alias))],
            where_,
            ..Select::default()
        };
        Some((sel, ty))
    }

    /// Sometimes, in a subquery whose enclosing query has the columns `outer`, an `[NOT]
    /// EXISTS` that reads one of them: a correlation two levels deep, which decorrelation must
    /// carry through the middle query. Not in grouped contexts, where an outer column must be
    /// a group key, and never deeper than two.
    fn correlated_below(&mut self, outer: &[ScopeCol], d: u32) -> Option<Expr> {
        let candidates: Vec<&ScopeCol> =
            outer.iter().filter(|c| self.scope_type(c).is_some() || self.env.loose).collect();
        if self.nested
            || self.group_keys.is_some()
            || self.aggregates
            || candidates.is_empty()
            || !self.rng.gen_bool(0.25)
        {
            return None;
        }
        let oc = candidates[self.rng.gen_range(0..candidates.len())].clone();
        let ot = self.scope_type(&oc);
        let outer_col = Expr::col(&oc.visible, &self.env.tables[oc.table].columns[oc.column].name);
        self.nested = true;
        let inner = self.subquery_select(ot.unwrap_or(SqlType::Int), d);
        self.nested = false;
        let (mut sel, ty) = inner?;
        let link = match ot {
            // Of one type (or untyped, where every comparison is defined): joined on the value.
            Some(t) if t == ty => Expr::bin(BinOp::Eq, outer_col, sel.items[0].expr.clone()),
            None if self.env.loose => Expr::bin(BinOp::Eq, outer_col, sel.items[0].expr.clone()),
            _ => Expr::post(if self.rng.gen() { PostOp::IsNull } else { PostOp::NotNull }, outer_col),
        };
        sel.where_ = Some(match sel.where_.take() {
            Some(w) => Expr::bin(BinOp::And, w, link),
            None => link,
        });
        Some(Expr::Exists { select: Box::new(sel), not: self.rng.gen_bool(0.3) })
    }

    fn scope_type(&self, c: &ScopeCol) -> Option<SqlType> {
        self.env.tables[c.table].columns[c.column].ty
    }

    fn in_subquery(&mut self, d: u32) -> Expr {
        let t = self.any_type();
        match self.subquery_select(t, d) {
            Some((mut sel, ty)) if self.env.loose || ty == t => {
                if self.env.caps.has(cap::LIMIT_IN_SUBQUERY) && self.rng.gen_bool(0.2) {
                    // LIMIT is deterministic here: the order is on the selected value itself.
                    let e = sel.items[0].expr.clone();
                    let e = if self.env.caps.has(cap::SQLITE_COLLATIONS) {
                        Expr::Collate(Box::new(e), Collation::Binary)
                    } else {
                        e
                    };
                    sel.order_by = vec![Order { expr: e, desc: self.rng.gen() }];
                    sel.limit = Some(self.rng.gen_range(0..3));
                    sel.offset = if self.rng.gen() { Some(self.rng.gen_range(0..2)) } else { None };
                }
                if sel.order_by.is_empty() && self.env.caps.has(cap::SET_OPS) && self.rng.gen_bool(0.2) {
                    crate::inner::add_compound(self.rng, self.env, &[ty], &mut sel);
                }
                let e = self.expr(ty, d);
                Expr::InSelect { expr: Box::new(e), select: Box::new(sel), not: self.rng.gen_bool(0.3) }
            }
            _ => self.comparison(d),
        }
    }

    /// `(a, b) op (c, d)` or `(a, b) [NOT] IN (SELECT x, y ...)`, pairwise of one type.
    fn row_predicate(&mut self, d: u32) -> Expr {
        let (t1, t2) = (self.any_type(), self.any_type());
        // MariaDB 10.11: "doesn't yet support 'SUBQUERY in ROW in left expression of IN'".
        let subqueries = std::mem::replace(&mut self.subqueries, false);
        let left = Expr::Row(vec![self.expr(t1, d), self.expr(t2, d)]);
        self.subqueries = subqueries;
        if self.subqueries && self.rng.gen() {
            if let Some((mut sel, ty)) = self.subquery_select(t1, d) {
                if self.env.loose || ty == t1 {
                    let alias = sel.from[0].visible().to_string();
                    let table = sel.from[0].name.clone();
                    let second = self.env.tables.iter().position(|t| t.name == table).and_then(|ti| {
                        let cols = &self.env.tables[ti].columns;
                        cols.iter().find(|c| self.env.loose || c.ty == Some(t2)).map(|c| Expr::col(&alias, &c.name))
                    });
                    if let Some(second) = second {
                        sel.items.push(Item { expr: second, alias: None });
                        return Expr::InSelect {
                            expr: Box::new(left),
                            select: Box::new(sel),
                            not: self.rng.gen_bool(0.3),
                        };
                    }
                }
            }
        }
        let right = Expr::Row(vec![self.expr(t1, d), self.expr(t2, d)]);
        const OPS: &[BinOp] = &[BinOp::Eq, BinOp::Ne, BinOp::Lt, BinOp::Le, BinOp::Gt, BinOp::Ge];
        Expr::bin(*OPS.choose(self.rng).unwrap_or(&BinOp::Eq), left, right)
    }

    fn exists(&mut self, d: u32) -> Expr {
        match self.subquery_select(SqlType::Int, d) {
            Some((sel, _)) => Expr::Exists { select: Box::new(sel), not: self.rng.gen_bool(0.3) },
            None => self.comparison(d),
        }
    }

    /// `(SELECT MIN(x) FROM ...)`: a scalar subquery that returns exactly one row.
    pub(crate) fn scalar_subquery(&mut self, t: SqlType, d: u32) -> Expr {
        match self.subquery_select(t, d) {
            Some((mut sel, ty)) if self.env.loose || ty == t => {
                let arg = sel.items[0].expr.clone();
                let func = if self.rng.gen() { Agg::Min } else { Agg::Max };
                sel.items[0].expr = Expr::Agg { func, distinct: false, arg: Some(Box::new(arg)) };
                Expr::Subquery(Box::new(sel))
            }
            Some((mut sel, _)) if t == SqlType::Int => {
                sel.items[0].expr = Expr::Agg { func: Agg::Count, distinct: false, arg: None };
                Expr::Subquery(Box::new(sel))
            }
            _ => self.column_or_literal(t),
        }
    }

    pub(crate) fn case(&mut self, t: SqlType, d: u32) -> Expr {
        let n = self.rng.gen_range(1..=2);
        let operand = if self.rng.gen_bool(0.3) {
            let ot = self.any_type();
            let o = self.expr(ot, d);
            let whens = (0..n).map(|_| (self.literal(ot), self.expr(t, d))).collect();
            return Expr::Case {
                operand: Some(Box::new(o)),
                whens,
                otherwise: if self.rng.gen() { Some(Box::new(self.expr(t, d))) } else { None },
            };
        } else {
            None
        };
        let whens = (0..n).map(|_| (self.predicate(d), self.expr(t, d))).collect();
        let otherwise = if self.rng.gen() { Some(Box::new(self.expr(t, d))) } else { None };
        Expr::Case { operand, whens, otherwise }
    }

    /// coalesce / nullif / ifnull / iif / scalar max / min, all of type `t`.
    pub(crate) fn generic_func(&mut self, t: SqlType, d: u32) -> Option<Expr> {
        const F: &[Func] = &[Func::Coalesce, Func::Nullif, Func::Ifnull, Func::Iif, Func::Max, Func::Min];
        let f = *F.choose(self.rng)?;
        // A column read under a CASE (EET) must keep its value: see `cap::CONTEXT_FREE_MAX_MIN`.
        let context_bound = matches!(f, Func::Max | Func::Min) && !self.env.caps.has(cap::CONTEXT_FREE_MAX_MIN);
        if !self.has(f) || (context_bound && self.merged) {
            return None;
        }
        let args = match f {
            Func::Iif => vec![self.predicate(d), self.expr(t, d), self.expr(t, d)],
            Func::Coalesce | Func::Max | Func::Min => (0..self.rng.gen_range(2..=3)).map(|_| self.expr(t, d)).collect(),
            _ => vec![self.expr(t, d), self.expr(t, d)],
        };
        Some(Expr::Func(f, args))
    }

    fn int_expr(&mut self, d: u32) -> Expr {
        let t = SqlType::Int;
        match self.rng.gen_range(0..16) {
            0..=2 => {
                const OPS: &[BinOp] = &[BinOp::Add, BinOp::Sub, BinOp::Mul, BinOp::IntDiv, BinOp::Rem];
                let op = *OPS.choose(self.rng).unwrap_or(&BinOp::Add);
                let (a, b) = (self.expr(t, d), self.expr(t, d));
                Expr::bin(op, a, b)
            }
            3 => Expr::un(UnOp::Neg, self.expr(t, d)),
            4 if self.env.caps.has(cap::BIT_OPS) => {
                const OPS: &[BinOp] = &[BinOp::BitAnd, BinOp::BitOr, BinOp::Shl, BinOp::Shr];
                let op = *OPS.choose(self.rng).unwrap_or(&BinOp::BitAnd);
                let (a, b) = (self.expr(t, d), self.expr(t, d));
                Expr::bin(op, a, b)
            }
            5 if self.has(Func::Abs) => Expr::Func(Func::Abs, vec![self.expr(t, d)]),
            6 if self.has(Func::Length) => Expr::Func(Func::Length, vec![self.expr(SqlType::Text, d)]),
            7 if self.has(Func::Instr) => {
                Expr::Func(Func::Instr, vec![self.expr(SqlType::Text, d), self.expr(SqlType::Text, d)])
            }
            8 if self.has(Func::Unicode) => Expr::Func(Func::Unicode, vec![self.expr(SqlType::Text, d)]),
            9 if self.has(Func::Sign) => Expr::Func(Func::Sign, vec![self.expr(t, d)]),
            10 => {
                // Casts from reals only in strict runs: text-to-integer casts fail there.
                // Real-to-integer casts truncate in SQLite and round elsewhere.
                let from = if self.env.loose {
                    self.any_type()
                } else if self.env.caps.has(cap::OVERFLOW_TO_REAL) {
                    SqlType::Real
                } else {
                    SqlType::Int
                };
                Expr::Cast(Box::new(self.expr(from, d)), t)
            }
            11 => self.case(t, d),
            12 if self.subqueries => self.scalar_subquery(t, d),
            13 if self.aggregates => self.aggregate(t, d),
            14 | 15 => crate::typed::int_expr(self, d)
                .or_else(|| self.generic_func(t, d))
                .unwrap_or_else(|| self.column_or_literal(t)),
            _ => self.generic_func(t, d).unwrap_or_else(|| self.column_or_literal(t)),
        }
    }

    fn real_expr(&mut self, d: u32) -> Expr {
        let t = SqlType::Real;
        match self.rng.gen_range(0..10) {
            0..=2 => {
                const OPS: &[BinOp] = &[BinOp::Add, BinOp::Sub, BinOp::Mul, BinOp::Div];
                let mut op = *OPS.choose(self.rng).unwrap_or(&BinOp::Add);
                if op == BinOp::Div && !self.env.caps.has(cap::REAL_DIV) {
                    op = BinOp::Mul;
                }
                let (a, b) = (self.expr(t, d), self.expr(t, d));
                Expr::bin(op, a, b)
            }
            3 if self.has(Func::Round) => {
                let digits = Expr::Lit(Lit::Int(self.rng.gen_range(0..3)));
                Expr::Func(Func::Round, vec![self.expr(t, d), digits])
            }
            4 if self.has(Func::Abs) => Expr::Func(Func::Abs, vec![self.expr(t, d)]),
            5 => {
                let from = match self.env.loose {
                    true => self.any_type(),
                    // A DECIMAL(12,2) has one nearest double in every engine.
                    false if self.env.caps.has(cap::DECIMAL) && self.rng.gen_bool(0.3) => SqlType::Decimal,
                    false => SqlType::Int,
                };
                Expr::Cast(Box::new(self.expr(from, d)), t)
            }
            6 => self.case(t, d),
            7 if self.aggregates => self.aggregate(t, d),
            8 => Expr::un(UnOp::Neg, self.expr(t, d)),
            9 if self.subqueries && self.rng.gen() => self.scalar_subquery(t, d),
            _ => self.generic_func(t, d).unwrap_or_else(|| self.column_or_literal(t)),
        }
    }

    fn text_expr(&mut self, d: u32) -> Expr {
        let t = SqlType::Text;
        match self.rng.gen_range(0..15) {
            0 | 1 => {
                let (a, b) = (self.expr(t, d), self.expr(t, d));
                Expr::bin(BinOp::Concat, a, b)
            }
            2 => {
                const F: &[Func] = &[Func::Lower, Func::Upper, Func::Trim, Func::Ltrim, Func::Rtrim, Func::Quote];
                let f = *F.choose(self.rng).unwrap_or(&Func::Lower);
                if !self.has(f) {
                    return self.column_or_literal(t);
                }
                Expr::Func(f, vec![self.expr(t, d)])
            }
            3 if self.has(Func::Substr) => {
                let lowest = if self.env.caps.has(cap::SUBSTR_NONPOSITIVE) { -1 } else { 1 };
                let start = Expr::Lit(Lit::Int(self.rng.gen_range(lowest..3)));
                let len = Expr::Lit(Lit::Int(self.rng.gen_range(0..3)));
                Expr::Func(Func::Substr, vec![self.expr(t, d), start, len])
            }
            4 if self.has(Func::Replace) => {
                Expr::Func(Func::Replace, vec![self.expr(t, d), self.literal(t), self.literal(t)])
            }
            5 if self.has(Func::Hex) => {
                let a = self.any_type();
                Expr::Func(Func::Hex, vec![self.expr(a, d)])
            }
            6 if self.has(Func::Typeof) => {
                let a = self.any_type();
                Expr::Func(Func::Typeof, vec![self.expr(a, d)])
            }
            7 => {
                // Real-to-text spelling is implementation-defined: only integers, text, dates
                // and timestamps (ISO `YYYY-MM-DD hh:mm:ss` in every engine with them).
                let from = match self.env.loose {
                    true => self.any_type(),
                    false if self.env.caps.has(cap::DATE) && self.rng.gen_bool(0.3) => SqlType::Date,
                    false if self.env.caps.has(cap::TIMESTAMP) && self.rng.gen_bool(0.3) => SqlType::Timestamp,
                    false => SqlType::Int,
                };
                Expr::Cast(Box::new(self.expr(from, d)), t)
            }
            8 if self.env.collations.len() > 1 => {
                let c = *self.env.collations.choose(self.rng).unwrap_or(&Collation::Binary);
                Expr::Collate(Box::new(self.expr(t, d)), c)
            }
            9 => self.case(t, d),
            10 if self.aggregates => self.aggregate(t, d),
            11 if self.subqueries => self.scalar_subquery(t, d),
            12 => crate::typed::json_text(self, d)
                .or_else(|| self.generic_func(t, d))
                .unwrap_or_else(|| self.column_or_literal(t)),
            _ => self.generic_func(t, d).unwrap_or_else(|| self.column_or_literal(t)),
        }
    }

    /// An aggregate of result type `t` over the full scope (not the group keys).
    pub fn aggregate(&mut self, t: SqlType, d: u32) -> Expr {
        let keys = self.group_keys.take();
        let (aggs, subq) = (self.aggregates, self.subqueries);
        // Aggregates do not nest, and their arguments may use every column.
        self.aggregates = false;
        self.subqueries = false;
        let e = match t {
            SqlType::Int if self.rng.gen_bool(0.4) => {
                let arg = if self.rng.gen() {
                    None
                } else {
                    let a = self.any_type();
                    Some(Box::new(self.expr(a, d.min(1))))
                };
                Expr::Agg { func: Agg::Count, distinct: arg.is_some() && self.rng.gen_bool(0.2), arg }
            }
            SqlType::Int | SqlType::Real | SqlType::Decimal if self.rng.gen() => {
                let func = if t == SqlType::Real && self.env.caps.has(cap::TOTAL) && self.rng.gen() {
                    Agg::Total
                } else {
                    Agg::Sum
                };
                let arg = self.expr(t, d.min(1));
                Expr::Agg { func, distinct: self.rng.gen_bool(0.1), arg: Some(Box::new(arg)) }
            }
            _ => {
                let func = if self.rng.gen() { Agg::Min } else { Agg::Max };
                let arg = self.expr(t, d.min(1));
                if self.env.caps.has_agg(func, t) {
                    Expr::Agg { func, distinct: false, arg: Some(Box::new(arg)) }
                } else {
                    // No `func(t)` in the dialect (PostgreSQL's min(boolean), min(bytea)): a
                    // literal of type `t` stands in, after the same draws.
                    self.literal(t)
                }
            }
        };
        self.group_keys = keys;
        self.aggregates = aggs;
        self.subqueries = subq;
        e
    }
}
