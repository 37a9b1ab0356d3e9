//! The checks: metamorphic (queryFuzz and DLSmith: original vs transformed output on each
//! engine), differential (one program on every engine that supports it, the reference first
//! when present) and config (one engine with and without an option), plus reproducers.

use crate::analysis::features;
use crate::ast::{Fact, Program, Type, Val};
use crate::engines::{self, print};
use crate::qf::Expect;
use crate::DatalogOracle;
use crate::{Case, Test};
use crosscheck_core::bag::diff;
use crosscheck_core::{
    Check, CheckOptions, CompareOptions, Engine, EngineInfo, ErrorClass, Evidence, FindingClass, Outcome, Relation,
    Rows, Value,
};
use serde_json::json;

/// Whether an engine can run a program at all.
pub fn supports(info: &EngineInfo, p: &Program) -> bool {
    features(p).iter().all(|f| info.has(f))
}

/// Rows as a set (Datalog relations are sets), in canonical order.
pub fn as_set(r: &Rows) -> Rows {
    let opts = CompareOptions::default();
    let mut keyed: Vec<(Vec<crosscheck_core::Canon>, Vec<Value>)> =
        r.rows.iter().map(|row| (row.iter().map(|v| v.canon(&opts)).collect(), row.clone())).collect();
    keyed.sort_by(|a, b| a.0.cmp(&b.0));
    keyed.dedup_by(|a, b| a.0 == b.0);
    Rows::new(r.columns.clone(), keyed.into_iter().map(|(_, v)| v).collect())
}

pub fn render(r: &Rows) -> String {
    let rows: Vec<String> = r
        .rows
        .iter()
        .map(|row| format!("({})", row.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(", ")))
        .collect();
    if rows.len() > 50 {
        format!("{} tuples: {} ...", rows.len(), rows[..50].join(" "))
    } else {
        format!("{} tuples: {}", rows.len(), rows.join(" "))
    }
}

/// What one run gave: rows, or a verdict for the check (skip or finding).
enum Ran {
    Rows(Rows),
    Stop(Check),
}

thread_local! {
    /// Answers to original programs, per engine label and program text: queryFuzz runs ten
    /// transformations of each program, and `config` ten options, and the original's answer
    /// does not change in between.
    static ORIGINALS: std::cell::RefCell<std::collections::HashMap<(String, String), Rows>> = Default::default();
}

fn run_cached(e: &mut Box<dyn Engine>, p: &Program, out: &str, opts: &CheckOptions) -> Ran {
    let Ok(text) = print(&e.info().dialect, p, out, None) else { return run(e, p, out, None, opts) };
    let key = (e.info().label.clone(), text);
    if let Some(r) = ORIGINALS.with(|c| c.borrow().get(&key).cloned()) {
        return Ran::Rows(r);
    }
    let r = run(e, p, out, None, opts);
    if let Ran::Rows(rows) = &r {
        ORIGINALS.with(|c| {
            let mut c = c.borrow_mut();
            if c.len() > 64 {
                c.clear();
            }
            c.insert(key, rows.clone());
        });
    }
    r
}

fn run(e: &mut Box<dyn Engine>, p: &Program, out: &str, option: Option<&str>, opts: &CheckOptions) -> Ran {
    let dialect = e.info().dialect.clone();
    let text = match print(&dialect, p, out, option) {
        Ok(t) => t,
        Err(msg) => return Ran::Stop(Check::Skip(msg)),
    };
    match e.run(&text, opts.timeout) {
        Outcome::Rows(r) => Ran::Rows(as_set(&r)),
        Outcome::Crash { signal, code, stderr_tail } => {
            // The panic location (or signal) identifies the crash across programs.
            let key = match (signal, stderr_tail.strip_prefix("panic: ")) {
                (Some(s), _) => format!("signal {s}"),
                (None, Some(msg)) => {
                    // Numbers vary with the program ("the len is 2 but the index is 3"): one
                    // panic site, one key (a 10-minute Nemo campaign gave 52 keys otherwise).
                    let line: String = msg.lines().next().unwrap_or("").chars().take(80).collect();
                    let mut key = String::from("panic: ");
                    for c in line.chars() {
                        if !c.is_ascii_digit() {
                            key.push(c);
                        } else if !key.ends_with('#') {
                            key.push('#');
                        }
                    }
                    key
                }
                (None, None) => format!("crash {}", code.map(|c| c.to_string()).unwrap_or_default()),
            };
            Ran::Stop(Check::finding(Evidence {
                class: FindingClass::Crash,
                engine: e.info().label.clone(),
                summary: format!("{} crashed on a {dialect} program", e.info().label),
                expected: "a result".into(),
                actual: stderr_tail.clone(),
                key,
                detail: json!({ "program": text }),
            }))
        }
        Outcome::Timeout { .. } => Ran::Stop(Check::Skip("timeout".into())),
        Outcome::Error { message, class: ErrorClass::Expected } => {
            Ran::Stop(Check::Skip(format!("an engine limit ({})", message.replace(':', ";"))))
        }
        Outcome::Error { message, .. } => Ran::Stop(Check::Skip(format!("{}: {message}", e.info().label))),
        other => Ran::Stop(Check::Skip(format!("unexpected outcome {other}"))),
    }
}

