//! RD²'s graph generation (§2.2 of the extraction): a prefix, an IRI pool (1 to 10 IRIs, some
//! under the prefix, the others Faker-like `http://www.word.tld/path/`), each IRI a subject of
//! 1 to 5 properties (objects: an IRI with probability ½, else a literal), ⌊N·U·0.4⌋ blank
//! nodes with property lists. Beyond the repository's generator: decimals and doubles as
//! their own types, derived integer types, language-tagged strings, blank nodes as objects,
//! and a marker triple per blank node that makes it unambiguous. The value pools are recorded
//! for the query generator's guidance.

use crate::model::{Graph, Lit, Node, Triple, BNODE_MARK};
use rand::seq::SliceRandom;
use rand::Rng;
use std::collections::HashSet;

const WORDS: &[&str] = &[
    "john", "smith", "ages", "name", "peter", "green", "knows", "city", "mail", "work", "home", "price", "label",
    "order", "item", "value", "alice", "bob", "data", "node",
];
const TLDS: &[&str] = &["com", "org", "net", "info", "biz"];
const LANGS: &[&str] = &["en", "fr", "en-US", "de"];
/// RD²'s "sophisticated" string alphabet (SQLancer's), without the control characters that
/// only test escaping in one direction.
const ALPHABET: &[u8] = b"0123456789ABCDEFabcdefxyz!#<>/.,~-+'*()[]{} ^?%_|&\\\"\t\n";
const SPECIAL_STRINGS: &[&str] = &["TRUE", "FALSE", "0.0", "-0.0", "1e500", "-1e500", ""];
const DERIVED: &[(&str, i64, i64)] = &[
    ("int", -2_147_483_648, 2_147_483_647),
    ("long", i64::MIN, i64::MAX),
    ("short", -32768, 32767),
    ("byte", -128, 127),
    ("unsignedInt", 0, 4_294_967_295),
    ("nonNegativeInteger", 0, 1_000_000),
];

/// What the query generator draws from: RD²'s graph guidance.
#[derive(Clone, Debug, Default)]
pub struct Pools {
    pub iris: Vec<String>,
    pub predicates: Vec<String>,
    pub literals: Vec<Lit>,
    pub numbers: Vec<Lit>,
    pub strings: Vec<Lit>,
    pub booleans: Vec<Lit>,
}

impl Pools {
    pub fn of(g: &Graph) -> Pools {
        let mut p = Pools::default();
        let mut seen = HashSet::new();
        for t in &g.triples {
            if t.p != BNODE_MARK && !p.predicates.contains(&t.p) {
                p.predicates.push(t.p.clone());
            }
            for n in [&t.s, &t.o] {
                if !seen.insert(n.clone()) {
                    continue;
                }
                match n {
                    Node::Iri(i) => p.iris.push(i.clone()),
                    Node::Lit(l) => {
                        match l.xsd() {
                            Some("boolean") => p.booleans.push(l.clone()),
                            Some("string") | None => p.strings.push(l.clone()),
                            Some(_) => p.numbers.push(l.clone()),
                        }
                        p.literals.push(l.clone());
                    }
                    Node::Blank(_) => {}
                }
            }
        }
        p
    }
}

/// The graph of `round`.
pub fn graph(rng: &mut impl Rng, round: u64) -> Graph {
    let ns_word = WORDS.choose(rng).copied().unwrap_or("example");
    let tld = TLDS.choose(rng).copied().unwrap_or("com");
    let ns = format!("http://www.{ns_word}.{tld}/");
    let prefix = format!("{}{}", &ns_word[..1], rng.gen_range(0..10));
    let n = rng.gen_range(1..=10usize);
    let iris: Vec<String> = (0..n).map(|i| pool_iri(rng, &ns, i)).collect();
    // ⌊N·U·0.4⌋ with U in steps of 1/1000.
    let blanks = u32::try_from(n * rng.gen_range(0..1000) * 4 / 10_000).unwrap_or(0);
    let mut triples = Vec::new();
    let mut seen = HashSet::new();
    let mut push = |t: Triple, triples: &mut Vec<Triple>| {
        if seen.insert(t.clone()) {
            triples.push(t);
        }
    };
    for s in &iris {
        for _ in 0..rng.gen_range(1..=5) {
            let t = Triple { s: Node::Iri(s.clone()), p: pick(rng, &iris), o: object(rng, &iris, blanks) };
            push(t, &mut triples);
        }
    }
    for b in 0..blanks {
        let mark =
            Triple { s: Node::Blank(b), p: BNODE_MARK.into(), o: Node::Lit(Lit::typed(b.to_string(), "integer")) };
        push(mark, &mut triples);
        for _ in 0..rng.gen_range(1..=5) {
            let t = Triple { s: Node::Blank(b), p: pick(rng, &iris), o: object(rng, &iris, blanks) };
            push(t, &mut triples);
        }
    }
    Graph { round, prefix: (prefix, ns), triples }
}

