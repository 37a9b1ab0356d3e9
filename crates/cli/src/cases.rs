//! The hidden `__cases` command: the test stream of a run's first worker, one JSON case a line,
//! without running it: each case as the worker checks it (materialized with the leg's helper
//! engines, as a worker does; this command is not the supervisor). `scripts/same-stream.sh` compares two revisions with it, so a change that
//! claims to keep behaviour can show that every leg and oracle still generates the same cases.

use crate::errors::{user, Result, EXIT_OK};
use crate::kinds::{kind_info, unknown_kind, with_kind};
use crate::run::{config, RunArgs};
use crosscheck_core::worker::{open_engines, RunConfig};
use crosscheck_core::{parse_oracles, CheckOptions, EngineInfo, GenOptions, Helpers, Kind, Oracle};
use std::io::Write;

pub fn cases(args: RunArgs) -> Result<i32> {
    let kind = kind_info(&args.kind).ok_or_else(|| user(unknown_kind(&args.kind)))?;
    let cfg = config(&args, kind)?;
    let n = cfg.tests.unwrap_or(2000);
    with_kind!(cfg.kind.as_str(), |k| print_cases(k, &cfg, n))
}

fn print_cases<K: Kind>(kind: &K, cfg: &RunConfig, n: u64) -> Result<i32> {
    let open = crate::kinds::opener(K::NAME);
    let engines = open_engines(&open, &cfg.engines).map_err(|e| user(e.message))?;
    let infos: Vec<EngineInfo> = engines.iter().map(|e| e.info().clone()).collect();
    let oracles = parse_oracles::<K::Oracle>(K::NAME, &cfg.oracles).map_err(user)?;
    let opts = GenOptions { seed: crosscheck_core::derive_seed(cfg.seed, 0), seeds_dir: cfg.seeds_dir.clone() };
    let mut gen = kind.generator(&opts, &infos).map_err(user)?;
    for text in crosscheck_core::notes::take() {
        eprintln!("crosscheck: {text}");
    }
    let mut helpers = Helpers::new(&open, kind.helpers(&infos));
    let check = CheckOptions { timeout: cfg.timeout };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    for index in 0..n {
        let oracle = oracles[crosscheck_core::position(index, oracles.len())];
        let case = kind.materialize(gen.case(index, oracle), &infos, &mut helpers, &check);
        let line = serde_json::to_string(&case).map_err(|e| user(format!("case {index}: {e}")))?;
        writeln!(out, "{index}\t{}\t{line}", oracle.name()).map_err(|e| user(format!("stdout: {e}")))?;
    }
    Ok(EXIT_OK)
}
