"""The companion as a user installs it: a wheel, in a fresh virtual environment, run from any folder.

Everything the companion reads at run time (the board's layout and pins, the card networks, the
scoreboard's page, the bundled game and its card pictures) must ship inside the ``companion`` package;
a file read from beside the checkout works in the repository and fails after ``pip install``.  So the
wheel is built here and installed in a new virtual environment outside the checkout, and the commands
are run from an empty folder.

The new environment gets the wheel alone (``--no-deps``); the dependencies are lent by the test
environment through a ``.pth`` file, which adds its site-packages folder to the end of the path without
running the ``.pth`` files inside it, so the checkout's editable install stays out of sight.  That needs
no network and takes seconds.  (``--system-site-packages`` would lend Debian's packages instead.)
"""

from __future__ import annotations

import ast
import importlib.metadata
import json
import os
import re
import subprocess
import sys
import sysconfig
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "companion"

# Draws one frame of the bundled film (the card pictures and the recorded game, both shipped in the
# package) at a moment when at least four cards lie still on the table, and prints their names.
FRAME_SCRIPT = """
import sys
import cv2
from companion.app.frames import TableFilm
from companion.app.simulate import demo_recording
previous = None
for shot in TableFilm(demo_recording()):
    if shot.frame is None:
        continue
    names = sorted(card for card, _ in shot.truth)
    if len(names) >= 4 and previous is not None and names == previous[0]:
        cv2.imwrite(sys.argv[1], previous[1])
        print(" ".join(names))
        break
    previous = (names, shot.frame)
"""


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A virtual environment with the wheel built from this checkout installed; yields its bin folder."""
    work = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "-q",
            "--no-deps",
            "--no-build-isolation",
            "-w",
            str(work),
            str(REPO),
        ],
        check=True,
        capture_output=True,
        cwd=work,
    )
    (wheel,) = work.glob("crib_companion-*.whl")
    venv = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    Path(site, "test-environment.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "-q",
            "--no-deps",
            "--no-index",
            str(wheel),
        ],
        check=True,
        capture_output=True,
    )
    yield venv / "bin"


def _run(bin_dir: Path, folder: Path, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "CRIB_LAYOUT")}
    env["OMP_NUM_THREADS"] = "1"
    return subprocess.run(
        [str(bin_dir / args[0]), *args[1:]],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


@pytest.fixture()
def elsewhere(tmp_path: Path) -> Path:
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    return folder


def test_the_installed_companion_is_the_wheel_not_the_checkout(installed: Path, elsewhere: Path) -> None:
    result = _run(installed, elsewhere, "python", "-c", "import companion; print(companion.__file__)")
    assert result.returncode == 0, result.stderr
    location = Path(result.stdout.strip())
    assert REPO not in location.parents and installed.parent in location.parents


def test_score_from_any_folder(installed: Path, elsewhere: Path) -> None:
    result = _run(installed, elsewhere, "crib", "score", "5h", "5d", "5s", "Jc", "5c")
    assert result.returncode == 0, result.stderr
    assert "total 29" in result.stdout


def test_board_show_reads_the_layout_shipped_in_the_package(installed: Path, elsewhere: Path) -> None:
    result = _run(installed, elsewhere, "crib", "board", "show", "0", "37", "45", "1", "80", "88")
    assert (result.returncode, result.stderr) == (0, "")
    # Each track's forward peg ("#") and rear peg ("+").
    assert (result.stdout.count("#"), result.stdout.count("+")) == (2, 2)


def test_detect_names_the_cards_of_a_frame_drawn_from_the_bundled_film(
    installed: Path, elsewhere: Path
) -> None:
    image = elsewhere / "table.png"
    drawn = _run(installed, elsewhere, "python", "-c", FRAME_SCRIPT, str(image))
    assert drawn.returncode == 0, drawn.stderr
    lying = set(drawn.stdout.split())
    result = _run(installed, elsewhere, "crib", "detect", "--json", str(image))
    assert result.returncode == 0, result.stderr
    named = {card["card"] for card in json.loads(result.stdout)["cards"]}
    assert len(lying) >= 4 and lying <= named


def test_play_replays_the_bundled_game_from_any_folder(installed: Path, elsewhere: Path) -> None:
    result = _run(installed, elsewhere, "crib", "play", "--once", "--events", "--port", "0", "--pace", "0")
    assert result.returncode == 0, result.stderr
    assert "Player 1 wins 121 to 81 -- a skunk" in result.stdout
    assert list(elsewhere.iterdir()) == []  # a replay without --db keeps nothing


def test_the_version_is_written_once(installed: Path, elsewhere: Path) -> None:
    result = _run(installed, elsewhere, "crib", "--version")
    written = re.search(r'^__version__ = "([^"]+)"', (PACKAGE / "__init__.py").read_text(), re.MULTILINE)
    assert written is not None
    assert result.stdout.strip() == f"crib {written.group(1)}"
    assert importlib.metadata.version("crib-companion") == written.group(1)


# --- what the code imports is what the package declares --------------------------------------------


def _declared() -> tuple[set[str], set[str]]:
    """The distributions the package depends on, and those of its optional extras (normalised names)."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]

    def names(requirements: list[str]) -> set[str]:
        return {
            re.split(r"[<>=!~;\[ ]", text, maxsplit=1)[0].lower().replace("_", "-") for text in requirements
        }

    extras = {name for group in project.get("optional-dependencies", {}).values() for name in names(group)}
    return names(project["dependencies"]), extras


