//! Frama-C Eva as a tuning target: the seed's kind of tool, an abstract interpreter. Work
//! item = one RTE property of a C program (`-rte`, reported with `-report-untried` so that every
//! configuration has the same denominator); resolved = Valid. Ingredient = one Eva run: a set
//! of domains beside `cvalue` (their lattice by inclusion is the precision poset) and numeric
//! knobs. An Invalid status is a definite answer that resolves nothing. A property Eva reports
//! Dead is unreachable: it raises no warning, so it resolves the item, as the seed counts.
//!
//! Dead code is trusted only when precision made it: Eva drops a state only where a condition
//! is infeasible or where an alarm holds for all of it (a *red* status, "stopping
//! propagation"), and after an Unknown alarm it keeps the states where it does not hold, as
//! every configuration does. So a run whose red statuses (`-eva-report-red-statuses`: invalid
//! for some state, even where the consolidated status is Unknown) are all the default's has
//! dead code only where no execution goes without undefined behaviour the default reports too;
//! a run with a red status or a propagation stop the default did not show gets an infinite cost
//! from the evaluator (the seed's naive cost would pick it: fewer Unknowns, because the cut
//! code was never analysed).

use crate::run::run_charged;
use crate::{Ingredient, Knob, Poset, Recipe, Sharing, Space, StageRun, Target, TargetError, Verdict};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// The domains an Eva run may add to `cvalue`.
pub const DOMAINS: [&str; 8] =
    ["symbolic-locations", "equality", "gauges", "octagon", "bitwise", "sign", "multidim", "traces"];

/// Eva's numeric knobs; the first value is Eva's own default and is not passed. `true` marks a
/// fixpoint knob, drawn with the domains in phase 1: the ones `-eva-precision` moves, and
/// widening's period; the others say how returns and non-linear expressions are split.
const KNOBS: &[(&str, &[&str], bool)] = &[
    ("slevel", &["default", "10", "50", "100", "500"], true),
    ("plevel", &["default", "500", "1000"], true),
    ("ilevel", &["default", "16", "32", "64"], true),
    ("widening-delay", &["default", "1", "6", "12"], true),
    ("widening-period", &["default", "2", "4"], true),
    ("auto-loop-unroll", &["default", "16", "64", "128"], true),
    ("min-loop-unroll", &["default", "1", "2"], true),
    ("partition-history", &["default", "1", "2"], true),
    ("split-return", &["default", "full", "auto"], false),
    ("subdivide-non-linear", &["default", "10", "40"], false),
];

/// One C program (one or more files analysed together) and the frama-c that analyses it.
pub struct Eva {
    binary: PathBuf,
    name: String,
    files: Vec<PathBuf>,
    extra: Vec<String>,
    keys: Vec<String>,
    index: HashMap<String, usize>,
    space: Space,
}

/// What one run reports: a status per property, in the report's order, and the properties
/// that were invalid for some state.
struct Report {
    statuses: Vec<(String, String)>,
    red: Vec<String>,
}

impl Eva {
    /// The program made of `files`, with `extra` frama-c arguments (`-cpp-extra-args=-I...`,
    /// `-main f`); its RTE properties are listed by one run without Eva.
    pub fn new(binary: &Path, name: &str, files: &[PathBuf], extra: &[String]) -> Result<Eva, TargetError> {
        let mut eva = Eva {
            binary: binary.to_path_buf(),
            name: name.to_string(),
            // frama-c resolves a relative source path against a directory of its own choosing.
            files: files.iter().map(|f| std::fs::canonicalize(f).unwrap_or_else(|_| f.clone())).collect(),
            extra: extra.to_vec(),
            keys: Vec::new(),
            index: HashMap::new(),
            space: space(),
        };
        let (report, ran) = eva.report(&[], Duration::from_secs(120))?;
        if report.statuses.is_empty() {
            let why = ran.stderr.lines().chain(ran.stdout.lines()).find(|l| l.contains("error") || l.contains("rror"));
            return Err(TargetError::Setup(format!(
                "{name}: frama-c listed no RTE property{}",
                why.map(|w| format!(" ({})", w.trim())).unwrap_or_default()
            )));
        }
        eva.keys = report.statuses.into_iter().map(|(k, _)| k).collect();
        eva.index = eva.keys.iter().enumerate().map(|(i, k)| (k.clone(), i)).collect();
        Ok(eva)
    }

