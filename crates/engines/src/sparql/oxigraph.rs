//! Oxigraph, in memory and in process (the SPARQL leg's embedded default): the `oxigraph` crate
//! without RocksDB. The `config` oracle's option `no-optimizer` runs a query with the
//! evaluator's optimizer off (`SparqlEvaluator::without_optimizations`, public but hidden from
//! the crate's docs: the switch Oxigraph's own fuzz target uses to compare plans).

use crosscheck_core::engine::{info_for, Factory};
use crosscheck_core::{Availability, Engine, EngineInfo, EngineSpec, Outcome, Rows, SetupError, Value};
use oxigraph::model::Term;
use oxigraph::sparql::{CancellationToken, QueryEvaluationError, QueryResults, SparqlEvaluator};
use oxigraph::store::Store;
use std::sync::mpsc;
use std::time::Duration;

/// The crate's version, as Cargo.lock pins it (the crate does not export its own).
const VERSION: &str = "0.5.13";

/// The option that turns the evaluator's optimizer off.
pub const NO_OPTIMIZER: &str = "no-optimizer";

fn availability() -> Availability {
    Availability { available: true, detail: VERSION.into(), install: "built in".into() }
}

fn open(spec: &EngineSpec) -> Result<Box<dyn Engine>, SetupError> {
    crate::built_in(spec, "the oxigraph crate, in-memory store; pyoxigraph runs other releases")?;
    Ok(Box::new(Oxigraph { info: info_for(spec, VERSION.into(), "oxigraph", &[]), store: new_store()? }))
}

pub static FACTORY: Factory = Factory {
    name: "oxigraph",
    describe: "Oxigraph 0.5 (crate, in-memory store, in process); takes no location",
    availability,
    open,
};

fn new_store() -> Result<Store, SetupError> {
    Store::new().map_err(|e| SetupError::new(format!("cannot open an in-memory Oxigraph store: {e}")))
}

pub struct Oxigraph {
    info: EngineInfo,
    store: Store,
}

/// A term as the contract returns it: raw, the leg normalizes.
fn convert(t: &Term) -> Value {
    match t {
        Term::NamedNode(n) => Value::Iri(n.as_str().to_string()),
        Term::BlankNode(b) => Value::Blank(b.as_str().to_string()),
        Term::Literal(l) => match l.language() {
            Some(lang) => {
                Value::Literal { lexical: l.value().to_string(), datatype: None, lang: Some(lang.to_string()) }
            }
            None => Value::Literal {
                lexical: l.value().to_string(),
                datatype: Some(l.datatype().as_str().to_string()),
                lang: None,
            },
        },
        #[allow(unreachable_patterns)] // RDF 1.2 triple terms, behind a feature of oxrdf
        other => Value::Text(other.to_string()),
    }
}

/// Cancels `token` after `limit` unless the returned sender is dropped first: a query that
/// runs past its timeout stops inside the evaluator instead of hanging the worker.
fn watchdog(token: CancellationToken, limit: Duration) -> mpsc::Sender<()> {
    let (tx, rx) = mpsc::channel::<()>();
    std::thread::spawn(move || {
        if let Err(mpsc::RecvTimeoutError::Timeout) = rx.recv_timeout(limit) {
            token.cancel();
        }
    });
    tx
}

impl Oxigraph {
    fn evaluator(text: &str, token: &CancellationToken) -> SparqlEvaluator {
        let e = SparqlEvaluator::new().with_cancellation_token(token.clone());
        match super::option_line(text) {
            Some(NO_OPTIMIZER) => e.without_optimizations(),
            _ => e,
        }
    }

