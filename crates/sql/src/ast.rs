//! The SQL syntax tree crosscheck generates (printed by `print.rs`).
//!
//! Trees are generated, never parsed, so they hold no dialect: the printer takes the dialect
//! (see `dialect.rs`) and asks its spelling hooks. Every compound expression prints inside
//! parentheses, so operator precedence (which differs between engines) never matters.

use serde::{Deserialize, Serialize};

/// A literal value.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Lit {
    Null,
    Bool(bool),
    Int(i64),
    /// Always finite: JSON (the case format) has no NaN or infinity.
    Real(f64),
    Text(String),
    Blob(Vec<u8>),
    /// An exact decimal of the dialect's DECIMAL column type, as digits (`-2.25`).
    Decimal(String),
    /// A calendar date, `YYYY-MM-DD`.
    Date(String),
    /// A date and time to the second, `YYYY-MM-DD hh:mm:ss`.
    Timestamp(String),
}

impl Lit {
    /// 1 for NULL and the simplest value of each type (0, 0.0, '', x'', FALSE), else 2.
    pub fn weight(&self) -> usize {
        match self {
            Lit::Null | Lit::Bool(false) | Lit::Int(0) => 1,
            Lit::Real(f) if *f == 0.0 && f.is_sign_positive() => 1,
            Lit::Text(s) if s.is_empty() => 1,
            Lit::Blob(b) if b.is_empty() => 1,
            Lit::Decimal(d) if d == "0.00" => 1,
            Lit::Date(d) if d == "2000-01-01" => 1,
            Lit::Timestamp(t) if t == "2000-01-01 00:00:00" => 1,
            _ => 2,
        }
    }
}

/// A column's declared type. `None` in a column definition means untyped (SQLite only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SqlType {
    Bool,
    Int,
    Real,
    Text,
    Blob,
    /// `DECIMAL(12,2)`: exact, two digits after the point.
    Decimal,
    Date,
    /// A date and time without time zone, whole seconds (`DATETIME` in MariaDB).
    Timestamp,
}

/// Collations every engine spells differently or lacks; see [`Dialect::collation_name`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Collation {
    Binary,
    NoCase,
    RTrim,
    /// Accents ignored, case kept: DuckDB's `NOACCENT`.
    NoAccent,
    /// DuckDB's `nocase.noaccent`.
    NoCaseNoAccent,
    /// Equal only when equal bytes, ordered by the Unicode root collation: PostgreSQL's
    /// deterministic `und-x-icu`.
    Icu,
    /// ASCII case and trailing spaces ignored (PAD SPACE): MariaDB's `utf8mb4_general_ci`.
    NoCasePad,
    /// Equal as [`Collation::NoCasePad`] on ASCII, ordered by UCA 4.0.0: MariaDB's
    /// `utf8mb4_unicode_ci`.
    UnicodeCi,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum UnOp {
    Not,
    Neg,
    Pos,
    BitNot,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    /// Division of integers (truncating); `/` in SQLite and PostgreSQL, `//` in DuckDB.
    IntDiv,
    /// Division of reals.
    Div,
    Rem,
    Concat,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    /// Null-safe equality: `IS` (SQLite), `IS NOT DISTINCT FROM` (standard), `<=>` (MariaDB).
    Is,
    IsNot,
    And,
    Or,
    Like,
    NotLike,
    Glob,
    NotGlob,
    BitAnd,
    BitOr,
    Shl,
    Shr,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PostOp {
    IsNull,
    NotNull,
    IsTrue,
    IsFalse,
    IsNotTrue,
    IsNotFalse,
}

/// Scalar functions; whether a dialect has one is the capability `fn:<name>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Func {
    Abs,
    Length,
    Lower,
    Upper,
    Trim,
    Ltrim,
    Rtrim,
    Substr,
    Replace,
    Instr,
    Hex,
    Quote,
    Typeof,
    Unicode,
    Round,
    Sign,
    Coalesce,
    Nullif,
    Ifnull,
    Iif,
    /// Scalar `max(a, b, ...)` (`greatest` in PostgreSQL).
    Max,
    Min,
    /// The text of key `k` of a JSON object built from the argument: `json_object` and a JSON
    /// path read, as each dialect spells them (`Dialect::json_value`).
    JsonValue,
    /// `date + INTERVAL 'n' DAY` (and MONTH), back to a DATE; `n` is a literal argument.
    DateAddDays,
    DateAddMonths,
    /// `timestamp + INTERVAL 'n' SECOND` (and MONTH).
    TsAddSeconds,
    TsAddMonths,
    /// `date - date` in days (`DATEDIFF` in MariaDB).
    DateDiff,
    /// `EXTRACT(field FROM x)` of a date or timestamp.
    ExtractYear,
    ExtractMonth,
    ExtractDay,
    ExtractHour,
    /// `date_trunc('month', timestamp)`, as a TIMESTAMP.
    TruncMonth,
    /// `round(decimal, n)`: an exact decimal rounded half away from zero.
    DecRound,
    /// Element `i` (the last, literal argument) of a JSON array built from the others, as text.
    JsonArrayGet,
    /// The length of a JSON array built from the arguments.
    JsonArrayLength,
}