    /// Runs frama-c with `analysis` between `-rte` and the report.
    fn report(&self, analysis: &[String], limit: Duration) -> Result<(Report, crate::run::Ran), TargetError> {
        let io = |what: String| move |source| TargetError::Io { what, source };
        let dir = tempfile::tempdir().map_err(io("creating a temporary directory".into()))?;
        let (csv, red) = (dir.path().join("report.csv"), dir.path().join("red.csv"));
        let mut cmd = Command::new(&self.binary);
        cmd.args(&self.files).args(&self.extra).arg("-rte").args(analysis);
        if !analysis.is_empty() {
            cmd.arg("-eva-report-red-statuses").arg(&red);
        }
        cmd.args(["-then", "-report-untried", "-report-csv"]).arg(&csv);
        let ran = run_charged(&mut cmd, "", limit).map_err(io(format!("running {}", self.binary.display())))?;
        let text = std::fs::read_to_string(&csv).unwrap_or_default();
        let red = std::fs::read_to_string(&red).unwrap_or_default();
        Ok((Report { statuses: numbered(parse_csv(&text)), red: parse_red(&red) }, ran))
    }

    fn arguments(&self, ing: &Ingredient) -> Vec<String> {
        let mut domains = vec!["cvalue".to_string()];
        domains.extend(self.space.domains.name(ing.domain).split('+').filter(|d| *d != "cvalue").map(String::from));
        let mut args = vec!["-then".into(), "-eva".into(), "-eva-domains".into(), domains.join(",")];
        for (k, v) in self.space.changed(ing) {
            args.push(format!("-eva-{k}"));
            args.push(v);
        }
        args
    }
}

/// The lattice of domain sets beside `cvalue`, `cvalue` alone being the default recipe.
pub fn space() -> Space {
    let knobs = KNOBS.iter().map(|&(n, vs, fixpoint)| Knob { fixpoint, ..Knob::new(n, vs, 0) }).collect();
    let mut space =
        Space { domains: Poset::powerset(&DOMAINS, "cvalue"), knobs, default: Recipe(vec![]), slices: false };
    space.default = Recipe(vec![space.plain(0)]);
    space
}

/// The property kinds of RTE and Eva alarms (the report also lists library specifications:
/// preconditions, assigns and from clauses, which are not work items).
const ALARMS: &[&str] = &[
    "mem_access",
    "index_bound",
    "signed_overflow",
    "unsigned_overflow",
    "signed_downcast",
    "unsigned_downcast",
    "division_by_zero",
    "shift",
    "float_to_int",
    "is_nan_or_infinite",
    "is_nan",
    "initialization",
    "pointer_value",
    "ptr_comparison",
    "differing_blocks",
    "separation",
    "overlap",
    "dangling_pointer",
    "function_pointer",
    "pointer_downcast",
    "bool_value",
];

/// `(key, status)` per RTE property of a `-report-csv` file (tab-separated: directory, file,
/// line, function, property kind, status, property; a property text spanning lines leaves
/// lines of fewer fields, skipped).
fn parse_csv(text: &str) -> Vec<(String, String)> {
    text.lines()
        .skip(1)
        .filter_map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f.len() >= 7 && ALARMS.contains(&f[4]))
                .then(|| (format!("{}:{}:{}:{}:{}", f[1], f[2], f[3], f[4], f[6]), f[5].to_string()))
        })
        .collect()
}

