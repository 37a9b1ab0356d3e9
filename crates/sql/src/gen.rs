//! The case generator: random databases (schema, rows with edge values, indexes, views) and,
//! per check, a query: its FROM clause and predicate here, the rest shaped by the oracle's rules
//! (`oracles::OracleRules::shape`) on the same rng.
//!
//! `case(index, oracle)` is a pure function of the seed, the engines' capabilities and the
//! index: database number `index / CHECKS_PER_DB` is built from `rng(seed, db)`, the query from
//! `rng(seed ^ QUERY_SALT, index)`. Every `CHECKS_PER_STATE` checks one more UPDATE, DELETE or
//! INSERT ... SELECT (drawn from `rng(seed ^ DML_SALT, db)`) changes the database, as SQLancer
//! interleaves DML with its checks: the later checks of a database see it after 1, 2, 3
//! statements. The current database's states are cached.

use crate::ast::{
    BinOp, Collation, ColumnDef, Expr, Func, IndexKey, Item, Join, JoinKind, Lit, Select, SqlType, Stmt, TableRef,
};
use crate::case::{Query, SqlCase};
use crate::collation::Rules;
use crate::dialect::{cap, Caps};
use crate::exprgen::{edge_value, lit_type, ty_index, ColInfo, Env, ExprGen, ScopeCol, TableInfo, TYPES};
use crate::oracles::SqlOracle;
use crosscheck_core::Generator;
use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// Checks run against one generated database before the next one is built.
pub const CHECKS_PER_DB: u64 = 200;
/// Checks run between two DML statements on one database.
pub const CHECKS_PER_STATE: u64 = 50;
const QUERY_SALT: u64 = 0x5153_4c51_5545_5259;
const DML_SALT: u64 = 0x444d_4c5f_5354_4154;

/// One generated database: its setup after 0, 1, 2 ... DML statements, and its description.
struct Database {
    db: u64,
    states: Vec<Arc<Vec<Stmt>>>,
    env: Env,
}

pub struct SqlGenerator {
    seed: u64,
    caps: Caps,
    current: Option<Database>,
}

impl SqlGenerator {
    pub fn new(seed: u64, caps: Caps) -> SqlGenerator {
        SqlGenerator { seed, caps, current: None }
    }

    fn database(&mut self, db: u64) -> &Database {
        if self.current.as_ref().map(|c| c.db) != Some(db) {
            let mut rng = crosscheck_core::rng(self.seed, db);
            let (setup, env) = gen_database(&mut rng, &self.caps);
            // Its own rng: the statements between checks leave the first state as it was.
            let mut rng = crosscheck_core::rng(self.seed ^ DML_SALT, db);
            let mut states = vec![Arc::new(setup)];
            for _ in 1..CHECKS_PER_DB / CHECKS_PER_STATE {
                let last = states.last().cloned().unwrap_or_default();
                states.push(match crate::dml::gen_statement(&mut rng, &env, &last) {
                    Some(stmt) => {
                        let mut next: Vec<Stmt> = last.iter().cloned().chain([stmt]).collect();
                        refill_deleted(&mut next, last.len());
                        crate::collation::settle_setup(Rules::of_caps(&self.caps), &mut next);
                        Arc::new(next)
                    }
                    None => last,
                });
            }
            self.current = Some(Database { db, states, env });
        }
        // Filled just above.
        self.current.get_or_insert_with(|| Database { db, states: Vec::new(), env: empty_env(&self.caps) })
    }
}

impl Generator<SqlCase, SqlOracle> for SqlGenerator {
    fn case(&mut self, index: u64, oracle: SqlOracle) -> SqlCase {
        let db = index / CHECKS_PER_DB;
        let seed = self.seed;
        // The database has its own rng, so resolving the oracle first draws nothing from it.
        let mut rng = crosscheck_core::rng(seed ^ QUERY_SALT, index);
        let concrete = oracle.resolve(&mut rng, &self.caps);
        let database = self.database(db);
        let state = crosscheck_core::position(index % CHECKS_PER_DB / CHECKS_PER_STATE, database.states.len());
        let setup = database.states.get(state).cloned().unwrap_or_default();
        let env = &database.env;
        let mut query = gen_query(&mut rng, env, concrete);
        crate::collation::settle(Rules::of_caps(&env.caps), &setup, &mut query.select, query.pred.as_mut());
        let strict = !env.loose;
        SqlCase { seed, db, index, oracle: concrete, strict, setup, query }
    }
}