/// Every finite double of `g` written with at most `digits` significant digits, for a run
/// with a store whose answers keep no more (`Cap::FullDoubleResults`): a stored double then
/// comes back whole from every store, and only computed ones are compared rounded.
pub fn shorten_doubles(g: &mut Graph, digits: usize) {
    for t in &mut g.triples {
        if let Node::Lit(l) = &mut t.o {
            if matches!(l.xsd(), Some("double" | "float")) {
                if let Some(short) = crate::normalize::round_double(&l.lexical, digits) {
                    l.lexical = short;
                }
            }
        }
    }
    let mut seen = HashSet::new();
    g.triples.retain(|t| seen.insert(t.clone()));
}

fn pick(rng: &mut impl Rng, pool: &[String]) -> String {
    pool.choose(rng).cloned().unwrap_or_default()
}

/// Half under the round's prefix (printed as prefixed names), half Faker-like full IRIs.
fn pool_iri(rng: &mut impl Rng, ns: &str, i: usize) -> String {
    let w = WORDS.choose(rng).copied().unwrap_or("x");
    if rng.gen_bool(0.5) {
        format!("{ns}{w}{i}")
    } else {
        let host = WORDS.choose(rng).copied().unwrap_or("x");
        let tld = TLDS.choose(rng).copied().unwrap_or("com");
        format!("http://www.{host}.{tld}/{w}{i}/")
    }
}

fn object(rng: &mut impl Rng, iris: &[String], blanks: u32) -> Node {
    if blanks > 0 && rng.gen_bool(0.1) {
        return Node::Blank(rng.gen_range(0..blanks));
    }
    if rng.gen_bool(0.5) {
        return Node::Iri(pick(rng, iris));
    }
    Node::Lit(literal(rng))
}

/// A literal of a random type: RD²'s string, integer, double (here: decimal and double
/// apart) and boolean, plus derived integer types and language-tagged strings.
pub fn literal(rng: &mut impl Rng) -> Lit {
    match rng.gen_range(0..7) {
        0 => Lit::typed(string(rng), "string"),
        1 => Lit::typed(integer(rng).to_string(), "integer"),
        2 => Lit::typed(decimal(rng), "decimal"),
        3 => Lit::typed(double(rng), "double"),
        4 => Lit::typed(if rng.gen_bool(0.5) { "true" } else { "false" }, "boolean"),
        5 => {
            let (ty, lo, hi) = *DERIVED.choose(rng).unwrap_or(&DERIVED[0]);
            let v = if rng.gen_bool(0.7) { rng.gen_range(lo.max(-100)..=hi.min(100)) } else { rng.gen_range(lo..=hi) };
            Lit::typed(v.to_string(), ty)
        }
        _ => Lit::lang(WORDS.choose(rng).copied().unwrap_or("x"), LANGS.choose(rng).copied().unwrap_or("en")),
    }
}

fn string(rng: &mut impl Rng) -> String {
    if rng.gen_bool(0.05) {
        return SPECIAL_STRINGS.choose(rng).copied().unwrap_or("").to_string();
    }
    let len = rng.gen_range(0..=10);
    (0..len).map(|_| char::from(*ALPHABET.choose(rng).unwrap_or(&b'a'))).collect()
}

/// RD²'s integers: mostly 32-bit, small ones often, the 64-bit ends rarely.
pub fn integer(rng: &mut impl Rng) -> i64 {
    match rng.gen_range(0..100) {
        0 => *[-1, i64::MAX, i64::MIN, 1, 0].choose(rng).unwrap_or(&0),
        1..=49 => rng.gen_range(-100..100),
        _ => i64::from(rng.gen::<i32>()),
    }
}

fn decimal(rng: &mut impl Rng) -> String {
    let digits = rng.gen_range(1..=4);
    let v: f64 = rng.gen::<f64>() * 10f64.powi(rng.gen_range(0..3));
    let sign = if rng.gen_bool(0.2) { "-" } else { "" };
    format!("{sign}{v:.digits$}")
}

fn double(rng: &mut impl Rng) -> String {
    if rng.gen_bool(0.05) {
        return ["INF", "-INF", "NaN", "0.0E0", "-0.0E0", "1.7976931348623157E308"]
            .choose(rng)
            .copied()
            .unwrap_or("INF")
            .to_string();
    }
    let v: f64 = rng.gen::<f64>() * 10f64.powi(rng.gen_range(-3..6));
    format!("{v:E}")
}
