#!/usr/bin/env bash
# Sets everything up, builds the firmware, then runs the linters, the type checker and the whole
# test suite (which includes the exhaustive scoring check and the firmware in the simulator).
# Then, with no arguments, it runs the vision, board and app tests again in .venv-pi: the versions a
# Raspberry Pi gets (Python 3.11, NumPy 1.x, OpenCV < 4.11, installed from deploy/requirements.txt
# with its hashes, as scripts/install-pi.sh installs them). CRIB_PI_TESTS=0 leaves that part out.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
if [[ -f firmware/Makefile ]]; then
    echo "test: building the firmware and the simulator harness"
    make -s -C firmware all
fi
echo "test: ruff"
.venv/bin/ruff check companion tests benchmarks hardware docs firmware/tools tools
echo "test: shellcheck"
shellcheck scripts/*.sh .ci/run
echo "test: mypy --strict"
.venv/bin/mypy
echo "test: pytest"
.venv/bin/python -m pytest "$@"

if (($#)) || [[ ${CRIB_PI_TESTS:-1} == 0 ]]; then
    exit 0
fi
echo "test: the Pi's versions (.venv-pi)"
PI_PYTHON=${PI_PYTHON:-python3.11}
command -v "$PI_PYTHON" >/dev/null || PI_PYTHON=python3
if [[ $("$PI_PYTHON" -c 'import sys; print(sys.version_info[:2] == (3, 11))') != True ]]; then
    echo "test: the Pi's environment needs Python 3.11 (set PI_PYTHON)" >&2
    exit 1
fi
[[ -x .venv-pi/bin/python ]] || "$PI_PYTHON" -m venv .venv-pi
stamp=.venv-pi/.installed
if [[ ! -f $stamp || deploy/requirements.txt -nt $stamp || pyproject.toml -nt $stamp ]]; then
    .venv-pi/bin/python -m pip install -q --require-hashes -r deploy/requirements.txt
    .venv-pi/bin/python -m pip install -q "pytest>=8" "pytest-timeout>=2.2" "hypothesis>=6.100" "setuptools>=77"
    .venv-pi/bin/python -m pip install -q --no-deps --no-build-isolation -e .
    touch "$stamp"
fi
.venv-pi/bin/python -c 'import cv2, numpy, sys; print(f"test: Python {sys.version.split()[0]}, NumPy {numpy.__version__}, OpenCV {cv2.__version__}")'
# The network build (tests/vision/test_build.py) is left out: it never runs on a Pi, and its digests are
# of the scenes the shipped networks were trained on, drawn with the development versions of NumPy and
# OpenCV (another OpenCV resamples a pixel or two differently, so the digests differ by design). It is
# not even collected: it imports the build's own tools (onnx, for the namer's graph), not installed here.
.venv-pi/bin/python -m pytest -q tests/vision tests/board tests/app --ignore=tests/vision/test_build.py
