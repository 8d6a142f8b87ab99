"""Settings files and the ``crib play`` command as a user meets them."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from companion.app.config import TableConfig, config_from_mapping, load_config
from companion.app.simulate import DEMO_PATH, Recording
from companion.controls import PlayerPins

REPO = Path(__file__).resolve().parents[2]


def test_the_example_config_shipped_for_the_pi_loads() -> None:
    config = load_config(REPO / "deploy" / "crib.toml")
    assert config.players == ("North", "South")
    assert config.board_port == "/dev/ttyUSB0" and config.camera == "pi"
    assert config.db_path == "/var/lib/crib/crib.db"
    assert config.gpio.players[1] == PlayerPins(23, 24, 25, 5)
    assert config.muggins_in_play is False and config.over_claim == "corrected"


def test_the_service_runs_crib_play_with_that_config() -> None:
    unit = (REPO / "deploy" / "crib-companion.service").read_text()
    assert "ExecStart=/opt/crib/venv/bin/crib play --config /etc/crib/crib.toml --gpio" in unit
    assert "Restart=always" in unit and "StateDirectory=crib" in unit


def test_no_file_means_every_default_and_the_pin_kept_by_the_scoreboard() -> None:
    config = load_config(None)
    assert config.mode == "auto" and config.pin is None
    assert config.web_hosts == () and config.web_certfile is None


def test_the_scoreboard_settings_are_read_from_the_web_section() -> None:
    config = config_from_mapping(
        {"web": {"hosts": ["crib.example"], "certfile": "/etc/crib/c.pem", "keyfile": "/etc/crib/k.pem"}}
    )
    assert config.web_hosts == ("crib.example",)
    assert (config.web_certfile, config.web_keyfile) == ("/etc/crib/c.pem", "/etc/crib/k.pem")
    with pytest.raises(ValueError, match="both certfile and keyfile"):
        config_from_mapping({"web": {"certfile": "/etc/crib/c.pem"}})


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"tabel": {}}, "no section \\[tabel\\]"),
        ({"table": {"mode": "fast"}}, "mode 'fast'"),
        ({"table": {"players": ["Ann"]}}, "two names"),
        ({"table": {"players": ["Ann", "Ann"]}}, "different names"),
        ({"table": {"pin": "12"}}, "4 to 8 digits"),
        ({"web": {"port": "80"}}, "wrong type"),
        ({"board": {"colour": 1}}, "no setting 'colour'"),
        ({"table": {"variant": "three-player"}}, "two-track board"),
        ({"table": {"over_claim": "double"}}, "over_claim 'double'"),
        ({"table": {"muggins_in_play": 1}}, "wrong type"),
    ],
)
def test_a_bad_setting_is_named_in_one_sentence(data: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        config_from_mapping(data)


def crib(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion.cli", *args], capture_output=True, text=True, timeout=120, cwd=REPO
    )


def test_crib_play_replays_the_bundled_game_and_prints_every_deal() -> None:
    recording = Recording.load(DEMO_PATH)
    done = crib("play", "--once", "--no-serve", "--pace", "0", "--json", "--events")
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    deals = [line for line in lines if "deal" in line]
    assert [tuple(d["scores"]) for d in deals] == list(recording.deal_scores)
    assert lines[-1] == {"winner": recording.winner, "scores": list(recording.final), "skunk": "skunk"}


def test_crib_play_in_words() -> None:
    done = crib("play", "--once", "--no-serve", "--pace", "0", "--players", "Ann", "Bob", "--events")
    assert done.returncode == 0, done.stderr
    assert "deal  1 (Ann deals): Ann +8 = 8, Bob +3 = 3" in done.stdout
    assert "undone: " in done.stdout  # the recorded misread, taken back
    assert done.stdout.rstrip().endswith("Ann wins 121 to 81 -- a skunk")


def test_bad_input_to_crib_play_is_one_sentence_and_a_nonzero_exit(tmp_path: Path) -> None:
    missing = crib("play", "--config", str(tmp_path / "none.toml"))
    assert missing.returncode == 1
    assert missing.stderr.strip() == f"crib: there is no config file {tmp_path}/none.toml"
    bad = tmp_path / "bad.toml"
    bad.write_text("[table]\nmode = 'fast'\n")
    wrong = crib("play", "--config", str(bad))
    assert wrong.returncode == 2 and "Traceback" not in wrong.stderr and "mode 'fast'" in wrong.stderr
    junk = tmp_path / "junk.json"
    junk.write_text("not json")
    replay = crib("play", "--recording", str(junk), "--once", "--no-serve", "--events")
    assert replay.returncode == 2 and "is not a recorded game" in replay.stderr


def test_a_config_without_a_camera_is_a_replay() -> None:
    assert TableConfig().camera is None


def _documented_keys() -> dict[str, tuple[str, str]]:
    """docs/config.md's table: key -> (values, default)."""
    text = (REPO / "docs" / "config.md").read_text(encoding="utf-8").split("<!-- config-keys -->", 1)[1]
    rows = [line for line in text.strip().split("\n\n", 1)[0].splitlines()[2:]]
    cells = [[cell.strip() for cell in row.strip("|").split("|")] for row in rows]
    return {key.strip("`"): (values, default) for key, values, default, _ in cells}


