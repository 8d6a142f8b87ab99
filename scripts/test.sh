#!/usr/bin/env bash
# Sets everything up, builds the firmware, then runs the linters, the type checker and the whole
# test suite (which includes the exhaustive scoring check and the firmware in the simulator).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
if [[ -f firmware/Makefile ]]; then
    echo "test: building the firmware and the simulator harness"
    make -s -C firmware all
fi
echo "test: ruff"
.venv/bin/ruff check companion tests benchmarks hardware docs tools
echo "test: mypy --strict"
.venv/bin/mypy
echo "test: pytest"
.venv/bin/python -m pytest "$@"
