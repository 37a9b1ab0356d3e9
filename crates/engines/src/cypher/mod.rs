//! The Cypher engines (one file each, one line each in [`registry`]). The leg prints the graph
//! script and the queries in each engine's dialect and normalizes answers; an adapter only
//! talks to its engine.
//!
//! Text protocol (shared by every engine): `Engine::run` takes one or more Cypher statements,
//! each but the last ending with `;` and a newline (the leg's graph scripts: DDL, then the
//! nodes, then the relationships). They run in order; the answer is the last one's: `Done` for
//! a statement that returns no columns, `Rows` with the returned columns in order, or the first
//! error (an empty answer may name no columns: GraphQLite's JSON rows carry them). Values come back as the engine typed them: integers as `Value::Int`, floats as
//! `Value::Float`, strings, booleans, lists as `Value::List`, maps as `Value::Map`, null as
//! `Value::Null`. A whole node or relationship, which the leg never returns, comes back as
//! `Value::Node` / `Value::Edge` with the engine's own id from FalkorDB, and as the text of the
//! Python object from the Python host.

pub mod bridged;
pub mod falkordb;
pub mod grafeo;
pub mod graphqlite;
pub mod kuzu;
pub mod ladybug;
pub mod resp;

use crosscheck_core::{EngineFactory, Value};
use serde_json::Value as Json;

/// Every Cypher engine of this layer, one line each.
pub fn registry() -> Vec<&'static dyn EngineFactory> {
    vec![&kuzu::FACTORY, &falkordb::FACTORY, &ladybug::FACTORY, &graphqlite::FACTORY, &grafeo::FACTORY]
}

/// Where a PyPI package keeps the files an engine needs and its version, as `python` sees them:
/// `locate` is a Python expression for the path (with the package imported as `module`).
pub fn package_files(
    python: &std::path::Path,
    module: &str,
    dist: &str,
    locate: &str,
) -> Result<(std::path::PathBuf, String), String> {
    let src = format!("import {module}, os, importlib.metadata as m\nprint({locate})\nprint(m.version('{dist}'))");
    let out = std::process::Command::new(python)
        .args(["-I", "-c", &src])
        .output()
        .map_err(|e| format!("cannot run {}: {e}", python.display()))?;
    let text = String::from_utf8_lossy(&out.stdout);
    let mut lines = text.lines();
    match (out.status.success(), lines.next(), lines.next()) {
        (true, Some(path), Some(v)) if std::path::Path::new(path).exists() => Ok((path.into(), v.to_string())),
        _ => Err(format!("{} cannot import {module} (PyPI {dist})", python.display())),
    }
}

/// A value as the Python host writes it (`bridge/graphdb.py`).
pub fn value_of(j: &Json) -> Value {
    match j {
        Json::Null => Value::Null,
        Json::Bool(b) => Value::Bool(*b),
        Json::Number(n) => match (n.as_i64(), n.as_f64()) {
            (Some(i), _) if !n.is_f64() => Value::Int(i),
            (_, Some(f)) => Value::Float(f),
            _ => Value::BigInt(n.to_string()),
        },
        Json::String(s) => Value::Text(s.clone()),
        Json::Array(items) => Value::List(items.iter().map(value_of).collect()),
        Json::Object(o) => {
            if let Some(Json::Object(m)) = o.get("map") {
                Value::Map(m.iter().map(|(k, v)| (k.clone(), value_of(v))).collect())
            } else if let Some(f) = o.get("float").and_then(Json::as_str) {
                Value::Float(f.parse().unwrap_or(f64::NAN))
            } else {
                Value::Text(o.get("other").and_then(Json::as_str).unwrap_or_default().to_string())
            }
        }
    }
}