def test_the_settings_table_documents_exactly_the_keys_there_are() -> None:
    documented = _documented_keys()
    example_file = tomllib.loads((REPO / "deploy" / "crib.toml").read_text(encoding="utf-8"))
    example = {f"{section}.{key}" for section, values in example_file.items() for key in values}
    assert example <= set(documented)
    for key in documented:
        section, name = key.split(".")
        value: object = {"gpio": 3, "table": "x", "camera": "pi"}.get(section, "x")
        try:
            config_from_mapping({section: {name: value}})
        except ValueError as error:  # a known key with a value of the wrong kind, never an unknown one
            assert "no setting" not in str(error) and "no key" not in str(error)
    with pytest.raises(ValueError, match="no setting"):
        config_from_mapping({"table": {"colour": "red"}})


@pytest.mark.parametrize("key", ["table.mode", "table.variant", "table.over_claim"])
def test_every_documented_choice_is_one_the_engine_plays(key: str) -> None:
    values, _default = _documented_keys()[key]
    choices = [word.strip('"') for word in values.replace("`", "").split(", ")]
    section, name = key.split(".")
    for choice in choices:
        config = config_from_mapping({section: {name: choice}})
        assert choice in (config.mode, config.variant, config.over_claim)


@pytest.mark.parametrize("source", ["pi", "camera", "camera:1", "2", "table.mp4", "photos/"])
def test_every_documented_camera_source_is_accepted(source: str) -> None:
    assert config_from_mapping({"camera": {"source": source}}).camera == source


@pytest.mark.parametrize("source", ["picamera", "webcam", "camera:left"])
def test_a_camera_word_the_sources_do_not_know_is_refused_at_start(source: str) -> None:
    # open_source would take an unknown word for a video file of that name, and fail only at the table.
    with pytest.raises(ValueError, match="camera"):
        config_from_mapping({"camera": {"source": source}})


def test_a_calibrated_layout_is_taken_and_a_wrong_one_refused_before_the_game(tmp_path: Path) -> None:
    """``crib calibrate --out`` writes the table's zones; ``crib play --layout`` (or ``[camera] layout``)
    uses them instead of calibrating from the first frame, and a missing or unfitting file stops the game
    before it starts, in one sentence."""
    import cv2
    import numpy as np

    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "0001.png"), np.full((360, 640, 3), (40, 90, 40), np.uint8))
    layout = tmp_path / "table.json"
    layout.write_text(
        json.dumps(
            {"size": [640, 360], "zones": {"player0": [320, 300], "player1": [320, 60], "crib": [500, 180]}}
        )
    )
    common = ["--camera", str(frames), "--once", "--no-serve", "--db", str(tmp_path / "crib.db")]
    taken = crib("play", *common, "--layout", str(layout))
    assert taken.returncode == 0, taken.stderr
    assert f"the table's zones from {layout}" in taken.stdout and "slant" not in taken.stdout
    missing = crib("play", *common, "--layout", str(tmp_path / "none.json"))
    assert missing.returncode == 2 and "Traceback" not in missing.stderr
    assert missing.stderr.strip().startswith(f"crib: there is no table layout {tmp_path}/none.json")
    four = crib("play", *common, "--layout", str(layout), "--variant", "four-player", "--players", "A,B,C,D")
    assert four.returncode == 2 and "no play zone for each of 4 players" in four.stderr
    config = tmp_path / "crib.toml"
    config.write_text(f'[camera]\nsource = "{frames}"\nlayout = "{layout}"\n')
    assert load_config(config).camera_layout == str(layout)
