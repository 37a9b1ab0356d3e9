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
    /// The effective boolean value of a language-tagged literal is an error (SPARQL 1.1
    /// §17.2.2: only simple literals and `xsd:string` have one); stores without it give the
    /// string's (RDF 1.0 style). When the stores of a run differ, the generator guards every
    /// term it takes an EBV of (`query::ebv`).
    StrictEbv,
    /// `!COALESCE(p || !p, false)` is true exactly where p is an error, so the partition
    /// oracle can select the error part; without it the oracle checks p ⊎ !p ⊆ Ω only.
    ErrorPartition,
    /// A boolean expression's value, bound by BIND or an aggregate, is an `xsd:boolean`.
    BoolValues,
    /// An arithmetic error (`?iri + 1`, a division by zero) is an expression error; without
    /// it the store aborts the query, so arithmetic gets numeric constants and no division.
    ArithErrors,
    Bind,
    Values,
    Minus,
    /// FILTER EXISTS and FILTER NOT EXISTS.
    Exists,
    /// Property paths: sequence, alternative, inverse, negated property sets.
    Paths,
    /// The closures `*`, `+` and `?` of a path.
    PathClosure,
    /// An inverse IRI in a negated property set, `!(^p)`.
    NegatedInverse,
    /// isNUMERIC, STRLEN, UCASE, LCASE, CONTAINS, STRSTARTS, STRENDS, REGEX, sameTerm, ABS,
    /// CEIL, FLOOR, ROUND.
    Functions,
    /// Casts with the XSD constructor functions (`xsd:integer(e)`).
    Casts,
    /// A stored literal keeps its lexical form (STR of `"5.5E-3"^^xsd:double` is `5.5E-3`).
    /// Oxigraph keeps numbers by value and writes its own form, so where a store of the run
    /// lacks it, the values a query returns never hold STR of a non-string literal.
    LexicalForms,
    /// STR of a blank node is an error (SPARQL 1.1 §17.4.2.5 defines STR on literals and IRIs
    /// only). Jena 4.5, rdflib 7 and Virtuoso 7.2 answer the node's label instead, which is
    /// each store's own (Jena's a new UUID at every load), so where a store of the run lacks
    /// it, STR never takes a term that may be a blank node (`exprgen::str_of`). The other
    /// functions that take a term's string (UCASE, STRLEN, CONTAINS, REGEX, xsd:string, ...)
    /// raise the error on Jena and rdflib as the standard says.
    BlankStrError,
    /// GROUP BY, HAVING, COUNT, SUM, MIN, MAX, AVG.
    Aggregates,
    /// HAVING without GROUP BY (the whole answer one group).
    ImplicitGroupHaving,
    /// AVG of an empty group is 0 (SPARQL 1.1 §18.5.1.4); Virtuoso answers unbound, SQL's
    /// NULL. Only the implicit group of an aggregation without GROUP BY can be empty, so where
    /// a store of the run lacks it, such an aggregation has no AVG.
    EmptyAvg,
    GroupConcat,
    /// A FILTER of `a || b` keeps a solution once when both disjuncts hold. Jena's optimizer
    /// (`TransformFilterDisjunction`, still in 6.1: apache/jena#4160) evaluates the pattern
    /// once per disjunct and returns such a solution twice; the guided filters write that
    /// shape in half the queries, so where a store of the run lacks it, a FILTER's top-level
    /// disjunction is written `!(!a && !b)`, the same value under SPARQL's error rules.
    FilterDisjunctionBag,
    /// An ordered comparison (`<`, `<=`, `>`, `>=`) of terms SPARQL does not order against each
    /// other (an IRI, a blank node, a literal of another kind: a string and a number, a boolean
    /// and a number, a language-tagged and a simple string) is an error (SPARQL 1.1 §17.3).
    /// Virtuoso 7.2 orders every pair of values its own way instead: numbers before IRIs
    /// before strings, booleans as the integers 0 and 1, `<b> < <a>` by its internal ids, so
    /// `?o > 22331` keeps an IRI and `!(?o < 3)` keeps a string. Where a store of the run
    /// lacks it, an ordered comparison whose operand may be of another kind is written
    /// `COALESCE(K(x), false) && x < y` for each such operand, K the test that x is of the
    /// comparison's kind (`exprgen::compare`): false, never an error, where SPARQL errs.
    TypedOrder,
    /// A triple pattern may name one variable twice (`?x ?p ?x`, drawn from a graph triple
    /// `s p s`). Virtuoso 7.2 loses that constraint when the pattern is joined with another:
    /// over `<j> <l> 1, 2, <j>`, `{ ?x ?p ?x . ?y <l> ?z }` answers 9 rows in isql-vt, not 3,
    /// and which wrong answer depends on the plan, so on the server's history (two servers of
    /// a self-run disagree). Where a store of the run lacks it, the second position of such a
    /// pattern is the node itself, or a new variable for a blank node (`query::apart`).
    RepeatedVariable,
    /// The SPARQL protocol's results carry a double's every digit. Virtuoso 7.2 writes 6
    /// significant digits (openlink/virtuoso-opensource#1006), so where a store of the run
    /// lacks it the graph's doubles have at most 6 and answers compare doubles at 6.
    FullDoubleResults,
    /// `p|q` keeps one solution per matching branch (§18.5: a multiset union). Oxigraph
    /// dedups every alternative (oxigraph#351), Virtuoso identical branches; where the run
    /// disagrees an alternative stands only where multiplicity cannot show.
    PathAltBag,
    /// OFFSET without LIMIT (Virtuoso: "SR350 TOP parameter < 0", virtuoso-opensource#76);
    /// lacking it, every OFFSET comes with a LIMIT larger than any answer.
    OffsetWithoutLimit,
    /// `&&`, `||`, `!`, a comparison or EXISTS as a direct operand of a comparison (`?o <= (?o != 1)`,
    /// `(?o || true) > 1`, `?o < !BOUND(?x)`): Virtuoso raises SP031/SQ074 internal errors.
    BoolOpOperand,
    /// `FILTER(!"x"@fr)` drops what `FILTER("x"@fr)` keeps; Virtuoso keeps both, so the EBV
    /// guard applies in its runs even where the stores agree on `StrictEbv`.
    LangEbvNegation,
    /// LANG of a literal without a tag is "" (§17.4.2.7); Virtuoso's is unbound for a
    /// constant, so LANG is written `COALESCE(LANG(e), "")`, its value on every other store.
    LangOfUntagged,
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
///
/// Known bugs the generator keeps meeting on purpose (each one bucket a run, rare, and no
/// cheap construct avoids them): in 0.5.13 (spareval 0.2.9 `cmp_terms`) ORDER BY orders numbers
/// by value and a number against another literal by lexical form, so `7 < 11 < "5" < 7`; Rust's
/// sort panics on it past ~20 rows ("comparison function does not correctly implement a total
/// order", a crash). And an ordered comparison of two different booleans (`true > false`) is
/// an error there, where SPARQL 1.1 defines op:boolean-greater-than.
struct Oxigraph;

