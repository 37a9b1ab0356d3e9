//! Writes a generated workload to a directory: `cargo run --release -p crosscheck-tune
//! --example workload -- smt|lp DIR [COUNT] [SEED] [tiny|hard]`.

use crosscheck_tune::workloads::{lp_batch, smt_batch, Size};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: workload smt|lp DIR [COUNT] [SEED] [tiny|hard]";
    let (Some(kind), Some(dir)) = (args.first(), args.get(1)) else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let count = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(20);
    let seed = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1);
    let size = if args.get(4).is_some_and(|s| s == "tiny") { Size::Tiny } else { Size::Hard };
    let batch = match kind.as_str() {
        "smt" => smt_batch(seed, count, size),
        "lp" => lp_batch(seed, count, size),
        _ => {
            eprintln!("{usage}");
            std::process::exit(2);
        }
    };
    if let Err(e) = std::fs::create_dir_all(dir) {
        eprintln!("workload: {dir}: {e}");
        std::process::exit(2);
    }
    for (name, text) in batch {
        if let Err(e) = std::fs::write(std::path::Path::new(dir).join(&name), text) {
            eprintln!("workload: {name}: {e}");
            std::process::exit(2);
        }
    }
}
