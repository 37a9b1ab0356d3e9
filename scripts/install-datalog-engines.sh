#!/usr/bin/env bash
# Installs the Datalog engines the datalog leg drives. Idempotent: each step checks first.
#
#   Debian: gringo (clingo 5.4 CLI), swi-prolog-nox (swipl with tabling), z3 (μZ, 4.8.x)
#   .venv at the repository root (PyPI): nemo-python (Nemo, driven through the Python host
#   crates/engines/bridge/host.py, module nemo.py), z3-solver (current z3 binary), clingo (5.8),
#   cozo-embedded (CozoDB's Python module, for cozo=/path/to/venv beside the compiled-in crate)
#
# CozoDB, the reference evaluator and recursive SQL on SQLite are compiled in: nothing else to install.
# Usage: scripts/install-datalog-engines.sh        (run from anywhere; needs root for apt)
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# --- Debian packages -------------------------------------------------------------------------
missing=()
command -v clingo >/dev/null 2>&1 || missing+=(gringo)
command -v swipl >/dev/null 2>&1 || missing+=(swi-prolog-nox)
command -v /usr/bin/z3 >/dev/null 2>&1 || missing+=(z3)
apt_install datalog "${missing[@]}"

# --- PyPI packages in the project virtualenv --------------------------------------------------
ensure_venv
want=()
"$VENV/bin/python" -c 'import nmo_python' >/dev/null 2>&1 || want+=(nemo-python)
[ -x "$VENV/bin/z3" ] || want+=(z3-solver)
"$VENV/bin/python" -c 'import clingo' >/dev/null 2>&1 || want+=(clingo)
"$VENV/bin/python" -c 'import cozo_embedded' >/dev/null 2>&1 || want+=(cozo-embedded)
pip_install datalog "${want[@]}"
[ -e "$VENV/bin/z3" ] && chmod +x "$VENV/bin/z3" || true

# --- Report -----------------------------------------------------------------------------------
report clingo "$(clingo --version 2>/dev/null | head -1 || true)"
report swipl "$(swipl --version 2>/dev/null | head -1 || true)"
report "z3 (Debian)" "$(/usr/bin/z3 --version 2>/dev/null | head -1 || true)"
report "z3 (venv)" "$("$VENV/bin/z3" --version 2>/dev/null | head -1 || true)"
report nemo "$("$VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("nemo-python"))' 2>/dev/null || true)"
report "cozo (venv)" "$("$VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("cozo-embedded"))' 2>/dev/null || true)"
