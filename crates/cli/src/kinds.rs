//! The registered kinds of engine, each paired with its engines. Adding a leg is one line in
//! `legs()` and one in `with_kind!`.

use crosscheck_core::{Engine, EngineFactory, EngineSpec, KindInfo, SetupError};

type Registry = fn() -> Vec<&'static dyn EngineFactory>;

/// Every leg built into this binary, with the registry of the engines it runs on (legs do not
/// list engines; the engines layer does).
fn legs() -> [(&'static dyn KindInfo, Registry); 5] {
    [
        (&crosscheck_sql::SqlKind, crosscheck_engines::sql::registry),
        (&crosscheck_smt::SmtKind, crosscheck_engines::smt::registry),
        (&crosscheck_datalog::DatalogKind, datalog_registry),
        (&crosscheck_sparql::SparqlKind, crosscheck_engines::sparql::registry),
        (&crosscheck_cypher::CypherKind, crosscheck_engines::cypher::registry),
    ]
}

/// The Datalog engines: the leg's own reference evaluator first, then the engines layer's.
fn datalog_registry() -> Vec<&'static dyn EngineFactory> {
    let mut r = vec![crosscheck_datalog::reference_engine()];
    r.extend(crosscheck_engines::datalog::registry());
    r
}

/// Every leg built into this binary.
pub fn kinds() -> Vec<&'static dyn KindInfo> {
    legs().into_iter().map(|(k, _)| k).collect()
}

/// The engines of the leg named `kind`.
pub fn registry(kind: &str) -> Vec<&'static dyn EngineFactory> {
    legs().into_iter().find(|(k, _)| k.name() == kind).map(|(_, r)| r()).unwrap_or_default()
}

/// Opens engines of the leg named `kind`, `mutant:` wrappers included.
pub fn opener(kind: &str) -> impl Fn(&EngineSpec) -> Result<Box<dyn Engine>, SetupError> {
    let factories = registry(kind);
    move |spec| crosscheck_engines::open_engine(&factories, spec)
}

/// Kinds the product will have but this build does not yet.
pub const PLANNED: &[&str] = &[];

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
            "sparql" => {
                let $k = &crosscheck_sparql::SparqlKind;
                $body
            }
            "cypher" => {
                let $k = &crosscheck_cypher::CypherKind;
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