impl Dialect for Oxigraph {
    fn name(&self) -> &'static str {
        "oxigraph"
    }
    fn lacks(&self) -> &'static [Cap] {
        &[Cap::LexicalForms, Cap::PathAltBag]
    }
    fn optimizer_off(&self) -> Option<&'static str> {
        Some("no-optimizer")
    }
}

/// Jena (ARQ): full SPARQL 1.1; the context symbol `ARQ.optimization` turns its algebra
/// optimizer off (the engines layer's JVM host reads the option).
///
/// A known bug the generator keeps meeting: Jena 4.5's ORDER BY orders two language-tagged
/// literals by tag first and a tagged literal against a boolean by lexical form, so
/// `"work"@en-US < "city"@fr < true < "work"@en-US`; TimSort sometimes notices on a column of
/// such terms ("IllegalArgumentException: Comparison method violates its general contract!",
/// an error). apache/jena#1634, fixed in 4.7.0 by a total order.
struct Jena;

impl Dialect for Jena {
    fn name(&self) -> &'static str {
        "jena"
    }
    fn lacks(&self) -> &'static [Cap] {
        // `FILTER("x"@en)` is true in Jena 4.5: the EBV of a language-tagged literal is its
        // string's, as in SPARQL 1.1's RDF 1.0 wording. `STR(_:b)` is the node's label
        // (`NodeFunctions.str`), a random UUID.
        &[Cap::StrictEbv, Cap::BlankStrError, Cap::FilterDisjunctionBag]
    }
    fn optimizer_off(&self) -> Option<&'static str> {
        Some("no-optimizer")
    }
}

/// A store that claims full SPARQL 1.1 and has no option the leg sets: rdflib, Comunica,
/// Virtuoso. What it lacks is what a campaign showed it answers differently on purpose
/// (a dialect difference, checked with the store's own client), or a bug of it so common that
/// it would drown every other finding (each named with its upstream issue or error code); with
/// the message codes of errors it raises where SPARQL has an expression error.
struct Standard {
    name: &'static str,
    lacks: &'static [Cap],
    errors: &'static [&'static str],
}

