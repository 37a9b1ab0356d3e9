//! SQL dialects: capabilities the generator asks and spelling hooks the printer calls.
//!
//! A dialect is a unit struct overriding a handful of methods; the defaults are standard SQL.
//! The generator never compares dialect names: it asks capabilities (strings, so that engines
//! can declare them in their [`crosscheck_core::EngineInfo`]), and for a differential run it
//! takes only those every engine of the run has (see [`Caps::common`]).

use crate::ast::{Agg, BinOp, Collation, Expr, Func, SqlType, ToSql};
use std::collections::BTreeSet;
// Writing into a String cannot fail: write!'s Result is always Ok and is dropped.
use std::fmt::Write as _;

/// Capability names. `fn:<name>` (see [`Func::name`]) says a scalar function exists with
/// SQLite's semantics.
pub mod cap {
    /// Columns may be declared without a type and hold values of any type (SQLite).
    pub const UNTYPED: &str = "untyped-columns";
    /// Any expression may stand where a boolean or number is expected, with implicit
    /// conversions (SQLite, MariaDB). Without it, the generator builds well-typed trees.
    pub const LOOSE: &str = "loose-types";
    /// MariaDB's own loose typing: its implicit conversions and cross-type comparisons differ
    /// from SQLite's (text against blob, say), so a SQLite + MariaDB run is strictly typed.
    pub const LOOSE_MARIADB: &str = "loose-types:mariadb";
    pub const GLOB: &str = "glob";
    pub const NATURAL_JOIN: &str = "natural-join";
    pub const RIGHT_JOIN: &str = "right-join";
    pub const FULL_JOIN: &str = "full-join";
    pub const PARTIAL_INDEX: &str = "partial-index";
    pub const EXPR_INDEX: &str = "expression-index";
    pub const BLOB: &str = "blob";
    /// LIKE and GLOB match a BLOB operand as the text of its bytes. SQLite 3.40.1 does not
    /// (`x'61' LIKE '_'` is false there, true in 3.44.0 and later): without it, the run matches
    /// `CAST(operand AS TEXT)`, on which every release agrees.
    pub const BLOB_PATTERNS: &str = "blob-patterns";
    /// `sum` over a BOOLEAN (the aggregate table's capability, as `agg_cap` spells it). DuckDB
    /// 1.1.3 has no `sum(BOOLEAN)` ("No function matches"); 1.2.2 and later have it.
    pub const SUM_BOOL: &str = "agg:SUM(Bool)";
    /// SQLite's `NOCASE` and `RTRIM` collations.
    pub const SQLITE_COLLATIONS: &str = "sqlite-collations";
    /// DuckDB's `NOCASE`, `NOACCENT`, `nocase.noaccent` and `"binary"` (see `collation.rs`
    /// for how each engine derives a comparison's collation).
    pub const DUCKDB_COLLATIONS: &str = "duckdb-collations";
    /// Text with accented letters ([`crate::collation::ACCENTED`]), which NOACCENT and
    /// `nocase.noaccent` fold (`'é' COLLATE NOACCENT = 'e'`, `'É' COLLATE NOCASE = 'é'`) and
    /// functions count as one character each (DuckDB 1.1.3 and 2.0.0, measured). DuckDB alone:
    /// SQLite's NOCASE folds ASCII only, MariaDB's `_ci` collations fold accents too, and
    /// PostgreSQL's ICU orders them otherwise than by bytes.
    pub const ACCENTED_TEXT: &str = "accented-text";
    /// PostgreSQL's `"C"` and ICU's deterministic `"und-x-icu"`.
    pub const POSTGRES_COLLATIONS: &str = "postgres-collations";
    /// MariaDB's `utf8mb4_nopad_bin`, `utf8mb4_bin`, `utf8mb4_general_nopad_ci`,
    /// `utf8mb4_general_ci` and `utf8mb4_unicode_ci`.
    pub const MARIADB_COLLATIONS: &str = "mariadb-collations";
    pub const IS_TRUE: &str = "is-true";
    pub const BIT_OPS: &str = "bit-ops";
    pub const BOOL_TYPE: &str = "bool-type";
    pub const ANALYZE: &str = "analyze";
    /// Integer arithmetic that overflows becomes a real instead of an error (SQLite).
    pub const OVERFLOW_TO_REAL: &str = "overflow-to-real";
    /// `NULLS FIRST` / `NULLS LAST` in ORDER BY.
    pub const NULLS_ORDER: &str = "nulls-order";
    /// Real division by zero is NULL (SQLite, MariaDB) or an error the dialect expects
    /// (PostgreSQL), never an infinity or NaN (DuckDB).
    pub const REAL_DIV: &str = "real-division";
    /// LIKE ignores ASCII case (SQLite) / respects it (the others). A run with both kinds of
    /// engine only gets patterns without letters.
    pub const LIKE_NOCASE: &str = "like-nocase";
    pub const LIKE_CASE: &str = "like-case";
    /// A non-INTEGER PRIMARY KEY column accepts NULL (a SQLite quirk,
    /// <https://sqlite.org/lang_createtable.html#the_primary_key>).
    pub const PK_NULL: &str = "primary-key-null";
    /// An `INTEGER PRIMARY KEY` is the rowid: a NULL or left-out key takes the largest rowid
    /// plus one, but a random unused one once the largest is 9223372036854775807
    /// (<https://sqlite.org/autoinc.html>), so two runs of one script differ.
    pub const ROWID_ALIAS: &str = "rowid-alias";
    /// `TOTAL()` aggregate.
    pub const TOTAL: &str = "agg:total";
    /// LIMIT / OFFSET inside an `IN (SELECT ...)` subquery (MariaDB refuses it:
    /// <https://mariadb.com/kb/en/subquery-limitations/#limit>).
    pub const LIMIT_IN_SUBQUERY: &str = "limit-in-subquery";
    /// `substr(x, start, n)` with `start <= 0` counts as SQLite does: a negative start from the
    /// end, start 0 as a position before the first character
    /// (<https://sqlite.org/lang_corefunc.html#substr>). PostgreSQL reads a negative start as a
    /// position before the string, MariaDB start 0 as an empty result.
    pub const SUBSTR_NONPOSITIVE: &str = "substr-nonpositive-start";
    /// `CREATE VIEW`. Common (see [`COMMON`]): GlueSQL has none.
    pub const VIEWS: &str = "views";
    /// `CREATE INDEX`. Common: GlueSQL's in-memory storage has none.
    pub const INDEXES: &str = "indexes";
    /// `CROSS JOIN` and a comma-separated FROM list. Common: GlueSQL has neither.
    pub const CROSS_JOIN: &str = "cross-join";
    /// `INSERT INTO t DEFAULT VALUES` (or the dialect's spelling of a row of defaults only).
    /// Common: GlueSQL has no spelling for it.
    pub const DEFAULT_ROW: &str = "default-row";
    /// A PRIMARY KEY or UNIQUE column of a real type. Common: GlueSQL refuses FLOAT keys.
    pub const REAL_KEY: &str = "real-key";
    /// `UNION ALL`, which TLP's aggregate variant unions its partitions with. Common: GlueSQL
    /// has none.
    pub const UNION_ALL: &str = "union-all";
    /// Null-safe equality (`IS`, `IS NOT DISTINCT FROM`, `<=>`). Common: GlueSQL's spelling
    /// repeats both operands, so nested comparisons print exponentially long queries.
    pub const NULL_SAFE_EQ: &str = "null-safe-eq";
    /// HAVING may name a column that the GROUP BY holds only inside an expression
    /// (`GROUP BY c || '' HAVING c || '' <> ''`). MariaDB 10.11 resolves HAVING's columns
    /// against the select list and the GROUP BY columns only: "Unknown column 'c' in
    /// 'HAVING'" (measured; <https://mariadb.com/kb/en/select/#having>).
    pub const HAVING_GROUP_EXPR: &str = "having-group-expression";
    /// `WITH` common table expressions, several and reading each other. Common.
    pub const CTE: &str = "cte";
    /// `AS MATERIALIZED` / `AS NOT MATERIALIZED` on a CTE (PostgreSQL 12, SQLite 3.35, DuckDB).
    pub const CTE_MATERIALIZED: &str = "cte-materialized";
    /// A subquery in FROM, `(SELECT ...) AS d`. Common.
    pub const DERIVED_TABLE: &str = "derived-table";
    /// `UNION`, `UNION ALL`, `INTERSECT`, `EXCEPT` between selects. Common.
    pub const SET_OPS: &str = "set-ops";
    /// `INTERSECT ALL`, `EXCEPT ALL` (PostgreSQL, DuckDB, MariaDB 10.5; not SQLite).
    pub const SET_OPS_ALL: &str = "set-ops-all";
    /// `EXCEPT ALL` after an `INTERSECT ALL` in one compound. MariaDB 10.11 runs
    /// `SELECT c FROM k1 INTERSECT ALL SELECT c FROM k2 EXCEPT ALL SELECT c FROM k0` (one row
    /// each: 1, 3, 1) forever, past KILL and `max_statement_time`, filling its temporary table.
    pub const INTERSECT_ALL_THEN_EXCEPT_ALL: &str = "intersect-all-then-except-all";
    /// Scalar max/min compare their arguments the same way wherever the result is read.
    /// MariaDB's GREATEST/LEAST compare them as numbers when the result is read as a number
    /// (<https://mariadb.com/kb/en/least/>): `LEAST('ab','1') + 0` is 0, but the same LEAST
    /// as a CASE's result is the string '1', and `+ 0` makes it 1 (measured on 10.11), so an
    /// oracle must not move it under a CASE (EET).
    pub const CONTEXT_FREE_MAX_MIN: &str = "context-free-max-min";
    /// Window functions with `ROWS` frames (SQLite 3.28, PostgreSQL, DuckDB, MariaDB 10.2). Common.
    pub const WINDOW: &str = "window";
    /// Row values compared by the standard (`(1, NULL) = (1, NULL)` is NULL), also `IN` a
    /// subquery: SQLite, PostgreSQL, MariaDB. DuckDB's rows are STRUCTs compared as values
    /// (`(1, NULL) = (1, NULL)` is true, measured on 1.1.3 and 2.0.0): another meaning.
    pub const ROW_VALUES: &str = "row-values";
    /// `DECIMAL(12,2)` columns and values: exact, compared and summed alike in PostgreSQL,
    /// DuckDB and MariaDB (SQLite's DECIMAL is a REAL or an INTEGER).
    pub const DECIMAL: &str = "decimal";
    /// `DATE` columns and `DATE 'YYYY-MM-DD'` literals, compared, ordered, cast to text.
    pub const DATE: &str = "date";
    /// `TIMESTAMP` columns (MariaDB's `DATETIME`) and `TIMESTAMP 'YYYY-MM-DD hh:mm:ss'`
    /// literals to the second: compared, ordered, grouped, cast to and from DATE and to text,
    /// which PostgreSQL, DuckDB and MariaDB all print `YYYY-MM-DD hh:mm:ss` (measured on
    /// 15.18, 1.1.3 and 2.0.0, 10.11). Fractions of a second are left out: each prints them
    /// its own way.
    pub const TIMESTAMP: &str = "timestamp";
    /// A subquery in the ON condition of an outer join. Common; DuckDB 1.1.3 refuses it ("Cannot
    /// perform non-inner join on subquery"), 2.0.0 has it.
    pub const JOIN_ON_SUBQUERY: &str = "join-on-subquery";
    /// `UPDATE ... WHERE`, `DELETE ... WHERE`, `INSERT ... SELECT` and a transaction rolled
    /// back (`BEGIN` ... `ROLLBACK`), in setups and in the `dqe` oracle. Common: GlueSQL's
    /// were not checked.
    pub const DML: &str = "dml";
    /// The WHERE of an UPDATE or DELETE may read the target table in a subquery. MariaDB
    /// refuses it: "You can't specify target table for update in FROM clause" (error 1093,
    /// <https://mariadb.com/kb/en/subquery-limitations/#modifying-and-selecting-from-the-same-table>).
    pub const DML_SELF_SUBQUERY: &str = "dml-self-subquery";
    /// The assignments of one UPDATE all read the row as it was. MariaDB assigns left to
    /// right, a later expression reading the earlier assignments' new values
    /// (<https://mariadb.com/kb/en/update/>; standard only under `SIMULTANEOUS_ASSIGNMENT`):
    /// without it an UPDATE assigns one column.
    pub const SIMULTANEOUS_SET: &str = "simultaneous-set";
    /// Capabilities of every dialect but GlueSQL's, which has none of them: a dialect's
    /// profile names the group instead of each.
    pub const COMMON: &[&str] = &[
        NATURAL_JOIN,
        RIGHT_JOIN,
        BLOB,
        BLOB_PATTERNS,
        IS_TRUE,
        VIEWS,
        INDEXES,
        CROSS_JOIN,
        DEFAULT_ROW,
        REAL_KEY,
        UNION_ALL,
        NULL_SAFE_EQ,
        CTE,
        DERIVED_TABLE,
        SET_OPS,
        WINDOW,
        JOIN_ON_SUBQUERY,
        DML,
    ];
}