/// Which prepared database a case runs on: its number and how many statements its setup has
/// (the states of one database only grow), so a check after a DML statement prepares again.
pub fn setup_id(case: &SqlCase) -> u64 {
    let statements = u64::try_from(case.setup.len()).unwrap_or(u64::MAX);
    case.db.wrapping_shl(16) ^ statements
}

fn empty_env(caps: &Caps) -> Env {
    let loose = caps.has(cap::LOOSE) || caps.has(cap::LOOSE_MARIADB);
    let funcs = Func::ALL.iter().copied().filter(|f| caps.has_fn(*f)).collect();
    let collations = crate::collation::available(caps);
    Env { tables: Vec::new(), caps: caps.clone(), loose, funcs, collations, pool: Default::default(), own: 0 }
}

fn random_text(rng: &mut ChaCha8Rng) -> String {
    const CHARS: &[char] = &['a', 'A', 'b', 'B', ' ', '0', '1', '%', '_', 'z'];
    let n = rng.gen_range(0..4);
    (0..n).map(|_| *CHARS.choose(rng).unwrap_or(&'a')).collect()
}

/// A value for a column of type `t`, drawn from its small domain so that values repeat
/// (for joins, grouping and DISTINCT), sometimes NULL, in loose dialects sometimes of another type.
fn row_value(rng: &mut ChaCha8Rng, domain: &[Lit], loose: bool, caps: &Caps) -> Lit {
    if rng.gen_bool(0.12) {
        return Lit::Null;
    }
    if loose && rng.gen_bool(0.08) {
        let mut t = [SqlType::Int, SqlType::Real, SqlType::Text][rng.gen_range(0..3)];
        if caps.has(cap::BLOB) && rng.gen_bool(0.2) {
            t = SqlType::Blob;
        }
        return edge_value(rng, t, caps.has(cap::OVERFLOW_TO_REAL));
    }
    domain.choose(rng).cloned().unwrap_or(Lit::Null)
}

fn domain_for(rng: &mut ChaCha8Rng, t: SqlType, shared: &[Vec<Lit>; TYPES], caps: &Caps) -> Vec<Lit> {
    let n = rng.gen_range(2..=5);
    (0..n)
        .map(|_| {
            let s = &shared[ty_index(t)];
            // Shared values make columns of different tables join.
            if !s.is_empty() && rng.gen_bool(0.6) {
                s[rng.gen_range(0..s.len())].clone()
            } else if t == SqlType::Text && caps.has(cap::ACCENTED_TEXT) && rng.gen_bool(0.25) {
                let accented = crate::collation::ACCENTED;
                Lit::Text(accented[rng.gen_range(0..accented.len())].to_string())
            } else if t == SqlType::Text && rng.gen() {
                Lit::Text(random_text(rng))
            } else {
                edge_value(rng, t, caps.has(cap::OVERFLOW_TO_REAL))
            }
        })
        .collect()
}

/// A database: its setup statements and what the query generator needs to know about it.
pub fn gen_database(rng: &mut ChaCha8Rng, caps: &Caps) -> (Vec<Stmt>, Env) {
    let mut env = empty_env(caps);
    let types = column_types(caps, env.loose);
    let shared = shared_values(rng, &types, caps);
    let mut creates = Vec::new();
    let mut inserts = Vec::new();
    let n_tables: i32 = rng.gen_range(1..=3);
    for ti in 0..n_tables {
        let (create, rows, table) = gen_table(rng, &env, &types, &shared, ti);
        creates.push(create);
        inserts.extend(rows);
        env.tables.push(table);
    }
    fill_pool(&mut env);
    let mut indexes = Vec::new();
    if caps.has(cap::INDEXES) {
        for i in 0..rng.gen_range(0..=3) {
            indexes.push(gen_index(rng, &env, i));
        }
    }
    let mut setup = creates;
    // Indexes before the rows exercise index maintenance; after, index creation.
    if rng.gen() {
        setup.extend(indexes);
        setup.extend(inserts);
    } else {
        setup.extend(inserts);
        setup.extend(indexes);
    }
    if caps.has(cap::VIEWS) {
        for v in 0..rng.gen_range(0..=2) {
            if let Some(view) = gen_view(rng, &mut env, v) {
                setup.push(view);
            }
        }
    }
    // Drawn before the DML, which comes after every earlier statement's draws.
    let analyze = caps.has(cap::ANALYZE) && rng.gen_bool(0.3);
    let before_dml = setup.len();
    crate::dml::gen_dml(rng, &env, &mut setup);
    refill_deleted(&mut setup, before_dml);
    crate::collation::settle_setup(Rules::of_caps(caps), &mut setup);
    if analyze {
        setup.push(Stmt::Analyze);
    }
    (setup, env)
}