pub fn check(oracle: DatalogOracle, case: &Case, engines: &mut [Box<dyn Engine>], opts: &CheckOptions) -> Check {
    match &case.test {
        Test::Nothing(why) => Check::Skip(why.clone()),
        Test::Metamorphic { transformed, expect, steps, inline } => {
            metamorphic(oracle, &case.program, transformed, *expect, steps, inline, engines, opts)
        }
        Test::Differential => differential(&case.program, engines, opts),
        Test::Config { option } => config(&case.program, *option, engines, opts),
    }
}

/// Replaces the rules of `rels` in `p` by the given tuples (EQU-FACTINLINE).
pub fn inline_facts(p: &Program, rel: &str, rows: &Rows) -> Option<Program> {
    let cols = p.cols(rel).to_vec();
    let mut q = p.clone();
    q.rules.retain(|r| r.head.rel != rel);
    for row in &rows.rows {
        let vals: Option<Vec<Val>> = row
            .iter()
            .zip(&cols)
            .map(|(v, t)| match (v, t) {
                (Value::Int(n), Type::Number) => Some(Val::Num(*n)),
                (Value::Float(f), Type::Number) if f.fract() == 0.0 => Some(Val::Num(*f as i64)),
                (Value::Text(s), Type::Symbol) => Some(Val::Sym(s.clone())),
                _ => None,
            })
            .collect();
        let f = Fact { rel: rel.to_string(), vals: vals? };
        if !q.facts.contains(&f) {
            q.facts_mut().push(f);
        }
    }
    Some(q)
}

#[allow(clippy::too_many_arguments)]
fn metamorphic(
    oracle: DatalogOracle,
    orig: &Program,
    trans: &Program,
    expect: Expect,
    steps: &[String],
    inline: &[String],
    engines: &mut [Box<dyn Engine>],
    opts: &CheckOptions,
) -> Check {
    let mut ran = false;
    let mut nonempty = false;
    for e in engines.iter_mut() {
        if !supports(e.info(), orig) || !supports(e.info(), trans) {
            continue;
        }
        let mut trans = trans.clone();
        for rel in inline {
            let rows = match run_cached(e, orig, rel, opts) {
                Ran::Rows(r) => r,
                Ran::Stop(c) => return c,
            };
            match inline_facts(&trans, rel, &rows) {
                Some(q) => trans = q,
                None => return Check::Skip("facts of an inlined relation do not fit its types".into()),
            }
        }
        for out in &orig.outputs {
            let a = match run_cached(e, orig, out, opts) {
                Ran::Rows(r) => r,
                Ran::Stop(c) => return c,
            };
            let b = match run(e, &trans, out, None, opts) {
                Ran::Rows(r) => r,
                Ran::Stop(c) => return c,
            };
            ran = true;
            nonempty |= !a.is_empty();
            let d = diff(&a, &b, &CompareOptions::default());
            let rel = d.relation();
            let ok = match expect {
                Expect::Equal => rel == Relation::Equal,
                Expect::Expand => matches!(rel, Relation::Equal | Relation::Superset),
                Expect::Contract => matches!(rel, Relation::Equal | Relation::Subset),
            };
            if !ok {
                let label = e.info().label.clone();
                let dialect = e.info().dialect.clone();
                let rel_name = format!("{rel:?}").to_lowercase();
                return Check::finding(Evidence {
                    class: FindingClass::Logic,
                    engine: label.clone(),
                    summary: format!(
                        "{oracle} {}: {label} gives a transformed output of {out} that is {rel_name} instead of {} (steps {})",
                        expect.name(),
                        match expect {
                            Expect::Equal => "equal",
                            Expect::Expand => "a superset",
                            Expect::Contract => "a subset",
                        },
                        steps.join(", ")
                    ),
                    expected: format!("original: {}", crate::oracle::render(&a)),
                    actual: format!("transformed: {}", crate::oracle::render(&b)),
                    key: format!("{oracle}:{}:{rel_name}", expect.name()),
                    detail: json!({
                        "output": out,
                        "missing": d.missing.iter().map(|r| r.iter().map(|v| v.to_string()).collect::<Vec<_>>()).collect::<Vec<_>>(),
                        "extra": d.extra.iter().map(|r| r.iter().map(|v| v.to_string()).collect::<Vec<_>>()).collect::<Vec<_>>(),
                        "dialect": dialect,
                        "transformed_program": print(&dialect, &trans, out, None).unwrap_or_default(),
                        // With EQU-FACTINLINE the transformed program holds the engine's own
                        // tuples: keep it as it ran, in Soufflé syntax too.
                        "transformed_souffle": crate::engines::souffle::print(&trans, std::slice::from_ref(out)),
                        "steps": steps,
                    }),
                });
            }
        }
    }
    if ran {
        Check::Pass { nonempty }
    } else {
        Check::Skip("no engine supports the program".into())
    }
}

