#!/usr/bin/env bash
# The test command: installs what the tests need, then runs every test of the workspace
# against the real engines. CI (.ci/run) calls exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export CROSSCHECK_VENV="$PWD/.venv"
# Engines (and chromium, which renders report pages) the setup above installed: a test that
# cannot start one of these fails instead of skipping.
export CROSSCHECK_REQUIRE_ENGINES="${CROSSCHECK_REQUIRE_ENGINES:-sqlite,duckdb,duckdb-1.1.3,postgres,mariadb,z3,cvc5,cvc5-py,yices,bitwuzla,cvc4,reference,cozo,nemo,clingo,swipl,rdflib,oxigraph-py,comunica,virtuoso,jena,kuzu,ladybug,falkordb,graphqlite,chromium,mypy,bandit,cppcheck,frama-c}"
status=0
# Formatting is checked first but does not stop the tests: both results are worth seeing.
cargo fmt --all -- --check >/dev/null || { echo "test.sh: formatting differs, run cargo fmt --all"; status=1; }
# Lints likewise: a clippy warning fails the script, after the tests have run.
cargo clippy --workspace --all-targets -- -D warnings || { echo "test.sh: clippy warns, see above"; status=1; }
cargo build --release --workspace --all-targets
if command -v cargo-nextest >/dev/null 2>&1; then
    cargo nextest run --release --workspace --no-fail-fast || status=1
    cargo test --release --workspace --doc || status=1
else
    cargo test --release --workspace --no-fail-fast || status=1
fi
exit "$status"