def _third_party_imports() -> dict[str, bool]:
    """Every top-level module outside the standard library that companion/ imports, and whether any
    import of it runs when a module is loaded (True) rather than only inside a function (False)."""
    found: dict[str, bool] = {}
    for path in PACKAGE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        at_load = {id(node) for node in tree.body}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                modules = [node.module]
            else:
                continue
            for module in modules:
                top = module.split(".")[0]
                if top in sys.stdlib_module_names or top in ("companion", "__future__"):
                    continue
                found[top] = found.get(top, False) or id(node) in at_load
    return found


# Imported only where a part that needs them runs, and installed outside pip: picamera2 comes from
# Raspberry Pi OS's apt (python3-picamera2).
FROM_APT = {"picamera2"}
# Import names that differ from their distribution's, for the extras the test environment lacks.
DISTRIBUTION_OF = {"PIL": "pillow", "cv2": "opencv-python-headless", "serial": "pyserial"}


def test_every_module_the_code_imports_is_a_declared_dependency() -> None:
    required, extras = _declared()
    distributions = importlib.metadata.packages_distributions()
    missing = []
    for module, at_load in sorted(_third_party_imports().items()):
        if module in FROM_APT:
            continue
        known = distributions.get(module, [DISTRIBUTION_OF.get(module, module)])
        owners = {name.lower().replace("_", "-") for name in known}
        allowed = required if at_load else required | extras
        if not owners & allowed:
            missing.append(f"{module} (from {', '.join(sorted(owners))})")
    assert missing == []


def test_the_pi_lock_pins_every_runtime_dependency_with_hashes() -> None:
    required, _ = _declared()
    text = (REPO / "deploy" / "requirements.txt").read_text(encoding="utf-8")
    pins = dict(re.findall(r"^([A-Za-z0-9_.-]+)==(\S+)", text, re.MULTILINE))
    pinned = {name.lower().replace("_", "-"): version for name, version in pins.items()}
    assert required <= set(pinned)
    blocks = re.split(r"\n(?=[A-Za-z0-9_.-]+==)", text.split("\n\n", 1)[-1])
    assert all("--hash=sha256:" in block for block in blocks if "==" in block)
    # The Pi's constraints (docs/pi-constraints.txt): NumPy 1.x for picamera2, OpenCV before 4.11.
    assert pinned["numpy"].startswith("1.")
    major, minor = (int(part) for part in pinned["opencv-python-headless"].split(".")[:2])
    assert (major, minor) < (4, 11)
