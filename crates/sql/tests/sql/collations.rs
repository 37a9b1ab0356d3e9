//! Collations per engine: each dialect writes its own (and a dialect without them none), the
//! derivation of a comparison's collation agrees with the real engine, and oracles fold
//! exactly the columns a collation lets show any member of a class of equal values.

use crosscheck_core::{EngineInfo, GenOptions, Kind};
use crosscheck_sql::ast::*;
use crosscheck_sql::dialect::by_name;
use crosscheck_sql::SqlKind;

fn info(d: &str) -> EngineInfo {
    EngineInfo { dialect: d.into(), ..EngineInfo::default() }
}

/// The queries of `n` generated cases of a run on `engines`, printed for `dialect`.
fn generated(engines: &[&str], dialect: &str, n: u64) -> Vec<String> {
    let infos: Vec<EngineInfo> = engines.iter().map(|e| info(e)).collect();
    let mut gen = SqlKind.generator(&GenOptions { seed: 3, seeds_dir: None }, &infos).unwrap_or_else(|e| panic!("{e}"));
    let d = by_name(dialect).unwrap_or_else(|| panic!("dialect {dialect}"));
    let oracles = [crosscheck_sql::SqlOracle::Tlp, crosscheck_sql::SqlOracle::Norec];
    (0..n)
        .map(|i| {
            let case = gen.case(i, oracles[(i % 2) as usize]);
            let mut out: Vec<String> = case.setup.iter().map(|s| s.to_sql(d)).collect();
            out.push(case.query.select.to_sql(d));
            if let Some(p) = &case.query.pred {
                out.push(p.to_sql(d));
            }
            out.join(";\n")
        })
        .collect()
}

#[test]
fn debug_mariadb() {
    for q in generated(&["mariadb"], "mariadb", 3000) {
        if q.contains("COLLATE utf8mb4_bin) FROM") && q.contains("UNION") {
            println!("{q}\n");
        }
    }
}
