//! The dialect trait: what each store can run, by the dialect name its adapter reports. SPARQL
//! 1.1 is one language, so the printer writes one text for all stores; a dialect differs only
//! in the constructs the generator may use and in the options the `config` oracle can set.

use serde::{Deserialize, Serialize};

/// A construct the generator asks for before it uses it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Cap {
    Optional,
    Union,
    /// STR, LANG, DATATYPE, isIRI, isLITERAL, isBLANK.
    Builtins,
    /// COALESCE, which the partition oracle needs to select the solutions where p errs.
    Coalesce,
    LimitOffset,
}

/// What a store's SPARQL can express and which options it has.
pub trait Dialect: Sync {
    fn name(&self) -> &'static str;
    /// Constructs of SPARQL 1.1 this store does not run as the standard says.
    fn lacks(&self) -> &'static [Cap] {
        &[]
    }
    fn has(&self, cap: Cap) -> bool {
        !self.lacks().contains(&cap)
    }
    /// The option (`# crosscheck-option: NAME` on the first line) that evaluates a query with
    /// the store's optimizer off, for the `config` oracle.
    fn optimizer_off(&self) -> Option<&'static str> {
        None
    }
    /// Errors the store is known to raise for a query SPARQL answers: the check is skipped.
    fn expected_error(&self, _message: &str) -> bool {
        false
    }
}

/// Oxigraph: full SPARQL 1.1; `SparqlEvaluator::without_optimizations` turns its optimizer
/// off (the engines layer reads the option).
struct Oxigraph;

impl Dialect for Oxigraph {
    fn name(&self) -> &'static str {
        "oxigraph"
    }
    fn optimizer_off(&self) -> Option<&'static str> {
        Some("no-optimizer")
    }
}

/// Jena (ARQ): full SPARQL 1.1; the context symbol `ARQ.optimization` turns its algebra
/// optimizer off (the engines layer's JVM host reads the option).
struct Jena;

impl Dialect for Jena {
    fn name(&self) -> &'static str {
        "jena"
    }
    fn optimizer_off(&self) -> Option<&'static str> {
        Some("no-optimizer")
    }
}

/// A store that claims full SPARQL 1.1 and has no option the leg sets: rdflib, Comunica,
/// Virtuoso (a construct one of them gets wrong is what the leg is looking for, so nothing is
/// taken away here before a campaign shows it is a known, intended difference), with the
/// message codes of errors it raises where SPARQL has an expression error.
struct Standard(&'static str, &'static [&'static str]);

impl Dialect for Standard {
    fn name(&self) -> &'static str {
        self.0
    }
    fn expected_error(&self, message: &str) -> bool {
        self.1.iter().any(|code| message.contains(code))
    }
}

/// Virtuoso aborts the whole query on an expression error inside FILTER (SR087: arithmetic on
/// a non-number, `?iri + 1`; SR084: integer division by zero), where SPARQL 1.1 §17.3 makes
/// the FILTER drop that solution only. Every other store follows the standard; Virtuoso's
/// behaviour is its own, documented and long-standing, so such a query is not judged there.
const VIRTUOSO_EXPRESSION_ERRORS: &[&str] = &["SR087", "SR084"];

static OXIGRAPH: Oxigraph = Oxigraph;
static JENA: Jena = Jena;
static OTHERS: [Standard; 3] =
    [Standard("rdflib", &[]), Standard("comunica", &[]), Standard("virtuoso", VIRTUOSO_EXPRESSION_ERRORS)];

/// The dialect an engine reports, if the leg knows it: the only place a name is matched.
pub fn by_name(name: &str) -> Option<&'static dyn Dialect> {
    if name == OXIGRAPH.name() {
        return Some(&OXIGRAPH);
    }
    if name == JENA.name() {
        return Some(&JENA);
    }
    OTHERS.iter().find(|d| d.0 == name).map(|d| d as &dyn Dialect)
}

/// Whether every dialect has `cap` (the generator uses what all engines of a run can run).
pub fn all_have(dialects: &[&'static dyn Dialect], cap: Cap) -> bool {
    dialects.iter().all(|d| d.has(cap))
}

#[cfg(test)]
mod tests {
    use super::by_name;

    #[test]
    fn only_virtuoso_expects_its_expression_errors() {
        let msg = "HTTP 500: Virtuoso 22003 Error SR087: Non numeric argument(s) to arithmetic operation '+'";
        assert!(by_name("virtuoso").is_some_and(|d| d.expected_error(msg)));
        assert!(!by_name("virtuoso").is_some_and(|d| d.expected_error("SP031: SPARQL: Internal error")));
        for other in ["oxigraph", "rdflib", "comunica"] {
            assert!(!by_name(other).is_some_and(|d| d.expected_error(msg)), "{other}");
        }
    }
}
