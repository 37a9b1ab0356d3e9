//! Which collation a comparison and a result column carry, as each engine derives it.
//!
//! SQLite (<https://sqlite.org/datatype3.html#assigning_collating_sequences_from_sql>): an
//! explicit COLLATE, else the left operand's column collation wins; two operands never
//! conflict. PostgreSQL, MariaDB and DuckDB refuse some operations over two different
//! collations (measured on PostgreSQL 15, MariaDB 10.11, DuckDB 1.1.3 and 2.0.0):
//! PostgreSQL's "could not determine which collation to use" between two columns' (explicit
//! COLLATE outranks a column's, a column without COLLATE has the weakest "default");
//! MariaDB's "Illegal mix of collations" (error 1267) between two columns' or two explicit
//! ones (its columns without COLLATE carry the table's `utf8mb4_nopad_bin`); DuckDB's "Cannot
//! combine types with different collation!" between any two, explicit or not (`(c COLLATE
//! NOCASE) = (d COLLATE "binary")` is refused). [`settle`] gives every operation of a
//! generated statement in those dialects one collation: an operand whose collation differs
//! from an earlier operand's gets that one explicitly. What remains has no conflict in any of
//! the three, and its collation is the one collation its operands carry.
//!
//! Oracles that deduplicate or group (DISTINCT, GROUP BY, MIN/MAX) may legally return any
//! member of a set of equal values ('a' or 'A' under NOCASE). Those columns are compared
//! folded ([`class_key`]); every other column is compared exactly, so a folded comparison
//! never hides a bug in a BINARY column.

use crate::ast::{Agg, BinOp, Collation, Expr, Func, Item, JoinKind, Lit, Select, SqlType, Stmt, WinFunc};
use crate::dialect::{cap, Caps, Dialect};

/// How a dialect derives the collation of an operation over several text operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rules {
    Sqlite,
    Postgres,
    MariaDb,
    DuckDb,
}

impl Rules {
    /// The rules of the dialect whose collations `caps` has; SQLite's when none has any (then
    /// only BINARY is written and no rule matters).
    pub fn of_caps(caps: &Caps) -> Rules {
        Self::pick(|c| caps.has(c))
    }

    pub fn of_dialect(d: &dyn Dialect) -> Rules {
        Self::pick(|c| d.has_cap(c))
    }

    fn pick(has: impl Fn(&str) -> bool) -> Rules {
        if has(cap::POSTGRES_COLLATIONS) {
            Rules::Postgres
        } else if has(cap::MARIADB_COLLATIONS) {
            Rules::MariaDb
        } else if has(cap::DUCKDB_COLLATIONS) {
            Rules::DuckDb
        } else {
            Rules::Sqlite
        }
    }

    /// What a text column declared without COLLATE carries: MariaDB's the table's
    /// (`utf8mb4_nopad_bin`, see `Dialect::table_suffix`), at a column's strength; the others'
    /// the database default, which yields to any other.
    fn bare_column(self) -> Option<Collation> {
        (self == Rules::MariaDb).then_some(Collation::Binary)
    }

    /// What `CAST(x AS text)` carries: MariaDB's is printed with `COLLATE utf8mb4_nopad_bin`
    /// (`Dialect::cast_collation`); PostgreSQL and DuckDB keep the operand's.
    fn cast_text(self, inner: Option<Collation>) -> Option<Collation> {
        match self {
            Rules::MariaDb => Some(Collation::Binary),
            _ => inner,
        }
    }
}

/// The collations a run may write: those every engine of the run has, BINARY alone when the
/// engines' sets differ (their names, orders and derivation rules differ too; see README).
pub fn available(caps: &Caps) -> Vec<Collation> {
    use Collation::*;
    if caps.has(cap::SQLITE_COLLATIONS) {
        return vec![Binary, NoCase, RTrim];
    }
    match Rules::of_caps(caps) {
        Rules::Sqlite => vec![Binary],
        Rules::Postgres => vec![Binary, Icu],
        Rules::MariaDb => vec![Binary, RTrim, NoCase, NoCasePad, UnicodeCi],
        Rules::DuckDb => vec![Binary, NoCase, NoAccent, NoCaseNoAccent],
    }
}

