//! Collations per engine: each dialect writes its own (and a run whose engines differ none
//! but BINARY), the derivation of a comparison's collation (`collation::settle`) agrees with
//! the real engine, and oracles fold exactly the columns a collation lets show any member of
//! a class of equal values.

use crosscheck_core::{EngineInfo, GenOptions, Kind, Rows, Value};
use crosscheck_engines::testing::{done, open_sql, rows};
use crosscheck_sql::ast::*;
use crosscheck_sql::collation::{available, class_key, settle, Collations, Rules};
use crosscheck_sql::compare::{compare, fold_flags, Fold};
use crosscheck_sql::dialect::{by_name, cap, Caps, Dialect};
use crosscheck_sql::SqlKind;

fn info(d: &str) -> EngineInfo {
    EngineInfo { dialect: d.into(), ..EngineInfo::default() }
}

fn dialect(name: &str) -> &'static dyn Dialect {
    by_name(name).unwrap_or_else(|| panic!("dialect {name}"))
}

/// Every collation in `n` generated cases of a run on `engines`: column defaults and COLLATE.
fn generated(engines: &[&str], n: u64) -> std::collections::BTreeSet<String> {
    let infos: Vec<EngineInfo> = engines.iter().map(|e| info(e)).collect();
    let mut gen = SqlKind.generator(&GenOptions { seed: 3, seeds_dir: None }, &infos).unwrap_or_else(|e| panic!("{e}"));
    let mut found = std::collections::BTreeSet::new();
    for i in 0..n {
        let case = gen.case(i, crosscheck_sql::SqlOracle::Tlp);
        let mut declared = Vec::new();
        let mut note = |e: &Expr| {
            if let Expr::Collate(_, c) = e {
                found.insert(format!("{c:?}"));
            }
        };
        for s in case.setup.iter() {
            match s {
                Stmt::CreateTable { columns, .. } => declared.extend(columns.iter().filter_map(|c| c.collate)),
                Stmt::CreateView { select, .. } => select.visit_exprs(&mut note),
                _ => {}
            }
        }
        case.query.select.visit_exprs(&mut note);
        if let Some(p) = &case.query.pred {
            p.visit(&mut note);
        }
        found.extend(declared.iter().map(|c| format!("{c:?}")));
    }
    found
}

#[test]
fn each_engine_gets_its_own_collations_and_a_mixed_run_only_binary() {
    for (engines, expect) in [
        (&["sqlite"][..], &["Binary", "NoCase", "RTrim"][..]),
        (&["duckdb"], &["Binary", "NoAccent", "NoCase", "NoCaseNoAccent"]),
        (&["postgres"], &["Binary", "Icu"]),
        (&["mariadb"], &["Binary", "NoCase", "NoCasePad", "RTrim", "UnicodeCi"]),
    ] {
        let found = generated(engines, 1500);
        let want: std::collections::BTreeSet<String> = expect.iter().map(|s| s.to_string()).collect();
        assert_eq!(found, want, "{engines:?}");
    }
    // Engines with different collations (names, orders, derivations) share none.
    for engines in [&["sqlite", "duckdb"][..], &["duckdb", "postgres"], &["postgres", "mariadb"]] {
        let found = generated(engines, 600);
        assert!(found.iter().all(|c| c == "Binary"), "{engines:?}: {found:?}");
    }
    let caps = Caps::new(["sqlite-collations"]);
    assert_eq!(Rules::of_caps(&caps), Rules::Sqlite);
    assert_eq!(available(&Caps::new(Vec::<String>::new())), vec![Collation::Binary]);
}

fn truth(v: &Value) -> Option<bool> {
    match v {
        Value::Bool(b) => Some(*b),
        Value::Int(i) => Some(*i != 0),
        Value::Null => None,
        other => panic!("not a truth value: {other:?}"),
    }
}

fn text(v: &Value) -> String {
    match v {
        Value::Text(s) => s.clone(),
        other => panic!("not text: {other:?}"),
    }
}

/// One text column per collation the dialect has, and one without COLLATE, each row holding
/// one value in every column (accented ones where the dialect gets them).
fn collated_table(d: &dyn Dialect, colls: &[Collation]) -> (Stmt, Vec<Stmt>, Vec<String>) {
    let mut columns = vec![ColumnDef::plain("cb", SqlType::Text)];
    for (i, c) in colls.iter().enumerate() {
        columns.push(ColumnDef { collate: Some(*c), ..ColumnDef::plain(&format!("c{i}"), SqlType::Text) });
    }
    let names: Vec<String> = columns.iter().map(|c| c.name.clone()).collect();
    let mut values = vec!["a", "A", "a ", "A ", "b", "_"];
    if d.has_cap(cap::ACCENTED_TEXT) {
        values.extend(crosscheck_sql::collation::ACCENTED);
    }
    let inserts = values
        .iter()
        .map(|v| Stmt::Insert {
            table: "t0".into(),
            columns: names.clone(),
            values: names.iter().map(|_| Expr::Lit(Lit::Text(v.to_string()))).collect(),
        })
        .collect();
    (Stmt::CreateTable { name: "t0".into(), columns }, inserts, names)
}

/// The operands a comparison may have: a column of each collation, the one without, and each
/// collation explicit on a column.
fn operands(t: &str, names: &[String], colls: &[Collation]) -> Vec<Expr> {
    let mut v: Vec<Expr> = names.iter().map(|n| Expr::col(t, n)).collect();
    v.extend(colls.iter().map(|c| Expr::Collate(Box::new(Expr::col(t, "cb")), *c)));
    v
}