/// A table that a DELETE from statement `from` on may have emptied gets its first inserted row
/// again (refused where the row is still there and a key forbids a second): PQS has no pivot
/// in an empty table, and one in nine of its checks met one.
fn refill_deleted(setup: &mut Vec<Stmt>, from: usize) {
    let mut refills = Vec::new();
    for s in setup.iter().skip(from) {
        if let Stmt::Delete { table, .. } = s {
            let first = setup.iter().find(|i| matches!(i, Stmt::Insert { table: t, .. } if t == table));
            if let Some(row) = first.filter(|row| !refills.contains(*row)) {
                refills.push(row.clone());
            }
        }
    }
    setup.extend(refills);
}

/// The column types the run's engines all have.
fn column_types(caps: &Caps, loose: bool) -> Vec<SqlType> {
    let mut types = vec![SqlType::Int, SqlType::Real, SqlType::Text];
    if caps.has(cap::BLOB) {
        types.push(SqlType::Blob);
    }
    if caps.has(cap::BOOL_TYPE) && !loose {
        types.push(SqlType::Bool);
    }
    for (c, t) in [(cap::DECIMAL, SqlType::Decimal), (cap::DATE, SqlType::Date), (cap::TIMESTAMP, SqlType::Timestamp)] {
        if caps.has(c) && !loose {
            types.push(t);
        }
    }
    types
}

/// Per type, values that columns of different tables share, so that they join.
fn shared_values(rng: &mut ChaCha8Rng, types: &[SqlType], caps: &Caps) -> [Vec<Lit>; TYPES] {
    let mut shared: [Vec<Lit>; TYPES] = Default::default();
    for t in types {
        shared[ty_index(*t)] = (0..4).map(|_| edge_value(rng, *t, caps.has(cap::OVERFLOW_TO_REAL))).collect();
    }
    shared
}

/// Table `t{ti}`: its CREATE TABLE, its INSERTs and what the query generator knows of it.
fn gen_table(
    rng: &mut ChaCha8Rng,
    env: &Env,
    types: &[SqlType],
    shared: &[Vec<Lit>; TYPES],
    ti: i32,
) -> (Stmt, Vec<Stmt>, TableInfo) {
    let name = format!("t{ti}");
    let (cols, domains) = gen_columns(rng, env, types, shared);
    let (inserts, col_values) = gen_rows(rng, env, &name, &cols, &domains);
    let columns: Vec<ColInfo> = cols
        .iter()
        .zip(col_values)
        .map(|(c, values)| ColInfo {
            name: c.name.clone(),
            ty: c.ty,
            values,
            exact: c.ty.is_some_and(|t| t != SqlType::Blob) && c.collate.is_none_or(|k| k == Collation::Binary),
        })
        .collect();
    (
        Stmt::CreateTable { name: name.clone(), columns: cols },
        inserts,
        TableInfo { name, columns, view: false, body: None },
    )
}