/// Per-engine settings that must not change any result (for the `config` oracle).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigVariant {
    pub name: &'static str,
    /// Statements that switch the setting on before the query.
    pub enable: &'static [&'static str],
    /// Statements that switch it back off after the query.
    pub disable: &'static [&'static str],
}

/// An aggregate and the argument types a dialect accepts for it: the generator writes
/// `func(x)` only for an `x` of one of these types (a strict dialect refuses the others:
/// PostgreSQL has no `min(boolean)`, DuckDB no `sum(BLOB)`). `COUNT` takes every type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AggArgs {
    pub func: Agg,
    pub types: &'static [SqlType],
}

/// Every column type, for dialects that take any argument.
pub const ANY_TYPE: &[SqlType] = &[
    SqlType::Bool,
    SqlType::Int,
    SqlType::Real,
    SqlType::Text,
    SqlType::Blob,
    SqlType::Decimal,
    SqlType::Date,
    SqlType::Timestamp,
];

/// The capability that says `func` takes an argument of type `t` (see [`AggArgs`]).
pub fn agg_cap(func: Agg, t: SqlType) -> String {
    format!("agg:{}({t:?})", func.name())
}

/// A dialect's names of the column types.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeNames {
    pub bool: &'static str,
    pub int: &'static str,
    pub real: &'static str,
    pub text: &'static str,
    pub blob: &'static str,
    pub decimal: &'static str,
    pub date: &'static str,
    pub timestamp: &'static str,
}