/// The accented texts the generator stores where the run has `cap::ACCENTED_TEXT`, each with
/// an unaccented or differently cased twin among them or the ASCII ones.
pub const ACCENTED: &[&str] = &["é", "É", "e", "E", "ü", "Ü", "ñ", "áb", "Áb", "ab"];

/// `s` without the accents of [`ACCENTED`]'s letters, as DuckDB's `strip_accents` reads them.
fn strip_accents(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            'é' | 'è' => 'e',
            'É' | 'È' => 'E',
            'á' => 'a',
            'Á' => 'A',
            'ü' => 'u',
            'Ü' => 'U',
            'ñ' => 'n',
            'Ñ' => 'N',
            c => c,
        })
        .collect()
}

/// The representative of `s`'s class of equal values under `c`: two texts are equal under
/// `c` exactly when their keys are. Accented text reaches DuckDB alone (`cap::ACCENTED_TEXT`),
/// whose NOCASE lowers every letter; on ASCII that is SQLite's and MariaDB's lowering too.
/// PAD SPACE collations (MariaDB's without `nopad`) ignore trailing spaces, as RTRIM does.
pub fn class_key(c: Collation, s: &str) -> String {
    match c {
        Collation::Binary | Collation::Icu => s.to_string(),
        Collation::NoAccent => strip_accents(s),
        Collation::NoCase => s.to_lowercase(),
        Collation::NoCaseNoAccent => strip_accents(s).to_lowercase(),
        Collation::RTrim => s.trim_end_matches(' ').to_string(),
        Collation::NoCasePad | Collation::UnicodeCi => s.trim_end_matches(' ').to_ascii_lowercase(),
    }
}

/// Collations of the base tables' and views' columns, read from the setup.
pub struct Collations<'a> {
    setup: &'a [Stmt],
    rules: Rules,
}

impl<'a> Collations<'a> {
    pub fn new(setup: &'a [Stmt]) -> Collations<'a> {
        Collations { setup, rules: Rules::Sqlite }
    }

    /// The same setup read by `d`'s derivation rules.
    pub fn under(self, d: &dyn Dialect) -> Collations<'a> {
        Collations { rules: Rules::of_dialect(d), ..self }
    }