/// The columns of a table, each with the small domain its values are drawn from.
fn gen_columns(
    rng: &mut ChaCha8Rng,
    env: &Env,
    types: &[SqlType],
    shared: &[Vec<Lit>; TYPES],
) -> (Vec<ColumnDef>, Vec<Vec<Lit>>) {
    let caps = &env.caps;
    let n_cols: usize = rng.gen_range(1..=4);
    let mut cols = Vec::new();
    let mut domains = Vec::new();
    let mut has_pk = false;
    for ci in 0..n_cols {
        let untyped = caps.has(cap::UNTYPED) && rng.gen_bool(0.2);
        let vt = *types.choose(rng).unwrap_or(&SqlType::Int);
        let ty = if untyped { None } else { Some(vt) };
        // GlueSQL refuses a FLOAT key ("unsupported for unique constraint").
        let keyable = vt != SqlType::Real || caps.has(cap::REAL_KEY);
        let primary_key = !has_pk && rng.gen_bool(0.15) && keyable;
        has_pk |= primary_key;
        let domain = domain_for(rng, vt, shared, caps);
        let textual = matches!(ty, None | Some(SqlType::Text));
        let collate = if textual && env.collations.len() > 1 && rng.gen_bool(0.3) {
            env.collations.choose(rng).copied()
        } else {
            None
        };
        cols.push(ColumnDef {
            name: format!("c{ci}"),
            ty,
            primary_key,
            unique: !primary_key && rng.gen_bool(0.1) && keyable,
            // Only SQLite lets a non-INTEGER primary key hold NULL.
            not_null: rng.gen_bool(0.1) || (primary_key && !caps.has(cap::PK_NULL)),
            default: if rng.gen_bool(0.1) {
                domain.first().cloned().map(|v| rowid_safe(v, ty, primary_key, caps))
            } else {
                None
            },
            collate,
        });
        domains.push(domain);
    }
    (cols, domains)
}

/// The INSERTs of table `name`, and per column the values they put in it.
fn gen_rows(
    rng: &mut ChaCha8Rng,
    env: &Env,
    name: &str,
    cols: &[ColumnDef],
    domains: &[Vec<Lit>],
) -> (Vec<Stmt>, Vec<Vec<Lit>>) {
    let caps = &env.caps;
    let mut inserts = Vec::new();
    // Small tables keep joins cheap: the engine's time goes into many queries, not into
    // big cross products.
    // An empty table, but never the first: PQS needs a table with a row to pivot on.
    let n_rows: i32 = if rng.gen_bool(0.05) && !env.tables.is_empty() { 0 } else { rng.gen_range(1..=6) };
    let mut col_values: Vec<Vec<Lit>> = vec![Vec::new(); cols.len()];
    for _ in 0..n_rows {
        let all = !rng.gen_bool(0.1);
        let mut names = Vec::new();
        let mut values = Vec::new();
        for (ci, c) in cols.iter().enumerate() {
            // SQLite fills a left-out INTEGER PRIMARY KEY with a rowid, where the others
            // reject the row: outside SQLite alone, the key is always given.
            let keep = c.primary_key && !caps.has(cap::PK_NULL);
            if !all && rng.gen() && !keep {
                continue;
            }
            let mut v = row_value(rng, &domains[ci], env.loose, caps);
            // SQLite fills a NULL INTEGER PRIMARY KEY with a rowid; others reject it.
            if v == Lit::Null && c.primary_key && !caps.has(cap::PK_NULL) {
                v = domains[ci].first().cloned().unwrap_or(Lit::Int(0));
            }
            let v = rowid_safe(v, c.ty, c.primary_key, caps);
            col_values[ci].push(v.clone());
            names.push(c.name.clone());
            values.push(Expr::Lit(v));
        }
        // A row of defaults only where the dialects can spell it.
        if names.is_empty() && !caps.has(cap::DEFAULT_ROW) {
            continue;
        }
        inserts.push(Stmt::Insert { table: name.to_string(), columns: names, values });
    }
    (inserts, col_values)
}

/// A key for a rowid column that leaves room for a table's new rowids (at most 6 rows) below
/// i64::MAX: past it SQLite picks a random rowid for a NULL or left-out key. Keys are moved
/// down, so distinct keys stay distinct; text that the column's affinity reads as such a key
/// too.
fn rowid_safe(v: Lit, ty: Option<SqlType>, primary_key: bool, caps: &Caps) -> Lit {
    if !(primary_key && ty == Some(SqlType::Int) && caps.has(cap::ROWID_ALIAS)) {
        return v;
    }
    const ROOM: i64 = 8;
    let key = match &v {
        Lit::Int(i) => Some(*i),
        Lit::Text(s) => s.trim().parse::<i64>().ok(),
        _ => None,
    };
    match key {
        Some(k) if k > i64::MAX - ROOM => Lit::Int(k - ROOM),
        _ => v,
    }
}