impl TypeNames {
    pub fn get(&self, t: SqlType) -> &'static str {
        match t {
            SqlType::Bool => self.bool,
            SqlType::Int => self.int,
            SqlType::Real => self.real,
            SqlType::Text => self.text,
            SqlType::Blob => self.blob,
            SqlType::Decimal => self.decimal,
            SqlType::Date => self.date,
            SqlType::Timestamp => self.timestamp,
        }
    }
}

/// The declared part of a dialect, one literal per dialect: see the [`Dialect`] methods of the
/// same names ([`Dialect::has_cap`] and [`Dialect::lacks_func`] for the groups).
pub struct Profile {
    pub name: &'static str,
    /// The constructs it supports (see [`cap`]), besides functions: in groups, so that what
    /// several dialects share ([`cap::COMMON`]) is declared once.
    pub caps: &'static [&'static [&'static str]],
    /// The scalar functions it lacks or has with another meaning than SQLite's: in groups, so
    /// that [`SQLITE_OWN_FUNCS`] is declared once.
    pub lacks_funcs: &'static [&'static [Func]],
    /// The aggregates the generator writes and the argument types each accepts.
    pub aggregates: &'static [AggArgs],
    pub expected_errors: &'static [&'static str],
    pub config_variants: &'static [ConfigVariant],
    pub type_names: TypeNames,
    pub client: &'static str,
}

