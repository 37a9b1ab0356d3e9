#!/usr/bin/env bash
# Assembles the Eva tuning workload of eleven programs into DIR: the six fixtures of
# crates/tune/tests/fixtures/eva, lz4's examples/simple_buffer.c with lz4.c, and four library
# files of zlib and bzip2, each with a driver of crates/tune/bench/eva that calls it on fixed
# inputs. The library sources come from scripts/install-tune-tools.sh's cache.
#
# Usage: scripts/tune-eva-workload.sh DIR
#   then: crosscheck tune --target eva --workload DIR --limit 20s --workers 2 --seed 1
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:?usage: scripts/tune-eva-workload.sh DIR}"
src="${XDG_CACHE_HOME:-$HOME/.cache}/crosscheck/tune-sources"
lz4="$(ls -d "$src"/lz4-sys-*/liblz4 2>/dev/null | head -1)"
zlib="$(ls -d "$src"/libz-sys-*/src/zlib 2>/dev/null | head -1)"
bzip2="$(ls -d "$src"/bzip2-sys-*/bzip2-* 2>/dev/null | head -1)"
for d in "$lz4" "$zlib" "$bzip2"; do
    [ -n "$d" ] && [ -d "$d" ] || { echo "tune-eva-workload: sources missing under $src; run scripts/install-tune-tools.sh" >&2; exit 2; }
done
mkdir -p "$out"
cp "$root"/crates/tune/tests/fixtures/eva/*.c "$out"/
# program DIR-NAME CPP-ARGS FILE...: one program directory, its frama-c.args giving the
# preprocessor the library's headers (and defines)
program() {
    local name="$1" cpp="$2"
    shift 2
    mkdir -p "$out/$name"
    cp "$@" "$out/$name"/
    echo "-cpp-extra-args=$cpp" >"$out/$name/frama-c.args"
}
# lz4 calls GCC's builtins, which frama-c knows only by their prototypes: it assumes they write
# anything into the buffers they are given (sound, but every copied value is lost): mapped here
# to the libc functions Eva models, and lz4's portable bit count.
program lz4-simple_buffer "-I$lz4/lib -D__builtin_memcpy=memcpy -D__builtin_memmove=memmove -DLZ4_FORCE_SW_BITCOUNT" \
    "$lz4/examples/simple_buffer.c" "$lz4/lib/lz4.c"
program zlib-adler32 "-I$zlib" "$zlib/adler32.c"
program zlib-crc32 "-I$zlib" "$zlib/crc32.c"
program zlib-inftrees "-I$zlib" "$zlib/inftrees.c"
program bzip2-huffman "-I$bzip2" "$bzip2/huffman.c"
for p in zlib-adler32 zlib-crc32 zlib-inftrees bzip2-huffman; do
    cp "$root/crates/tune/bench/eva/$p.c" "$out/$p/main.c"
done
echo "tune-eva-workload: 11 programs in $out"
