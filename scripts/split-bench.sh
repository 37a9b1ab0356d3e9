#!/usr/bin/env bash
# The input-splitting benchmark (issue 16): mypy and bandit on pygments, and cppcheck on zlib and
# bzip2 (the sources the libz-sys and bzip2-sys crates vendor, fetched by cargo into a scratch
# directory), each under SIZELIMITING and SPLITMERGE against the unsplit run. Prints figures and
# writes split-bench.svg; nothing is asserted.
#
#   scripts/split-bench.sh [--jobs N] [--sizes 25,50,100,200] [--c-sizes 5,10,20]
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

jobs=2 sizes=25,50,100,200 csizes=5,10,20
while (($#)); do
    case "$1" in
    --jobs) jobs="$2"; shift 2 ;;
    --sizes) sizes="$2"; shift 2 ;;
    --c-sizes) csizes="$2"; shift 2 ;;
    *) echo "split-bench: unknown option $1" >&2; exit 2 ;;
    esac
done

bash "$ROOT/scripts/install-split-tools.sh"
export CROSSCHECK_VENV="$VENV"

# The C workload: zlib and bzip2 sources, .c and .h only (no contrib, tests or tools).
cwork="${TMPDIR:-/tmp}/crosscheck-split-c"
if [ ! -d "$cwork/zlib" ]; then
    scratch="$(mktemp -d)"
    mkdir -p "$scratch/src" && echo 'fn main() {}' >"$scratch/src/main.rs"
    printf '[package]\nname = "fetch"\nversion = "0.0.0"\nedition = "2021"\n[dependencies]\nlibz-sys = "=1.1.31"\nbzip2-sys = "=0.1.13"\n' >"$scratch/Cargo.toml"
    cargo fetch -q --manifest-path "$scratch/Cargo.toml"
    reg="$(cargo metadata -q --format-version 1 --manifest-path "$scratch/Cargo.toml" |
        python3 -c 'import json,sys; print("\n".join(p["manifest_path"] for p in json.load(sys.stdin)["packages"]))')"
    zdir="$(dirname "$(grep '/libz-sys-' <<<"$reg")")/src/zlib"
    bdir="$(dirname "$(grep '/bzip2-sys-' <<<"$reg")")/bzip2-1.0.8"
    mkdir -p "$cwork/zlib" "$cwork/bzip2"
    cp "$zdir"/*.[ch] "$cwork/zlib/"
    cp "$bdir"/*.[ch] "$cwork/bzip2/"
    rm -rf "$scratch"
fi

cargo build -q --release -p crosscheck-split --example split_bench --manifest-path "$ROOT/Cargo.toml"
"$ROOT/target/release/examples/split_bench" --jobs "$jobs" --sizes "$sizes" --svg split-bench.svg
"$ROOT/target/release/examples/split_bench" --jobs "$jobs" --sizes "$csizes" --only cppcheck --c "$cwork" --svg split-bench-c.svg
