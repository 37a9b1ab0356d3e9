//! What the SPARQL store adapters share: telling an update from a query, and reading terms and
//! solutions spelt as in the SPARQL 1.1 Query Results JSON Format (what Virtuoso and Comunica
//! serialize, and what the Python host's RDF modules write) into the contract's raw terms.
//! Terms stay raw: lexical forms as the store gave them, the leg normalizes.

use crosscheck_core::{Outcome, Rows, Value};
use serde_json::Value as Json;

/// `xsd:string`, the datatype of a simple literal (RDF 1.1).
pub const XSD_STRING: &str = "http://www.w3.org/2001/XMLSchema#string";

/// Whether `text` is a SPARQL 1.1 Update: its first keyword after the prologue is an update
/// operation.
pub fn is_update(text: &str) -> bool {
    let word = first_keyword(&text[prologue_end(text)..]).to_ascii_uppercase();
    matches!(
        word.as_str(),
        "INSERT" | "DELETE" | "LOAD" | "CLEAR" | "CREATE" | "DROP" | "COPY" | "MOVE" | "ADD" | "WITH"
    )
}

/// The keyword `text` starts with (letters only), after white space.
pub fn first_keyword(text: &str) -> &str {
    let t = text.trim_start();
    let end = t.find(|c: char| !c.is_ascii_alphabetic()).unwrap_or(t.len());
    &t[..end]
}

/// Where the prologue (`PREFIX` and `BASE` declarations, comments, white space) of `text` ends.
pub fn prologue_end(text: &str) -> usize {
    let mut at = 0;
    loop {
        let rest = &text[at..];
        let trimmed = rest.trim_start();
        at += rest.len() - trimmed.len();
        if trimmed.starts_with('#') {
            at += trimmed.find('\n').map(|i| i + 1).unwrap_or(trimmed.len());
            continue;
        }
        let word = first_keyword(trimmed);
        if word.eq_ignore_ascii_case("PREFIX") || word.eq_ignore_ascii_case("BASE") {
            // A declaration ends with its IRI: skip past the closing `>`.
            match trimmed.find('>') {
                Some(i) => at += i + 1,
                None => return text.len(),
            }
            continue;
        }
        return at;
    }
}

/// One term of a JSON results binding; `null` (or a missing binding) is unbound.
pub fn term(t: &Json) -> Value {
    let text = |k: &str| t.get(k).and_then(Json::as_str).map(str::to_string);
    let value = text("value").unwrap_or_default();
    match t.get("type").and_then(Json::as_str) {
        Some("uri") => Value::Iri(value),
        Some("bnode") => Value::Blank(value),
        // "typed-literal" is the spelling of the 2008 format, which Virtuoso still writes.
        Some("literal" | "typed-literal") => match text("xml:lang").filter(|l| !l.is_empty()) {
            Some(lang) => Value::Literal { lexical: value, datatype: None, lang: Some(lang) },
            None => Value::Literal {
                lexical: value,
                datatype: Some(text("datatype").unwrap_or_else(|| XSD_STRING.to_string())),
                lang: None,
            },
        },
        None if t.is_null() => Value::Null,
        // A triple term or a kind no store should bind here: kept visible, never dropped.
        _ => Value::Text(t.to_string()),
    }
}

/// The rows of a reply holding `vars` (projection order) and `rows` (arrays of terms).
pub fn rows_of_arrays(vars: &[String], rows: &[Json]) -> Outcome {
    let rows = rows
        .iter()
        .map(|r| {
            let cells = r.as_array().map(Vec::as_slice).unwrap_or_default();
            (0..vars.len()).map(|i| cells.get(i).map(term).unwrap_or(Value::Null)).collect()
        })
        .collect();
    Outcome::Rows(Rows::new(vars.to_vec(), rows))
}

/// A whole SPARQL JSON results document: a SELECT's solutions (columns in `head.vars` order)
/// or an ASK's boolean as one column `ask`.
pub fn rows_of_document(doc: &Json) -> Outcome {
    if let Some(b) = doc.get("boolean").and_then(Json::as_bool) {
        return ask(b);
    }
    let vars: Vec<String> = doc
        .pointer("/head/vars")
        .and_then(Json::as_array)
        .map(|v| v.iter().filter_map(Json::as_str).map(str::to_string).collect())
        .unwrap_or_default();
    let Some(bindings) = doc.pointer("/results/bindings").and_then(Json::as_array) else {
        return Outcome::error(format!("not a SPARQL results document: {}", clip(&doc.to_string())));
    };
    let rows =
        bindings.iter().map(|b| vars.iter().map(|v| b.get(v).map(term).unwrap_or(Value::Null)).collect()).collect();
    Outcome::Rows(Rows::new(vars, rows))
}

/// An ASK answer as the contract spells it.
pub fn ask(b: bool) -> Outcome {
    Outcome::Rows(Rows::new(vec!["ask".into()], vec![vec![Value::Bool(b)]]))
}

/// At most 300 characters of `s`, for messages.
pub fn clip(s: &str) -> String {
    match s.char_indices().nth(300) {
        Some((i, _)) => format!("{}...", &s[..i]),
        None => s.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tells_updates_from_queries() {
        assert!(is_update("INSERT DATA { <a> <b> <c> }"));
        assert!(is_update("PREFIX ex: <http://e#>\n# load\n insert data { ex:a ex:b 1 }"));
        assert!(is_update("BASE <http://x/> PREFIX : <#> DELETE WHERE { ?s ?p ?o }"));
        assert!(!is_update("PREFIX ex: <http://e/#insert> SELECT * WHERE { ?s ?p ?o }"));
        assert!(!is_update("# INSERT\nASK {}"));
        assert!(!is_update(""));
    }

    #[test]
    fn reads_terms_raw() {
        let doc: Json = serde_json::from_str(
            r#"{"head":{"vars":["b","a"]},"results":{"bindings":[
                {"a":{"type":"typed-literal","value":"01","datatype":"http://www.w3.org/2001/XMLSchema#int"},
                 "b":{"type":"literal","value":"chat","xml:lang":"fr"}},
                {"a":{"type":"literal","value":"x"},"b":{"type":"bnode","value":"b0"}},
                {"a":{"type":"uri","value":"http://e/a"}}]}}"#,
        )
        .expect("json");
        let Outcome::Rows(r) = rows_of_document(&doc) else { panic!("rows") };
        assert_eq!(r.columns, ["b", "a"]);
        let lit = |l: &str, d: Option<&str>, g: Option<&str>| Value::Literal {
            lexical: l.into(),
            datatype: d.map(Into::into),
            lang: g.map(Into::into),
        };
        assert_eq!(
            r.rows[0],
            [lit("chat", None, Some("fr")), lit("01", Some("http://www.w3.org/2001/XMLSchema#int"), None)]
        );
        assert_eq!(r.rows[1], [Value::Blank("b0".into()), lit("x", Some(XSD_STRING), None)]);
        assert_eq!(r.rows[2], [Value::Null, Value::Iri("http://e/a".into())]);
        let Outcome::Rows(a) = rows_of_document(&serde_json::json!({"head":{}, "boolean": true})) else { panic!() };
        assert_eq!(a.rows, [[Value::Bool(true)]]);
    }
}
