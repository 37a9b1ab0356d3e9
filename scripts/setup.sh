#!/usr/bin/env bash
# Installs every external engine crosscheck can test (Debian packages, the project virtualenv
# .venv for PyPI packages). Idempotent: a second run only checks. Each leg has its own script.
set -euo pipefail
cd "$(dirname "$0")/.."
for script in scripts/install-sql-engines.sh scripts/install-smt-solvers.sh scripts/install-datalog-engines.sh \
    scripts/install-rdf-engines.sh scripts/install-graph-engines.sh scripts/install-report-tools.sh \
    scripts/install-split-tools.sh scripts/install-tune-tools.sh; do
    if [ -f "$script" ]; then
        echo "setup: $script"
        bash "$script"
    fi
done