/// SQLite's own scalar functions: `quote` and `typeof` exist in no other dialect, `hex` and
/// `unicode` differ where they exist (`hex(10)` is `'3130'` in SQLite). Every other dialect lacks
/// them.
pub const SQLITE_OWN_FUNCS: &[Func] = &[Func::Hex, Func::Quote, Func::Typeof, Func::Unicode];

/// The functions of dates, timestamps and exact decimals, which only dialects with those
/// types have (SQLite's dates are text, its DECIMAL a REAL).
pub const TYPED_FUNCS: &[Func] = &[
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
];

/// `self` as a trait object, for the printer's recursion; implemented once for every dialect.
pub trait AsDialect {
    fn as_dyn(&self) -> &dyn Dialect;
}

impl<D: Dialect> AsDialect for D {
    fn as_dyn(&self) -> &dyn Dialect {
        self
    }
}

/// Capabilities and spelling of one SQL dialect.
pub trait Dialect: Sync + AsDialect {
    /// What the dialect declares rather than computes: the defaults below read it.
    fn profile(&self) -> &'static Profile;

    fn name(&self) -> &'static str {
        self.profile().name
    }

    /// Does it lack the scalar function or have it with another meaning than SQLite's?
    fn lacks_func(&self, f: Func) -> bool {
        self.profile().lacks_funcs.iter().any(|group| group.contains(&f))
    }

    /// Does it support the construct (see [`cap`])?
    fn has_cap(&self, c: &str) -> bool {
        self.profile().caps.iter().any(|group| group.contains(&c))
    }

    /// Everything it supports, as engines declare it in their info.
    fn capabilities(&self) -> Vec<String> {
        let mut v: Vec<String> =
            self.profile().caps.iter().flat_map(|group| group.iter()).map(|s| s.to_string()).collect();
        let funcs = Func::ALL.iter().filter(|f| !self.lacks_func(**f));
        v.extend(funcs.map(|f| format!("fn:{}", f.name())));
        for a in self.profile().aggregates {
            v.extend(a.types.iter().map(|t| agg_cap(a.func, *t)));
        }
        v
    }

    /// Is an engine error on a generated statement foreseeable (a constraint violation, an
    /// overflow the dialect reports), rather than a bug? By default: does the message contain
    /// one of [`Dialect::expected_errors`].
    fn expected_error(&self, message: &str) -> bool {
        self.expected_errors().iter().any(|p| message.contains(p))
    }

    /// Parts of the messages of foreseeable errors. Patterns stay narrow: a broad one hides
    /// real bugs.
    fn expected_errors(&self) -> &'static [&'static str] {
        self.profile().expected_errors
    }

    /// How crosscheck's own evaluator (`eval.rs`, for PQS) computes the dialect's expressions;
    /// `None`: it has no rules for this dialect.
    fn semantics(&self) -> Option<crate::eval::Semantics> {
        None
    }

    /// Settings under which the `config` oracle reruns a query.
    fn config_variants(&self) -> &'static [ConfigVariant] {
        self.profile().config_variants
    }

    /// Our identifiers are lowercase letters and digits, safe unquoted everywhere.
    fn write_ident(&self, out: &mut String, id: &str) {
        out.push_str(id);
    }

    fn write_bool(&self, out: &mut String, b: bool) {
        out.push_str(if b { "TRUE" } else { "FALSE" });
    }

    fn write_int(&self, out: &mut String, i: i64) {
        if i == i64::MIN {
            // Written plainly it is `-` applied to 9223372036854775808, which is out of the
            // 64-bit range: a NUMERIC in PostgreSQL, a HUGEINT in DuckDB, a DECIMAL in
            // MariaDB, and negating it again gives 2^63 there where SQLite overflows to a
            // REAL. Cast, it is the 64-bit integer the case means in every engine.
            let _ = write!(out, "CAST({i} AS {})", self.cast_type(SqlType::Int));
            return;
        }
        out.push_str(&i.to_string());
    }

    /// Reals print with a decimal point or exponent so that no engine reads them as integers.
    fn write_real(&self, out: &mut String, f: f64) {
        let s = format!("{f:?}");
        out.push_str(&s);
        if !s.contains(['.', 'e', 'E', 'n', 'N']) {
            out.push_str(".0");
        }
    }

    fn write_text(&self, out: &mut String, s: &str) {
        out.push('\'');
        out.push_str(&s.replace('\'', "''"));
        out.push('\'');
    }

    fn write_blob(&self, out: &mut String, b: &[u8]) {
        out.push_str("x'");
        for byte in b {
            let _ = write!(out, "{byte:02X}");
        }
        out.push('\'');
    }

    /// The types in `CREATE TABLE`.
    fn type_names(&self) -> &'static TypeNames {
        &self.profile().type_names
    }

    fn column_type(&self, t: SqlType) -> &'static str {
        self.type_names().get(t)
    }

    /// The type in `CAST(x AS ...)`.
    fn cast_type(&self, t: SqlType) -> &'static str {
        self.column_type(t)
    }

    /// A collation every `CAST(x AS t)` must carry, where the dialect gives a cast another one
    /// than its columns have.
    fn cast_collation(&self, _: SqlType) -> Option<Collation> {
        None
    }

    fn collation_name(&self, c: Collation) -> &'static str {
        match c {
            Collation::Binary => "BINARY",
            Collation::NoCase => "NOCASE",
            Collation::RTrim => "RTRIM",
            // Generated for other dialects only (`collation::available`).
            _ => "BINARY",
        }
    }

    fn binary_op(&self, op: BinOp) -> &'static str {
        std_binary_op(op)
    }

    fn write_binary(&self, out: &mut String, op: BinOp, a: &Expr, b: &Expr) {
        std_write_binary(self.as_dyn(), out, op, a, b);
    }

    fn func_name(&self, f: Func) -> &'static str {
        f.name()
    }

    /// No `iif()`: print it as a searched CASE.
    fn iif_as_case(&self) -> bool {
        false
    }

    fn write_func(&self, out: &mut String, f: Func, args: &[Expr]) {
        std_write_func(self.as_dyn(), out, f, args);
    }

    /// `ASC`/`DESC`, with NULLs placed as SQLite places them (first when ascending) where the
    /// dialect can say so ([`cap::NULLS_ORDER`]), so that ordered results agree across engines.
    fn write_order_suffix(&self, out: &mut String, desc: bool) {
        out.push_str(match (desc, self.has_cap(cap::NULLS_ORDER)) {
            (true, true) => " DESC NULLS LAST",
            (false, true) => " ASC NULLS FIRST",
            (true, false) => " DESC",
            (false, false) => " ASC",
        });
    }

    fn write_limit(&self, out: &mut String, limit: Option<u64>, offset: Option<u64>) {
        if let Some(l) = limit {
            let _ = write!(out, " LIMIT {l}");
        }
        if let Some(o) = offset {
            let _ = write!(out, " OFFSET {o}");
        }
    }

    /// Written after `CREATE TABLE t (...)` (table options such as a default collation).
    fn table_suffix(&self) -> &'static str {
        ""
    }

    /// What follows `INSERT INTO t` for a row of defaults only.
    fn default_values(&self) -> &'static str {
        " DEFAULT VALUES"
    }

    /// An UPDATE or DELETE `sql` that reads its WHERE as a SELECT would: where the dialect
    /// refuses in a change what a SELECT only warns about, spelled so that it warns too (the
    /// `dqe` oracle compares the three).
    fn lenient_change(&self, sql: String) -> String {
        sql
    }

    /// Lines a reproducer starts with (statements with their `;`, or client commands), so
    /// that the engine's own client runs the script as crosscheck ran it.
    fn prelude(&self) -> &'static [&'static str] {
        &[]
    }

    fn analyze(&self) -> &'static str {
        "ANALYZE"
    }

    /// The client that runs a reproducer, for its header comment.
    fn client(&self) -> &'static str {
        self.profile().client
    }

    /// What goes before and after the argument of [`Func::JsonValue`]: an object `{"k": x}`
    /// built and its `k` read back as text. SQLite's `json_extract` returns the SQL value, so
    /// it is cast (<https://sqlite.org/json1.html#jex>).
    fn json_value(&self) -> (&'static str, &'static str) {
        ("CAST(json_extract(json_object('k', ", "), '$.k') AS TEXT)")
    }

    /// How the functions of dates, timestamps and JSON arrays are spelled.
    fn typed_spelling(&self) -> &'static crate::typed::Spelling {
        &crate::typed::STANDARD
    }

    /// Settings that change the plan of a query and never its answer, one alternative plan
    /// each, for the `dqp` oracle: by default those of `config`. A setting an engine does not
    /// know is an error, so each list holds only what every release crosscheck meets accepts.
    fn plan_variants(&self) -> &'static [ConfigVariant] {
        self.config_variants()
    }

    /// How the dialect's EXPLAIN shows a plan with the optimizer's estimate of the rows it
    /// returns, for the `cert` oracle; `None` where it shows no estimate (SQLite's EXPLAIN
    /// QUERY PLAN has none).
    fn explain(&self) -> Option<Explain> {
        None
    }
}