    fn query(&self, text: &str, limit: Duration) -> Result<Outcome, String> {
        let token = CancellationToken::new();
        let prepared = match Self::evaluator(text, &token).parse_query(text) {
            Ok(p) => p,
            Err(query_err) => return self.update(text, &token).map_err(|_| query_err.to_string()),
        };
        let _guard = watchdog(token, limit);
        let timeout = |e: &QueryEvaluationError| matches!(e, QueryEvaluationError::Cancelled);
        let results = match prepared.on_store(&self.store).execute() {
            Ok(r) => r,
            Err(e) if timeout(&e) => return Ok(Outcome::Timeout { after_ms: crosscheck_core::millis(limit) }),
            Err(e) => return Err(e.to_string()),
        };
        match results {
            QueryResults::Boolean(b) => Ok(Outcome::Rows(Rows::new(vec!["ask".into()], vec![vec![Value::Bool(b)]]))),
            QueryResults::Solutions(solutions) => {
                let vars: Vec<_> = solutions.variables().to_vec();
                let mut rows = Vec::new();
                for s in solutions {
                    match s {
                        Ok(s) => rows.push(vars.iter().map(|v| s.get(v).map_or(Value::Null, convert)).collect()),
                        Err(e) if timeout(&e) => {
                            return Ok(Outcome::Timeout { after_ms: crosscheck_core::millis(limit) })
                        }
                        Err(e) => return Err(e.to_string()),
                    }
                }
                let columns = vars.iter().map(|v| v.as_str().to_string()).collect();
                Ok(Outcome::Rows(Rows::new(columns, rows)))
            }
            QueryResults::Graph(_) => Err("CONSTRUCT and DESCRIBE are not part of the SPARQL contract".into()),
        }
    }

    fn update(&self, text: &str, token: &CancellationToken) -> Result<Outcome, String> {
        let update = Self::evaluator(text, token).parse_update(text).map_err(|e| e.to_string())?;
        update.on_store(&self.store).execute().map_err(|e| e.to_string())?;
        Ok(Outcome::Done)
    }
}

impl Engine for Oxigraph {
    fn info(&self) -> &EngineInfo {
        &self.info
    }

    fn reset(&mut self) -> Result<(), SetupError> {
        self.store = new_store()?;
        Ok(())
    }

    fn run(&mut self, text: &str, limit: Duration) -> Outcome {
        // A panic inside the evaluator is the store's crash, reported like a process's.
        let res = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.query(text, limit)));
        match res {
            Ok(Ok(out)) => out,
            Ok(Err(message)) => Outcome::error(message),
            Err(panic) => crate::panic_crash(panic.as_ref()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open_default() -> Box<dyn Engine> {
        open(&EngineSpec { name: "oxigraph".into(), location: None, label: None }).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn loads_and_answers_raw_terms() {
        let mut e = open_default();
        let t = Duration::from_secs(10);
        let load = "INSERT DATA { <http://a> <http://p> \"1.50\"^^<http://www.w3.org/2001/XMLSchema#decimal> . \
                    _:b <http://p> \"x\"@en . <http://a> <http://q> \"s\" }";
        assert_eq!(e.run(load, t), Outcome::Done);
        let Outcome::Rows(r) = e.run("SELECT ?o ?s WHERE { ?s <http://p> ?o } ORDER BY ?o", t) else {
            panic!("no rows")
        };
        assert_eq!(r.columns, vec!["o", "s"]);
        assert_eq!(r.rows.len(), 2);
        // Oxigraph stores a decimal as its value, so it answers the canonical form: the leg,
        // not the adapter, decides what a lexical difference means.
        let decimal = "http://www.w3.org/2001/XMLSchema#decimal";
        assert!(r.rows.iter().any(
            |row| matches!(&row[0], Value::Literal { lexical, datatype: Some(d), lang: None } if lexical == "1.5" && d == decimal)
        ));
        assert!(r.rows.iter().any(|row| matches!(&row[1], Value::Blank(_))));
        let Outcome::Rows(s) = e.run("SELECT ?o WHERE { <http://a> <http://q> ?o }", t) else { panic!("no rows") };
        assert_eq!(
            s.rows[0][0],
            Value::Literal { lexical: "s".into(), datatype: Some(super::super::XSD_STRING.into()), lang: None }
        );
        let Outcome::Rows(a) = e.run("ASK { ?s ?p ?o }", t) else { panic!("no ask") };
        assert_eq!(a.rows, vec![vec![Value::Bool(true)]]);
        assert!(e.run("SELEC nothing", t).is_error());
        e.reset().unwrap_or_else(|err| panic!("{err}"));
        let Outcome::Rows(a) = e.run("# crosscheck-option: no-optimizer\nASK { ?s ?p ?o }", t) else { panic!() };
        assert_eq!(a.rows, vec![vec![Value::Bool(false)]]);
    }
}