impl Func {
    pub const ALL: &'static [Func] = &[
        Func::Abs,
        Func::Length,
        Func::Lower,
        Func::Upper,
        Func::Trim,
        Func::Ltrim,
        Func::Rtrim,
        Func::Substr,
        Func::Replace,
        Func::Instr,
        Func::Hex,
        Func::Quote,
        Func::Typeof,
        Func::Unicode,
        Func::Round,
        Func::Sign,
        Func::Coalesce,
        Func::Nullif,
        Func::Ifnull,
        Func::Iif,
        Func::Max,
        Func::Min,
        Func::JsonValue,
        Func::DateAddDays,
        Func::DateAddMonths,
        Func::TsAddSeconds,
        Func::TsAddMonths,
        Func::DateDiff,
        Func::ExtractYear,
        Func::ExtractMonth,
        Func::ExtractDay,
        Func::ExtractHour,
        Func::TruncMonth,
        Func::DecRound,
        Func::JsonArrayGet,
        Func::JsonArrayLength,
    ];

    /// The standard (SQLite) spelling, also used in capabilities and signatures.
    pub fn name(self) -> &'static str {
        match self {
            Func::Abs => "abs",
            Func::Length => "length",
            Func::Lower => "lower",
            Func::Upper => "upper",
            Func::Trim => "trim",
            Func::Ltrim => "ltrim",
            Func::Rtrim => "rtrim",
            Func::Substr => "substr",
            Func::Replace => "replace",
            Func::Instr => "instr",
            Func::Hex => "hex",
            Func::Quote => "quote",
            Func::Typeof => "typeof",
            Func::Unicode => "unicode",
            Func::Round => "round",
            Func::Sign => "sign",
            Func::Coalesce => "coalesce",
            Func::Nullif => "nullif",
            Func::Ifnull => "ifnull",
            Func::Iif => "iif",
            Func::Max => "max",
            Func::Min => "min",
            Func::JsonValue => "json_value",
            Func::DateAddDays => "date_add_days",
            Func::DateAddMonths => "date_add_months",
            Func::TsAddSeconds => "timestamp_add_seconds",
            Func::TsAddMonths => "timestamp_add_months",
            Func::DateDiff => "date_diff",
            Func::ExtractYear => "extract_year",
            Func::ExtractMonth => "extract_month",
            Func::ExtractDay => "extract_day",
            Func::ExtractHour => "extract_hour",
            Func::TruncMonth => "date_trunc",
            Func::DecRound => "round_decimal",
            Func::JsonArrayGet => "json_array_get",
            Func::JsonArrayLength => "json_array_length",
        }
    }
}

/// Aggregate functions. Only the decomposable ones (all but `Avg`) are used by `tlp-aggregate`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Agg {
    Count,
    Sum,
    Min,
    Max,
    Avg,
    Total,
}