/// An EXPLAIN that shows a plan as JSON with the optimizer's estimates of rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Explain {
    /// `EXPLAIN (FORMAT JSON)`: `[{"Plan": {"Node Type", "Plan Rows", "Plans": [..]}}]`
    /// (<https://www.postgresql.org/docs/15/sql-explain.html>).
    Postgres,
    /// `EXPLAIN (FORMAT JSON)`, in the second column: `[{"name", "children": [..],
    /// "extra_info": {"Estimated Cardinality"}}]` (DuckDB 1.1.3 to 2.0.0).
    DuckDb,
    /// `EXPLAIN FORMAT=JSON`: `{"query_block": {"nested_loop": [{"table": {"rows", "filtered"}}]}}`
    /// or a single `"table"` (<https://mariadb.com/kb/en/explain-format-json/>).
    MariaDb,
}

/// `(a op b)` with the dialect's spelling of `op`.
pub fn std_write_binary(d: &dyn Dialect, out: &mut String, op: BinOp, a: &Expr, b: &Expr) {
    out.push('(');
    a.write_sql(d, out);
    out.push(' ');
    out.push_str(d.binary_op(op));
    out.push(' ');
    b.write_sql(d, out);
    out.push(')');
}

/// `name(a, b, ...)`.
pub fn write_args(d: &dyn Dialect, out: &mut String, name: &str, args: &[Expr]) {
    out.push_str(name);
    out.push('(');
    crate::print::write_list(args, d, out);
    out.push(')');
}

