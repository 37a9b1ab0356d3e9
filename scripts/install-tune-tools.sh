#!/usr/bin/env bash
# Installs what `crosscheck tune --target eva` runs: Frama-C with Eva, RTE and Report (Debian
# frama-c-base; about 30 s and 290 MB), and fetches the C sources the Eva benchmark reads
# (lz4-sys, bzip2-sys and libz-sys from crates.io, into cargo's registry cache, through a
# throwaway manifest; nothing is added to the workspace). Idempotent.
#
#   scripts/install-tune-tools.sh
set -euo pipefail
source "$(dirname "$0")/lib.sh"

if ! command -v frama-c >/dev/null 2>&1; then
    apt_install tune frama-c-base
fi
report frama-c "$(frama-c -version 2>/dev/null | head -n 1)"

# The benchmark's C sources, unpacked from cargo's download cache into
# ${XDG_CACHE_HOME:-~/.cache}/crosscheck/tune-sources (fetched first through a throwaway
# manifest when the cache lacks them).
SOURCES="${XDG_CACHE_HOME:-$HOME/.cache}/crosscheck/tune-sources"
CACHE="${CARGO_HOME:-$HOME/.cargo}/registry/cache"
if command -v cargo >/dev/null 2>&1 && ! ls "$SOURCES"/lz4-sys-* >/dev/null 2>&1; then
    if ! ls "$CACHE"/*/lz4-sys-*.crate >/dev/null 2>&1; then
        tmp="$(mktemp -d)"
        mkdir -p "$tmp/src"
        : >"$tmp/src/lib.rs"
        printf '[package]\nname = "tune-sources"\nversion = "0.0.0"\nedition = "2021"\n[dependencies]\nlz4-sys = "1"\nbzip2-sys = "0.1"\nlibz-sys = "1"\n' >"$tmp/Cargo.toml"
        (cd "$tmp" && cargo fetch -q) || log "cargo fetch of the benchmark's C sources failed (the Eva benchmark skips them)"
        rm -rf "$tmp"
    fi
    mkdir -p "$SOURCES"
    for c in lz4-sys bzip2-sys libz-sys; do
        crate="$(ls "$CACHE"/*/"$c"-[0-9]*.crate 2>/dev/null | sort -V | tail -n 1 || true)"
        [ -n "$crate" ] && tar xzf "$crate" -C "$SOURCES"
    done
fi
report tune-sources "$(ls "$SOURCES" 2>/dev/null | tr '\n' ' ')"
