//! Benchmark: Eva's built-in `-eva-precision 0..11` ladder on every program of a workload, the
//! baseline a tuned recipe must beat: Valid and Dead RTE properties, CPU seconds, and whether the run hit
//! the limit or showed a warning sign the tuner would reject (Invalid, stopped propagation).
//!
//! ```text
//! cargo run --release -p crosscheck-tune --example eva_ladder -- WORKLOAD LIMIT_SECS
//! ```

use crosscheck_tune::targets::eva::{programs, Eva};
use crosscheck_tune::Verdict;
use std::path::Path;
use std::time::Duration;

fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let (Some(workload), Some(limit)) = (a.first(), a.get(1).and_then(|s| s.parse::<f64>().ok())) else {
        eprintln!("usage: eva_ladder WORKLOAD LIMIT_SECS");
        std::process::exit(2);
    };
    let Some(bin) = crosscheck_engines::transport::process::find_tool("frama-c") else {
        eprintln!("eva_ladder: frama-c not found (scripts/install-tune-tools.sh)");
        std::process::exit(2);
    };
    let progs = programs(Path::new(workload)).unwrap_or_else(|e| {
        eprintln!("eva_ladder: {e}");
        std::process::exit(2)
    });
    println!("program items level valid dead cpu_s over warnings");
    for (name, files, extra) in progs {
        let t = match Eva::new(&bin, &name, &files, &extra) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("eva_ladder: {e}");
                continue;
            }
        };
        for level in 0..=11u8 {
            match t.at_precision(level, Duration::from_secs_f64(limit)) {
                Ok(r) => {
                    let valid = r.verdicts.iter().filter(|(_, v)| matches!(v, Verdict::Resolved(_))).count();
                    let dead = r.verdicts.iter().filter(|(_, v)| matches!(v, Verdict::Unreachable)).count();
                    let n = crosscheck_tune::Target::items(&t);
                    let warn: Vec<String> = r.guards.iter().map(|g| g.chars().take(40).collect()).collect();
                    println!("{name} {n} {level} {valid} {dead} {:.2} {} {}", r.used.as_secs_f64(), r.over, warn.len());
                }
                Err(e) => eprintln!("eva_ladder: {name}: {e}"),
            }
        }
    }
}