/// The values of every column, by type, for literals that hit stored data.
fn fill_pool(env: &mut Env) {
    for t in &env.tables {
        for c in &t.columns {
            for v in &c.values {
                if let Some(lt) = lit_type(v) {
                    env.pool[ty_index(lt)].push(v.clone());
                }
            }
        }
    }
}

fn table_scope(env: &Env, ti: usize, visible: &str) -> Vec<ScopeCol> {
    (0..env.tables[ti].columns.len()).map(|c| ScopeCol { visible: visible.to_string(), table: ti, column: c }).collect()
}

fn gen_index(rng: &mut ChaCha8Rng, env: &Env, i: u32) -> Stmt {
    let ti = rng.gen_range(0..env.tables.len());
    let table = env.tables[ti].name.clone();
    // Index expressions name bare columns: an empty qualifier.
    let scope = table_scope(env, ti, "");
    let n_keys = rng.gen_range(1..=2);
    let mut keys = Vec::new();
    for _ in 0..n_keys {
        let sc = &scope[rng.gen_range(0..scope.len())];
        let col = &env.tables[ti].columns[sc.column];
        let mut expr = Expr::col("", &col.name);
        if env.caps.has(cap::EXPR_INDEX) && rng.gen_bool(0.3) {
            let mut g = ExprGen::new(rng, env, scope.clone());
            g.subqueries = false;
            let mut t = col.ty.unwrap_or(SqlType::Int);
            // A key that overflows is a real in SQLite and an error elsewhere, and an error
            // in index maintenance loses the row on that engine only: the engines would then
            // hold different data. Outside SQLite alone, number columns get text keys, which
            // cannot overflow at this depth.
            if matches!(t, SqlType::Int | SqlType::Real) && !env.caps.has(cap::OVERFLOW_TO_REAL) {
                t = SqlType::Text;
            }
            let e = g.expr(t, 1);
            // A constant key is pointless, and SQLite reads a lone string as a column name.
            if mentions_column(&e) && (env.loose || crate::typed::index_safe(&e)) {
                expr = e;
            }
        } else if env.caps.has(cap::SQLITE_COLLATIONS) && rng.gen_bool(0.2) {
            // MariaDB's index keys take no COLLATE.
            let c = *env.collations.choose(rng).unwrap_or(&Collation::Binary);
            expr = Expr::Collate(Box::new(expr), c);
        }
        let desc = rng.gen_bool(0.3);
        // MariaDB refuses a column twice in one index ("Duplicate column name").
        if !keys.iter().any(|k: &IndexKey| k.expr == expr) {
            keys.push(IndexKey { expr, desc });
        }
    }
    let where_ = if env.caps.has(cap::PARTIAL_INDEX) && rng.gen_bool(0.3) {
        let mut g = ExprGen::new(rng, env, scope);
        // Partial-index conditions may not contain subqueries.
        g.subqueries = false;
        Some(g.predicate(1)).filter(|p| env.loose || crate::typed::index_safe(p))
    } else {
        None
    };
    Stmt::CreateIndex { name: format!("i{i}"), table, unique: rng.gen_bool(0.2), keys, where_ }
}

fn gen_view(rng: &mut ChaCha8Rng, env: &mut Env, v: u32) -> Option<Stmt> {
    let base: Vec<usize> = (0..env.tables.len()).filter(|&t| !env.tables[t].view).collect();
    let ti = *base.choose(rng)?;
    let visible = env.tables[ti].name.clone();
    let scope = table_scope(env, ti, &visible);
    let n = rng.gen_range(1..=3);
    let mut items = Vec::new();
    let mut cols = Vec::new();
    let where_;
    {
        let mut g = ExprGen::new(rng, env, scope.clone());
        g.subqueries = false;
        g.merged = true;
        for ci in 0..n {
            let sc = scope[g.rng.gen_range(0..scope.len())].clone();
            let src = &env.tables[ti].columns[sc.column];
            let (expr, ty, values) = if g.rng.gen_bool(0.6) {
                (Expr::col(&visible, &src.name), src.ty, src.values.clone())
            } else {
                let t = src.ty.unwrap_or(SqlType::Int);
                (g.expr(t, 1), Some(t).filter(|_| !env.loose), Vec::new())
            };
            items.push(Item { expr, alias: None });
            cols.push(ColInfo { name: format!("c{ci}"), ty, values, exact: false });
        }
        g.merged = false;
        where_ = if g.rng.gen_bool(0.4) { Some(g.predicate(1)) } else { None };
    }
    let select = Select {
        // A DISTINCT view keeps one of several equal values (0 and 0.0, 'a' and 'A' under
        // NOCASE), and which one is up to the plan; mixed-type columns then make LIKE or
        // typeof() on the view plan-dependent, a legal difference NoREC would report. So
        // DISTINCT views only where a column holds one type.
        distinct: !env.loose && rng.gen_bool(0.2),
        items,
        from: vec![TableRef::named(&visible, None)],
        where_,
        ..Select::default()
    };
    let name = format!("v{v}");
    let columns = cols.iter().map(|c| c.name.clone()).collect();
    env.tables.push(TableInfo { name: name.clone(), columns: cols, view: true, body: None });
    Some(Stmt::CreateView { name, columns, select: Box::new(select) })
}

