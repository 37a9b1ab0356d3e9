//! Apache Jena (ARQ over one in-memory transactional dataset, `DatasetFactory.createTxnMem`) in
//! one long-lived JVM (`bridge/jena/JenaHost.java`) speaking the Python host's protocol. Jena
//! comes from Debian (`libapache-jena-java`, jars in /usr/share/java); `jena=LOCATION` runs
//! another release: an Apache Jena distribution (its directory or its `lib/`), a directory of
//! jars, or one jar holding all of Jena (`jena-fuseki-server.jar`). ARQ cancels a query past its
//! limit itself, so a slow query answers `timeout` and the store survives it.
//!
//! The host is compiled once per source, classpath and JDK into a per-user cache (`javac` takes
//! about 3 s, a start of the compiled class about 1.3 s), since Java's source launcher would
//! compile it again at every start.

use super::bridged::{Bridged, Host};
use crate::transport::bridge::Library;
use crate::transport::find_tool;
use crate::Entry;
use crosscheck_core::SetupError;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// The JVM host, compiled in like the Python and Node hosts.
const SOURCE: &str = include_str!("../../bridge/jena/JenaHost.java");
const CLASS: &str = "JenaHost";

const INSTALL: &str = "scripts/install-rdf-engines.sh (apt-get install libapache-jena-java openjdk-17-jdk-headless)";

const LIB: Library =
    Library { host: "jena", product: "Jena", module: "org.apache.jena.query (jena-arq)", install: INSTALL };

pub static FACTORY: Entry<Bridged<JavaHost>> = Entry {
    name: "jena",
    describe: "Apache Jena (Debian libapache-jena-java) in one JVM, an in-memory dataset; jena=/path/to/apache-jena (or its lib/, or a jar) for another release",
    opener: Bridged { lib: LIB, dialect: "jena", grace: Duration::from_secs(2), host: JavaHost },
};

/// Where Debian installs Jena and the libraries it depends on.
const DEBIAN_JARS: &str = "/usr/share/java";

/// Jena's modules and their dependencies under Debian's unversioned names (the Depends of
/// libapache-jena-java and the jars its poms name). Debian's jar directory holds every Java
/// library of the system, some of which break Jena (other Xerces builds, several SLF4J
/// bindings), so the whole directory cannot be the classpath.
const DEBIAN_CLASSPATH: &[&str] = &[
    "jena-arq",
    "jena-core",
    "jena-base",
    "jena-iri",
    "jena-dboe-base",
    "jena-dboe-index",
    "jena-dboe-storage",
    "jena-dboe-trans-data",
    "jena-dboe-transaction",
    "jena-rdfconnection",
    "jena-tdb",
    "jena-tdb2",
    "jena-shacl",
    "jena-shex",
    "slf4j-api",
    "guava",
    "commons-csv",
    "commons-io",
    "commons-lang3",
    "commons-codec",
    "commons-compress",
    "commons-cli",
    "dexx.collection",
    "jsonld-java",
    "gson",
    "httpclient",
    "httpcore",
    "jackson-core",
    "jackson-databind",
    "jackson-annotations",
    "titanium-json-ld",
    "jakarta.json-api",
    "protobuf",
    "thrift",
];

/// A JDK's `java`, with the host compiled for the Jena a location names.
#[derive(Clone, Copy)]
pub struct JavaHost;

impl Host for JavaHost {
    fn interpreter(&self, name: &str, location: Option<&str>) -> Result<PathBuf, SetupError> {
        // Checked here so that a missing Jena is an availability answer, not a start failure.
        classpath(name, location)?;
        find_tool("java").ok_or_else(|| SetupError::new(format!("{name}: no java found; install with {INSTALL}")))
    }

    fn command(&self, interpreter: &Path, location: Option<&str>) -> Result<Command, SetupError> {
        let jena = classpath("jena", location)?;
        let classes = compiled(interpreter, &jena)?;
        let mut cmd = Command::new(interpreter);
        // The serial collector: the bridge is one thread on a machine whose cores run workers.
        cmd.args(["-XX:+UseSerialGC", "-Xss16m", "-cp"]).arg(format!("{}:{jena}", classes.display()));
        cmd.args([CLASS, "jena"]);
        Ok(cmd)
    }
}

