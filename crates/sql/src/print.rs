//! The printer of the SQL syntax tree: every node writes itself in a dialect, asking the
//! dialect's spelling hooks. Every compound expression prints inside parentheses, so operator
//! precedence (which differs between engines) never matters.

use crate::ast::*;
use crate::dialect::Dialect;
// Writing into a String cannot fail: write!'s Result is always Ok and is dropped.
use std::fmt::Write as _;

/// Anything the printer can print in a dialect.
pub trait ToSql {
    fn write_sql(&self, d: &dyn Dialect, out: &mut String);

    fn to_sql(&self, d: &dyn Dialect) -> String {
        let mut s = String::with_capacity(128);
        self.write_sql(d, &mut s);
        s
    }
}

impl ToSql for Lit {
    fn write_sql(&self, d: &dyn Dialect, out: &mut String) {
        match self {
            Lit::Null => out.push_str("NULL"),
            Lit::Bool(b) => d.write_bool(out, *b),
            Lit::Int(i) => {
                // `- -1` would print as the comment `--1` without the space the caller adds.
                if *i < 0 {
                    out.push('(');
                    d.write_int(out, *i);
                    out.push(')');
                } else {
                    d.write_int(out, *i);
                }
            }
            Lit::Real(f) => {
                if f.is_sign_negative() {
                    out.push('(');
                    d.write_real(out, *f);
                    out.push(')');
                } else {
                    d.write_real(out, *f);
                }
            }
            Lit::Text(s) => d.write_text(out, s),
            Lit::Blob(b) => d.write_blob(out, b),
            // A typed literal in every dialect that has the type: `1.50` alone is a
            // DECIMAL(3,2) in DuckDB and MariaDB, a numeric in PostgreSQL.
            Lit::Decimal(s) => {
                out.push_str("CAST('");
                out.push_str(s);
                out.push_str("' AS ");
                out.push_str(d.cast_type(SqlType::Decimal));
                out.push(')');
            }
            Lit::Date(s) => {
                out.push_str("DATE '");
                out.push_str(s);
                out.push('\'');
            }
            Lit::Timestamp(s) => {
                out.push_str("TIMESTAMP '");
                out.push_str(s);
                out.push('\'');
            }
        }
    }
}

/// `a, b, c`, each item written by `each`.
fn write_separated<T>(items: &[T], out: &mut String, mut each: impl FnMut(&T, &mut String)) {
    for (i, it) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        each(it, out);
    }
}

/// `a, b, c`.
pub fn write_list<T: ToSql>(items: &[T], d: &dyn Dialect, out: &mut String) {
    write_separated(items, out, |it, out| it.write_sql(d, out));
}

/// `open`, the names (each quoted as the dialect quotes identifiers) and `)`, if there are any.
fn write_column_names(open: &str, names: &[String], d: &dyn Dialect, out: &mut String) {
    if !names.is_empty() {
        out.push_str(open);
        write_separated(names, out, |n, out| d.write_ident(out, n));
        out.push(')');
    }
}

/// `keyword e` (the keyword with its spaces), if there is an `e`.
fn write_clause<T: ToSql>(keyword: &str, e: Option<&T>, d: &dyn Dialect, out: &mut String) {
    if let Some(e) = e {
        out.push_str(keyword);
        e.write_sql(d, out);
    }
}

/// `keyword a, b, c`, if there are any.
fn write_list_clause<T: ToSql>(keyword: &str, items: &[T], d: &dyn Dialect, out: &mut String) {
    if !items.is_empty() {
        out.push_str(keyword);
        write_list(items, d, out);
    }
}

/// ` AS alias`, if there is one.
fn write_alias(alias: Option<&str>, d: &dyn Dialect, out: &mut String) {
    if let Some(a) = alias {
        out.push_str(" AS ");
        d.write_ident(out, a);
    }
}

