#!/usr/bin/env bash
# Sets up everything the companion needs on a fresh Debian machine with Python 3.11:
# Debian packages (the AVR toolchain, simavr, Chromium for the scoreboard tests, shellcheck) and a local
# virtual environment in .venv with the companion installed in editable mode.
# Safe to run again: it only installs what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

APT_PACKAGES=(gcc-avr avr-libc binutils-avr simavr libsimavr-dev libelf-dev pkg-config make gcc chromium libcairo2 fonts-dejavu-core fonts-dejavu-extra shellcheck)
missing=()
for pkg in "${APT_PACKAGES[@]}"; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if ((${#missing[@]})); then
    if [[ $(id -u) -eq 0 ]]; then
        echo "setup: installing Debian packages: ${missing[*]}"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    else
        echo "setup: these Debian packages are missing; install them with:" >&2
        echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
        exit 1
    fi
fi

PYTHON=${PYTHON:-python3}
if [[ ! -x .venv/bin/python ]]; then
    echo "setup: creating .venv with $("$PYTHON" --version)"
    "$PYTHON" -m venv .venv
fi
stamp=.venv/.installed
if [[ ! -f $stamp || pyproject.toml -nt $stamp ]]; then
    echo "setup: installing the companion and its development tools into .venv"
    .venv/bin/python -m pip install -q --upgrade pip
    .venv/bin/python -m pip install -q -e ".[dev]"
    touch "$stamp"
fi