/// The FROM clause: one to three tables or views, joined in the ways the run supports.
fn gen_from(rng: &mut ChaCha8Rng, env: &Env) -> (Vec<TableRef>, Vec<Join>, Vec<ScopeCol>) {
    let n = match rng.gen_range(0..20) {
        0..=10 => 1,
        11..=18 => 2,
        _ => 3,
    };
    let mut from = Vec::new();
    let mut joins = Vec::new();
    let mut scope: Vec<ScopeCol> = Vec::new();
    let mut used: Vec<String> = Vec::new();
    let comma = rng.gen_bool(0.15) && env.caps.has(cap::CROSS_JOIN);
    for k in 0..n {
        // The query's own tables are read half of the time: they are few among many.
        let ti = if env.own > 0 && rng.gen() {
            env.tables.len() - 1 - rng.gen_range(0..env.own)
        } else {
            rng.gen_range(0..env.tables.len())
        };
        let name = env.tables[ti].name.clone();
        let alias = if used.contains(&name) { Some(format!("a{k}")) } else { None };
        let mut tref = TableRef::named(&name, alias);
        tref.body = env.tables[ti].body.clone();
        let visible = tref.visible().to_string();
        used.push(name);
        let new_cols = table_scope(env, ti, &visible);
        if k == 0 {
            from.push(tref);
            scope.extend(new_cols);
            continue;
        }
        let mut kinds = vec![JoinKind::Inner, JoinKind::Inner, JoinKind::Left];
        if env.caps.has(cap::CROSS_JOIN) {
            kinds.push(JoinKind::Cross);
        }
        for (c, kind) in [(cap::RIGHT_JOIN, JoinKind::Right), (cap::FULL_JOIN, JoinKind::Full)] {
            if env.caps.has(c) {
                kinds.push(kind);
            }
        }
        // Only `a NATURAL JOIN b` with nothing else: with more tables the shared column names
        // become ambiguous (SQLite: "ambiguous reference to c0 in USING()").
        if env.caps.has(cap::NATURAL_JOIN) && n == 2 && from.len() == 1 && natural_ok(env, &scope, ti) {
            kinds.push(JoinKind::Natural);
        }
        let kind = *kinds.choose(rng).unwrap_or(&JoinKind::Inner);
        if comma {
            // The comma form: a cross product filtered later. Never mixed with explicit joins:
            // SQLite reads `a, b JOIN c` as `(a, b) JOIN c`, the standard as `a, (b JOIN c)`.
            from.push(tref);
            scope.extend(new_cols);
            continue;
        }
        scope.extend(new_cols.clone());
        let (kind, on) = match kind {
            JoinKind::Cross | JoinKind::Natural => (kind, None),
            // PostgreSQL runs a FULL JOIN only on merge- or hash-joinable conditions, an
            // equality of columns ("FULL JOIN is only supported with ...", one in a hundred
            // checks); without one, a LEFT JOIN.
            JoinKind::Full => match equi_join(rng, env, &scope, &new_cols) {
                Some(eq) => (kind, Some(eq)),
                None => (JoinKind::Left, Some(join_condition(rng, env, &scope, &new_cols))),
            },
            _ => (kind, Some(join_condition(rng, env, &scope, &new_cols))),
        };
        joins.push(Join { kind, table: tref, on });
    }
    (from, joins, scope)
}