impl ToSql for Expr {
    fn write_sql(&self, d: &dyn Dialect, out: &mut String) {
        match self {
            Expr::Lit(l) => l.write_sql(d, out),
            Expr::Col(c) => {
                // Index keys and partial-index conditions name bare columns.
                if !c.table.is_empty() {
                    d.write_ident(out, &c.table);
                    out.push('.');
                }
                d.write_ident(out, &c.column);
            }
            Expr::Unary(op, e) => write_unary(*op, e, d, out),
            Expr::Binary(op, a, b) => d.write_binary(out, *op, a, b),
            Expr::Postfix(op, e) => write_postfix(*op, e, d, out),
            Expr::Between { expr, low, high, not } => {
                out.push('(');
                expr.write_sql(d, out);
                out.push_str(if *not { " NOT BETWEEN " } else { " BETWEEN " });
                low.write_sql(d, out);
                out.push_str(" AND ");
                high.write_sql(d, out);
                out.push(')');
            }
            Expr::InList { expr, list, not } => {
                write_in_head(expr, *not, d, out);
                write_list(list, d, out);
                out.push_str("))");
            }
            Expr::InSelect { expr, select, not } => {
                write_in_head(expr, *not, d, out);
                select.write_sql(d, out);
                out.push_str("))");
            }
            Expr::Exists { select, not } => {
                out.push_str(if *not { "(NOT EXISTS (" } else { "(EXISTS (" });
                select.write_sql(d, out);
                out.push_str("))");
            }
            Expr::Subquery(s) => {
                out.push('(');
                s.write_sql(d, out);
                out.push(')');
            }
            Expr::Case { operand, whens, otherwise } => {
                write_case(operand.as_deref(), whens, otherwise.as_deref(), d, out)
            }
            Expr::Cast(e, ty) => match d.cast_collation(*ty) {
                Some(c) => {
                    out.push('(');
                    write_annotated("CAST(", e, " AS ", d.cast_type(*ty), d, out);
                    out.push_str(" COLLATE ");
                    out.push_str(d.collation_name(c));
                    out.push(')');
                }
                None => write_annotated("CAST(", e, " AS ", d.cast_type(*ty), d, out),
            },
            Expr::Func(f, args) => d.write_func(out, *f, args),
            Expr::Agg { func, distinct, arg } => write_agg(*func, *distinct, arg.as_deref(), d, out),
            Expr::Collate(e, c) => write_annotated("(", e, " COLLATE ", d.collation_name(*c), d, out),
            Expr::Row(items) => {
                out.push('(');
                write_list(items, d, out);
                out.push(')');
            }
            Expr::Window(w) => write_window(w, d, out),
        }
    }
}

/// `open e keyword name)`: an expression with the name of a type or collation.
fn write_annotated(open: &str, e: &Expr, keyword: &str, name: &str, d: &dyn Dialect, out: &mut String) {
    out.push_str(open);
    e.write_sql(d, out);
    out.push_str(keyword);
    out.push_str(name);
    out.push(')');
}

fn write_unary(op: UnOp, e: &Expr, d: &dyn Dialect, out: &mut String) {
    out.push('(');
    out.push_str(match op {
        UnOp::Not => "NOT ",
        UnOp::Neg => "- ",
        UnOp::Pos => "+ ",
        UnOp::BitNot => "~ ",
    });
    e.write_sql(d, out);
    out.push(')');
}

fn write_postfix(op: PostOp, e: &Expr, d: &dyn Dialect, out: &mut String) {
    out.push('(');
    e.write_sql(d, out);
    out.push_str(match op {
        PostOp::IsNull => " IS NULL",
        PostOp::NotNull => " IS NOT NULL",
        PostOp::IsTrue => " IS TRUE",
        PostOp::IsFalse => " IS FALSE",
        PostOp::IsNotTrue => " IS NOT TRUE",
        PostOp::IsNotFalse => " IS NOT FALSE",
    });
    out.push(')');
}

/// `(expr IN (` or `(expr NOT IN (`; the caller writes the list and closes both.
fn write_in_head(expr: &Expr, not: bool, d: &dyn Dialect, out: &mut String) {
    out.push('(');
    expr.write_sql(d, out);
    out.push_str(if not { " NOT IN (" } else { " IN (" });
}

