// crosscheck's JVM host for Apache Jena (ARQ over one in-memory transactional dataset), for the
// SPARQL engine `jena`: one long-lived process, the same JSON-lines protocol as the Python host
// (crates/engines/bridge/host.py, rdfhost.py) and the Node host (comunica.js):
//   {"op": "query" | "update", "text": "...", "timeout_ms": N} | {"op": "reset"}
//   -> {"done": true} | {"vars": [...], "rows": [[term|null]]} | {"ask": b} | {"error": "..."}
//      | {"timeout": true}
// Terms are spelt as in SPARQL JSON results, raw. A query past its limit is cancelled by ARQ's
// own timeout, so the process and its dataset survive it. A first line
// `# crosscheck-option: no-optimizer` runs the query with ARQ's optimizer off (the `config`
// oracle). Requests are parsed with Jena's own JSON (org.apache.jena.atlas.json) and replies
// written by hand, one line each: nothing beyond Jena's classpath is needed.
// Run as `java -cp CLASSES:JENA JenaHost jena [--version]` (crates/engines/src/sparql/jena.rs
// compiles it once per source and classpath into CLASSES, then runs `JenaHost --shim CLASSES`).

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.JarURLConnection;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.jena.atlas.json.JSON;
import org.apache.jena.atlas.json.JsonObject;
import org.apache.jena.atlas.json.JsonValue;
import org.apache.jena.graph.Node;
import org.apache.jena.query.ARQ;
import org.apache.jena.query.Dataset;
import org.apache.jena.query.DatasetFactory;
import org.apache.jena.query.Query;
import org.apache.jena.query.QueryCancelledException;
import org.apache.jena.query.QueryExecution;
import org.apache.jena.query.QueryExecutionDatasetBuilder;
import org.apache.jena.query.QueryFactory;
import org.apache.jena.query.ResultSet;
import org.apache.jena.sparql.core.Var;
import org.apache.jena.sparql.engine.binding.Binding;
import org.apache.jena.sys.JenaSystem;
import org.apache.jena.system.Txn;
import org.apache.jena.update.UpdateAction;

public final class JenaHost {
    private static final String XSD_STRING = "http://www.w3.org/2001/XMLSchema#string";
    private static final String OPTION = "# crosscheck-option:";

    private Dataset dataset = DatasetFactory.createTxnMem();

