"""The firmware as built: it fits the ATmega328P with RAM to spare, its parser survives a million fuzzed
inputs under AddressSanitizer/UBSan, its layout table comes from companion/board/layout.json and a bad layout
fails the build, and the simulator launcher says clearly when the harness is not built.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from companion.board.sim import DEFAULT_FIRMWARE, HarnessNotBuilt, SimulatedBoard, SimulatorError

from .conftest import LAYOUT, REPO

BUILD = REPO / "firmware" / "build"
FLASH_BYTES = 32 * 1024 - 2 * 1024  # the Nano's bootloader takes up to 2 KB (old bootloader)
RAM_BYTES = 2 * 1024


def test_the_parser_survives_a_million_fuzzed_inputs(built: None) -> None:
    run = subprocess.run(
        [str(BUILD / "fuzz-proto"), "1000000", "20261123"], capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    match = re.search(r"(\d+) inputs, (\d+) frames \((\d+) OK, (\d+) NAK\)", run.stdout)
    assert match, run.stdout
    inputs, frames, oks, naks = map(int, match.groups())
    assert inputs == 1_000_000
    assert frames == oks + naks and oks > 50_000 and naks > 50_000
    assert "no fault" in run.stdout


def test_the_firmware_fits_with_at_least_30_percent_of_ram_free(built: None) -> None:
    run = subprocess.run(
        ["avr-size", "-A", str(DEFAULT_FIRMWARE)], capture_output=True, text=True, check=True
    )
    sections = {m[1]: int(m[2]) for m in re.finditer(r"^\.(\w+)\s+(\d+)", run.stdout, re.M)}
    flash = sections["text"] + sections.get("data", 0)
    ram = sections.get("data", 0) + sections.get("bss", 0)
    assert flash <= FLASH_BYTES
    assert ram <= 0.70 * RAM_BYTES, f"{ram} bytes of RAM used"


def test_the_generated_table_matches_the_layout(built: None) -> None:
    header = (BUILD / "layout_table.h").read_text(encoding="ascii")
    rows = re.findall(r"\{([\d,\s\\]+)\}", header.split("#define LAYOUT_TABLE", 1)[1])
    table = [[int(v) for v in re.findall(r"\d+", row)] for row in rows]
    assert [len(row) for row in table] == [121, 121]
    for (track, hole), led in LAYOUT.items():
        assert table[track][hole - 1] == led


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["holes"][5].__setitem__("led", d["holes"][6]["led"]), "sits under two holes"),
        (lambda d: d["holes"].pop(), "have no LED"),
        (lambda d: d["holes"][0].__setitem__("led", 500), "outside"),
    ],
)
def test_a_bad_layout_fails_the_build_with_one_sentence(tmp_path: Path, change: object, message: str) -> None:
    data = json.loads((REPO / "companion" / "board" / "layout.json").read_text(encoding="utf-8"))
    assert callable(change)
    change(data)
    bad = tmp_path / "layout.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    run = subprocess.run(
        [sys.executable, str(REPO / "firmware" / "tools" / "gen_layout.py"), str(bad)],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 1
    assert message in run.stderr and run.stderr.count("\n") == 1 and "Traceback" not in run.stderr


def test_the_launcher_says_when_the_harness_is_not_built(tmp_path: Path) -> None:
    with pytest.raises(HarnessNotBuilt, match=r"make -C firmware all"):
        SimulatedBoard(harness=tmp_path / "crib-sim").start()


def test_the_launcher_reports_a_firmware_the_harness_cannot_load(built: None, tmp_path: Path) -> None:
    bogus = tmp_path / "board.elf"
    bogus.write_bytes(b"not an ELF file")
    with pytest.raises(SimulatorError, match=r"exited .*cannot read the firmware"):
        SimulatedBoard(firmware=bogus).start()