fn write_case(
    operand: Option<&Expr>,
    whens: &[(Expr, Expr)],
    otherwise: Option<&Expr>,
    d: &dyn Dialect,
    out: &mut String,
) {
    out.push_str("(CASE");
    write_clause(" ", operand, d, out);
    for (w, t) in whens {
        out.push_str(" WHEN ");
        w.write_sql(d, out);
        out.push_str(" THEN ");
        t.write_sql(d, out);
    }
    write_clause(" ELSE ", otherwise, d, out);
    out.push_str(" END)");
}

fn write_agg(func: Agg, distinct: bool, arg: Option<&Expr>, d: &dyn Dialect, out: &mut String) {
    out.push_str(func.name());
    out.push('(');
    match arg {
        None => out.push('*'),
        Some(a) => {
            if distinct {
                out.push_str("DISTINCT ");
            }
            a.write_sql(d, out);
        }
    }
    out.push(')');
}

fn write_window(w: &Window, d: &dyn Dialect, out: &mut String) {
    out.push_str(w.func.name());
    out.push('(');
    match (w.func, w.args.is_empty()) {
        (WinFunc::Agg(Agg::Count), true) => out.push('*'),
        _ => write_list(&w.args, d, out),
    }
    out.push_str(") OVER (");
    if !w.partition_by.is_empty() {
        out.push_str("PARTITION BY ");
        write_list(&w.partition_by, d, out);
    }
    write_list_clause(if w.partition_by.is_empty() { "ORDER BY " } else { " ORDER BY " }, &w.order_by, d, out);
    if let Some(f) = w.frame {
        match f.preceding {
            Some(n) => {
                let _ = write!(out, " ROWS BETWEEN {n} PRECEDING AND CURRENT ROW");
            }
            None => out.push_str(" ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW"),
        }
    }
    out.push(')');
}

impl ToSql for TableRef {
    fn write_sql(&self, d: &dyn Dialect, out: &mut String) {
        match &self.body {
            // Every engine but SQLite requires the derived table's alias.
            Some(body) => {
                out.push('(');
                body.write_sql(d, out);
                out.push(')');
                write_alias(Some(self.alias.as_deref().unwrap_or(&self.name)), d, out);
            }
            None => {
                d.write_ident(out, &self.name);
                write_alias(self.alias.as_deref(), d, out);
            }
        }
    }
}

/// `WITH name(columns) AS (select), ... ` (with its trailing space), if there are any.
pub fn write_with(ctes: &[Cte], d: &dyn Dialect, out: &mut String) {
    if ctes.is_empty() {
        return;
    }
    out.push_str("WITH ");
    write_separated(ctes, out, |c, out| {
        d.write_ident(out, &c.name);
        write_column_names("(", &c.columns, d, out);
        out.push_str(match c.materialized {
            Some(true) => " AS MATERIALIZED (",
            Some(false) => " AS NOT MATERIALIZED (",
            None => " AS (",
        });
        c.select.write_sql(d, out);
        out.push(')');
    });
    out.push(' ');
}

impl ToSql for Item {
    fn write_sql(&self, d: &dyn Dialect, out: &mut String) {
        self.expr.write_sql(d, out);
        write_alias(self.alias.as_deref(), d, out);
    }
}

/// With its leading space, as it follows the FROM list.
impl ToSql for Join {
    fn write_sql(&self, d: &dyn Dialect, out: &mut String) {
        out.push_str(match self.kind {
            JoinKind::Inner => " INNER JOIN ",
            JoinKind::Left => " LEFT JOIN ",
            JoinKind::Right => " RIGHT JOIN ",
            JoinKind::Full => " FULL JOIN ",
            JoinKind::Cross => " CROSS JOIN ",
            JoinKind::Natural => " NATURAL JOIN ",
        });
        self.table.write_sql(d, out);
        write_clause(" ON ", self.on.as_ref(), d, out);
    }
}

impl ToSql for Order {
    fn write_sql(&self, d: &dyn Dialect, out: &mut String) {
        self.expr.write_sql(d, out);
        d.write_order_suffix(out, self.desc);
    }
}

impl ToSql for Select {
    fn write_sql(&self, d: &dyn Dialect, out: &mut String) {
        write_with(&self.with, d, out);
        self.write_body(d, out);
    }
}