    public static void main(String[] args) throws Exception {
        // Replies go to a private copy of stdout; anything Jena or its logging prints goes to
        // stderr, so it cannot shift a reply onto the wrong request.
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
        System.setOut(System.err);
        if (args.length == 2 && args[0].equals("--shim")) {
            shim(Path.of(args[1]));
            return;
        }
        JenaSystem.init();
        String version = org.apache.jena.Jena.VERSION;
        if (Arrays.asList(args).contains("--version")) {
            out.println(version);
            out.flush();
            return;
        }
        JenaHost host = new JenaHost();
        reply(out, "{\"hello\":" + str(version) + "}");
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line; (line = in.readLine()) != null; ) {
            if (!line.isBlank()) {
                reply(out, host.handle(line));
            }
        }
    }

    /** Where Jena's shaded Xerces keeps its message bundles, and where Debian's build expects them. */
    private static final String SHADED = "org/apache/jena/ext/";
    private static final String REGEX_MESSAGES = "xerces/impl/xpath/regex/message.properties";

    /**
     * Debian's libapache-jena-java 4.5.0-2 moved the classes of Jena's shaded Xerces from
     * org.apache.jena.ext.xerces to xerces but left their resource bundles where they were, so
     * the first XSD datatype Jena builds fails ("Couldn't load messages", then "internal error"
     * in XSSimpleTypeDecl) and Jena cannot start. This copies the bundles to where the classes
     * look for them, into `dir` (on the bridge's classpath); it does nothing for a Jena that
     * finds them.
     */
    static void shim(Path dir) throws Exception {
        ClassLoader cl = JenaHost.class.getClassLoader();
        URL shaded = cl.getResource(SHADED + REGEX_MESSAGES);
        if (cl.getResource(REGEX_MESSAGES) != null || cl.getResource("xerces/impl/xpath/regex/RegexParser.class") == null
                || shaded == null || !(shaded.openConnection() instanceof JarURLConnection c)) {
            return;
        }
        try (JarFile jar = new JarFile(Path.of(c.getJarFileURL().toURI()).toFile())) {
            for (JarEntry e : java.util.Collections.list(jar.entries())) {
                String name = e.getName();
                if (name.startsWith(SHADED + "xerces/") && name.endsWith(".properties")) {
                    Path to = dir.resolve(name.substring(SHADED.length()));
                    Files.createDirectories(to.getParent());
                    try (InputStream in = jar.getInputStream(e)) {
                        Files.copy(in, to, StandardCopyOption.REPLACE_EXISTING);
                    }
                }
            }
        }
    }

    private static void reply(PrintStream out, String line) {
        out.print(line);
        out.print('\n');
        out.flush();
    }

    String handle(String line) {
        try {
            JsonObject req = JSON.parse(line);
            String op = string(req, "op");
            if ("reset".equals(op)) {
                dataset = DatasetFactory.createTxnMem();
                return "{\"done\":true}";
            }
            String text = string(req, "text");
            if ("update".equals(op)) {
                Txn.executeWrite(dataset, () -> UpdateAction.parseExecute(text, dataset));
                return "{\"done\":true}";
            }
            JsonValue ms = req.get("timeout_ms");
            long timeout = ms != null && ms.isNumber() ? Math.max(1, ms.getAsNumber().value().longValue()) : 10_000;
            return Txn.calculateRead(dataset, () -> query(text, timeout));
        } catch (QueryCancelledException e) {
            return "{\"timeout\":true}";
        } catch (Exception | StackOverflowError e) {
            return "{\"error\":" + str(e.getClass().getSimpleName() + ": " + e.getMessage()) + "}";
        }
    }

    private static String string(JsonObject req, String key) {
        JsonValue v = req.get(key);
        return v != null && v.isString() ? v.getAsString().value() : "";
    }

    private String query(String text, long timeoutMs) {
        Query q = QueryFactory.create(text);
        QueryExecutionDatasetBuilder b = QueryExecution.dataset(dataset).query(q).timeout(timeoutMs, TimeUnit.MILLISECONDS);
        if (text.startsWith(OPTION) && text.substring(OPTION.length()).trim().startsWith("no-optimizer")) {
            b.set(ARQ.optimization, false);
        }
        try (QueryExecution qe = b.build()) {
            if (q.isAskType()) {
                return "{\"ask\":" + qe.execAsk() + "}";
            }
            if (!q.isSelectType()) {
                return "{\"error\":" + str("not a SELECT or ASK query") + "}";
            }
            ResultSet rs = qe.execSelect();
            List<String> vars = rs.getResultVars();
            StringBuilder sb = new StringBuilder("{\"vars\":[");
            for (int i = 0; i < vars.size(); i++) {
                sb.append(i == 0 ? "" : ",").append(str(vars.get(i)));
            }
            sb.append("],\"rows\":[");
            for (boolean first = true; rs.hasNext(); first = false) {
                Binding row = rs.nextBinding();
                sb.append(first ? "[" : ",[");
                for (int i = 0; i < vars.size(); i++) {
                    sb.append(i == 0 ? "" : ",").append(term(row.get(Var.alloc(vars.get(i)))));
                }
                sb.append(']');
            }
            return sb.append("]}").toString();
        }
    }

    private static String term(Node n) {
        if (n == null) {
            return "null";
        }
        if (n.isURI()) {
            return "{\"type\":\"uri\",\"value\":" + str(n.getURI()) + "}";
        }
        if (n.isBlank()) {
            return "{\"type\":\"bnode\",\"value\":" + str(n.getBlankNodeLabel()) + "}";
        }
        if (n.isLiteral()) {
            String lang = n.getLiteralLanguage();
            String value = str(n.getLiteralLexicalForm());
            if (lang != null && !lang.isEmpty()) {
                return "{\"type\":\"literal\",\"value\":" + value + ",\"xml:lang\":" + str(lang) + "}";
            }
            String dt = n.getLiteralDatatypeURI();
            return "{\"type\":\"literal\",\"value\":" + value + ",\"datatype\":" + str(dt == null ? XSD_STRING : dt) + "}";
        }
        // A quoted triple or a kind no query should bind: shown, never dropped.
        return "{\"type\":\"other\",\"value\":" + str(n.toString()) + "}";
    }

    /** A JSON string literal. */
    private static String str(String s) {
        if (s == null) {
            return "null";
        }
        StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                sb.append('\\').append(c);
            } else if (c < 0x20) {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.append('"').toString();
    }
}
