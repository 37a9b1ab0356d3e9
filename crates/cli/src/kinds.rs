//! The registered kinds of engine. Adding a leg is one line in `KINDS` and one in `with_kind!`.

use crosscheck_core::KindInfo;

/// Every leg built into this binary.
pub fn kinds() -> Vec<&'static dyn KindInfo> {
    vec![&crosscheck_sql::SqlKind, &crosscheck_smt::SmtKind, &crosscheck_datalog::DatalogKind]
}

/// Kinds the product will have but this build does not yet.
pub const PLANNED: &[&str] = &["cypher", "sparql"];

/// Runs `$body` with `$k` bound to the leg named `$name` (a `&str`), statically typed.
macro_rules! with_kind {
    ($name:expr, |$k:ident| $body:expr) => {
        match $name {
            "sql" => {
                let $k = &crosscheck_sql::SqlKind;
                $body
            }
            "smt" => {
                let $k = &crosscheck_smt::SmtKind;
                $body
            }
            "datalog" => {
                let $k = &crosscheck_datalog::DatalogKind;
                $body
            }
            other => Err($crate::errors::user($crate::kinds::unknown_kind(other))),
        }
    };
}
pub(crate) use with_kind;

pub fn unknown_kind(name: &str) -> String {
    let known: Vec<&str> = kinds().iter().map(|k| k.name()).collect();
    if PLANNED.contains(&name) {
        format!("the {name} leg is not built yet (available: {})", known.join(", "))
    } else {
        format!("unknown kind \"{name}\" (known: {})", known.join(", "))
    }
}

pub fn kind_info(name: &str) -> Option<&'static dyn KindInfo> {
    kinds().into_iter().find(|k| k.name() == name)
}
