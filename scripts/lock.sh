#!/usr/bin/env bash
# Rewrites deploy/requirements.txt: the companion's runtime dependencies pinned with their hashes, as the
# Raspberry Pi installs them (scripts/install-pi.sh). Held to docs/pi-constraints.txt (NumPy 1.x for
# picamera2, the OpenCV that works with it) and resolved for Python 3.11, Raspberry Pi OS Bookworm's.
# The hashes cover every wheel of each pinned release, so the same file serves the Pi (aarch64) and CI.
# Needs the network (PyPI) and pip-tools, which it installs in a throwaway environment.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-python3}
if [[ $("$PYTHON" -c 'import sys; print(sys.version_info[:2] == (3, 11))') != True ]]; then
    echo "lock: needs Python 3.11 (the Pi's); set PYTHON=python3.11" >&2
    exit 1
fi
tools=$(mktemp -d)
trap 'rm -rf "$tools"' EXIT
"$PYTHON" -m venv "$tools"
# Only PyPI: a local pip configuration (extra indexes, find-links) must not leak into the lock file.
export PIP_CONFIG_FILE=/dev/null
"$tools/bin/python" -m pip install -q "pip-tools==7.6.2"
CUSTOM_COMPILE_COMMAND="bash scripts/lock.sh" "$tools/bin/pip-compile" --quiet --generate-hashes \
    --allow-unsafe --strip-extras --no-emit-index-url --no-emit-find-links --no-build-isolation \
    --constraint docs/pi-constraints.txt --output-file deploy/requirements.txt pyproject.toml
echo "lock: wrote deploy/requirements.txt"
