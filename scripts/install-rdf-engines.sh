#!/usr/bin/env bash
# Installs the RDF stores the SPARQL leg drives besides the built-in Oxigraph. Idempotent: each
# step checks first, so a second run takes about a second.
#
#   Debian: virtuoso-opensource (Virtuoso 7.2; crosscheck starts private servers itself, so the
#           packaged service is kept from starting)
#   Debian: libapache-jena-java (Apache Jena 4.5, jars in /usr/share/java) and a JDK 17
#           (openjdk-17-jdk-headless: crosscheck compiles its bridge crates/engines/bridge/Jena.java
#           once per source and runs it in one long-lived JVM)
#   .venv at the repository root (PyPI): rdflib and pyoxigraph, driven through the Python host
#           crates/engines/bridge/host.py (modules rdflib.py, pyoxigraph.py)
#   .venv/node (npm): @comunica/query-sparql-rdfjs and n3, driven by crates/engines/bridge/comunica.js
#           in one long-lived Node process (Node itself from Debian: nodejs, npm)
#
# Usage: scripts/install-rdf-engines.sh        (run from anywhere; needs root for apt)
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# --- Debian packages -------------------------------------------------------------------------
missing=()
command -v virtuoso-t >/dev/null 2>&1 || missing+=(virtuoso-opensource)
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v npm >/dev/null 2>&1 || missing+=(npm)
[ -f /usr/share/java/jena-arq.jar ] || missing+=(libapache-jena-java)
command -v javac >/dev/null 2>&1 || missing+=(openjdk-17-jdk-headless)
if ((${#missing[@]})); then
    # The package starts a Virtuoso service on the default ports: crosscheck wants none running.
    sudo=""
    if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
    policy_added=0
    if [ ! -e /usr/sbin/policy-rc.d ]; then
        printf '#!/bin/sh\nexit 101\n' | $sudo tee /usr/sbin/policy-rc.d >/dev/null
        $sudo chmod +x /usr/sbin/policy-rc.d
        policy_added=1
    fi
    apt_install rdf "${missing[@]}"
    if [ "$policy_added" = 1 ]; then $sudo rm -f /usr/sbin/policy-rc.d; fi
fi

# --- PyPI packages in the project virtualenv --------------------------------------------------
ensure_venv
want=()
"$VENV/bin/python" -c 'import rdflib' >/dev/null 2>&1 || want+=('rdflib>=7,<8')
"$VENV/bin/python" -c 'import pyoxigraph' >/dev/null 2>&1 || want+=(pyoxigraph)
pip_install rdf "${want[@]}"

# --- npm packages in $VENV/node (project-local, found next to the Python engines) -------------
NODE_DIR="$VENV/node"
if command -v npm >/dev/null 2>&1 &&
    { [ ! -f "$NODE_DIR/node_modules/@comunica/query-sparql-rdfjs/package.json" ] ||
        [ ! -f "$NODE_DIR/node_modules/n3/package.json" ]; }; then
    log "npm install @comunica/query-sparql-rdfjs n3 into $NODE_DIR"
    mkdir -p "$NODE_DIR"
    [ -f "$NODE_DIR/package.json" ] || echo '{"private": true}' >"$NODE_DIR/package.json"
    (cd "$NODE_DIR" && npm install --silent --no-audit --no-fund '@comunica/query-sparql-rdfjs@^5' 'n3@^2') ||
        log "npm install failed (the rdf leg skips comunica)"
fi

# --- Report -----------------------------------------------------------------------------------
pkg_version() { node -p "require('$NODE_DIR/node_modules/$1/package.json').version" 2>/dev/null || true; }
# Jena's jars carry no version in their manifests; Debian's versioned jar name does.
jena_version() { basename /usr/share/java/jena-arq-[0-9]*.jar .jar 2>/dev/null | sed -n 's/^jena-arq-//p' | head -1; }
report jena "$(jena_version)"
report virtuoso "$(virtuoso-t -? 2>&1 | grep -m1 -i version || true)"
report rdflib "$("$VENV/bin/python" -c 'import rdflib; print(rdflib.__version__)' 2>/dev/null || true)"
report pyoxigraph "$("$VENV/bin/python" -c 'import pyoxigraph; print(pyoxigraph.__version__)' 2>/dev/null || true)"
report comunica "$(pkg_version @comunica/query-sparql-rdfjs)"
report "n3 (comunica's store)" "$(pkg_version n3)"
