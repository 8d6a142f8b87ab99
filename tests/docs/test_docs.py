"""The documentation runs: its commands exit 0, its examples print what they say, its facts match the code.

A guide whose commands have rotted is worse than none, so:

* every fenced ``sh`` block in ``docs/*.md`` and ``hardware/README.md`` whose first line is
  ``# runnable`` is run with bash (``set -euo pipefail``) from the repository root and must exit 0;
* the ``.venv/bin/crib`` commands in the top-level README's ``sh`` blocks are run the same way (except a
  ``crib play`` that would keep serving: it needs ``--once``);
* every ``>>>`` example in a ``python`` block is run as a doctest;
* the settings file, the systemd unit's command line, the flashing command and the wiring table shown in
  the docs are checked against the code that reads or defines them;
* every relative link, in the docs and the top-level README, points at a file (and a heading) that exists.
"""

from __future__ import annotations

import csv
import doctest
import io
import os
import re
import subprocess
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = [*sorted((ROOT / "docs").glob("*.md")), ROOT / "hardware" / "README.md"]
FENCE = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```\s*$", re.MULTILINE | re.DOTALL)
RUNNABLE = "# runnable"


@dataclass(frozen=True)
class Block:
    path: Path
    line: int
    lang: str
    text: str

    @property
    def name(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"


def blocks(path: Path) -> list[Block]:
    text = path.read_text(encoding="utf-8")
    return [
        Block(path, text.count("\n", 0, m.start()) + 1, m.group(1), m.group(2)) for m in FENCE.finditer(text)
    ]


def _runnable() -> list[Block]:
    return [b for path in DOCS for b in blocks(path) if b.lang == "sh" and b.text.startswith(RUNNABLE)]


def _readme_commands() -> list[str]:
    commands = []
    for block in blocks(ROOT / "README.md"):
        if block.lang != "sh":
            continue
        for line in block.text.splitlines():
            command = line.split("  #", 1)[0].strip()
            if not command.startswith(".venv/bin/crib "):
                continue
            if command.split()[1] == "play" and "--once" not in command:
                continue  # keeps the scoreboard up until stopped
            commands.append(command)
    return commands


def _run(script: str, timeout: float = 90) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["PATH"] = f"{ROOT / '.venv' / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    return subprocess.run(
        ["bash", "-c", "set -euo pipefail\n" + script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


# ------------------------------------------------------------------------------------ commands


def test_the_docs_have_runnable_blocks() -> None:
    names = {b.path.name for b in _runnable()}
    assert {"user-guide.md", "contributing.md", "README.md"} <= names


@pytest.mark.parametrize("block", _runnable(), ids=lambda b: b.name)
def test_runnable_block_exits_zero(block: Block) -> None:
    result = _run(block.text)
    assert result.returncode == 0, (
        f"{block.name} failed ({result.returncode}):\n{block.text}\n--- stdout\n{result.stdout[-2000:]}"
        f"\n--- stderr\n{result.stderr[-2000:]}"
    )


@pytest.mark.parametrize("command", _readme_commands())
def test_readme_command_exits_zero(command: str) -> None:
    result = _run(command)
    assert result.returncode == 0, f"{command}\n{result.stdout[-1500:]}\n{result.stderr[-1500:]}"
    assert result.stdout.strip(), f"{command} printed nothing"


def test_the_guide_shows_the_hand_it_says() -> None:
    result = _run(".venv/bin/crib score 5h 5d 5s Jc 5c")
    assert result.returncode == 0
    assert "29" in result.stdout.splitlines()[-1], "the user guide calls this hand 29"


# ------------------------------------------------------------------------------------ doctests


def _python_examples() -> list[Block]:
    return [
        b
        for path in [*DOCS, ROOT / "README.md"]
        for b in blocks(path)
        if b.lang == "python" and ">>>" in b.text
    ]


@pytest.mark.parametrize("block", _python_examples(), ids=lambda b: b.name)
def test_python_examples_run(block: Block) -> None:
    parser = doctest.DocTestParser()
    test = parser.get_doctest(block.text, {}, block.name, str(block.path), block.line)
    out = io.StringIO()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    result = runner.run(test, out=out.write)
    assert result.attempted > 0
    assert result.failed == 0, out.getvalue()


# ------------------------------------------------------------------------ facts against the code


def _block_with(path: Path, lang: str, needle: str) -> str:
    found = [b.text for b in blocks(path) if b.lang == lang and needle in b.text]
    assert found, f"{path.name} has no {lang} block with {needle!r}"
    return found[0]


def test_the_documented_settings_are_accepted() -> None:
    from companion.app.config import config_from_mapping

    text = _block_with(ROOT / "docs" / "install-pi.md", "toml", "[table]")
    config = config_from_mapping(tomllib.loads(text), "install-pi.md")
    assert config.players == ("Ann", "Bob")
    assert config.mode == "claims" and config.pin == "4821"
    assert config.board_port is not None and config.board_port.startswith("/dev/serial/by-id/")


def test_the_guide_installs_with_the_script_that_installs_the_unit() -> None:
    guide = (ROOT / "docs" / "install-pi.md").read_text(encoding="utf-8")
    script = (ROOT / "scripts" / "install-pi.sh").read_text(encoding="utf-8")
    unit = (ROOT / "deploy" / "crib-companion.service").read_text(encoding="utf-8")
    assert "sudo bash scripts/install-pi.sh --flash" in guide
    assert "sudo bash scripts/install-pi.sh --update" in guide
    # The guide names the command the unit runs, which runs what the script installs.
    exec_start = next(line for line in unit.splitlines() if line.startswith("ExecStart="))
    assert exec_start.removeprefix("ExecStart=") in guide
    assert "VENV=$PREFIX/venv" in script and "PREFIX=/opt/crib" in script
    assert "/opt/crib/venv/bin/crib" in exec_start
    # No address to fill in: the guide's commands work as written.
    assert "example.org" not in guide and "example.com" not in guide


def test_the_documented_flash_command_is_what_make_flash_runs() -> None:
    dry = subprocess.run(
        ["make", "-n", "-C", "firmware", "flash", "PORT=/dev/ttyUSB0"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    avrdude = [line.strip() for line in dry.splitlines() if line.strip().startswith("avrdude ")]
    assert len(avrdude) == 1
    guide = (ROOT / "docs" / "install-pi.md").read_text(encoding="utf-8")
    assert avrdude[0] in guide
    # The guide says the Pi needs only the firmware: flashing must not build the simulator or the fuzzer.
    assert "crib-sim" not in dry and "fuzz" not in dry


def test_the_wiring_table_is_the_generated_one() -> None:
    readme = (ROOT / "hardware" / "README.md").read_text(encoding="utf-8")
    table = readme.split("<!-- gpio-table: generated/gpio.csv -->", 1)[1].strip().split("\n\n", 1)[0]
    rows = [[cell.strip() for cell in line.strip("|").split("|")] for line in table.splitlines()[2:]]
    generated = list(csv.DictReader(io.StringIO((ROOT / "hardware/generated/gpio.csv").read_text())))
    assert [(r[0], r[1], int(r[2]), int(r[3])) for r in rows] == [
        (g["control"], g["signal"], int(g["bcm_gpio"]), int(g["header_pin"])) for g in generated
    ]


def test_the_camera_figures_quoted_are_the_worked_ones() -> None:
    readme = (ROOT / "hardware" / "README.md").read_text(encoding="utf-8")
    figures = (ROOT / "hardware" / "generated" / "figures.md").read_text(encoding="utf-8")
    assert "| 1920x1080 | Raspberry Pi Camera Module 3 | 62 cm | 80 cm |" in figures
    assert "**62 cm** above the table" in readme
    assert "| 1280x720 | 74 x 42 cm | 57 cm |" in figures
    assert "**74 x 42 cm**" in readme and "**57 cm**" in readme


def test_the_camera_scale_is_the_one_recognition_is_benchmarked_at() -> None:
    bench = (ROOT / "benchmarks" / "bench_vision.py").read_text(encoding="utf-8")
    widths = {float(w) for w in re.findall(r"^CARD_PX = (\d+(?:\.\d+)?)$", bench, re.MULTILINE)}
    assert widths == {110.0} and bench.count("width=CARD_PX") >= 2, (
        f"benchmarks/bench_vision.py lays cards {widths} px wide; update hardware/drawings.py"
    )
    readme = (ROOT / "hardware" / "README.md").read_text(encoding="utf-8")
    assert "cards **110 px** wide" in readme


def test_the_power_figures_quoted_are_the_worked_ones() -> None:
    readme = (ROOT / "hardware" / "README.md").read_text(encoding="utf-8")
    figures = (ROOT / "hardware" / "generated" / "figures.md").read_text(encoding="utf-8")
    cap = re.search(r"^CAP_MA\s*\?=\s*(\d+)", (ROOT / "firmware/Makefile").read_text(), re.MULTILINE)
    assert cap and f"**{cap.group(1)} mA**" in readme
    normal = re.search(r"\| a game, default colours[^|]*\| (\d+) mA", figures)
    assert normal and f"about **{normal.group(1)} mA**" in readme


def test_the_pegs_picture_is_what_the_board_command_draws(tmp_path: Path) -> None:
    out = tmp_path / "pegs.svg"
    result = _run(f".venv/bin/crib board show 0 37 45 1 80 88 --svg {out}")
    assert result.returncode == 0, result.stderr

    def title(svg: str) -> str:
        found = re.search(r"<title>(.*?)</title>", svg)
        assert found
        return found.group(1)

    committed = (ROOT / "docs" / "images" / "pegs.svg").read_text(encoding="utf-8")
    assert title(committed) == title(out.read_text(encoding="utf-8"))


def test_the_guide_pictures_are_made_by_their_script(tmp_path: Path) -> None:
    import cv2

    result = _run(f".venv/bin/python docs/images/make_examples.py {tmp_path}")
    assert result.returncode == 0, result.stderr
    for name, size in (("table-example.jpg", (720, 1280)), ("zones.png", (360, 640))):
        made = cv2.imread(str(tmp_path / name))
        committed = cv2.imread(str(ROOT / "docs" / "images" / name))
        assert made is not None and committed is not None
        assert made.shape[:2] == committed.shape[:2] == size
        # Same picture (JPEG and resampling may differ by a level or two between OpenCV builds).
        assert float(cv2.absdiff(made, committed).mean()) < 2.0


# ------------------------------------------------------------------------------------ links


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


LINK = re.compile(r"\]\(([^)\s]+)\)")


@pytest.mark.parametrize("path", [*DOCS, ROOT / "README.md"], ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_point_at_files_and_headings(path: Path) -> None:
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    for target in LINK.findall(text):
        if re.match(r"^[a-z]+:", target):
            continue
        file_part, _, anchor = target.partition("#")
        linked = (path.parent / file_part).resolve() if file_part else path
        assert linked.exists(), f"{path.name} links to {target}, which does not exist"
        if anchor and linked.suffix == ".md":
            headings = re.findall(r"^#+ (.*)$", FENCE.sub("", linked.read_text(encoding="utf-8")), re.M)
            assert anchor in {_slug(h) for h in headings}, f"{path.name}: no heading #{anchor} in {file_part}"
