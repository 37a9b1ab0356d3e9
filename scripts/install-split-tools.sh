#!/usr/bin/env bash
# Installs what `crosscheck split` analyzes with, and the workload its benchmark splits.
# Idempotent: each step checks first.
#
#   .venv (PyPI): mypy (inter-module type checking) and bandit (per-file security linting),
#   pinned so that findings counts are comparable between runs
#   .venv/workloads/pygments-<version>: the pygments package's sources, a real workload for
#   both (installed with --target, apart from the virtualenv's own site-packages, so that it
#   never stands in for a module a partition lacks)
#   Debian: cppcheck (C, with cross-file checks)
#
# Usage: scripts/install-split-tools.sh        (run from anywhere; needs root for apt)
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

MYPY_VERSION=2.4.1
BANDIT_VERSION=1.9.4
PYGMENTS_VERSION=2.21.0

command -v cppcheck >/dev/null 2>&1 || apt_install split cppcheck

ensure_venv
want=()
[ "$("$VENV/bin/mypy" --version 2>/dev/null | awk '{print $2}')" = "$MYPY_VERSION" ] || want+=("mypy==$MYPY_VERSION")
"$VENV/bin/bandit" --version 2>/dev/null | grep -q "bandit $BANDIT_VERSION" || want+=("bandit==$BANDIT_VERSION")
pip_install split "${want[@]}"

workload="$VENV/workloads/pygments-$PYGMENTS_VERSION"
if [ ! -f "$workload/pygments/__init__.py" ]; then
    log "pip install --target $workload pygments==$PYGMENTS_VERSION"
    "$VENV/bin/pip" install -q --disable-pip-version-check --no-deps --no-compile --target "$workload" \
        "pygments==$PYGMENTS_VERSION" || log "could not fetch the pygments workload (the split benchmark skips it)"
    # Only the package's sources are the workload: no scripts, no metadata.
    rm -rf "$workload/bin" "$workload"/*.dist-info
fi

report "mypy (venv)" "$("$VENV/bin/mypy" --version 2>/dev/null || true)"
report "bandit (venv)" "$("$VENV/bin/bandit" --version 2>/dev/null | head -1 || true)"
report "cppcheck (debian)" "$(cppcheck --version 2>/dev/null || true)"
report "pygments workload" "$([ -f "$workload/pygments/__init__.py" ] && echo "$PYGMENTS_VERSION at $workload" || true)"