/// The classpath of the Jena a location names (Debian's when none).
fn classpath(name: &str, location: Option<&str>) -> Result<String, SetupError> {
    let Some(loc) = location else {
        return debian_classpath(Path::new(DEBIAN_JARS)).ok_or_else(|| {
            SetupError::new(format!("{name}: Apache Jena not found in {DEBIAN_JARS}; install with {INSTALL}"))
        });
    };
    let p = Path::new(loc);
    if p.is_file() && loc.ends_with(".jar") {
        return Ok(loc.to_string());
    }
    if let Some(cp) = debian_classpath(p) {
        return Ok(cp);
    }
    [p.join("lib"), p.to_path_buf()].into_iter().find(|d| holds_arq(d)).map(|d| format!("{}/*", d.display())).ok_or_else(
        || {
            SetupError::new(format!(
                "{name}={loc}: no jena-arq jar there; give an Apache Jena distribution ({name}=/path/to/apache-jena), its lib/ directory, or a jar holding Jena ({name}=/path/to/jena-fuseki-server.jar)"
            ))
        },
    )
}

/// A directory laid out as Debian's jar directory (`jena-arq.jar` under its unversioned name):
/// the jars of [`DEBIAN_CLASSPATH`] there.
fn debian_classpath(dir: &Path) -> Option<String> {
    if !dir.join("jena-arq.jar").is_file() {
        return None;
    }
    let jars: Vec<String> = DEBIAN_CLASSPATH
        .iter()
        .map(|j| dir.join(format!("{j}.jar")))
        .filter(|j| j.is_file())
        .map(|j| j.display().to_string())
        .collect();
    Some(jars.join(":"))
}

/// Whether a directory holds a jena-arq jar (an Apache Jena distribution's `lib/`).
fn holds_arq(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|entries| {
        entries.flatten().any(|e| {
            let n = e.file_name();
            let n = n.to_string_lossy();
            n.starts_with("jena-arq") && n.ends_with(".jar")
        })
    })
}

/// The directory holding the compiled host for this classpath and JDK: compiled on first use
/// (and its resource shim written, see `JenaHost.shim`), then reused by every start.
fn compiled(java: &Path, jena: &str) -> Result<PathBuf, SetupError> {
    let java = std::fs::canonicalize(java).unwrap_or_else(|_| java.to_path_buf());
    let mut h = std::collections::hash_map::DefaultHasher::new();
    (SOURCE, jena, &java).hash(&mut h);
    let dir = cache_root().join(format!("jena-{:016x}", h.finish()));
    if dir.join(format!("{CLASS}.class")).is_file() {
        return Ok(dir);
    }
    let javac = java.parent().map(|b| b.join("javac")).filter(|j| j.is_file()).or_else(|| find_tool("javac"));
    let Some(javac) = javac else {
        return Err(SetupError::new(format!(
            "jena: no javac next to {} (a JRE, not a JDK); install with {INSTALL}",
            java.display()
        )));
    };
    // Built beside its final place and renamed: two workers starting at once each build their
    // own, and the second rename finds the first one's.
    let tmp = dir.with_extension(format!("tmp{}", std::process::id()));
    let fail = |what: &str, e: String| SetupError::new(format!("jena: {what} the bridge in {}: {e}", tmp.display()));
    std::fs::create_dir_all(&tmp).map_err(|e| fail("cannot create", e.to_string()))?;
    let src = tmp.join(format!("{CLASS}.java"));
    std::fs::write(&src, SOURCE).map_err(|e| fail("cannot write", e.to_string()))?;
    let cp = format!("{}:{jena}", tmp.display());
    let steps = [
        Command::new(&javac).args(["-nowarn", "-cp", jena, "-d"]).arg(&tmp).arg(&src).output(),
        Command::new(&java).args(["-cp", &cp, CLASS, "--shim"]).arg(&tmp).output(),
    ];
    for (step, out) in ["javac cannot compile", "java cannot prepare"].into_iter().zip(steps) {
        let out = out.map_err(|e| fail(step, e.to_string()))?;
        if !out.status.success() {
            let err = String::from_utf8_lossy(&out.stderr);
            let _ = std::fs::remove_dir_all(&tmp);
            return Err(fail(step, err.lines().take(5).collect::<Vec<_>>().join(" | ")));
        }
    }
    if std::fs::rename(&tmp, &dir).is_err() {
        let _ = std::fs::remove_dir_all(&tmp);
    }
    if dir.join(format!("{CLASS}.class")).is_file() {
        Ok(dir)
    } else {
        Err(SetupError::new(format!("jena: cannot place the compiled bridge in {}", dir.display())))
    }
}

/// A per-user cache directory: `$XDG_CACHE_HOME/crosscheck`, `~/.cache/crosscheck`, else one in
/// the temporary directory named by the user id (never a directory another user could fill).
fn cache_root() -> PathBuf {
    let var = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty()).map(PathBuf::from);
    if let Some(x) = var("XDG_CACHE_HOME") {
        return x.join("crosscheck");
    }
    if let Some(home) = var("HOME") {
        return home.join(".cache/crosscheck");
    }
    // SAFETY: getuid has no preconditions and cannot fail.
    let uid = unsafe { libc::getuid() };
    std::env::temp_dir().join(format!("crosscheck-{uid}"))
}