fn differential(p: &Program, engines: &mut [Box<dyn Engine>], opts: &CheckOptions) -> Check {
    // The reference evaluator is the expected side when it is in the run.
    let mut order: Vec<usize> = (0..engines.len()).filter(|&i| supports(engines[i].info(), p)).collect();
    order.sort_by_key(|&i| engines[i].info().name != "reference");
    if order.len() < 2 {
        return Check::Skip("fewer than two engines support the program".into());
    }
    let mut nonempty = false;
    for out in &p.outputs {
        let first = order[0];
        let expected = match run(&mut engines[first], p, out, None, opts) {
            Ran::Rows(r) => r,
            Ran::Stop(c) => return c,
        };
        nonempty |= !expected.is_empty();
        for &i in &order[1..] {
            let text = print(&engines[i].info().dialect, p, out, None).unwrap_or_default();
            let actual = match run(&mut engines[i], p, out, None, opts) {
                Ran::Rows(r) => r,
                Ran::Stop(Check::Skip(msg)) if msg.contains(':') && !msg.starts_with("timeout") => {
                    // The expected engine ran it: an error here is the engine's (or a printer's).
                    // The message is "label: adapter: text"; the key is the start of the text,
                    // up to its own first colon (which often precedes a relation name). Keying
                    // on the adapter's name lumped SQLite's "circular reference" and "nested too
                    // deep" together, and reduction slid from one to the other.
                    let text = msg.splitn(3, ": ").last().unwrap_or("");
                    let head = text.split(':').next().unwrap_or("");
                    let first_words: String = head.split_whitespace().take(4).collect::<Vec<_>>().join(" ");
                    return Check::finding(Evidence {
                        class: FindingClass::Error,
                        engine: engines[i].info().label.clone(),
                        summary: format!(
                            "{} rejects a program {} runs",
                            engines[i].info().label,
                            engines[first].info().label
                        ),
                        expected: render(&expected),
                        actual: msg.clone(),
                        key: format!("error:{first_words}"),
                        detail: json!({ "program": text }),
                    });
                }
                Ran::Stop(c) => return c,
            };
            let d = diff(&expected, &actual, &CompareOptions::default());
            if !d.is_empty() {
                let (a, b) = (engines[first].info().label.clone(), engines[i].info().label.clone());
                let rel = format!("{:?}", d.relation()).to_lowercase();
                return Check::finding(Evidence {
                    class: FindingClass::Logic,
                    engine: format!("{a} vs {b}"),
                    summary: format!("{b} and {a} disagree on {out}: {b}'s answer is {rel}"),
                    expected: format!("{a}: {}", render(&expected)),
                    actual: format!("{b}: {}", render(&actual)),
                    key: format!("differential:{rel}"),
                    detail: json!({
                        "output": out,
                        "missing": d.missing.iter().map(|r| r.iter().map(|v| v.to_string()).collect::<Vec<_>>()).collect::<Vec<_>>(),
                        "extra": d.extra.iter().map(|r| r.iter().map(|v| v.to_string()).collect::<Vec<_>>()).collect::<Vec<_>>(),
                        "program": text,
                    }),
                });
            }
        }
    }
    Check::Pass { nonempty }
}