/// Keys made unique in report order: a macro expanded twice on one line gives two properties
/// with one text (bzip2's `UPHEAP`), the second is `key #2`. RTE's properties and the report's
/// order do not depend on Eva's configuration, so the numbering names the same property in
/// every run.
fn numbered(rows: Vec<(String, String)>) -> Vec<(String, String)> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    rows.into_iter()
        .map(|(k, status)| {
            let n = seen.entry(k.clone()).or_insert(0);
            *n += 1;
            (if *n == 1 { k } else { format!("{k} #{n}") }, status)
        })
        .collect()
}

/// The keys of an `-eva-report-red-statuses` file (tab-separated: directory, file, line,
/// function, kind, name, contexts, status, property), as [`parse_csv`] writes them.
fn parse_red(text: &str) -> Vec<String> {
    text.lines()
        .skip(1)
        .filter_map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f.len() >= 9).then(|| format!("{}:{}:{}:{}:{}", f[1], f[2], f[3], f[5], f[8]))
        })
        .collect()
}

impl Eva {
    /// One run at Eva's own `-eva-precision` level (0 to 11): the built-in ladder, the baseline
    /// a tuned recipe has to beat.
    pub fn at_precision(&self, level: u8, limit: Duration) -> Result<StageRun, TargetError> {
        let args = ["-then", "-eva", "-eva-precision"].iter().map(|s| s.to_string()).chain([level.to_string()]);
        let items: Vec<usize> = (0..self.keys.len()).collect();
        self.stage(&args.collect::<Vec<_>>(), &items, limit)
    }

    fn stage(&self, args: &[String], items: &[usize], budget: Duration) -> Result<StageRun, TargetError> {
        let (report, ran) = self.report(args, budget)?;
        let mut out = StageRun { used: ran.cpu, over: ran.killed, ..StageRun::default() };
        if ran.killed {
            return Ok(out);
        }
        if ran.stdout.contains("stopping propagation") {
            out.guards.insert("stopping propagation".into());
        }
        out.guards.extend(report.red.iter().map(|k| format!("red: {k}")));
        for (key, status) in report.statuses {
            let Some(&i) = self.index.get(&key) else { continue };
            if status == "Invalid" {
                out.guards.insert(format!("invalid: {key}"));
            }
            if !items.contains(&i) {
                continue;
            }
            let v = match status.as_str() {
                "Valid" => Verdict::Resolved("valid".into()),
                "Invalid" => Verdict::Refuted("invalid".into()),
                "Dead" => Verdict::Unreachable,
                _ => Verdict::Unresolved,
            };
            out.verdicts.push((i, v));
        }
        Ok(out)
    }
}

impl Target for Eva {
    fn name(&self) -> &str {
        &self.name
    }
    fn space(&self) -> &Space {
        &self.space
    }
    fn items(&self) -> usize {
        self.keys.len()
    }
    fn item_name(&self, i: usize) -> String {
        self.keys[i].clone()
    }
    fn sharing(&self) -> Sharing {
        Sharing::PerRun
    }
    fn run(&self, ing: &Ingredient, items: &[usize], budget: Duration) -> Result<StageRun, TargetError> {
        self.stage(&self.arguments(ing), items, budget)
    }
}

/// One program of a workload: its name, its C files, its extra frama-c arguments.
pub type Program = (String, Vec<PathBuf>, Vec<String>);