impl Select {
    /// The select without its WITH clause, which a caller that combines several selects
    /// writes once in front of them all.
    pub fn write_body(&self, d: &dyn Dialect, out: &mut String) {
        out.push_str(if self.distinct { "SELECT DISTINCT " } else { "SELECT " });
        if self.items.is_empty() {
            out.push('*');
        }
        write_list(&self.items, d, out);
        write_list_clause(" FROM ", &self.from, d, out);
        for j in &self.joins {
            j.write_sql(d, out);
        }
        write_clause(" WHERE ", self.where_.as_ref(), d, out);
        write_list_clause(" GROUP BY ", &self.group_by, d, out);
        write_clause(" HAVING ", self.having.as_ref(), d, out);
        for c in &self.compound {
            out.push(' ');
            out.push_str(c.op.keyword());
            out.push_str(if c.all { " ALL " } else { " " });
            c.select.write_body(d, out);
        }
        write_list_clause(" ORDER BY ", &self.order_by, d, out);
        if self.limit.is_some() || self.offset.is_some() {
            d.write_limit(out, self.limit, self.offset);
        }
    }
}

impl ToSql for Stmt {
    fn write_sql(&self, d: &dyn Dialect, out: &mut String) {
        match self {
            Stmt::CreateTable { name, columns } => write_create_table(name, columns, d, out),
            Stmt::Insert { table, columns, values } => {
                out.push_str("INSERT INTO ");
                d.write_ident(out, table);
                write_column_names(" (", columns, d, out);
                if values.is_empty() {
                    out.push_str(d.default_values());
                } else {
                    out.push_str(" VALUES (");
                    write_list(values, d, out);
                    out.push(')');
                }
            }
            Stmt::CreateIndex { name, table, unique, keys, where_ } => {
                write_create_index(name, table, *unique, keys, where_.as_ref(), d, out)
            }
            Stmt::CreateView { name, columns, select } => {
                out.push_str("CREATE VIEW ");
                d.write_ident(out, name);
                write_column_names("(", columns, d, out);
                out.push_str(" AS ");
                select.write_sql(d, out);
            }
            Stmt::Analyze => out.push_str(d.analyze()),
            dml @ (Stmt::Update { .. } | Stmt::Delete { .. } | Stmt::InsertSelect { .. }) => {
                crate::dml::write_dml(dml, d, out)
            }
        }
    }
}

fn write_create_table(name: &str, columns: &[ColumnDef], d: &dyn Dialect, out: &mut String) {
    out.push_str("CREATE TABLE ");
    d.write_ident(out, name);
    out.push_str(" (");
    write_list(columns, d, out);
    out.push(')');
    out.push_str(d.table_suffix());
}

impl ToSql for ColumnDef {
    fn write_sql(&self, d: &dyn Dialect, out: &mut String) {
        d.write_ident(out, &self.name);
        if let Some(t) = self.ty {
            out.push(' ');
            out.push_str(d.column_type(t));
        }
        if self.primary_key {
            out.push_str(" PRIMARY KEY");
        }
        if self.unique {
            out.push_str(" UNIQUE");
        }
        if self.not_null {
            out.push_str(" NOT NULL");
        }
        // A negative default is parenthesized, as SQLite's grammar requires anyway.
        write_clause(" DEFAULT ", self.default.as_ref(), d, out);
        if let Some(col) = self.collate {
            out.push_str(" COLLATE ");
            out.push_str(d.collation_name(col));
        }
    }
}

impl ToSql for IndexKey {
    fn write_sql(&self, d: &dyn Dialect, out: &mut String) {
        self.expr.write_sql(d, out);
        if self.desc {
            out.push_str(" DESC");
        }
    }
}

fn write_create_index(
    name: &str,
    table: &str,
    unique: bool,
    keys: &[IndexKey],
    where_: Option<&Expr>,
    d: &dyn Dialect,
    out: &mut String,
) {
    out.push_str(if unique { "CREATE UNIQUE INDEX " } else { "CREATE INDEX " });
    d.write_ident(out, name);
    out.push_str(" ON ");
    d.write_ident(out, table);
    out.push_str(" (");
    write_list(keys, d, out);
    out.push(')');
    write_clause(" WHERE ", where_, d, out);
}
