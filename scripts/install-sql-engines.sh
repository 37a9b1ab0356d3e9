#!/usr/bin/env bash
# Installs the external SQL engines crosscheck drives: PostgreSQL 15, MariaDB 10.11 and the
# sqlite3 CLI from Debian, DuckDB (CLI + Python module) and Turso (pyturso) into the project
# virtualenv `.venv`.
# Idempotent and quiet: a second run only checks and returns in about a second.
#
#   scripts/install-sql-engines.sh          # from anywhere in the repository
#   VENV=/some/venv scripts/install-sql-engines.sh
#
# No service is started: crosscheck starts private throwaway servers itself.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="${VENV:-$root/.venv}"
python="${PYTHON:-python3}"

say() { printf 'install-sql-engines: %s\n' "$*" >&2; }

# --- Debian packages -------------------------------------------------------------------------
missing=()
have_pg_initdb() { compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null; }
have_pg_initdb || missing+=(postgresql)
command -v mariadbd >/dev/null 2>&1 || [ -x /usr/sbin/mariadbd ] || missing+=(mariadb-server)
command -v mariadb-install-db >/dev/null 2>&1 || [ -x /usr/bin/mariadb-install-db ] || missing+=(mariadb-server)
command -v sqlite3 >/dev/null 2>&1 || missing+=(sqlite3)

if [ "${#missing[@]}" -gt 0 ]; then
    # De-duplicate.
    mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u)
    if [ "$(id -u)" -ne 0 ] && ! command -v sudo >/dev/null 2>&1; then
        say "need root (or sudo) to install: ${missing[*]}"
        exit 1
    fi
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    say "apt-get install ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    # Do not start the packaged services: crosscheck runs its own private servers.
    policy_added=0
    if [ ! -e /usr/sbin/policy-rc.d ]; then
        printf '#!/bin/sh\nexit 101\n' | $sudo tee /usr/sbin/policy-rc.d >/dev/null
        $sudo chmod +x /usr/sbin/policy-rc.d
        policy_added=1
    fi
    if ! $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/tmp/install-sql-engines.apt.log 2>&1; then
        $sudo apt-get update -qq >/dev/null 2>&1 || true
        $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/tmp/install-sql-engines.apt.log 2>&1 || {
            [ "$policy_added" = 1 ] && $sudo rm -f /usr/sbin/policy-rc.d
            say "apt-get install failed; see /tmp/install-sql-engines.apt.log"
            tail -n 20 /tmp/install-sql-engines.apt.log >&2
            exit 1
        }
    fi
    [ "$policy_added" = 1 ] && $sudo rm -f /usr/sbin/policy-rc.d
fi

# --- Python virtualenv: DuckDB ---------------------------------------------------------------
if [ ! -x "$venv/bin/python" ]; then
    say "creating virtualenv $venv"
    "$python" -m venv "$venv"
fi
# duckdb: the module crosscheck drives (bridge); duckdb-cli: the `duckdb` shell that runs the
# repro.duckdb.sql reproducers; pyturso: Turso, a SQLite rewrite in Rust (extra engine `turso`).
if [ ! -x "$venv/bin/duckdb" ] || ! "$venv/bin/python" -c 'import duckdb, turso' >/dev/null 2>&1; then
    say "pip install duckdb-cli duckdb pyturso into $venv"
    "$venv/bin/python" -m pip install -q --disable-pip-version-check duckdb-cli duckdb pyturso
fi

# An older DuckDB release beside the current one, in its own virtualenv: the tests run a
# campaign on it to check that the dialect layer speaks that release's language (1.1.3 has no
# sum(BOOLEAN) and no `NOT GLOB`), as `--engines duckdb=.venvs/duckdb-1.1.3` would.
old_duckdb="$root/.venvs/duckdb-1.1.3"
if ! "$old_duckdb/bin/python" -c 'import duckdb; assert duckdb.__version__ == "1.1.3"' >/dev/null 2>&1; then
    say "pip install duckdb==1.1.3 into $old_duckdb"
    "$python" -m venv "$old_duckdb"
    "$old_duckdb/bin/python" -m pip install -q --disable-pip-version-check duckdb==1.1.3
fi