/// A function call as the dialect names it, `iif` as a CASE where it has none.
pub fn std_write_func(d: &dyn Dialect, out: &mut String, f: Func, args: &[Expr]) {
    if crate::typed::write_func(d, out, f, args) {
        return;
    }
    if f == Func::JsonValue {
        let (open, close) = d.json_value();
        out.push_str(open);
        crate::print::write_list(args, d, out);
        out.push_str(close);
    } else if f == Func::Iif && d.iif_as_case() {
        out.push_str("(CASE WHEN ");
        for (i, a) in args.iter().enumerate() {
            out.push_str(match i {
                0 => "",
                1 => " THEN ",
                _ => " ELSE ",
            });
            a.write_sql(d, out);
        }
        out.push_str(" END)");
    } else {
        write_args(d, out, d.func_name(f), args);
    }
}

/// SQLite 3: <https://sqlite.org/lang.html>.
pub struct Sqlite;

static SQLITE: Profile = Profile {
    name: "sqlite",
    // RIGHT and FULL joins since 3.39 (https://sqlite.org/lang_select.html#rjoin).
    caps: &[
        cap::COMMON,
        &[
            cap::UNTYPED,
            cap::LOOSE,
            cap::CONTEXT_FREE_MAX_MIN,
            cap::GLOB,
            cap::FULL_JOIN,
            cap::PARTIAL_INDEX,
            cap::EXPR_INDEX,
            cap::SQLITE_COLLATIONS,
            cap::CTE_MATERIALIZED,
            cap::ROW_VALUES,
            cap::BIT_OPS,
            cap::ANALYZE,
            cap::OVERFLOW_TO_REAL,
            cap::NULLS_ORDER,
            cap::TOTAL,
            cap::REAL_DIV,
            cap::LIKE_NOCASE,
            cap::PK_NULL,
            cap::ROWID_ALIAS,
            cap::LIMIT_IN_SUBQUERY,
            cap::SUBSTR_NONPOSITIVE,
            cap::HAVING_GROUP_EXPR,
            cap::DML_SELF_SUBQUERY,
            cap::SIMULTANEOUS_SET,
        ],
    ],
    // The reference dialect: the others are compared with it. It has no date, timestamp or
    // exact decimal type.
    lacks_funcs: &[TYPED_FUNCS],
    // Any value: sum() reads text and blobs as numbers, min() and max() compare any two
    // values (https://sqlite.org/lang_aggfunc.html).
    aggregates: &[
        AggArgs { func: Agg::Sum, types: ANY_TYPE },
        AggArgs { func: Agg::Total, types: ANY_TYPE },
        AggArgs { func: Agg::Min, types: ANY_TYPE },
        AggArgs { func: Agg::Max, types: ANY_TYPE },
    ],
    // https://sqlite.org/rescode.html: constraint violations of generated rows and indexes,
    // and the two places SQLite reports integer overflow instead of going to a real:
    // abs(-9223372036854775808) and SUM (https://sqlite.org/lang_aggfunc.html#sumunc).
    expected_errors: &[
        "UNIQUE constraint failed",
        "NOT NULL constraint failed",
        "datatype mismatch",
        "integer overflow",
    ],
    // https://sqlite.org/pragma.html: settings that change plans, never answers.
    config_variants: &[
        ConfigVariant {
            name: "no-automatic-index",
            enable: &["PRAGMA automatic_index = OFF"],
            disable: &["PRAGMA automatic_index = ON"],
        },
        ConfigVariant {
            name: "reverse-unordered-selects",
            enable: &["PRAGMA reverse_unordered_selects = ON"],
            disable: &["PRAGMA reverse_unordered_selects = OFF"],
        },
    ],
    type_names: TypeNames {
        bool: "BOOLEAN",
        int: "INTEGER",
        real: "REAL",
        text: "TEXT",
        blob: "BLOB",
        decimal: "DECIMAL(12,2)",
        date: "DATE",
        timestamp: "TIMESTAMP",
    },
    client: "sqlite3 < FILE",
};

