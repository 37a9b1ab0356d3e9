//! Native reproducers: the query as `<stem>.rq` (the partition oracle's three parts beside it),
//! the graph as `<stem>.data.ru` (the `INSERT DATA` every store was given) and
//! `<stem>.data.ttl` (the same triples in Turtle, for a store's own loader), expected and
//! actual as comments. `oxigraph query --location DIR --query-file <stem>.rq` after
//! `oxigraph load --file <stem>.data.ttl`, or any store's client, runs them.

use crate::model::Case;
use crate::oracles::{partition, SparqlOracle};
use crate::print;
use crosscheck_core::{EngineInfo, Evidence};
use std::fmt::Write;

fn comment(text: &str) -> String {
    text.lines().map(|l| format!("# {l}\n")).collect()
}

fn header(case: &Case, ev: &Evidence, engines: &[EngineInfo], what: &str) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# crosscheck sparql reproducer: {what}");
    for e in engines.iter().filter(|e| ev.engines.iter().any(|l| l.contains(&e.label))) {
        let _ = writeln!(s, "# store: {} {} ({})", e.label, e.version, e.dialect);
    }
    let _ = writeln!(
        s,
        "# {}\n# data: load the .data.ru update or the .data.ttl file first (round {})",
        ev.summary, case.graph.round
    );
    s.push_str("# expected:\n");
    s.push_str(&comment(&ev.expected));
    s.push_str("# actual:\n");
    s.push_str(&comment(&ev.actual));
    s
}

/// The graph in Turtle: the INSERT DATA body under `@prefix` lines.
pub fn turtle(case: &Case) -> String {
    let g = &case.graph;
    let update = print::insert_data(g);
    let body = update.split_once("INSERT DATA {\n").map_or("", |(_, b)| b).trim_end_matches('}');
    format!("@prefix xsd: <{}> .\n@prefix {}: <{}> .\n{body}", crate::model::XSD, g.prefix.0, g.prefix.1)
}

pub fn reproducers(
    stem: &str,
    oracle: SparqlOracle,
    case: &Case,
    ev: &Evidence,
    engines: &[EngineInfo],
) -> Vec<(String, String)> {
    let mut files =
        vec![(format!("{stem}.data.ru"), print::insert_data(&case.graph)), (format!("{stem}.data.ttl"), turtle(case))];
    match (oracle, &case.pred) {
        (SparqlOracle::Partition, Some(p)) => {
            let [whole, t, f, e] = partition::texts(case, p);
            let what = "the unfiltered query; the .p.rq, .not-p.rq and .error-p.rq parts must add up to it";
            files.push((format!("{stem}.rq"), format!("{}{whole}\n", header(case, ev, engines, what))));
            for (name, text) in [("p", t), ("not-p", f), ("error-p", e)] {
                files.push((format!("{stem}.{name}.rq"), format!("{text}\n")));
            }
        }
        (SparqlOracle::Config, _) => {
            let what =
                "the same query with the optimizer on and off (Oxigraph: SparqlEvaluator::without_optimizations)";
            let q = print::query(&case.graph, &case.query, None);
            files.push((format!("{stem}.rq"), format!("{}{q}\n", header(case, ev, engines, what))));
        }
        _ => {
            let q = print::query(&case.graph, &case.query, None);
            files.push((
                format!("{stem}.rq"),
                format!("{}{q}\n", header(case, ev, engines, "one query, stores disagree")),
            ));
        }
    }
    files
}
