# What the install scripts share; sourced, never run. Sets ROOT (the repository) and VENV (the
# project virtualenv, CROSSCHECK_VENV if set); `log` prefixes the sourcing script's name.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${CROSSCHECK_VENV:-$ROOT/.venv}"

log() { echo "$(basename "$0" .sh): $*" >&2; }

# apt_install LEG PACKAGE...: installs the Debian packages with apt-get (sudo when not root).
# One package at a time: a package missing from a mirror must not block the others. The lock
# timeout lets two install scripts run at once.
apt_install() {
    local leg="$1"
    shift
    (($#)) || return 0
    if ! command -v apt-get >/dev/null 2>&1; then
        log "no apt-get: install $* yourself"
        return 0
    fi
    local sudo=""
    if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
    log "apt-get install $*"
    $sudo apt-get -o DPkg::Lock::Timeout=600 update -qq || log "apt-get update failed; trying the install anyway"
    local p
    for p in "$@"; do
        DEBIAN_FRONTEND=noninteractive $sudo apt-get -o DPkg::Lock::Timeout=600 install -y -qq "$p" >/dev/null ||
            log "could not install $p from apt (the $leg leg skips it)"
    done
}

# pip_install LEG PACKAGE...: installs the PyPI packages into $VENV (see ensure_venv), one at a
# time for the same reason as apt_install.
pip_install() {
    local leg="$1"
    shift
    (($#)) || return 0
    log "pip install $*"
    local p
    for p in "$@"; do
        "$VENV/bin/pip" install -q --disable-pip-version-check "$p" ||
            log "pip install $p failed (the $leg leg skips it)"
    done
}

# ensure_venv: creates the project virtualenv $VENV unless it exists.
ensure_venv() {
    if [ ! -x "$VENV/bin/python" ]; then
        log "creating $VENV"
        python3 -m venv "$VENV"
    fi
}

# report NAME VERSION: one line of the closing summary; an empty VERSION means missing.
report() {
    local name="$1" ver="$2"
    if [ -n "$ver" ]; then log "ok  $name: $ver"; else log "--  $name: missing"; fi
}