impl Dialect for Sqlite {
    fn profile(&self) -> &'static Profile {
        &SQLITE
    }

    fn semantics(&self) -> Option<crate::eval::Semantics> {
        Some(crate::eval::Semantics::Sqlite)
    }

    fn binary_op(&self, op: BinOp) -> &'static str {
        match op {
            // https://sqlite.org/lang_expr.html#isisnot
            BinOp::Is => "IS",
            BinOp::IsNot => "IS NOT",
            _ => std_binary_op(op),
        }
    }
}

/// The standard spelling of a binary operator.
pub fn std_binary_op(op: BinOp) -> &'static str {
    match op {
        BinOp::Add => "+",
        BinOp::Sub => "-",
        BinOp::Mul => "*",
        BinOp::IntDiv | BinOp::Div => "/",
        BinOp::Rem => "%",
        BinOp::Concat => "||",
        BinOp::Eq => "=",
        BinOp::Ne => "<>",
        BinOp::Lt => "<",
        BinOp::Le => "<=",
        BinOp::Gt => ">",
        BinOp::Ge => ">=",
        BinOp::Is => "IS NOT DISTINCT FROM",
        BinOp::IsNot => "IS DISTINCT FROM",
        BinOp::And => "AND",
        BinOp::Or => "OR",
        BinOp::Like => "LIKE",
        BinOp::NotLike => "NOT LIKE",
        BinOp::Glob => "GLOB",
        BinOp::NotGlob => "NOT GLOB",
        BinOp::BitAnd => "&",
        BinOp::BitOr => "|",
        BinOp::Shl => "<<",
        BinOp::Shr => ">>",
    }
}

