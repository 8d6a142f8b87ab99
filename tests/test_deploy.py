"""The Pi's installer and its systemd unit, checked off the Pi.

``scripts/install-pi.sh --dry-run`` must print every step and do none of them: it runs here with every
command it could call replaced by a stub that records being called.  The unit is read key by key (its
hardening is the point of it) and, where systemd is installed, verified by ``systemd-analyze``.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from companion.cli import build_parser

REPO = Path(__file__).resolve().parents[1]
INSTALL = REPO / "scripts" / "install-pi.sh"
UNIT = REPO / "deploy" / "crib-companion.service"

# Everything the installer may call that changes the machine.
STUBBED = [
    "apt-get", "useradd", "python3", "install", "systemctl", "make", "runuser", "git", "rm", "mkdir",
    "cp", "env", "avrdude",
]  # fmt: skip


def _script_setting(name: str) -> str:
    match = re.search(rf"^{name}=(\S+)$", INSTALL.read_text(encoding="utf-8"), re.MULTILINE)
    assert match, f"install-pi.sh sets no {name}"
    return (
        match.group(1).replace("$PREFIX", _script_setting("PREFIX")) if name != "PREFIX" else match.group(1)
    )


def _dry_run(tmp_path: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], str]:
    stubs = tmp_path / "stubs"
    stubs.mkdir()
    calls = tmp_path / "calls"
    calls.touch()
    for name in STUBBED:
        stub = stubs / name
        stub.write_text(f'#!/bin/sh\necho "{name} $*" >> "{calls}"\n', encoding="utf-8")
        stub.chmod(0o755)
    env = {**os.environ, "PATH": f"{stubs}:{os.environ['PATH']}"}
    result = subprocess.run(
        ["bash", str(INSTALL), "--dry-run", *args], capture_output=True, text=True, env=env, timeout=60
    )
    return result, calls.read_text(encoding="utf-8")


def _commands(output: str) -> list[list[str]]:
    return [shlex.split(line[2:]) for line in output.splitlines() if line.startswith("+ ")]


def test_the_installer_passes_shellcheck() -> None:
    scripts = sorted(str(path) for path in (REPO / "scripts").glob("*.sh"))
    result = subprocess.run(["shellcheck", *scripts], capture_output=True, text=True)
    assert (result.returncode, result.stdout) == (0, "")


def test_a_dry_run_prints_every_step_and_does_none(tmp_path: Path) -> None:
    result, calls = _dry_run(tmp_path, "--flash", "--port", "/dev/ttyACM0")
    assert (result.returncode, result.stderr, calls) == (0, "", "")
    commands = _commands(result.stdout)
    joined = [" ".join(command) for command in commands]
    venv = _script_setting("VENV")

    apt = next(command for command in commands if "apt-get" in command and "install" in command)
    assert {"python3-picamera2", "python3-lgpio", "avrdude", "gcc-avr"} <= set(apt)
    assert f"python3 -m venv --system-site-packages {venv}" in joined
    lock = f"{venv}/bin/python -m pip install --index-url https://pypi.org/simple --require-hashes -r"
    assert f"{lock} {REPO}/deploy/requirements.txt" in joined
    wheel = next(command for command in commands if "--force-reinstall" in command)
    assert wheel[-1].endswith("-py3-none-any.whl") and "--no-deps" in wheel
    assert f"install -D -m 644 {REPO}/deploy/crib.toml /etc/crib/crib.toml" in joined
    order = [
        joined.index(f"install -m 644 {UNIT} /etc/systemd/system/crib-companion.service"),
        joined.index("systemctl enable crib-companion"),
        joined.index("systemctl stop crib-companion"),  # the service holds the board's port
        next(
            i
            for i, text in enumerate(joined)
            if text.startswith(f"make -C {REPO}/firmware flash PORT=/dev/ttyACM0")
        ),
        joined.index("systemctl restart crib-companion"),
    ]
    assert order == sorted(order)
    # Every step's header is printed, and every printed command is one a shell can run as shown.
    assert result.stdout.count("\n== ") == 9
    for line in result.stdout.splitlines():
        if line.startswith("+ "):
            assert subprocess.run(["bash", "-n", "-c", line[2:]]).returncode == 0


def test_without_flash_the_board_is_left_alone(tmp_path: Path) -> None:
    result, calls = _dry_run(tmp_path)
    assert (result.returncode, calls) == (0, "")
    assert not any("flash" in command or command[0] == "avrdude" for command in _commands(result.stdout))
    assert "git" not in {command[0] for command in _commands(result.stdout)}  # no pull without --update


def test_update_pulls_the_checkout_first(tmp_path: Path) -> None:
    result, _calls = _dry_run(tmp_path, "--update")
    first = _commands(result.stdout)[0]
    assert first[-5:] == ["git", "-C", str(REPO), "pull", "--ff-only"]


def test_an_unknown_option_is_one_sentence_and_exit_2(tmp_path: Path) -> None:
    result, calls = _dry_run(tmp_path, "--colour")
    assert (result.returncode, result.stdout, calls) == (2, "", "")
    assert result.stderr == "install-pi: there is no option --colour (see --help)\n"


# --- the unit ---------------------------------------------------------------------------------------


def _unit_keys() -> dict[str, list[str]]:
    """Key -> every value it is given in the unit (systemd keys may repeat), across its sections."""
    keys: dict[str, list[str]] = {}
    for line in UNIT.read_text(encoding="utf-8").splitlines():
        if "=" in line and not line.startswith(("#", ";", "[")):
            key, value = line.split("=", 1)
            keys.setdefault(key.strip(), []).append(value.strip())
    return keys


def test_the_unit_runs_the_installed_companion_with_the_installed_settings() -> None:
    keys = _unit_keys()
    argv = shlex.split(keys["ExecStart"][0])
    args = build_parser().parse_args(argv[1:])
    assert args.command == "play" and args.gpio
    assert argv[0] == f"{_script_setting('VENV')}/bin/crib"
    assert args.config == _script_setting("CONFIG")
    assert keys["User"] == [_script_setting("ACCOUNT")]


def test_the_unit_may_write_only_its_state_folder_and_gains_no_privilege() -> None:
    keys = _unit_keys()
    for key, value in {
        "NoNewPrivileges": "yes",
        "ProtectSystem": "strict",
        "ProtectHome": "yes",
        "PrivateTmp": "yes",
        "DevicePolicy": "closed",
        "CapabilityBoundingSet": "",
    }.items():
        assert keys[key] == [value], key
    assert keys["ReadWritePaths"] == [f"/var/lib/{keys['StateDirectory'][0]}"]
    assert keys["WorkingDirectory"] == keys["ReadWritePaths"]


def test_the_unit_reaches_the_camera_the_board_and_the_knobs() -> None:
    keys = _unit_keys()
    assert set(keys["SupplementaryGroups"][0].split()) == {"video", "gpio", "dialout"}
    allowed = {value.split()[0] for value in keys["DeviceAllow"]}
    assert {"char-video4linux", "char-media", "char-dma_heap"} <= allowed  # libcamera
    assert {"char-ttyUSB", "char-ttyACM"} <= allowed  # the Nano's USB serial (CH340/FT232, or CDC)
    assert "char-gpiochip" in allowed  # lgpio, gpiozero's pins on Bookworm
    assert "AF_NETLINK" in keys["RestrictAddressFamilies"][0]  # udev's device events, for libcamera


def test_systemd_finds_nothing_wrong_with_the_unit(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed here (the unit's keys are checked above)")
    # systemd checks that the program exists: point the copy at a stand-in for the installed crib.
    crib = tmp_path / "crib"
    crib.write_text("#!/bin/sh\n", encoding="utf-8")
    crib.chmod(0o755)
    unit = tmp_path / UNIT.name
    text = UNIT.read_text(encoding="utf-8")
    unit.write_text(text.replace(f"{_script_setting('VENV')}/bin/crib", str(crib)), encoding="utf-8")
    result = subprocess.run([analyze, "verify", str(unit)], capture_output=True, text=True, timeout=60)
    about_it = [line for line in result.stderr.splitlines() if UNIT.name in line]
    assert (result.returncode, about_it) == (0, [])
