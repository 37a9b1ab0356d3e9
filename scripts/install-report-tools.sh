#!/usr/bin/env bash
# Installs what the `crosscheck report` tests render pages with: Debian's chromium (headless).
# Idempotent and quiet: a second run only checks.
#
#   scripts/install-report-tools.sh
set -euo pipefail

say() { printf 'install-report-tools: %s\n' "$*" >&2; }

command -v chromium >/dev/null 2>&1 && exit 0
if [ "$(id -u)" -ne 0 ] && ! command -v sudo >/dev/null 2>&1; then
    say "need root (or sudo) to install: chromium"
    exit 1
fi
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
say "apt-get install chromium"
export DEBIAN_FRONTEND=noninteractive
if ! $sudo apt-get install -y -qq --no-install-recommends chromium >/tmp/install-report-tools.apt.log 2>&1; then
    $sudo apt-get update -qq >/dev/null 2>&1 || true
    $sudo apt-get install -y -qq --no-install-recommends chromium >/tmp/install-report-tools.apt.log 2>&1 || {
        say "apt-get install failed; see /tmp/install-report-tools.apt.log"
        tail -n 20 /tmp/install-report-tools.apt.log >&2
        exit 1
    }
fi