impl Agg {
    pub fn name(self) -> &'static str {
        match self {
            Agg::Count => "COUNT",
            Agg::Sum => "SUM",
            Agg::Min => "MIN",
            Agg::Max => "MAX",
            Agg::Avg => "AVG",
            Agg::Total => "TOTAL",
        }
    }
}

/// A column reference, always qualified by the visible table name or alias.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ColRef {
    pub table: String,
    pub column: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Expr {
    Lit(Lit),
    Col(ColRef),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    Postfix(PostOp, Box<Expr>),
    Between {
        expr: Box<Expr>,
        low: Box<Expr>,
        high: Box<Expr>,
        not: bool,
    },
    InList {
        expr: Box<Expr>,
        list: Vec<Expr>,
        not: bool,
    },
    InSelect {
        expr: Box<Expr>,
        select: Box<Select>,
        not: bool,
    },
    Exists {
        select: Box<Select>,
        not: bool,
    },
    /// A scalar subquery.
    Subquery(Box<Select>),
    Case {
        operand: Option<Box<Expr>>,
        whens: Vec<(Expr, Expr)>,
        otherwise: Option<Box<Expr>>,
    },
    Cast(Box<Expr>, SqlType),
    Func(Func, Vec<Expr>),
    /// An aggregate; `COUNT(*)` has no argument.
    Agg {
        func: Agg,
        distinct: bool,
        arg: Option<Box<Expr>>,
    },
    Collate(Box<Expr>, Collation),
    /// A row value `(a, b)`: compared with another row, or tested `IN` a subquery of as many
    /// columns.
    Row(Vec<Expr>),
    /// A window function: `func(args) OVER (PARTITION BY ... ORDER BY ... frame)`.
    Window(Box<Window>),
}

/// Window functions: ranking, and aggregates over a frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum WinFunc {
    RowNumber,
    Rank,
    DenseRank,
    Agg(Agg),
}

impl WinFunc {
    pub fn name(self) -> &'static str {
        match self {
            WinFunc::RowNumber => "ROW_NUMBER",
            WinFunc::Rank => "RANK",
            WinFunc::DenseRank => "DENSE_RANK",
            WinFunc::Agg(a) => a.name(),
        }
    }
}

/// `ROWS BETWEEN n PRECEDING AND CURRENT ROW`, or from `UNBOUNDED PRECEDING` when `None`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Frame {
    pub preceding: Option<u32>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Window {
    pub func: WinFunc,
    pub args: Vec<Expr>,
    pub partition_by: Vec<Expr>,
    pub order_by: Vec<Order>,
    pub frame: Option<Frame>,
}

