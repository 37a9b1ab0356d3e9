//! Native reproducers: `<stem>.smt2` that the solver's own CLI runs (`z3 repro.smt2`), with
//! the finding, the solver's name, version and options, and the model M that proves the
//! instance satisfiable, in comments; and `<stem>-witness.smt2`, which checks M against every
//! assertion with any solver (it must say `sat`).

use crate::case::SmtCase;
use crosscheck_core::{EngineInfo, Evidence};
use std::fmt::Write as _;

fn comment(text: &str) -> String {
    text.lines().map(|l| format!("; {l}\n")).collect()
}

pub fn reproducers(
    stem: &str,
    oracle: crate::SmtOracle,
    case: &SmtCase,
    ev: &Evidence,
    engines: &[EngineInfo],
) -> Vec<(String, String)> {
    // The script is printed for the engine at fault (the first one named), so its tactic and
    // options are the ones that failed.
    let culprit =
        engines.iter().find(|e| ev.engines.contains(&e.label)).or_else(|| engines.first()).cloned().unwrap_or_default();
    let mut head = String::new();
    let _ = writeln!(head, "crosscheck {} — smt / {oracle}: {}", crosscheck_core::TOOL_VERSION, ev.summary);
    let _ = writeln!(head, "class: {}   engine: {}", ev.class, ev.engine_label());
    for e in engines {
        let loc = e.location.as_deref().map(|l| format!(" at {l}")).unwrap_or_default();
        let opts = case
            .options
            .get(&e.label)
            .map(|o| o.iter().map(|(k, v)| format!(":{k} {v}")).collect::<Vec<_>>().join(" "))
            .filter(|s| !s.is_empty())
            .map(|s| format!(" options {s}"))
            .unwrap_or_default();
        let _ = writeln!(head, "solver: {} ({}) version {}{loc}{opts}", e.label, e.name, e.version);
    }
    let _ = writeln!(
        head,
        "seed: {}   case: {}   Dmax {} Amax {}   incremental {}   tactic {}",
        case.seed,
        case.index,
        case.params.max_depth,
        case.params.max_assert,
        case.incremental,
        case.tactic.as_deref().unwrap_or("none")
    );
    let _ = writeln!(head, "expected: {}\nactual:   {}", ev.expected, ev.actual.replace('\n', " "));
    if let Some(d) = &case.derived {
        head.push_str(&crate::yinyang::explain(d));
    }
    if case.sat_by_construction {
        let _ = writeln!(
            head,
            "\nEvery assertion is true under this model M ({}), so the instance is satisfiable;\n\
             {stem}-witness.smt2 checks it with any solver (answer: sat).",
            case.model_source
        );
        for l in case.model.lines() {
            let _ = writeln!(head, "  {l}");
        }
    }
    let _ =
        writeln!(head, "\nrun: {} {stem}.smt2", if culprit.name.contains("z3") { "z3" } else { culprit.name.as_str() });
    let mut script = comment(&head);
    script.push('\n');
    script.push_str(&case.script_for(&culprit));
    let mut out = vec![(format!("{stem}.smt2"), script)];
    if case.sat_by_construction && !case.model.is_empty() {
        let mut w = comment("M (the model in the comments of the reproducer) satisfies every assertion: expect sat.");
        w.push_str(&case.witness_script());
        out.push((format!("{stem}-witness.smt2"), w));
    }
    out
}