/// For every pair of operands, `l = r` over every pair of rows as the engine answers it and
/// as the settled derivation predicts: equal exactly when the class keys under the
/// derived collation are.
#[test]
fn derivation_of_comparisons_agrees_with_each_engine() {
    for name in ["duckdb", "postgres", "mariadb"] {
        let Some(mut e) = open_sql(name) else { continue };
        let d = dialect(name);
        let colls = available(&Caps::new(d.capabilities()));
        let (create, inserts, names) = collated_table(d, &colls);
        done(e.as_mut(), &create.to_sql(d));
        for i in &inserts {
            done(e.as_mut(), &i.to_sql(d));
        }
        let setup: Vec<Stmt> = std::iter::once(create).chain(inserts).collect();
        let rules = Rules::of_dialect(d);
        let (ls, rs) = (operands("l", &names, &colls), operands("r", &names, &colls));
        let mut checked = 0;
        for l in &ls {
            for r in &rs {
                let mut s = Select {
                    items: vec![
                        Item { expr: Expr::col("l", "cb"), alias: None },
                        Item { expr: Expr::col("r", "cb"), alias: None },
                        Item { expr: Expr::bin(BinOp::Eq, l.clone(), r.clone()), alias: None },
                    ],
                    from: vec![TableRef::named("t0", Some("l".into())), TableRef::named("t0", Some("r".into()))],
                    ..Select::default()
                };
                settle(rules, &setup, &mut s, None);
                let Expr::Binary(_, sl, sr) = &s.items[2].expr else { panic!("a comparison") };
                // The collation both settled operands carry: that of their concatenation.
                let probe = Select {
                    items: vec![Item { expr: Expr::bin(BinOp::Concat, (**sl).clone(), (**sr).clone()), alias: None }],
                    ..s.clone()
                };
                let colls_of =
                    Collations::new(&setup).under(d).items(&probe).unwrap_or_else(|| panic!("{name}: rules"));
                let c = colls_of[0];
                let sql = s.to_sql(d);
                let answer: Rows = rows(e.as_mut(), &sql);
                for row in &answer.rows {
                    let (a, b) = (text(&row[0]), text(&row[1]));
                    let want = class_key(c, &a) == class_key(c, &b);
                    assert_eq!(truth(&row[2]), Some(want), "{name}: {sql}: {a:?} = {b:?} under {c:?}");
                    checked += 1;
                }
            }
        }
        assert!(checked >= 900, "{name}: {checked} comparisons");
    }
}

/// A case-insensitive column under DISTINCT is compared folded ('a' and 'A' are one value, so
/// an engine may show either); a binary one exactly, so a changed letter case is a difference.
#[test]
fn distinct_folds_a_case_insensitive_column_and_not_a_binary_one() {
    for (name, ci) in [("duckdb", Collation::NoCase), ("mariadb", Collation::NoCasePad), ("sqlite", Collation::NoCase)]
    {
        let d = dialect(name);
        let columns = vec![
            ColumnDef { collate: Some(ci), ..ColumnDef::plain("c0", SqlType::Text) },
            ColumnDef::plain("c1", SqlType::Text),
        ];
        let setup = vec![Stmt::CreateTable { name: "t0".into(), columns }];
        let s = Select {
            distinct: true,
            items: vec![
                Item { expr: Expr::col("t0", "c0"), alias: None },
                Item { expr: Expr::col("t0", "c1"), alias: None },
            ],
            from: vec![TableRef::named("t0", None)],
            ..Select::default()
        };
        let r = |a: &str, b: &str| {
            Rows::new(vec!["c0".into(), "c1".into()], vec![vec![Value::Text(a.into()), Value::Text(b.into())]])
        };
        let q = r("a", "x");
        let fold = fold_flags(&Collations::new(&setup).under(d), &s, &q);
        assert_eq!(fold, Fold(vec![ci, Collation::Binary]), "{name}");
        assert!(compare(&q, &r("A", "x"), &fold).is_none(), "{name}: 'a' and 'A' are one value under {ci:?}");
        assert!(compare(&q, &r("a", "X"), &fold).is_some(), "{name}: a binary column compares exactly");
        let padded = compare(&q, &r("a ", "x"), &fold).is_none();
        // PAD SPACE (MariaDB's utf8mb4_general_ci) ignores trailing spaces; NOCASE does not.
        assert_eq!(padded, ci == Collation::NoCasePad, "{name}");
    }
}

/// Accented text is stored where the run is DuckDB's alone, whose NOACCENT then has something
/// to fold; no other engine gets it (their case- and accent-blind collations differ).
#[test]
fn accented_text_reaches_duckdb_alone() {
    let accented = |engines: &[&str]| -> usize {
        let infos: Vec<EngineInfo> = engines.iter().map(|e| info(e)).collect();
        let mut gen =
            SqlKind.generator(&GenOptions { seed: 3, seeds_dir: None }, &infos).unwrap_or_else(|e| panic!("{e}"));
        let mut n = 0;
        for i in (0..6000).step_by(200) {
            for s in gen.case(i, crosscheck_sql::SqlOracle::Tlp).setup.iter() {
                if let Stmt::Insert { values, .. } = s {
                    n += values.iter().filter(|v| matches!(v, Expr::Lit(Lit::Text(t)) if !t.is_ascii())).count();
                }
            }
        }
        n
    };
    assert!(accented(&["duckdb"]) > 0);
    for engines in [&["sqlite"][..], &["postgres"], &["mariadb"], &["duckdb", "postgres"]] {
        assert_eq!(accented(engines), 0, "{engines:?}");
    }
}
