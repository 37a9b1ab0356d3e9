//! The SPARQL stores against the real thing: each loads one small graph with `INSERT DATA`
//! (typed literals, a language-tagged string, a blank node) and must answer the exact raw terms
//! of the contract, an ASK, an error, an empty store after `reset`, and a timeout that leaves
//! the store as it was.

use crosscheck_core::{Engine, EngineFactory, EngineSpec, Outcome, Value};
use crosscheck_engines::testing::{available, LIMIT};
use std::time::{Duration, Instant};

const XSD: &str = "http://www.w3.org/2001/XMLSchema#";
const EX: &str = "http://example.org/";

const DATA: &str = r#"PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>
PREFIX ex: <http://example.org/>
INSERT DATA {
  ex:a ex:int 7 ; ex:short "5"^^xsd:short ; ex:dec 2.5 ; ex:str "plain" ; ex:lang "chat"@fr ; ex:b _:n1 .
  _:n1 ex:name "blank" .
}"#;

/// The store of that name opened as the leg opens it (first probe included), where available.
fn open(text: &str) -> Option<Box<dyn Engine>> {
    let spec = EngineSpec::parse(text).unwrap_or_else(|e| panic!("spec: {e}"));
    let factories = crosscheck_engines::sparql::registry();
    let f: &dyn EngineFactory =
        *factories.iter().find(|f| f.name() == spec.name).unwrap_or_else(|| panic!("{}: not registered", spec.name));
    if !available(f) {
        return None;
    }
    Some(crosscheck_engines::open_engine(&factories, &spec).unwrap_or_else(|e| panic!("{text}: {e}")))
}

fn lit(lexical: &str, datatype: &str) -> Value {
    Value::Literal { lexical: lexical.into(), datatype: Some(format!("{XSD}{datatype}")), lang: None }
}

fn iri(local: &str) -> Value {
    Value::Iri(format!("{EX}{local}"))
}

fn run(e: &mut dyn Engine, text: &str) -> Outcome {
    e.run(text, LIMIT)
}

fn rows(e: &mut dyn Engine, text: &str) -> (Vec<String>, Vec<Vec<Value>>) {
    match run(e, text) {
        Outcome::Rows(r) => (r.columns, r.rows),
        other => panic!("{}: {text} -> {other:?}", e.info().name),
    }
}

fn count(e: &mut dyn Engine) -> usize {
    rows(e, "SELECT ?s ?p ?o WHERE { ?s ?p ?o }").1.len()
}

/// What every store must answer. `short` is the `xsd:short` literal as the store gives it
/// back (a store may keep or drop a derived datatype: raw terms are the store's own).
fn the_contract(name: &str, short: Value) {
    let t = Instant::now();
    let Some(mut e) = open(name) else { return };
    println!("{name}: {} opened in {:?}", e.info().version, t.elapsed());
    let e = e.as_mut();
    assert!(matches!(run(e, DATA), Outcome::Done), "{name}: load");
    let (cols, got) = rows(
        e,
        "PREFIX ex: <http://example.org/> SELECT ?o ?p ?n WHERE { ex:a ?p ?o OPTIONAL { ?o ex:name ?n } } ORDER BY ?p",
    );
    assert_eq!(cols, ["o", "p", "n"], "{name}: projection order");
    assert_eq!(got.len(), 6, "{name}: {got:?}");
    let Value::Blank(label) = &got[0][0] else { panic!("{name}: a blank node first: {got:?}") };
    assert!(!label.is_empty() && !label.starts_with("_:"), "{name}: the store's own label, bare: {label}");
    let lang = Value::Literal { lexical: "chat".into(), datatype: None, lang: Some("fr".into()) };
    let want = [
        [got[0][0].clone(), iri("b"), lit("blank", "string")],
        [lit("2.5", "decimal"), iri("dec"), Value::Null],
        [lit("7", "integer"), iri("int"), Value::Null],
        [lang, iri("lang"), Value::Null],
        [short, iri("short"), Value::Null],
        [lit("plain", "string"), iri("str"), Value::Null],
    ];
    assert_eq!(got, want, "{name}");
    // The blank node is one node: its label finds it again as a subject.
    let (_, subj) = rows(e, "PREFIX ex: <http://example.org/> SELECT ?s WHERE { ?s ex:name \"blank\" }");
    assert_eq!(subj, [[got[0][0].clone()]], "{name}");

    let ask = |e: &mut dyn Engine, q: &str| rows(e, q);
    assert_eq!(
        ask(e, "PREFIX ex: <http://example.org/> ASK { ex:a ex:lang \"chat\"@fr }"),
        (vec!["ask".into()], vec![vec![Value::Bool(true)]])
    );
    assert_eq!(ask(e, "PREFIX ex: <http://example.org/> ASK { ex:a ex:lang \"chat\" }").1, [[Value::Bool(false)]]);

    let bad = run(e, "SELECT ?x WHERE { ?x");
    assert!(matches!(bad, Outcome::Error { .. }), "{name}: a syntax error: {bad:?}");
    assert_eq!(count(e), 7, "{name}: an error leaves the store");

    e.reset().unwrap_or_else(|err| panic!("{name}: reset: {err}"));
    assert_eq!(count(e), 0, "{name}: reset empties the store");
    // A solution that binds none of the projected variables is still a row (rdflib's own
    // iterator skips it; its bindings keep it).
    let (_, unbound) = rows(e, "SELECT ?x WHERE { OPTIONAL { <http://example.org/a> <http://example.org/b> ?x } }");
    assert_eq!(unbound, [[Value::Null]], "{name}: one all-unbound row");
    assert!(matches!(run(e, DATA), Outcome::Done), "{name}: load after reset");
    assert_eq!(count(e), 7, "{name}");

    timeout_keeps_the_store(name, e);
    throughput(name, e);
    a_crash_is_a_crash(name, e);
}

