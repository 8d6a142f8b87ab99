#!/usr/bin/env bash
# Sets everything up and runs the companion's main job on its built-in default, with no camera and no
# board attached: `crib play` replays the bundled recording of a whole game, filmed as camera frames
# and read by the real card recognition, on the virtual board; it serves the scoreboard while it plays
# and prints the score deal by deal. Extra arguments go to `crib play` (for example --events,
# --pace 0.5 or --players Ann Bob).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
if [[ -f firmware/Makefile ]]; then
    make -s -C firmware all
fi
exec .venv/bin/crib play --once "$@"
