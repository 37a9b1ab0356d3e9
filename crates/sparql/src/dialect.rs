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

/// A store that claims full SPARQL 1.1 and has no option the leg sets: rdflib, Comunica,
/// Virtuoso (a construct one of them gets wrong is what the leg is looking for, so nothing is
/// taken away here before a campaign shows it is a known, intended difference).
struct Standard(&'static str);

impl Dialect for Standard {
    fn name(&self) -> &'static str {
        self.0
    }
}

static OXIGRAPH: Oxigraph = Oxigraph;
static OTHERS: [Standard; 4] = [Standard("rdflib"), Standard("comunica"), Standard("virtuoso"), Standard("jena")];

/// The dialect an engine reports, if the leg knows it: the only place a name is matched.
pub fn by_name(name: &str) -> Option<&'static dyn Dialect> {
    if name == OXIGRAPH.name() {
        return Some(&OXIGRAPH);
    }
    OTHERS.iter().find(|d| d.0 == name).map(|d| d as &dyn Dialect)
}

/// Whether every dialect has `cap` (the generator uses what all engines of a run can run).
pub fn all_have(dialects: &[&'static dyn Dialect], cap: Cap) -> bool {
    dialects.iter().all(|d| d.has(cap))
}