/// The store's process (a child of this test process whose command line names `needle`) killed
/// under it: the next query is a crash; then the store is back, as it was where the adapter can
/// replay it (bridges), empty after a reset where it cannot (a server).
fn a_crash_is_a_crash(name: &str, e: &mut dyn Engine) {
    let needle = if name.starts_with("virtuoso") { "virtuoso-t" } else { name };
    if name.contains('=') {
        return; // a user's server is not ours to kill
    }
    let me = std::process::id().to_string();
    let children: Vec<String> = std::fs::read_dir("/proc")
        .map(|d| d.flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect())
        .unwrap_or_default();
    let child = children.into_iter().find(|pid| {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        let ppid = stat.rsplit(')').next().and_then(|r| r.split_whitespace().nth(1)).unwrap_or("");
        let cmd = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
        ppid == me && String::from_utf8_lossy(&cmd).contains(needle)
    });
    let Some(pid) = child else { panic!("{name}: no child process running {needle}") };
    let killed = std::process::Command::new("kill").args(["-9", &pid]).status();
    assert!(killed.is_ok_and(|s| s.success()), "{name}: kill {pid}");
    std::thread::sleep(Duration::from_millis(100));
    let o = run(e, "SELECT ?s WHERE { ?s ?p ?o }");
    assert!(matches!(o, Outcome::Crash { .. }), "{name}: {o:?}");
    if name == "virtuoso" {
        e.reset().unwrap_or_else(|err| panic!("{name}: reset after a crash: {err}"));
        assert_eq!(count(e), 0, "{name}");
    } else {
        assert_eq!(count(e), 7, "{name}: the updates replayed into a new bridge");
    }
}

/// A cross product of ten patterns over seven triples (7^10 solutions) cannot finish in 300 ms.
fn timeout_keeps_the_store(name: &str, e: &mut dyn Engine) {
    let q = "SELECT (COUNT(*) AS ?c) WHERE { ?a ?b ?c0 . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l . ?m ?n ?o . \
             ?p ?q ?r . ?s ?t ?u . ?v ?w ?x . ?y ?z ?a1 . ?a2 ?a3 ?a4 }";
    let t = Instant::now();
    let o = e.run(q, Duration::from_millis(300));
    assert!(matches!(o, Outcome::Timeout { .. }), "{name}: {o:?}");
    assert!(t.elapsed() < Duration::from_secs(5), "{name}: timeout took {:?}", t.elapsed());
    assert_eq!(count(e), 7, "{name}: the store after a timeout");
}

/// Trivial SELECTs per second, printed (a measurement, not a timed test).
fn throughput(name: &str, e: &mut dyn Engine) {
    let n = 200;
    let t = Instant::now();
    for _ in 0..n {
        rows(e, "PREFIX ex: <http://example.org/> SELECT ?o WHERE { ex:a ex:int ?o }");
    }
    let per_s = f64::from(n) / t.elapsed().as_secs_f64();
    println!("{name}: {per_s:.0} trivial SELECTs/s");
}

#[test]
fn rdflib_follows_the_contract() {
    the_contract("rdflib", lit("5", "short"));
}

#[test]
fn pyoxigraph_follows_the_contract() {
    // pyoxigraph 0.5 gives "5"^^xsd:short back as "5"^^xsd:integer (and so merges "01"^^xsd:int
    // with 1): its store keeps the value of a derived integer type, not the type.
    the_contract("oxigraph-py", lit("5", "integer"));
}

#[test]
fn comunica_follows_the_contract() {
    the_contract("comunica", lit("5", "short"));
}

#[test]
fn comunica_takes_a_venv_or_refuses_in_one_line() {
    let msg = super::locations::setup_error_in(&crosscheck_engines::sparql::registry(), "comunica=/nonexistent");
    assert!(msg.contains("/path/to/venv"), "{msg}");
    let Some(venv) = std::env::var_os("CROSSCHECK_VENV") else { return };
    let at = format!("comunica={}", std::path::Path::new(&venv).display());
    if let Some(mut e) = open(&at) {
        assert!(e.info().version.starts_with("Comunica "), "{}", e.info().version);
        assert!(matches!(e.run("ASK {}", LIMIT), Outcome::Rows(_)));
    }
}