/// A NATURAL join is well-typed only if same-named columns have the same type.
fn natural_ok(env: &Env, scope: &[ScopeCol], ti: usize) -> bool {
    env.loose
        || env.tables[ti].columns.iter().all(|c| {
            scope.iter().all(|s| {
                let o = &env.tables[s.table].columns[s.column];
                o.name != c.name || o.ty == c.ty
            })
        })
}

fn join_condition(rng: &mut ChaCha8Rng, env: &Env, scope: &[ScopeCol], new_cols: &[ScopeCol]) -> Expr {
    if rng.gen_bool(0.6) {
        if let Some(eq) = equi_join(rng, env, scope, new_cols) {
            return eq;
        }
    }
    let mut g = ExprGen::new(rng, env, scope.to_vec());
    // Sometimes a subquery in ON, correlated with the tables joined so far.
    g.subqueries = g.rng.gen_bool(0.3) && env.caps.has(cap::JOIN_ON_SUBQUERY);
    g.predicate(1)
}

/// An equi-join between the new table and an earlier one, on columns of one type.
fn equi_join(rng: &mut ChaCha8Rng, env: &Env, scope: &[ScopeCol], new_cols: &[ScopeCol]) -> Option<Expr> {
    let a = new_cols.choose(rng)?;
    let at = env.tables[a.table].columns[a.column].ty;
    let earlier: Vec<&ScopeCol> = scope[..scope.len() - new_cols.len()]
        .iter()
        .filter(|s| env.loose || env.tables[s.table].columns[s.column].ty == at)
        .collect();
    let b = earlier.choose(rng)?;
    let ac = Expr::col(&a.visible, &env.tables[a.table].columns[a.column].name);
    let bc = Expr::col(&b.visible, &env.tables[b.table].columns[b.column].name);
    Some(Expr::bin(BinOp::Eq, bc, ac))
}

pub(crate) fn plain_items(g: &mut ExprGen, n: usize) -> Vec<Item> {
    (0..n)
        .map(|_| {
            let t = g.any_type();
            let mut expr = g.expr(t, 2);
            // An integer constant in GROUP BY or ORDER BY is a column number in SQLite, and a
            // constant key groups nothing: items always mention a column.
            if !mentions_column(&expr) || g.rng.gen_bool(0.6) {
                expr = column_or(g, expr);
            }
            Item { expr, alias: None }
        })
        .collect()
}

pub(crate) fn mentions_column(e: &Expr) -> bool {
    let mut found = false;
    e.visit(&mut |x| found |= matches!(x, Expr::Col(_)));
    found
}

pub(crate) fn column_or(g: &mut ExprGen, other: Expr) -> Expr {
    if g.scope.is_empty() {
        return other;
    }
    let sc = g.scope[g.rng.gen_range(0..g.scope.len())].clone();
    Expr::col(&sc.visible, &g.env.tables[sc.table].columns[sc.column].name)
}

/// The query of one check: a FROM clause and a predicate, shaped by the oracle's rules.
pub fn gen_query(rng: &mut ChaCha8Rng, env: &Env, oracle: SqlOracle) -> Query {
    let rules = oracle.rules();
    // The query's own tables (CTEs, derived tables) live in a copy of the database's env.
    let mut sources = crate::inner::sources(rng, env);
    // The CTEs move into the query; the env that knows their tables stays borrowed.
    let with = sources.as_mut().map(|(_, with)| std::mem::take(with)).unwrap_or_default();
    let env = sources.as_ref().map_or(env, |(qenv, _)| qenv);
    let (from, joins, scope) = gen_from(rng, env);
    let depth = rules.predicate_depth(rng);
    let mut g = ExprGen::new(rng, env, scope);
    let select = Select { with, from, joins, ..Select::default() };
    let mut q = Query { select, pred: None, count_rows: false };
    q.pred = Some(g.predicate(depth));
    rules.shape(&mut g, &mut q, depth);
    q
}

/// The static type of a column reference, for group keys (other expressions: unknown).
pub(crate) fn expr_type(env: &Env, scope: &[ScopeCol], e: &Expr) -> Option<SqlType> {
    match e {
        Expr::Col(c) => scope
            .iter()
            .find(|s| s.visible == c.table && env.tables[s.table].columns[s.column].name == c.column)
            .and_then(|s| env.tables[s.table].columns[s.column].ty),
        Expr::Lit(l) => lit_type(l),
        _ => None,
    }
}
