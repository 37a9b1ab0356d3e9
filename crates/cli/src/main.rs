//! The `crosscheck` binary: argument parsing, terminal output and exit codes.
//!
//! Architecture invariant: this is the only crate that writes to the terminal (besides the
//! worker protocol on a worker's stdout) or picks an exit code.

mod cases;
mod duration;
mod errors;
mod inspect;
mod kinds;
mod replay;
mod report;
mod run;
mod split;
mod summary;
mod summary_store;
mod tune;

use clap::{Parser, Subcommand};
use errors::{Result, EXIT_USAGE};
use std::path::PathBuf;

/// Generation, transformation and comparison allocate small trees and strings by the million;
/// mimalloc does that work in 30% less time than glibc's allocator (Datalog transformations:
/// 23,600 -> 33,000 per CPU second). In-process C engines (SQLite) keep the system allocator.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(name = "crosscheck", version, about = "Finds wrong answers in query engines")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run a testing campaign against one or more engines of a kind
    Run(Box<run::RunArgs>),
    /// List every known engine: available here, its version, how to install it
    Engines {
        #[arg(long)]
        json: bool,
    },
    /// The distinct bugs of a campaign, deduplicated, with counts and a reproducer each
    Findings {
        /// The campaign's output directory
        #[arg(default_value = "crosscheck-out")]
        dir: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// One self-contained HTML page of a campaign directory: plots over time, counts, each bug
    Report(report::ReportArgs),
    /// Input splitting: run an analyzer on bounded partitions in parallel, measure what is lost
    #[command(subcommand)]
    Split(split::SplitCommand),
    /// Tailor a tool's configuration to a workload and a limit (TAILOR); `tune eval` replays a recipe
    Tune(Box<tune::TuneCmd>),
    /// Test summaries: bounded-exhaustive queries and databases from a spec (count, list, run)
    #[command(subcommand)]
    Summary(summary::SummaryCmd),
    /// Re-run a finding: exit 1 if it still reproduces, 0 if not
    Replay(replay::ReplayArgs),
    /// Minimize a finding with its own oracle; writes reduced.* beside the original
    Reduce(replay::ReduceArgs),
    #[command(name = "__worker", hide = true)]
    Worker,
    #[command(name = "__probe", hide = true)]
    Probe,
    /// The first worker's test cases, one JSON line each (`--tests N`, default 2000)
    /// Tuples of Datalog unit files as findings: the tool `split run --tool datalog` runs
    /// (`crosscheck_split::tools::DATALOG_COMMAND`)
    #[command(name = "__split-datalog", hide = true)]
    SplitDatalog { files: Vec<PathBuf> },
    /// The verdict of SMT-LIB unit files as a finding: the tool `split run --tool smt` runs
    /// (`crosscheck_split::tools::SMT_COMMAND`)
    #[command(name = "__split-smt", hide = true)]
    SplitSmt { files: Vec<PathBuf> },
    /// Query rows and errors of SQL unit files as findings: the tool `split run --tool sql` runs
    /// (`crosscheck_split::tools::SQL_COMMAND`)
    #[command(name = "__split-sql", hide = true)]
    SplitSql { files: Vec<PathBuf> },
    #[command(name = "__cases", hide = true)]
    Cases(Box<run::RunArgs>),
}

fn main() {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                let _ = e.print();
                std::process::exit(0);
            }
            // One line, as for every other user mistake.
            let text = e.to_string();
            let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("bad arguments");
            let first = first.trim_start_matches("error: ");
            eprintln!("crosscheck: {first} (see crosscheck --help)");
            std::process::exit(EXIT_USAGE);
        }
    };
    // A closed stdout (`crosscheck findings | head`) must end a listing quietly, not panic. The
    // commands that run engines keep SIGPIPE ignored: they write to engines' pipes, and a write
    // to an engine that died is that engine's crash to report, not the end of the worker (a
    // GraphQLite shell that aborted took its worker down with signal 13).
    if matches!(cli.command, Command::Engines { .. } | Command::Findings { .. } | Command::Cases(_)) {
        // SAFETY: restoring the default SIGPIPE disposition touches no memory.
        unsafe {
            libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        }
    }
    let code = match dispatch(cli.command) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("crosscheck: {e}");
            EXIT_USAGE
        }
    };
    std::process::exit(code);
}

fn dispatch(cmd: Command) -> Result<i32> {
    match cmd {
        Command::Run(args) => run::run(*args),
        Command::Engines { json } => inspect::engines(json),
        Command::Findings { dir, json } => inspect::findings(&dir, json),
        Command::Report(args) => report::report(args),
        Command::Split(cmd) => split::split(cmd),
        Command::SplitDatalog { files } => split::datalog_eval(&files),
        Command::SplitSmt { files } => split::smt_solve(&files),
        Command::SplitSql { files } => split::sql_run(&files),
        Command::Tune(cmd) => tune::tune(*cmd),
        Command::Summary(cmd) => summary::summary(cmd),
        Command::Replay(args) => replay::replay(args),
        Command::Reduce(args) => replay::reduce(args),
        Command::Worker => run::worker(),
        Command::Probe => replay::probe(),
        Command::Cases(args) => cases::cases(*args),
    }
}