#[test]
fn virtuoso_follows_the_contract() {
    the_contract("virtuoso", lit("5", "short"));
}

/// Virtuoso 7.2 runs this query (from a campaign, seed 7) past its own anytime limit and then
/// answers no later request: the adapter must give up at the limit and its grace, replace the
/// private server and replay the graph, so the next query is answered at once.
#[test]
fn virtuoso_replaces_a_server_that_runs_a_query_past_its_limit() {
    let Some(mut e) = open("virtuoso") else { return };
    let e = e.as_mut();
    let data = include_str!("virtuoso-wedge.data.ru");
    assert!(matches!(run(e, data), Outcome::Done), "load");
    assert_eq!(count(e), 35);
    let t = Instant::now();
    let o = e.run(include_str!("virtuoso-wedge.rq"), Duration::from_secs(1));
    assert!(matches!(o, Outcome::Timeout { .. }), "{o:?}");
    println!("virtuoso: timeout and a new server in {:?}", t.elapsed());
    assert!(t.elapsed() < Duration::from_secs(30), "{:?}", t.elapsed());
    let t = Instant::now();
    assert_eq!(count(e), 35, "the graph replayed into the new server");
    assert!(t.elapsed() < Duration::from_secs(5), "the next query took {:?}", t.elapsed());
}

/// Virtuoso 7.2.5 hangs on this query over this graph without evaluating it (the whole server
/// stops, no CPU time spent, and its own limit never fires): the adapter sees the server idle
/// and gives up before the limit, where it used to wait for the limit and its grace.
#[test]
fn virtuoso_gives_up_on_a_hung_server_within_the_budget() {
    let Some(mut e) = open("virtuoso") else { return };
    let e = e.as_mut();
    let data = "PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>\nINSERT DATA { <http://e/p> <http://e/p> <http://e/p> , \"-4\"^^xsd:byte , \"-3.3992\"^^xsd:decimal }";
    assert!(matches!(run(e, data), Outcome::Done), "load");
    let hang =
        "SELECT (IF(isLITERAL(?o), \"\", STR(?o)) AS ?c) WHERE { ?s <http://e/p> ?o VALUES ?s { <http://e/p> UNDEF } }";
    // Without the watch the adapter waits the budget and its grace, then starts a server.
    let budget = Duration::from_secs(30);
    for round in ["first", "again"] {
        let t = Instant::now();
        let o = e.run(hang, budget);
        assert!(matches!(o, Outcome::Timeout { .. }), "{round}: {o:?}");
        println!("virtuoso: hung query given up on ({round}) in {:?}", t.elapsed());
        assert!(t.elapsed() < budget, "{round}: {:?} for a budget of {budget:?}", t.elapsed());
        assert_eq!(count(e), 3, "{round}: the graph replayed");
    }
}

#[test]
fn virtuoso_takes_an_endpoint_or_refuses_in_one_line() {
    let reg = crosscheck_engines::sparql::registry();
    let msg = super::locations::setup_error_in(&reg, "virtuoso=/usr/bin/virtuoso-t");
    assert!(msg.contains("http://HOST:PORT/sparql"), "{msg}");
    let port = std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port()).unwrap_or(9);
    let msg = super::locations::setup_error_in(&reg, &format!("virtuoso=http://127.0.0.1:{port}/sparql"));
    assert!(msg.contains("is the server running"), "{msg}");
}

/// The stores behind the Python host.
const BRIDGED: [&str; 2] = ["rdflib", "oxigraph-py"];

#[test]
fn bridged_stores_take_a_venv_or_refuse_in_one_line() {
    for name in BRIDGED {
        let msg = super::locations::setup_error_in(
            &crosscheck_engines::sparql::registry(),
            &format!("{name}=/nonexistent/venv"),
        );
        assert!(msg.contains("/path/to/venv"), "{msg}");
    }
    let Some(venv) = std::env::var_os("CROSSCHECK_VENV") else { return };
    let at = format!("rdflib={}", std::path::Path::new(&venv).display());
    if let Some(mut e) = open(&at) {
        assert!(e.info().version.starts_with("rdflib 7."), "{}", e.info().version);
        assert_eq!(e.info().location.as_deref(), Some(&at["rdflib=".len()..]));
        assert!(matches!(e.run("ASK {}", LIMIT), Outcome::Rows(_)));
    }
}

#[test]
fn jena_follows_the_contract() {
    // ARQ cancels the slow query itself: the timeout leaves the same JVM and dataset.
    the_contract("jena", lit("5", "short"));
}

#[test]
fn jena_takes_a_jar_directory_or_refuses_in_one_line() {
    let msg = super::locations::setup_error_in(&crosscheck_engines::sparql::registry(), "jena=/nonexistent");
    assert!(msg.contains("/path/to/apache-jena"), "{msg}");
    // Debian's own jar directory named as a location is the same Jena as the default.
    if let Some(mut e) = open("jena=/usr/share/java") {
        assert!(e.info().version.starts_with("Jena 4."), "{}", e.info().version);
        assert!(matches!(e.run("ASK {}", LIMIT), Outcome::Rows(_)));
    }
}
