//! The printer of the SQL syntax tree: every node writes itself in a dialect, asking the
//! dialect's spelling hooks. Every compound expression prints inside parentheses, so operator
//! precedence (which differs between engines) never matters.

use crate::ast::*;
use crate::dialect::Dialect;

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
        }
    }
}

/// `a, b, c`.
pub fn write_list<T: ToSql>(items: &[T], d: &dyn Dialect, out: &mut String) {
    for (i, it) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        it.write_sql(d, out);
    }
}

/// `a, b, c` for names, each quoted as the dialect quotes identifiers.
fn write_idents(names: &[String], d: &dyn Dialect, out: &mut String) {
    for (i, n) in names.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        d.write_ident(out, n);
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
            Expr::Cast(e, ty) => {
                out.push_str("CAST(");
                e.write_sql(d, out);
                out.push_str(" AS ");
                out.push_str(d.cast_type(*ty));
                out.push(')');
            }
            Expr::Func(f, args) => d.write_func(out, *f, args),
            Expr::Agg { func, distinct, arg } => write_agg(*func, *distinct, arg.as_deref(), d, out),
            Expr::Collate(e, c) => {
                out.push('(');
                e.write_sql(d, out);
                out.push_str(" COLLATE ");
                out.push_str(d.collation_name(*c));
                out.push(')');
            }
        }
    }
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
    if let Some(o) = operand {
        out.push(' ');
        o.write_sql(d, out);
    }
    for (w, t) in whens {
        out.push_str(" WHEN ");
        w.write_sql(d, out);
        out.push_str(" THEN ");
        t.write_sql(d, out);
    }
    if let Some(e) = otherwise {
        out.push_str(" ELSE ");
        e.write_sql(d, out);
    }
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

impl ToSql for TableRef {
    fn write_sql(&self, d: &dyn Dialect, out: &mut String) {
        d.write_ident(out, &self.name);
        if let Some(a) = &self.alias {
            out.push_str(" AS ");
            d.write_ident(out, a);
        }
    }
}

impl ToSql for Select {
    fn write_sql(&self, d: &dyn Dialect, out: &mut String) {
        out.push_str(if self.distinct { "SELECT DISTINCT " } else { "SELECT " });
        if self.items.is_empty() {
            out.push('*');
        }
        for (i, it) in self.items.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            it.expr.write_sql(d, out);
            if let Some(a) = &it.alias {
                out.push_str(" AS ");
                d.write_ident(out, a);
            }
        }
        if !self.from.is_empty() {
            out.push_str(" FROM ");
            write_list(&self.from, d, out);
        }
        for j in &self.joins {
            out.push_str(match j.kind {
                JoinKind::Inner => " INNER JOIN ",
                JoinKind::Left => " LEFT JOIN ",
                JoinKind::Right => " RIGHT JOIN ",
                JoinKind::Full => " FULL JOIN ",
                JoinKind::Cross => " CROSS JOIN ",
                JoinKind::Natural => " NATURAL JOIN ",
            });
            j.table.write_sql(d, out);
            if let Some(on) = &j.on {
                out.push_str(" ON ");
                on.write_sql(d, out);
            }
        }
        if let Some(w) = &self.where_ {
            out.push_str(" WHERE ");
            w.write_sql(d, out);
        }
        if !self.group_by.is_empty() {
            out.push_str(" GROUP BY ");
            write_list(&self.group_by, d, out);
        }
        if let Some(h) = &self.having {
            out.push_str(" HAVING ");
            h.write_sql(d, out);
        }
        if !self.order_by.is_empty() {
            out.push_str(" ORDER BY ");
            for (i, o) in self.order_by.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                o.expr.write_sql(d, out);
                d.write_order_suffix(out, o.desc);
            }
        }
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
                if !columns.is_empty() {
                    out.push_str(" (");
                    write_idents(columns, d, out);
                    out.push(')');
                }
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
                if !columns.is_empty() {
                    out.push('(');
                    write_idents(columns, d, out);
                    out.push(')');
                }
                out.push_str(" AS ");
                select.write_sql(d, out);
            }
            Stmt::Analyze => out.push_str(d.analyze()),
        }
    }
}

fn write_create_table(name: &str, columns: &[ColumnDef], d: &dyn Dialect, out: &mut String) {
    out.push_str("CREATE TABLE ");
    d.write_ident(out, name);
    out.push_str(" (");
    for (i, c) in columns.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        d.write_ident(out, &c.name);
        if let Some(t) = c.ty {
            out.push(' ');
            out.push_str(d.column_type(t));
        }
        if c.primary_key {
            out.push_str(" PRIMARY KEY");
        }
        if c.unique {
            out.push_str(" UNIQUE");
        }
        if c.not_null {
            out.push_str(" NOT NULL");
        }
        if let Some(v) = &c.default {
            out.push_str(" DEFAULT ");
            // A negative default must be parenthesized in SQLite's grammar anyway.
            v.write_sql(d, out);
        }
        if let Some(col) = c.collate {
            out.push_str(" COLLATE ");
            out.push_str(d.collation_name(col));
        }
    }
    out.push(')');
    out.push_str(d.table_suffix());
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
    for (i, k) in keys.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        k.expr.write_sql(d, out);
        if k.desc {
            out.push_str(" DESC");
        }
    }
    out.push(')');
    if let Some(w) = where_ {
        out.push_str(" WHERE ");
        w.write_sql(d, out);
    }
}
