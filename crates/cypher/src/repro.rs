//! Native reproducers: `<stem>.<dialect>.cypher` for each dialect of the finding's engines: the
//! graph script (the dialect's schema, nodes, relationships), then the query (for the partition
//! oracle, the unpartitioned query and its three parts), expected and actual as `//` comments.
//! Each statement ends with `;`: Kuzu's Python `Connection.execute` takes the file's text, and
//! FalkorDB takes each statement with `redis-cli GRAPH.QUERY g "<statement>"`.

use crate::dialect;
use crate::oracles::{equivalence, partition, CypherOracle};
use crate::{print, Case};
use crosscheck_core::{EngineInfo, Evidence};
use std::fmt::Write;

fn comment(text: &str) -> String {
    text.lines().map(|l| format!("// {l}\n")).collect()
}

pub fn reproducers(
    stem: &str,
    oracle: CypherOracle,
    case: &Case,
    ev: &Evidence,
    engines: &[EngineInfo],
) -> Vec<(String, String)> {
    let involved: Vec<&EngineInfo> =
        engines.iter().filter(|e| ev.engines.iter().any(|l| l.split(", ").any(|x| x == e.label))).collect();
    let mut files: Vec<(String, String)> = Vec::new();
    for e in &involved {
        let Some(d) = dialect::by_name(&e.dialect) else { continue };
        if files.iter().any(|(n, _)| n.ends_with(&format!(".{}.cypher", d.name()))) {
            continue;
        }
        let queries: Vec<String> = match (oracle, &case.split) {
            (CypherOracle::Partition, Some(s)) => partition::texts(case, s, Some(d)).to_vec(),
            (CypherOracle::Equivalence, _) => match equivalence::texts(case, Some(d)) {
                Some((original, transformed, _)) => vec![original, transformed],
                None => vec![print::query_in(&case.query, None, Some(d))],
            },
            _ => vec![print::query_in(&case.query, None, Some(d))],
        };
        let mut s = String::new();
        let _ = writeln!(s, "// crosscheck cypher reproducer ({}), round {}", oracle_line(oracle), case.graph.round);
        for x in &involved {
            let _ = writeln!(s, "// engine: {} {} ({})", x.label, x.version, x.dialect);
        }
        let _ = writeln!(s, "// {}\n// expected:", ev.summary);
        s.push_str(&comment(&ev.expected));
        s.push_str("// actual:\n");
        s.push_str(&comment(&ev.actual));
        s.push_str("// the graph:\n");
        s.push_str(&print::graph_script(&case.graph, d));
        s.push_str(";\n// the query:\n");
        for q in &queries {
            let _ = writeln!(s, "{q};");
        }
        files.push((format!("{stem}.{}.cypher", d.name()), s));
    }
    files
}

fn oracle_line(oracle: CypherOracle) -> &'static str {
    match oracle {
        CypherOracle::Differential => "differential: the engines must agree",
        CypherOracle::Partition => "partition: the last three queries' rows must add up to the first's",
        CypherOracle::Equivalence => {
            "equivalence: the second query, a transformation of the first, must return the same rows (or a superset, as the summary says)"
        }
    }
}
