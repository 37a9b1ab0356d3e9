#!/usr/bin/env bash
# Shows that a change keeps behaviour: the first N cases (default 2000) of every leg and oracle,
# as `crosscheck __cases` prints them, are the same byte for byte at two revisions.
#   scripts/same-stream.sh dump DIR          # this checkout's streams into DIR (one file each)
#   scripts/same-stream.sh compare REV       # builds REV in a temporary worktree, dumps both, diffs
set -euo pipefail
cd "$(dirname "$0")/.."
N="${N:-2000}"
export CROSSCHECK_VENV="${CROSSCHECK_VENV:-$PWD/.venv}"

# name | kind | engines | oracles | extra arguments
MATRIX=(
  "sql-tlp|sql|sqlite|tlp|"
  "sql-tlp-variants|sql|sqlite|tlp-where,tlp-distinct,tlp-group-by,tlp-having,tlp-aggregate|"
  "sql-norec|sql|sqlite|norec|"
  "sql-differential|sql|sqlite,duckdb,postgres,mariadb|differential|"
  "sql-config|sql|postgres|config|"
  "smt-storm|smt|z3|storm|--seeds crates/smt/seeds"
  "smt-random|smt|z3|storm|"
  "smt-differential|smt|z3,cvc5|differential,model|--seeds crates/smt/seeds"
  "datalog-qf|datalog|cozo,reference|queryfuzz|"
  "datalog-dlsmith|datalog|cozo,reference|dlsmith|"
  "datalog-differential|datalog|reference,cozo,nemo,z3,clingo,swipl,sqlite,postgres,duckdb|differential|"
  "datalog-config|datalog|cozo,sqlite|config|"
  "cypher-differential|cypher|kuzu,falkordb|differential|"
  "cypher-partition|cypher|kuzu|partition|"
)

dump() {
  local bin="$1" dir="$2"
  mkdir -p "$dir"
  for row in "${MATRIX[@]}"; do
    IFS='|' read -r name kind engines oracles extra <<<"$row"
    # shellcheck disable=SC2086
    "$bin" __cases "$kind" --engines "$engines" --oracle "$oracles" --seed 7 --tests "$N" $extra \
      >"$dir/$name.jsonl" 2>"$dir/$name.err" || echo "same-stream: $name failed (see $dir/$name.err)"
    echo "$(sha256sum <"$dir/$name.jsonl" | cut -c1-16)  $(wc -l <"$dir/$name.jsonl") $name"
  done
}

case "${1:-}" in
  dump)
    cargo build --release -q -p crosscheck
    dump "$PWD/target/release/crosscheck" "${2:?dump DIR}"
    ;;
  compare)
    rev="${2:?compare REV}"
    tmp="$(mktemp -d)"
    trap 'git worktree remove --force "$tmp/tree" >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
    git worktree add -q --detach "$tmp/tree" "$rev"
    (cd "$tmp/tree" && CARGO_TARGET_DIR="$PWD/../target" cargo build --release -q -p crosscheck)
    cargo build --release -q -p crosscheck
    echo "== $rev"; dump "$tmp/target/release/crosscheck" "$tmp/before"
    echo "== this checkout"; dump "$PWD/target/release/crosscheck" "$tmp/after"
    if diff -rq "$tmp/before" "$tmp/after" --exclude='*.err'; then
      echo "same-stream: identical ($N cases per stream)"
    else
      echo "same-stream: the streams differ"; exit 1
    fi
    ;;
  *) echo "usage: scripts/same-stream.sh dump DIR | compare REV" >&2; exit 2 ;;
esac