/// Every dialect crosscheck can print.
pub fn dialects() -> Vec<&'static dyn Dialect> {
    vec![
        &Sqlite,
        &crate::dialects::Postgres,
        &crate::dialects::DuckDb,
        &crate::dialects::MariaDb,
        &crate::dialects::GlueSql,
    ]
}

/// The dialect of that name, as engines report it in their info.
pub fn by_name(name: &str) -> Option<&'static dyn Dialect> {
    dialects().into_iter().find(|d| d.name() == name)
}

/// The capabilities a run may use: those every engine of the run has.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Caps(BTreeSet<String>);

impl Caps {
    pub fn new<I: IntoIterator<Item = S>, S: Into<String>>(caps: I) -> Caps {
        Caps(caps.into_iter().map(Into::into).collect())
    }

    /// The intersection of the engines' capabilities.
    pub fn common<'a>(sets: impl IntoIterator<Item = &'a BTreeSet<String>>) -> Caps {
        let mut it = sets.into_iter();
        let Some(first) = it.next() else { return Caps::default() };
        let mut acc = first.clone();
        for s in it {
            acc = acc.intersection(s).cloned().collect();
        }
        Caps(acc)
    }

    pub fn has(&self, cap: &str) -> bool {
        self.0.contains(cap)
    }

    pub fn has_fn(&self, f: Func) -> bool {
        self.0.contains(&format!("fn:{}", f.name()))
    }

    /// Does every engine of the run take `func` over an argument of type `t`? `COUNT` takes
    /// any.
    pub fn has_agg(&self, func: Agg, t: SqlType) -> bool {
        func == Agg::Count || self.0.contains(&agg_cap(func, t))
    }
}