    /// The collation of each item of `s`, where the rules are not SQLite's (see [`settle`]).
    pub fn items(&self, s: &Select) -> Option<Vec<Collation>> {
        if self.rules == Rules::Sqlite {
            return None;
        }
        let mut s = s.clone();
        let items = Settler::new(self.rules, self.setup).select(&mut s, &mut []);
        Some(items.into_iter().map(|(c, _)| c.unwrap_or(Collation::Binary)).collect())
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

/// Gives every operation of the query and of the setup's views, indexes and DML one
/// collation under `rules` (see the module comment); SQLite's rules need nothing.
pub fn settle(rules: Rules, setup: &[Stmt], select: &mut Select, pred: Option<&mut Expr>) {
    if rules == Rules::Sqlite {
        return;
    }
    let mut extra: Vec<&mut Expr> = pred.into_iter().collect();
    Settler::new(rules, setup).select(select, &mut extra);
}

/// [`settle`] for each statement of a setup, read against the statements before it.
pub fn settle_setup(rules: Rules, setup: &mut [Stmt]) {
    if rules == Rules::Sqlite {
        return;
    }
    for i in 0..setup.len() {
        let (before, rest) = setup.split_at_mut(i);
        let mut st = Settler::new(rules, before);
        match &mut rest[0] {
            Stmt::CreateView { select, .. } | Stmt::InsertSelect { select, .. } => {
                st.select(select, &mut []);
            }
            Stmt::CreateIndex { table, keys, where_, .. } => {
                st.frames.push(vec![(table.clone(), st.named(table))]);
                keys.iter_mut().for_each(|k| {
                    st.expr(&mut k.expr);
                });
                if rules == Rules::DuckDb {
                    // DuckDB 2.0: "Index with collation not supported yet!" for a COLLATE in
                    // a key (a column declared with one is indexed).
                    keys.iter_mut().for_each(|k| uncollate(&mut k.expr));
                }
                where_.iter_mut().for_each(|w| {
                    st.expr(w);
                });
            }
            Stmt::Update { table, sets, where_ } => {
                st.frames.push(vec![(table.clone(), st.named(table))]);
                sets.iter_mut().for_each(|(_, e)| {
                    st.expr(e);
                });
                where_.iter_mut().for_each(|w| {
                    st.expr(w);
                });
            }
            Stmt::Delete { table, where_ } => {
                st.frames.push(vec![(table.clone(), st.named(table))]);
                where_.iter_mut().for_each(|w| {
                    st.expr(w);
                });
            }
            _ => {}
        }
    }
}

/// A column's collation, and whether MariaDB surely reads it as a character string (see
/// [`Settler::chars`]): a view's `CONCAT(blob, text)` carries the text's collation for the
/// comparisons it takes part in, yet is a binary string that no COLLATE takes.
type Slot = (Option<Collation>, bool);

/// A table's columns and what each carries.
type Columns = Vec<(String, Slot)>;

/// Walks a statement resolving columns through the FROM clauses around each expression.
struct Settler<'a> {
    rules: Rules,
    setup: &'a [Stmt],
    /// The tables of each enclosing FROM, innermost last, by the name columns qualify with.
    frames: Vec<Vec<(String, Columns)>>,
    /// The CTEs in scope, innermost last.
    ctes: Vec<(String, Columns)>,
}

impl<'a> Settler<'a> {
    fn new(rules: Rules, setup: &'a [Stmt]) -> Settler<'a> {
        Settler { rules, setup, frames: Vec::new(), ctes: Vec::new() }
    }

    /// The columns of table, view or CTE `name`.
    fn named(&self, name: &str) -> Columns {
        if let Some((_, cols)) = self.ctes.iter().rev().find(|(n, _)| n == name) {
            return cols.clone();
        }
        for (i, s) in self.setup.iter().enumerate() {
            match s {
                Stmt::CreateTable { name: n, columns } if n == name => {
                    return columns
                        .iter()
                        .map(|c| {
                            let textual = matches!(c.ty, None | Some(SqlType::Text));
                            let coll = c.collate.or(self.rules.bare_column().filter(|_| textual));
                            (c.name.clone(), (coll, textual && coll.is_some()))
                        })
                        .collect();
                }
                Stmt::CreateView { name: n, columns, select } if n == name => {
                    // A view reads only the statements before it.
                    let items =
                        Settler::new(self.rules, &self.setup[..i]).select(&mut select.as_ref().clone(), &mut []);
                    return columns.iter().cloned().zip(items).collect();
                }
                _ => {}
            }
        }
        Vec::new()
    }

    fn column(&self, table: &str, column: &str) -> Slot {
        for frame in self.frames.iter().rev() {
            for (visible, cols) in frame {
                if visible == table {
                    if let Some((_, c)) = cols.iter().find(|(n, _)| n == column) {
                        return *c;
                    }
                }
            }
        }
        (None, false)
    }

    /// Whether MariaDB surely reads `e` as a character string: a text column, literal, CAST
    /// or COLLATE. A function over a binary string and a text (as `ifnull(blob, text)` or a
    /// view's `CONCAT(blob, text)`) is a binary string, which no COLLATE takes.
    fn chars(&self, e: &Expr) -> bool {
        match e {
            Expr::Col(c) => self.column(&c.table, &c.column).1,
            e => character_string(e),
        }
    }

    /// Settles `s` and the expressions `extra` in its scope; what each item carries.
    fn select(&mut self, s: &mut Select, extra: &mut [&mut Expr]) -> Vec<Slot> {
        let ctes = self.ctes.len();
        for cte in &mut s.with {
            let items = self.select(&mut cte.select, &mut []);
            self.ctes.push((cte.name.clone(), cte.columns.iter().cloned().zip(items).collect()));
        }
        let mut frame: Vec<(String, Columns)> = Vec::new();
        let mut tables: Vec<_> = s.from.iter_mut().map(|t| (t, None)).collect();
        tables.extend(s.joins.iter_mut().map(|j| (&mut j.table, Some(&mut j.kind))));
        for (t, kind) in tables {
            let cols = match &mut t.body {
                Some(body) => {
                    let items = self.select(body, &mut []);
                    body.items.iter().enumerate().map(|(i, it)| item_name(i, it)).zip(items).collect()
                }
                None => self.named(&t.name),
            };
            if let Some(k) = kind.filter(|k| **k == JoinKind::Natural) {
                // The shared columns are compared, and no COLLATE can be put on them.
                let clash = |(n, (c, _)): &(String, Slot)| {
                    frame.iter().flat_map(|(_, f)| f).any(|(m, (d, _))| m == n && conflict(*c, *d))
                };
                if cols.iter().any(clash) {
                    *k = JoinKind::Cross;
                }
            }
            frame.push((t.visible().to_string(), cols));
        }
        let star: Vec<Slot> = frame.iter().flat_map(|(_, c)| c.iter().map(|(_, c)| *c)).collect();
        self.frames.push(frame);
        let mut items = self.body(s, extra);
        if s.items.is_empty() {
            items = star;
        }
        self.frames.pop();
        self.compound(s, &mut items);
        self.ctes.truncate(ctes);
        items
    }

    /// The expressions of one select (not its compound members).
    fn body(&mut self, s: &mut Select, extra: &mut [&mut Expr]) -> Vec<Slot> {
        for j in &mut s.joins {
            j.on.iter_mut().for_each(|e| {
                self.expr(e);
            });
        }
        s.where_.iter_mut().chain(s.having.iter_mut()).chain(s.group_by.iter_mut()).for_each(|e| {
            self.expr(e);
        });
        extra.iter_mut().for_each(|e| {
            self.expr(e);
        });
        let items: Vec<Slot> = s
            .items
            .iter_mut()
            .map(|i| {
                let c = self.expr(&mut i.expr);
                (c, self.chars(&i.expr))
            })
            .collect();
        let limited = s.limit.is_some() || s.offset.is_some();
        for o in &mut s.order_by {
            let c = self.expr(&mut o.expr);
            // Under a LIMIT, the order must be total: 'a' and 'A' tie under NOCASE.
            if limited && !exact(c) {
                impose(self.rules, &mut o.expr, Collation::Binary);
            }
        }
        items
    }

    /// Gives each column of a compound select one collation across its members.
    fn compound(&mut self, s: &mut Select, items: &mut [Slot]) {
        for member in &mut s.compound {
            let theirs = self.select(&mut member.select, &mut []);
            for (i, ((mine, chars), (c, theirs_chars))) in items.iter_mut().zip(theirs).enumerate() {
                *chars &= theirs_chars;
                match (*mine, c) {
                    (None, c) => *mine = c,
                    (Some(m), c) if conflict(Some(m), c) => {
                        if let Some(item) = member.select.items.get_mut(i) {
                            impose(self.rules, &mut item.expr, m);
                        }
                    }
                    _ => {}
                }
            }
        }
    }

    /// Settles `e` and returns its collation.
    fn expr(&mut self, e: &mut Expr) -> Option<Collation> {
        match e {
            Expr::Lit(_) => None,
            Expr::Col(c) => self.column(&c.table, &c.column).0,
            Expr::Collate(inner, c) => {
                self.expr(inner);
                if self.rules == Rules::MariaDb && !self.chars(inner) {
                    // A loose MariaDB run may collate a number or binary string (also inside
                    // a COALESCE with text): "COLLATION ... is not valid for CHARACTER SET
                    // 'binary'" (error 1253).
                    let operand = std::mem::replace(inner.as_mut(), Expr::Lit(Lit::Null));
                    **inner = Expr::Cast(Box::new(operand), SqlType::Text);
                }
                Some(*c)
            }
            Expr::Cast(inner, t) => {
                let c = self.expr(inner);
                (*t == SqlType::Text).then(|| self.rules.cast_text(c)).flatten()
            }
            Expr::Unary(_, a) | Expr::Postfix(_, a) => {
                self.expr(a);
                None
            }
            Expr::Binary(op, a, b) => {
                if let (Expr::Row(xs), Expr::Row(ys)) = (a.as_mut(), b.as_mut()) {
                    for (x, y) in xs.iter_mut().zip(ys) {
                        self.group(vec![x, y]);
                    }
                    return None;
                }
                let c = self.group(vec![a, b]);
                (*op == BinOp::Concat).then_some(c).flatten()
            }
            Expr::Between { expr, low, high, .. } => {
                self.group(vec![expr, low, high]);
                None
            }
            Expr::InList { expr, list, .. } => {
                self.group(std::iter::once(expr.as_mut()).chain(list.iter_mut()).collect());
                None
            }
            Expr::InSelect { expr, select, .. } => {
                self.in_select(expr, select);
                None
            }
            Expr::Exists { select, .. } => {
                self.select(select, &mut []);
                None
            }
            Expr::Subquery(select) => self.select(select, &mut []).first().and_then(|(c, _)| *c),
            Expr::Case { operand, whens, otherwise } => {
                self.case(operand.as_deref_mut(), whens, otherwise.as_deref_mut())
            }
            Expr::Func(f, args) => self.func(*f, args),
            Expr::Agg { func, arg, .. } => {
                let c = arg.as_deref_mut().and_then(|a| self.expr(a));
                matches!(func, Agg::Min | Agg::Max).then_some(c).flatten()
            }
            Expr::Row(xs) => {
                xs.iter_mut().for_each(|x| {
                    self.expr(x);
                });
                None
            }
            Expr::Window(w) => {
                let c = self.group(w.args.iter_mut().collect());
                w.partition_by.iter_mut().for_each(|p| {
                    self.expr(p);
                });
                for o in &mut w.order_by {
                    // The window orders by every column so that ranks and frames are decided.
                    if !exact(self.expr(&mut o.expr)) {
                        impose(self.rules, &mut o.expr, Collation::Binary);
                    }
                }
                matches!(w.func, WinFunc::Agg(Agg::Min | Agg::Max)).then_some(c).flatten()
            }
        }
    }

    /// The operand with the WHEN values it is compared with; the results with each other.
    fn case(
        &mut self,
        operand: Option<&mut Expr>,
        whens: &mut [(Expr, Expr)],
        otherwise: Option<&mut Expr>,
    ) -> Option<Collation> {
        let mut tested: Vec<&mut Expr> = Vec::new();
        let mut results: Vec<&mut Expr> = Vec::new();
        for (w, t) in whens.iter_mut() {
            tested.push(w);
            results.push(t);
        }
        results.extend(otherwise);
        match operand {
            Some(op) => {
                tested.insert(0, op);
                self.group(tested);
            }
            None => tested.into_iter().for_each(|w| {
                self.expr(w);
            }),
        }
        self.group(results)
    }

    fn func(&mut self, f: Func, args: &mut [Expr]) -> Option<Collation> {
        let (cond, rest) = match (f, args) {
            (Func::Iif, [cond, rest @ ..]) => (Some(cond), rest),
            (_, args) => (None, args),
        };
        cond.into_iter().for_each(|c| {
            self.expr(c);
        });
        let c = self.group(rest.iter_mut().collect());
        // MariaDB's JSON element read is printed with an explicit byte-wise COLLATE
        // (`typed::JsonGet::Unquote`): an operand of another explicit collation would clash.
        if f == Func::JsonArrayGet && self.rules == Rules::MariaDb {
            return Some(Collation::Binary);
        }
        text_valued(f).then_some(c).flatten()
    }

    fn in_select(&mut self, expr: &mut Expr, select: &mut Select) {
        let theirs = self.select(select, &mut []);
        let mine: Vec<Option<Collation>> = match expr {
            Expr::Row(xs) => xs.iter_mut().map(|x| self.expr(x)).collect(),
            e => vec![self.expr(e)],
        };
        for (i, (m, (t, _))) in mine.into_iter().zip(theirs).enumerate() {
            if let (Some(m), true) = (m, conflict(m, t)) {
                // Every member of a compound, which agree with each other already.
                let members =
                    std::iter::once(&mut select.items).chain(select.compound.iter_mut().map(|c| &mut c.select.items));
                for items in members {
                    if let Some(item) = items.get_mut(i) {
                        impose(self.rules, &mut item.expr, m);
                    }
                }
            }
        }
    }

    /// Settles operands compared or combined with each other: each one whose collation
    /// differs from an earlier one's gets the earlier one explicitly. Their collation.
    fn group(&mut self, operands: Vec<&mut Expr>) -> Option<Collation> {
        let mut acc = None;
        for e in operands {
            let c = self.expr(e);
            match (acc, c) {
                (None, c) => acc = c,
                (Some(a), c) if conflict(Some(a), c) => impose(self.rules, e, a),
                _ => {}
            }
        }
        acc
    }
}

/// Whether `f`'s value is text (or its operands' type), which carries its operands'
/// collation. Numbers, dates and timestamps out of text carry none, and take no COLLATE:
/// DuckDB's "collations are only supported for type varchar" met `json_array_length(text)`
/// given the text's NOCASE, then BINARY under a LIMIT. Exhaustive, so that a new function
/// is placed here.
fn text_valued(f: Func) -> bool {
    use Func::*;
    match f {
        Lower | Upper | Trim | Ltrim | Rtrim | Substr | Replace | Hex | Quote | Typeof | Coalesce | Nullif | Ifnull
        | Iif | Max | Min | JsonValue | JsonArrayGet => true,
        Abs | Length | Instr | Unicode | Round | Sign | DateAddDays | DateAddMonths | TsAddSeconds | TsAddMonths
        | DateDiff | ExtractYear | ExtractMonth | ExtractDay | ExtractHour | TruncMonth | DecRound
        | JsonArrayLength => false,
    }
}

/// Two collations an operation cannot combine in PostgreSQL, MariaDB or DuckDB.
fn conflict(a: Option<Collation>, b: Option<Collation>) -> bool {
    matches!((a, b), (Some(a), Some(b)) if a != b)
}

/// Whether equal values under `c` are equal bytes.
fn exact(c: Option<Collation>) -> bool {
    c.is_none_or(|c| class_key(c, "aA é") == "aA é")
}

/// `e COLLATE c`, replacing a COLLATE `e` already ends in; in MariaDB over a CAST to
/// text where `e` may be a binary string (see [`Settler::chars`]).
fn impose(rules: Rules, e: &mut Expr, c: Collation) {
    match e {
        Expr::Collate(_, k) => *k = c,
        e => {
            let mut inner = std::mem::replace(e, Expr::Lit(Lit::Null));
            // Which member of a compound a column belongs to is not known here: a column
            // (text or binary) gets the CAST too, which leaves a text column's value alone.
            if rules == Rules::MariaDb && !character_string(&inner) {
                inner = Expr::Cast(Box::new(inner), SqlType::Text);
            }
            *e = Expr::Collate(Box::new(inner), c);
        }
    }
}

/// [`Settler::chars`] of an expression that is no column.
fn character_string(e: &Expr) -> bool {
    matches!(e, Expr::Lit(Lit::Text(_)) | Expr::Cast(_, SqlType::Text) | Expr::Collate(..))
}

/// `e` without its explicit COLLATEs: a key that then combines two collations keeps only
/// its first column.
fn uncollate(e: &mut Expr) {
    let mut found = None;
    e.visit(&mut |x| {
        if found.is_none() && matches!(x, Expr::Col(_)) {
            found = Some(x.clone());
        }
    });
    let mut collated = false;
    e.visit(&mut |x| collated |= matches!(x, Expr::Collate(..)));
    if let (true, Some(col)) = (collated, found) {
        *e = col;
    }
}

/// The name a derived table gives item `i` of its body.
fn item_name(i: usize, it: &Item) -> String {
    match (&it.alias, &it.expr) {
        (Some(a), _) => a.clone(),
        (None, Expr::Col(c)) => c.column.clone(),
        (None, _) => format!("c{i}"),
    }
}

/// Whether a COLLATE of `s`, `pred` or a view of `setup` is over a value that surely is no
/// text: a literal, function, operation or CAST of another type, or a column its table (or
/// view) has of another type. PostgreSQL and DuckDB refuse it ("collations are only supported
/// for type varchar"); the generator never writes one, a reduction step may (a view's text
/// column replaced by a number, then the view inlined).
pub fn collates_non_text(setup: &[Stmt], s: &Select, pred: Option<&Expr>) -> bool {
    let views = setup.iter().filter_map(|st| match st {
        Stmt::CreateView { select, .. } => Some(select.as_ref()),
        _ => None,
    });
    std::iter::once(s).chain(views).any(|scope| {
        let mut found = false;
        let mut check = |e: &Expr| {
            if let Expr::Collate(inner, _) = e {
                found |= !may_be_text(setup, scope, inner, 0);
            }
        };
        scope.visit_exprs(&mut check);
        if std::ptr::eq(scope, s) {
            pred.iter().for_each(|p| p.visit(&mut check));
        }
        found
    })
}

/// Whether column `column` of table or view `name` may be a text.
fn column_may_be_text(setup: &[Stmt], name: &str, column: &str, depth: u32) -> bool {
    let found = setup.iter().find_map(|st| match st {
        Stmt::CreateTable { name: n, columns } if n == name => {
            Some(columns.iter().find(|d| d.name == column).and_then(|d| d.ty).is_none_or(|t| t == SqlType::Text))
        }
        Stmt::CreateView { name: n, columns, select } if n == name && depth < 4 => {
            let item = select.items.get(columns.iter().position(|c| c == column)?)?;
            Some(may_be_text(setup, select, &item.expr, depth + 1))
        }
        _ => None,
    });
    found.unwrap_or(true)
}

/// The named tables of `s` and of every select inside it, as (the name columns qualify
/// with, the table's name): aliases are unique in a generated query.
fn tables_of(s: &Select, out: &mut Vec<(String, String)>) {
    for t in s.from.iter().chain(s.joins.iter().map(|j| &j.table)) {
        if t.body.is_none() {
            out.push((t.visible().to_string(), t.name.clone()));
        }
    }
    for inner in s.inner_selects() {
        tables_of(inner, out);
    }
    for e in s.slots() {
        e.visit(&mut |x| {
            if let Some(sub) = x.subquery() {
                tables_of(sub, out);
            }
        });
    }
}

/// Whether `e`, read in the FROM scope of `scope`, may be a text: false for what is surely a
/// number, boolean, date, binary string or untyped NULL.
fn may_be_text(setup: &[Stmt], scope: &Select, e: &Expr, depth: u32) -> bool {
    use crate::ast::UnOp;
    match e {
        Expr::Col(c) => {
            let mut tables = Vec::new();
            tables_of(scope, &mut tables);
            match tables.iter().find(|(visible, _)| *visible == c.table) {
                Some((_, name)) => column_may_be_text(setup, name, &c.column, depth),
                None => true,
            }
        }
        // DuckDB refuses `NULL COLLATE NOCASE` too.
        Expr::Lit(l) => matches!(l, Lit::Text(_)),
        Expr::Cast(_, t) => *t == SqlType::Text,
        Expr::Func(f, _) => text_valued(*f),
        Expr::Binary(op, ..) => *op == BinOp::Concat,
        Expr::Unary(UnOp::Pos, inner) => may_be_text(setup, scope, inner, depth),
        Expr::Unary(..)
        | Expr::Postfix(..)
        | Expr::Between { .. }
        | Expr::InList { .. }
        | Expr::InSelect { .. }
        | Expr::Exists { .. } => false,
        Expr::Agg { func, .. } => matches!(func, Agg::Min | Agg::Max),
        _ => true,
    }
}
