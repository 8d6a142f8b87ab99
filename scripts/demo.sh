#!/usr/bin/env bash
# Sets everything up and runs the companion's main job on its built-in default: no camera and no
# board attached. Extra arguments are passed to the command.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
if [[ -f firmware/Makefile ]]; then
    make -s -C firmware all
fi
exec .venv/bin/crib score 5h 5d 5s Jc 5c "$@"