/// The programs of an Eva workload: a `.c` file is one program; a directory with a
/// `frama-c.args` file (extra frama-c arguments, one per line) is one program of all its `.c`
/// files; any other directory holds one program per `.c` file and one per subdirectory that
/// has `.c` files (all of them, with its `frama-c.args` if present), in name order.
pub fn programs(workload: &Path) -> Result<Vec<Program>, TargetError> {
    let name = |p: &Path| p.file_name().map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into_owned());
    if workload.is_file() {
        return Ok(vec![(name(workload), vec![workload.to_path_buf()], vec![])]);
    }
    let read = |d: &Path| -> Result<Vec<PathBuf>, TargetError> {
        let entries = std::fs::read_dir(d)
            .map_err(|source| TargetError::Io { what: format!("reading {}", d.display()), source })?;
        let mut v: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
        v.sort();
        Ok(v)
    };
    let args_of = |d: &Path| -> Vec<String> {
        let text = std::fs::read_to_string(d.join("frama-c.args")).unwrap_or_default();
        text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).map(String::from).collect()
    };
    let c_files = |d: &Path| -> Result<Vec<PathBuf>, TargetError> {
        Ok(read(d)?.into_iter().filter(|f| f.extension().is_some_and(|x| x == "c")).collect())
    };
    if workload.join("frama-c.args").is_file() {
        return Ok(vec![(name(workload), c_files(workload)?, args_of(workload))]);
    }
    let entries = read(workload)?;
    let mut out = Vec::new();
    for e in entries {
        if e.extension().is_some_and(|x| x == "c") {
            out.push((name(&e), vec![e.clone()], vec![]));
        } else if e.is_dir() {
            let cs = c_files(&e)?;
            if !cs.is_empty() {
                out.push((name(&e), cs, args_of(&e)));
            }
        }
    }
    if out.is_empty() {
        return Err(TargetError::Setup(format!("{}: no .c file or program directory here", workload.display())));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports_and_summaries_parse() {
        let csv = "directory\tfile\tline\tfunction\tproperty kind\tstatus\tproperty\n\
                   .\tt.c\t4\tmain\tindex_bound\tValid\ti < 10\n.\tt.c\t7\tmain\tsigned_overflow\tUnknown\ts + 1 ≤ 2147483647\n";
        let rows = parse_csv(csv);
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0], ("t.c:4:main:index_bound:i < 10".to_string(), "Valid".to_string()));
        let twice = numbered(vec![("k".into(), "Valid".into()), ("k".into(), "Dead".into()), ("j".into(), "".into())]);
        let keys: Vec<&str> = twice.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["k", "k #2", "j"]);
        let red = "directory\tfile\tline\tfunction\tkind\tname\t#contexts\tstatus\tproperty\n\
                   .\tcut.c\t10\tmain\tProperty\tindex_bound\t1\tUnknown\tk < 4\n";
        assert_eq!(parse_red(red), ["cut.c:10:main:index_bound:k < 4"]);
    }

    #[test]
    fn workloads_split_into_programs() {
        let dir = tempfile::tempdir().expect("tempdir");
        let d = dir.path();
        std::fs::create_dir_all(d.join("lz4")).expect("mkdir");
        for f in ["a.c", "b.c", "notes.txt", "lz4/x.c", "lz4/y.c"] {
            std::fs::write(d.join(f), "int main(void){return 0;}").expect("write");
        }
        std::fs::write(d.join("lz4/frama-c.args"), "# includes\n-cpp-extra-args=-Iinc\n").expect("write");
        let p = programs(d).expect("programs");
        let names: Vec<&str> = p.iter().map(|x| x.0.as_str()).collect();
        assert_eq!(names, ["a.c", "b.c", "lz4"]);
        assert_eq!(p[2].1.len(), 2);
        assert_eq!(p[2].2, ["-cpp-extra-args=-Iinc"]);
        let one = programs(&d.join("lz4")).expect("programs");
        assert_eq!(one.len(), 1, "a directory with frama-c.args is one program");
        assert!(programs(&d.join("missing")).is_err());
    }

    #[test]
    fn the_space_is_the_lattice_of_domain_sets() {
        let s = space();
        assert_eq!(s.domains.len(), 256);
        assert_eq!(s.describe(&s.default), "cvalue");
        assert_eq!(s.domains.greater(0).len(), 8);
    }
}
