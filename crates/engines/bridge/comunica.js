// crosscheck's Node host for Comunica (npm @comunica/query-sparql-rdfjs) over an N3.js store
// (npm n3), for the SPARQL engine `comunica`: one long-lived process, the same JSON-lines
// protocol as the Python host (crates/engines/bridge/host.py, rdfhost.py):
//   {"op": "query" | "update", "text": "...", "timeout_ms": N} | {"op": "reset"}
//   -> {"done": true} | {"vars": [...], "rows": [[term|null]]} | {"ask": b} | {"error": "..."}
// Terms are spelt as in SPARQL JSON results, raw. Comunica cannot interrupt a query, so this host
// never answers "timeout": the adapter kills it past the limit (and replays the store's updates
// into the next one). Run as `node -e SOURCE comunica [--version]` with NODE_PATH naming the
// node_modules directory the install script fills (.venv/node/node_modules).
"use strict";

const XSD_STRING = "http://www.w3.org/2001/XMLSchema#string";

function versionOf(pkg) {
  return require(pkg + "/package.json").version;
}

function term(t) {
  if (t === undefined || t === null) return null;
  switch (t.termType) {
    case "NamedNode":
      return { type: "uri", value: t.value };
    case "BlankNode":
      return { type: "bnode", value: t.value };
    case "Literal":
      if (t.language) return { type: "literal", value: t.value, "xml:lang": t.language };
      return { type: "literal", value: t.value, datatype: t.datatype ? t.datatype.value : XSD_STRING };
    default:
      // A quoted triple or a kind no query should bind: shown, never dropped.
      return { type: "other", value: String(t.termType) + " " + String(t.value) };
  }
}

class Host {
  constructor() {
    const { QueryEngine } = require("@comunica/query-sparql-rdfjs");
    this.N3 = require("n3");
    this.engine = new QueryEngine();
    this.version = versionOf("@comunica/query-sparql-rdfjs") + " (n3 " + versionOf("n3") + ")";
    this.reset();
  }

  reset() {
    this.store = new this.N3.Store();
  }

  context() {
    // The store is both the source queries read and the destination updates write.
    return { sources: [this.store], destination: this.store };
  }

  async handle(req) {
    if (req.op === "reset") {
      this.reset();
      return { done: true };
    }
    try {
      if (req.op === "update") {
        await this.engine.queryVoid(req.text, this.context());
        return { done: true };
      }
      const result = await this.engine.query(req.text, this.context());
      if (result.resultType === "boolean") {
        return { ask: await result.execute() };
      }
      if (result.resultType !== "bindings") {
        return { error: "not a SELECT or ASK query (" + result.resultType + ")" };
      }
      const meta = await result.metadata();
      const vars = meta.variables.map((v) => (v.variable || v).value);
      const stream = await result.execute();
      const rows = [];
      for await (const b of stream) {
        rows.push(vars.map((v) => term(b.get(v))));
      }
      return { vars, rows };
    } catch (e) {
      return { error: (e && e.name ? e.name + ": " : "") + (e && e.message ? e.message : String(e)) };
    }
  }
}

async function main() {
  const host = new Host();
  if (process.argv.includes("--version")) {
    process.stdout.write(host.version + "\n");
    return;
  }
  // Replies go to a private copy of stdout; anything the libraries print goes to stderr.
  const fs = require("fs");
  const out = fs.openSync("/dev/stdout", "w");
  const write = (obj) => fs.writeSync(out, JSON.stringify(obj) + "\n");
  console.log = console.error;
  console.warn = console.error;
  console.info = console.error;
  write({ hello: host.version });
  const rl = require("readline").createInterface({ input: process.stdin, terminal: false });
  for await (const line of rl) {
    if (!line.trim()) continue;
    write(await host.handle(JSON.parse(line)));
  }
  process.exit(0);
}

main().catch((e) => {
  process.stderr.write(String((e && e.stack) || e) + "\n");
  process.exit(1);
});
