//! The leg on real Apache Jena (the JVM bridge): the partition identity on the known-answer case
//! of `partition.rs`, a planted fault caught by differential, partition and config (ARQ's
//! optimizer on and off), and Jena against itself under differential.

use super::common::{campaign, open, OPTS};
use crosscheck_core::{Check, FindingClass, Outcome};
use crosscheck_sparql::{print, SparqlOracle};

/// Whether Jena runs here (a test that needs it is skipped otherwise, unless required).
fn jena() -> bool {
    let reg = crosscheck_engines::sparql::registry();
    let f = reg.iter().find(|f| f.name() == "jena").unwrap_or_else(|| panic!("jena: not registered"));
    crosscheck_engines::testing::available(*f)
}

#[test]
fn jena_keeps_the_partition_identity_on_a_known_case() {
    if !jena() {
        return;
    }
    let c = super::partition::case();
    let mut engines = vec![open("jena")];
    assert_eq!(engines[0].run(&print::insert_data(&c.graph), OPTS.timeout), Outcome::Done);
    let check = SparqlOracle::Partition.check(&c, &mut engines, &OPTS);
    assert_eq!(check, Check::Pass { nonempty: true });
}

#[test]
fn jena_against_itself_reports_nothing() {
    if !jena() {
        return;
    }
    let t = campaign(&["jena", "jena"], SparqlOracle::Differential, 5, 300);
    assert!(t.finding.is_none(), "{:?}", t.finding);
    assert!(t.nonempty * 2 >= t.pass, "non-empty {} of {}", t.nonempty, t.pass);
    println!("jena vs jena: {} passed, {} non-empty, {} skipped", t.pass, t.nonempty, t.skips.len());
}

#[test]
fn drop_row_on_jena_is_caught_by_each_oracle() {
    if !jena() {
        return;
    }
    for (oracle, specs) in [
        (SparqlOracle::Differential, &["jena", "mutant:jena:drop-row"][..]),
        (SparqlOracle::Partition, &["mutant:jena:drop-row"][..]),
        (SparqlOracle::Config, &["mutant:jena:drop-row"][..]),
    ] {
        let t = campaign(specs, oracle, 5, 500);
        let checked = t.checked();
        let (_, ev) = t.finding.unwrap_or_else(|| panic!("{oracle:?}: drop-row not caught in 500 cases"));
        assert_eq!(ev.class, FindingClass::Logic, "{oracle:?}: {ev:?}");
        println!("{oracle:?} caught drop-row on jena after {checked} cases: {}", ev.summary);
    }
}

/// Jena returns a solution once per true disjunct of a FILTER's `||` (apache/jena#4160), so a
/// run with Jena writes a FILTER's top-level disjunction as `!(!a && !b)`, which it answers
/// once: the bug stays documented here instead of flooding every campaign.
#[test]
fn jena_duplicates_a_disjunction_and_the_de_morgan_form_does_not() {
    if !jena() {
        return;
    }
    let mut e = open("jena");
    let data = "INSERT DATA { <http://e/s> <http://e/p> <http://e/o> . }";
    assert_eq!(e.run(data, OPTS.timeout), Outcome::Done);
    let count = |e: &mut Box<dyn crosscheck_core::Engine>, filter: &str| {
        let q = format!("SELECT ?s WHERE {{ ?s <http://e/p> ?o FILTER({filter}) }}");
        match e.run(&q, OPTS.timeout) {
            Outcome::Rows(r) => r.rows.len(),
            other => panic!("{q}: {other:?}"),
        }
    };
    let eq = "?o = <http://e/o>";
    assert_eq!(count(&mut e, &format!("{eq} || {eq}")), 2, "Jena 4.5's duplicate (fixed upstream? then drop the cap)");
    assert_eq!(count(&mut e, &format!("!(!({eq}) && !({eq}))")), 1);
}