impl Expr {
    pub fn lit(l: Lit) -> Expr {
        Expr::Lit(l)
    }
    pub fn col(table: &str, column: &str) -> Expr {
        Expr::Col(ColRef { table: table.into(), column: column.into() })
    }
    pub fn un(op: UnOp, e: Expr) -> Expr {
        Expr::Unary(op, Box::new(e))
    }
    pub fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
        Expr::Binary(op, Box::new(a), Box::new(b))
    }
    pub fn post(op: PostOp, e: Expr) -> Expr {
        Expr::Postfix(op, Box::new(e))
    }
    pub fn negate(e: Expr) -> Expr {
        Expr::un(UnOp::Not, e)
    }
    pub fn is_null(e: Expr) -> Expr {
        Expr::post(PostOp::IsNull, e)
    }

    /// Direct children, in printing order (subqueries are not entered).
    pub fn children(&self) -> Vec<&Expr> {
        match self {
            Expr::Lit(_) | Expr::Col(_) | Expr::Exists { .. } | Expr::Subquery(_) => vec![],
            Expr::Unary(_, e) | Expr::Postfix(_, e) | Expr::Cast(e, _) | Expr::Collate(e, _) => vec![e],
            Expr::InSelect { expr, .. } => vec![expr],
            Expr::Binary(_, a, b) => vec![a, b],
            Expr::Between { expr, low, high, .. } => vec![expr, low, high],
            Expr::InList { expr, list, .. } => std::iter::once(&**expr).chain(list).collect(),
            Expr::Case { operand, whens, otherwise } => {
                let mut v: Vec<&Expr> = operand.iter().map(|b| &**b).collect();
                for (w, t) in whens {
                    v.push(w);
                    v.push(t);
                }
                v.extend(otherwise.iter().map(|b| &**b));
                v
            }
            Expr::Func(_, args) | Expr::Row(args) => args.iter().collect(),
            Expr::Agg { arg, .. } => arg.iter().map(|b| &**b).collect(),
            Expr::Window(w) => w.args.iter().chain(&w.partition_by).chain(w.order_by.iter().map(|o| &o.expr)).collect(),
        }
    }

    /// Mutable direct children, in the same order as [`Expr::children`].
    pub fn children_mut(&mut self) -> Vec<&mut Expr> {
        match self {
            Expr::Lit(_) | Expr::Col(_) | Expr::Exists { .. } | Expr::Subquery(_) => vec![],
            Expr::Unary(_, e) | Expr::Postfix(_, e) | Expr::Cast(e, _) | Expr::Collate(e, _) => vec![e],
            Expr::InSelect { expr, .. } => vec![expr],
            Expr::Binary(_, a, b) => vec![a, b],
            Expr::Between { expr, low, high, .. } => vec![expr, low, high],
            Expr::InList { expr, list, .. } => std::iter::once(&mut **expr).chain(list.iter_mut()).collect(),
            Expr::Case { operand, whens, otherwise } => {
                let mut v: Vec<&mut Expr> = operand.iter_mut().map(|b| &mut **b).collect();
                for (w, t) in whens.iter_mut() {
                    v.push(w);
                    v.push(t);
                }
                v.extend(otherwise.iter_mut().map(|b| &mut **b));
                v
            }
            Expr::Func(_, args) | Expr::Row(args) => args.iter_mut().collect(),
            Expr::Agg { arg, .. } => arg.iter_mut().map(|b| &mut **b).collect(),
            Expr::Window(w) => {
                let w = &mut **w;
                let order = w.order_by.iter_mut().map(|o| &mut o.expr);
                w.args.iter_mut().chain(w.partition_by.iter_mut()).chain(order).collect()
            }
        }
    }

    /// The subquery directly held by this node, if any.
    pub fn subquery(&self) -> Option<&Select> {
        match self {
            Expr::InSelect { select, .. } | Expr::Exists { select, .. } | Expr::Subquery(select) => Some(select),
            _ => None,
        }
    }

    pub fn subquery_mut(&mut self) -> Option<&mut Select> {
        match self {
            Expr::InSelect { select, .. } | Expr::Exists { select, .. } | Expr::Subquery(select) => Some(select),
            _ => None,
        }
    }

    /// Nodes in this expression, subqueries included; a literal other than the simplest of its
    /// type counts twice, so that simplifying a constant is progress for the reducer.
    pub fn size(&self) -> usize {
        match self {
            Expr::Lit(l) => l.weight(),
            _ => 1 + self.children().iter().map(|c| c.size()).sum::<usize>() + self.subquery().map_or(0, Select::size),
        }
    }

    /// Calls `f` on every node, subqueries included, in preorder.
    pub fn visit(&self, f: &mut dyn FnMut(&Expr)) {
        f(self);
        for c in self.children() {
            c.visit(f);
        }
        if let Some(s) = self.subquery() {
            s.visit_exprs(f);
        }
    }

    pub fn contains_agg(&self) -> bool {
        let mut found = false;
        // Aggregates inside a subquery belong to the subquery.
        fn walk(e: &Expr, found: &mut bool) {
            if matches!(e, Expr::Agg { .. }) {
                *found = true;
            }
            for c in e.children() {
                walk(c, found);
            }
        }
        walk(self, &mut found);
        found
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Item {
    pub expr: Expr,
    pub alias: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum JoinKind {
    Inner,
    Left,
    Right,
    Full,
    Cross,
    Natural,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TableRef {
    pub name: String,
    pub alias: Option<String>,
    /// A derived table, `(body) AS name`: its columns are the body's item aliases.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body: Option<Box<Select>>,
}

impl TableRef {
    /// A table or view by name.
    pub fn named(name: &str, alias: Option<String>) -> TableRef {
        TableRef { name: name.into(), alias, body: None }
    }

    /// The name columns are qualified with.
    pub fn visible(&self) -> &str {
        self.alias.as_deref().unwrap_or(&self.name)
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Join {
    pub kind: JoinKind,
    pub table: TableRef,
    pub on: Option<Expr>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Order {
    pub expr: Expr,
    pub desc: bool,
}

/// `UNION`, `INTERSECT`, `EXCEPT`: a set operation of a compound select.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SetOp {
    Union,
    Intersect,
    Except,
}

impl SetOp {
    pub fn keyword(self) -> &'static str {
        match self {
            SetOp::Union => "UNION",
            SetOp::Intersect => "INTERSECT",
            SetOp::Except => "EXCEPT",
        }
    }
}

/// One further member of a compound select, combined with everything before it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Compound {
    pub op: SetOp,
    /// `ALL`: a bag operation, no duplicate removal.
    pub all: bool,
    pub select: Select,
}

/// A common table expression, `name(columns) AS [NOT] MATERIALIZED (select)`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Cte {
    pub name: String,
    pub columns: Vec<String>,
    /// `Some(true)`: `MATERIALIZED`, `Some(false)`: `NOT MATERIALIZED` (PostgreSQL, SQLite,
    /// DuckDB): a planner hint that must not change the answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub materialized: Option<bool>,
    pub select: Select,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Select {
    /// `WITH`: tables visible to the whole query, its subqueries included.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub with: Vec<Cte>,
    pub distinct: bool,
    /// Empty means `*`.
    pub items: Vec<Item>,
    pub from: Vec<TableRef>,
    pub joins: Vec<Join>,
    pub where_: Option<Expr>,
    pub group_by: Vec<Expr>,
    pub having: Option<Expr>,
    pub order_by: Vec<Order>,
    pub limit: Option<u64>,
    pub offset: Option<u64>,
    /// Further members of a compound select (`UNION ...`); the ORDER BY and LIMIT above then
    /// apply to the whole compound.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub compound: Vec<Compound>,
}

impl Select {
    /// Every expression slot of this select, not entering subqueries.
    pub fn slots(&self) -> Vec<&Expr> {
        let mut v: Vec<&Expr> = self.items.iter().map(|i| &i.expr).collect();
        v.extend(self.joins.iter().filter_map(|j| j.on.as_ref()));
        v.extend(self.where_.iter());
        v.extend(self.group_by.iter());
        v.extend(self.having.iter());
        v.extend(self.order_by.iter().map(|o| &o.expr));
        v
    }

    pub fn slots_mut(&mut self) -> Vec<&mut Expr> {
        let mut v: Vec<&mut Expr> = self.items.iter_mut().map(|i| &mut i.expr).collect();
        v.extend(self.joins.iter_mut().filter_map(|j| j.on.as_mut()));
        v.extend(self.where_.iter_mut());
        v.extend(self.group_by.iter_mut());
        v.extend(self.having.iter_mut());
        v.extend(self.order_by.iter_mut().map(|o| &mut o.expr));
        v
    }

    /// The selects this one holds outside its expressions: CTE bodies, derived tables and
    /// compound members, in printing order.
    pub fn inner_selects(&self) -> Vec<&Select> {
        let mut v: Vec<&Select> = self.with.iter().map(|c| &c.select).collect();
        v.extend(self.from.iter().chain(self.joins.iter().map(|j| &j.table)).filter_map(|t| t.body.as_deref()));
        v.extend(self.compound.iter().map(|c| &c.select));
        v
    }

    /// Mutable inner selects, in the same order as [`Select::inner_selects`].
    pub fn inner_selects_mut(&mut self) -> Vec<&mut Select> {
        let mut v: Vec<&mut Select> = self.with.iter_mut().map(|c| &mut c.select).collect();
        let tables = self.from.iter_mut().chain(self.joins.iter_mut().map(|j| &mut j.table));
        v.extend(tables.filter_map(|t| t.body.as_deref_mut()));
        v.extend(self.compound.iter_mut().map(|c| &mut c.select));
        v
    }

    /// Tables, joins and expression nodes, inner selects, and DISTINCT: dropping it must be
    /// progress, or a reduced case keeps a DISTINCT the failure does not need.
    pub fn size(&self) -> usize {
        1 + usize::from(self.distinct)
            + self.from.len()
            + self.joins.len()
            + self.slots().iter().map(|e| e.size()).sum::<usize>()
            + self.inner_selects().iter().map(|s| s.size()).sum::<usize>()
    }

    /// Every expression node, subqueries and inner selects included, in preorder: this
    /// select's slots first, then its inner selects.
    pub fn visit_exprs(&self, f: &mut dyn FnMut(&Expr)) {
        for e in self.slots() {
            e.visit(f);
        }
        for s in self.inner_selects() {
            s.visit_exprs(f);
        }
    }
}

/// A column of `CREATE TABLE`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ColumnDef {
    pub name: String,
    pub ty: Option<SqlType>,
    pub primary_key: bool,
    pub unique: bool,
    pub not_null: bool,
    pub default: Option<Lit>,
    pub collate: Option<Collation>,
}

impl ColumnDef {
    /// The column and each of its constraints: dropping a constraint must make a case smaller,
    /// or the reducer never accepts it.
    pub fn size(&self) -> usize {
        let flags = [self.primary_key, self.unique, self.not_null, self.default.is_some(), self.collate.is_some()];
        1 + flags.into_iter().filter(|&on| on).count()
    }

    /// A column of type `ty` without constraints, default or collation.
    pub fn plain(name: &str, ty: SqlType) -> ColumnDef {
        ColumnDef {
            name: name.into(),
            ty: Some(ty),
            primary_key: false,
            unique: false,
            not_null: false,
            default: None,
            collate: None,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct IndexKey {
    pub expr: Expr,
    pub desc: bool,
}

/// A setup statement.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Stmt {
    CreateTable {
        name: String,
        columns: Vec<ColumnDef>,
    },
    /// One row per statement, so a constraint violation loses only that row.
    Insert {
        table: String,
        columns: Vec<String>,
        values: Vec<Expr>,
    },
    CreateIndex {
        name: String,
        table: String,
        unique: bool,
        keys: Vec<IndexKey>,
        where_: Option<Expr>,
    },
    CreateView {
        name: String,
        columns: Vec<String>,
        select: Box<Select>,
    },
    /// Gather planner statistics (`ANALYZE`).
    Analyze,
    /// `UPDATE table SET column = expr, ... [WHERE where_]` (printed by `dml.rs`).
    Update {
        table: String,
        sets: Vec<(String, Expr)>,
        where_: Option<Expr>,
    },
    /// `DELETE FROM table [WHERE where_]`.
    Delete {
        table: String,
        where_: Option<Expr>,
    },
    /// `INSERT INTO table (columns) SELECT ...`: one select item per column.
    InsertSelect {
        table: String,
        columns: Vec<String>,
        select: Box<Select>,
    },
}

impl Stmt {
    pub fn size(&self) -> usize {
        1 + match self {
            Stmt::CreateTable { columns, .. } => columns.iter().map(ColumnDef::size).sum(),
            Stmt::Insert { values, .. } => values.iter().map(Expr::size).sum(),
            Stmt::CreateIndex { keys, where_, .. } => {
                keys.iter().map(|k| k.expr.size()).sum::<usize>() + where_.as_ref().map_or(0, Expr::size)
            }
            Stmt::CreateView { select, .. } => select.size(),
            Stmt::Analyze => 0,
            Stmt::Update { sets, where_, .. } => {
                sets.iter().map(|(_, e)| 1 + e.size()).sum::<usize>() + where_.as_ref().map_or(0, Expr::size)
            }
            Stmt::Delete { where_, .. } => where_.as_ref().map_or(0, Expr::size),
            Stmt::InsertSelect { select, .. } => select.size(),
        }
    }
}

pub use crate::print::ToSql;
