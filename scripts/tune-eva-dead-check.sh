#!/usr/bin/env bash
# Checks, against a real execution, the dead code that tuned Eva recipes claim. Each program of
# an Eva workload whose inputs are fixed (every program of scripts/tune-eva-workload.sh's) is
# compiled with gcc --coverage and run; a property that a tuned recipe reports unreachable while
# the default reached it must not sit on a line every block of which ran: that is dead code the
# tuner should not have accepted. Lines that ran in part are listed, not counted as wrong.
#
# Usage: scripts/tune-eva-dead-check.sh WORKLOAD OUT
#   WORKLOAD: the directory given to crosscheck tune --target eva --workload
#   OUT: its --out directory (table.tsv)
# Exit 0 when no newly unreachable property sits on a line that ran whole, 1 otherwise.
set -euo pipefail
work="$(cd "${1:?usage: tune-eva-dead-check.sh WORKLOAD OUT}" && pwd)"
table="$(cd "${2:?usage: tune-eva-dead-check.sh WORKLOAD OUT}" && pwd)/table.tsv"
[ -f "$table" ] || { echo "tune-eva-dead-check: no $table" >&2; exit 2; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
bad=0 total=0 partial=0
# The units whose tuned recipe made properties unreachable that the default reached.
units="$(awk -F'\t' 'NR > 1 && $5 == "unreachable" && $3 != "unreachable" {print $1}' "$table" | sort -u)"
for unit in $units; do
    src="$work/$unit"
    run="$tmp/$unit"
    mkdir -p "$run"
    if [ -d "$src" ]; then
        cp "$src"/*.c "$run"/
        inc="$(sed -n 's/^-cpp-extra-args=//p' "$src/frama-c.args" 2>/dev/null || true)"
    else
        cp "$src" "$run"/
        inc=""
    fi
    # A program that does not build or run natively cannot be checked: say so, do not pass it.
    # One object per file, so that gcov finds each file's notes under its own name.
    if ! (cd "$run" && for c in ./*.c; do gcc -O0 --coverage $inc -w -c "$c" || exit 1; done &&
        gcc --coverage -o prog ./*.o) 2>"$run/gcc.log"; then
        echo "$unit: does not build natively ($(head -1 "$run/gcc.log")); not checked"
        bad=$((bad + 1))
        continue
    fi
    # The exit status is the program's answer (or its crash), not ours.
    (cd "$run" && ./prog >/dev/null 2>&1) || true
    (cd "$run" && gcov ./*.c >/dev/null 2>&1)
    # file:line of every line that ran whole, and of every line that ran in part: gcov marks a
    # count with * when some block of the line never ran (the second operand of a &&, a loop
    # body written on its header's line), where a property may well be unreachable.
    for g in "$run"/*.gcov; do
        f="$(basename "$g" .gcov)"
        awk -F: -v f="$f" '$1 ~ /[0-9]/ {part = ($1 ~ /\*/); gsub(/ /, "", $2); print f ":" $2 "\t" (part ? "part" : "whole")}' "$g"
    done | sort -u >"$run/ran"
    awk -F'\t' -v u="$unit" '$1 == u && $5 == "unreachable" && $3 != "unreachable" {split($2, k, ":"); print k[1] ":" k[2] "\t" $2}' "$table" >"$run/dead"
    n="$(wc -l <"$run/dead")"
    # each newly unreachable property that sits on a line that ran, after how much of it ran
    awk -F'\t' 'NR == FNR {how[$1] = $2; next} ($1 in how) {print how[$1] "\t" $2}' "$run/ran" "$run/dead" >"$run/hit"
    ran="$(awk -F'\t' '$1 == "whole" {print $2}' "$run/hit")"
    part="$(awk -F'\t' '$1 == "part" {print $2}' "$run/hit")"
    total=$((total + n))
    if [ -n "$ran" ]; then
        echo "$unit: $n properties newly unreachable, these on lines that ran whole:"
        echo "$ran" | sed 's/^/  /'
        bad=$((bad + $(echo "$ran" | wc -l)))
    else
        echo "$unit: $n properties newly unreachable, none on a line that ran whole"
    fi
    if [ -n "$part" ]; then
        echo "$unit: $(echo "$part" | wc -l) on lines that ran in part (a line cannot tell):"
        echo "$part" | sed 's/^/  /'
        partial=$((partial + $(echo "$part" | wc -l)))
    fi
done
echo "tune-eva-dead-check: $total newly unreachable properties, $bad on lines that ran whole or unchecked, $partial on lines that ran in part"
[ "$bad" -eq 0 ]
