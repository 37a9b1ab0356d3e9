//! The oracles, one enum variant each: names parsed once at the command line, a `match` that
//! must cover every oracle. A leg with several oracles gives each its own file in `oracles/`.

use crate::model::Case;
use crate::print;
use crosscheck_core::{Check, CheckOptions, Engine, Evidence, FindingClass, Oracle, Outcome, Value};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SkeletonOracle {
    /// The engine's value of the expression is the leg's own.
    Evaluate,
}

impl Oracle for SkeletonOracle {
    const ALL: &'static [SkeletonOracle] = &[SkeletonOracle::Evaluate];

    fn name(self) -> &'static str {
        match self {
            SkeletonOracle::Evaluate => "evaluate",
        }
    }
}

impl SkeletonOracle {
    pub fn check(self, case: &Case, engines: &mut [Box<dyn Engine>], opts: &CheckOptions) -> Check {
        match self {
            SkeletonOracle::Evaluate => evaluate(case, engines, opts),
        }
    }
}

fn evaluate(case: &Case, engines: &mut [Box<dyn Engine>], opts: &CheckOptions) -> Check {
    let Some(expected) = case.expr.eval() else { return Check::Skip("64-bit overflow".into()) };
    for e in engines.iter_mut() {
        let label = e.info().label.clone();
        let Some(d) = print::dialect(&e.info().dialect) else { return Check::Skip(format!("{label}: no dialect")) };
        let out = e.run(&print::query(&case.expr, d), opts.timeout);
        let actual = match &out {
            Outcome::Rows(r) => match r.rows.as_slice() {
                [row] => row.first().and_then(Value::as_f64),
                _ => None,
            },
            Outcome::Crash { .. } => {
                return Check::finding(Evidence::crash(&label, &out, crosscheck_core::Detail::none()))
            }
            other => return Check::Skip(format!("{label}: {other}")),
        };
        if actual != Some(expected as f64) {
            return Check::finding(Evidence {
                class: FindingClass::Logic,
                engines: vec![label.clone()],
                summary: format!("{label} evaluates the expression to {out}, not {expected}"),
                expected: expected.to_string(),
                actual: out.to_string(),
                key: "evaluate:value".into(),
                detail: crosscheck_core::Detail::none(),
            });
        }
    }
    Check::Pass { nonempty: true }
}