fn config(p: &Program, option: usize, engines: &mut [Box<dyn Engine>], opts: &CheckOptions) -> Check {
    let mut ran = false;
    let mut nonempty = false;
    for e in engines.iter_mut() {
        let options = engines::options(&e.info().dialect);
        if options.is_empty() || !supports(e.info(), p) {
            continue;
        }
        let opt = options[option % options.len()];
        for out in &p.outputs {
            // The cases of one program try its options in turn: the default answer is the
            // same for all of them.
            let a = match run_cached(e, p, out, opts) {
                Ran::Rows(r) => r,
                Ran::Stop(c) => return c,
            };
            let b = match run(e, p, out, Some(opt), opts) {
                Ran::Rows(r) => r,
                Ran::Stop(c) => return c,
            };
            ran = true;
            nonempty |= !a.is_empty();
            let d = diff(&a, &b, &CompareOptions::default());
            if !d.is_empty() {
                let label = e.info().label.clone();
                let rel = format!("{:?}", d.relation()).to_lowercase();
                return Check::finding(Evidence {
                    class: FindingClass::Logic,
                    engine: label.clone(),
                    summary: format!("{label} answers {out} differently with option {opt}: {rel}"),
                    expected: format!("default: {}", render(&a)),
                    actual: format!("{opt}: {}", render(&b)),
                    key: format!("config:{opt}:{rel}"),
                    detail: json!({ "option": opt, "output": out, "program": print(&e.info().dialect, p, out, Some(opt)).unwrap_or_default() }),
                });
            }
        }
    }
    if ran {
        Check::Pass { nonempty }
    } else {
        Check::Skip("no engine with options supports the program".into())
    }
}

fn commented(prefix: &str, text: &str) -> String {
    text.lines().map(|l| format!("{prefix} {l}\n")).collect()
}

/// `<stem>.dl` in Soufflé syntax (and `<stem>-transformed.dl`), plus the failing engines' own
/// dialect, each with the oracle, the expected and the actual answer in comments.
pub fn reproducers(
    stem: &str,
    oracle: DatalogOracle,
    case: &Case,
    ev: &Evidence,
    engines: &[EngineInfo],
) -> Vec<(String, String)> {
    let header = format!(
        "crosscheck datalog reproducer — oracle {oracle}\n{}\nexpected: {}\nactual:   {}\n",
        ev.summary, ev.expected, ev.actual
    );
    let out = ev.detail.get("output").and_then(|o| o.as_str()).unwrap_or(case.program.output()).to_string();
    let option = ev.detail.get("option").and_then(|o| o.as_str());
    let mut files = Vec::new();
    let emit = |dialect: &str, suffix: &str, p: &Program, opt: Option<&str>, files: &mut Vec<(String, String)>| {
        let (ext, cmd) = engines::native(dialect);
        let prefix = engines::comment_prefix(dialect);
        if let Ok(text) = print(dialect, p, &out, opt) {
            let name = format!("{stem}{suffix}.{ext}");
            let cmd = cmd.replace(&format!("repro.{ext}"), &name);
            let mut s = commented(prefix, &format!("{header}run: {cmd}"));
            s.push_str(&text);
            files.push((name, s));
        }
    };
    let transformed = match &case.test {
        Test::Metamorphic { transformed, .. } => Some(transformed),
        _ => None,
    };
    emit("souffle", "", &case.program, None, &mut files);
    let ran_souffle = ev.detail.get("transformed_souffle").and_then(|t| t.as_str());
    let ran_native = ev.detail.get("transformed_program").and_then(|t| t.as_str());
    if let Some(t) = ran_souffle {
        let s = commented("//", &format!("{header}run: souffle {stem}-transformed.dl"));
        files.push((format!("{stem}-transformed.dl"), s + t));
    } else if let Some(t) = transformed {
        emit("souffle", "-transformed", t, None, &mut files);
    }
    for info in engines {
        if !ev.engine.split(" vs ").any(|l| l == info.label) || info.dialect == "souffle" {
            continue;
        }
        let suffix = format!("-{}", info.name.replace(':', "_"));
        emit(&info.dialect, &suffix, &case.program, None, &mut files);
        if let Some(t) = ran_native {
            let (ext, cmd) = engines::native(&info.dialect);
            let name = format!("{stem}{suffix}-transformed.{ext}");
            let cmd = cmd.replace(&format!("repro.{ext}"), &name);
            let s = commented(engines::comment_prefix(&info.dialect), &format!("{header}run: {cmd}"));
            files.push((name, s + t));
        } else if let Some(t) = transformed {
            emit(&info.dialect, &format!("{suffix}-transformed"), t, None, &mut files);
        }
        if let Some(o) = option {
            emit(&info.dialect, &format!("{suffix}-option"), &case.program, Some(o), &mut files);
        }
    }
    files
}