impl Dialect for Standard {
    fn name(&self) -> &'static str {
        self.name
    }
    fn lacks(&self) -> &'static [Cap] {
        self.lacks
    }
    fn expected_error(&self, message: &str) -> bool {
        self.errors.iter().any(|code| message.contains(code))
    }
}

/// Virtuoso aborts the whole query on an expression error inside FILTER (SR087: arithmetic on
/// a non-number, `?iri + 1`; SR084: integer division by zero), where SPARQL 1.1 §17.3 makes
/// the FILTER drop that solution only. Every other store follows the standard; Virtuoso's
/// behaviour is its own, documented and long-standing, so such a query is not judged there
/// (and the generator avoids it: Virtuoso lacks `Cap::ArithErrors`).
/// So do a built-in's argument of the wrong type (SL001, SL002, SR048: `UCASE(1)`, `ABS(<iri>)`;
/// SR586: a string function on a blank node) and a value a conversion cannot take (SR066,
/// SR127, SR341).
const VIRTUOSO_EXPRESSION_ERRORS: &[&str] =
    &["SR087", "SR083", "SR084", "SR086", "SL001", "SL002", "SR586", "SR048", "SR066", "SR127", "SR341"];

/// Virtuoso 7.2 has no value for an expression error: in FILTER an error drops the solution,
/// but inside COALESCE, IF and BIND the same comparison is a value (`"a" < ?iri` drops a
/// solution in FILTER, is `0` in BIND and true in `COALESCE(.., false)`), so no expression
/// selects the solutions where p errs. Booleans it computes are `xsd:integer` 0 and 1, and it
/// takes a language-tagged literal's EBV by its string (so does rdflib). It evaluates a path
/// closure only from a bound end ("transitive start not given"), refuses HAVING without
/// GROUP BY, and its MINUS removes solutions that share no variable with the right side
/// (SPARQL §18.5: those stay). Its string and numeric functions take IRIs as strings
/// (`STRLEN(<iri>)`) or abort the query where SPARQL has an error (SR586, SL001), and its casts
/// abort on a value they cannot convert (SR066, SR127, SR341): the errors it raises are
/// skipped, the functions and casts not generated for it. Its `<` orders terms of any two kinds
/// (`Cap::TypedOrder`), where SPARQL has an error.
const VIRTUOSO_LACKS: &[Cap] = &[
    Cap::ArithErrors,
    Cap::StrictEbv,
    Cap::ErrorPartition,
    Cap::BoolValues,
    Cap::PathClosure,
    Cap::ImplicitGroupHaving,
    Cap::Minus,
    Cap::Functions,
    Cap::Casts,
    // `STR(_:b)` is `"nodeID://b10000"`.
    Cap::BlankStrError,
    Cap::EmptyAvg,
    Cap::TypedOrder,
    Cap::RepeatedVariable,
    Cap::FullDoubleResults,
    // Only identical branches (`p|p`) collapse.
    Cap::PathAltBag,
    Cap::OffsetWithoutLimit,
    Cap::BoolOpOperand,
    Cap::LangEbvNegation,
    Cap::LangOfUntagged,
];

static OXIGRAPH: Oxigraph = Oxigraph;
static JENA: Jena = Jena;
static OTHERS: [Standard; 3] = [
    // rdflib 7 refuses `!(^p)` ("Invalid path in NegatedPath"); its `STR(_:b)` is the label.
    Standard { name: "rdflib", lacks: &[Cap::StrictEbv, Cap::NegatedInverse, Cap::BlankStrError], errors: &[] },
    Standard { name: "comunica", lacks: &[], errors: &[] },
    Standard { name: "virtuoso", lacks: VIRTUOSO_LACKS, errors: VIRTUOSO_EXPRESSION_ERRORS },
];

/// The dialect an engine reports, if the leg knows it: the only place a name is matched.
pub fn by_name(name: &str) -> Option<&'static dyn Dialect> {
    if name == OXIGRAPH.name() {
        return Some(&OXIGRAPH);
    }
    if name == JENA.name() {
        return Some(&JENA);
    }
    OTHERS.iter().find(|d| d.name == name).map(|d| d as &dyn Dialect)
}

/// Whether every dialect has `cap` (the generator uses what all engines of a run can run).
pub fn all_have(dialects: &[&'static dyn Dialect], cap: Cap) -> bool {
    dialects.iter().all(|d| d.has(cap))
}

/// Whether the dialects of a run answer alike where `cap` is concerned (all have it or none).
pub fn agree(dialects: &[&'static dyn Dialect], cap: Cap) -> bool {
    all_have(dialects, cap) || !dialects.iter().any(|d| d.has(cap))
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
