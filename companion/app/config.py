"""The table's settings, from a TOML file (``crib play --config FILE``) with command-line overrides.

Every setting has a default, so ``crib play`` runs with no file at all.  A file names only what differs::

    [table]
    players = ["Ann", "Bob"]
    mode = "claims"            # or "auto": the companion pegs the true count
    muggins_seconds = 8        # how long an under-claim is offered to the opponent
    pin = "4821"               # the scoreboard's PIN (left out: eight digits kept in the state folder)
    games_to_win = 2           # best of three
    variant = "six-card"       # or "five-card" (game to 61), or "four-player" (four names, partners
                               # 1 & 3 against 2 & 4, each partnership on one track)
    muggins_in_play = false    # house rule: muggins also on points left unclaimed in the play
    over_claim = "corrected"   # or "opponent-takes": the opponent pegs points over-claimed
    muggins = true             # house rule: muggins at all (false: nobody pegs points left behind)
    target = 121               # points that win a game (left out: 121, or 61 for five-card)
    skunk_line = 91            # a loser below this is skunked (left out: 30 short of the target)
    double_skunk_line = 61     # or "none" (left out: 60 short of the target, none in a game to 61)
    skunk_double_win = true    # a skunk counts as two games won in a match
    first_deal = "alternate"   # or "loser": who deals first in the later games of a match

    [camera]
    source = "pi"              # the Pi camera; "camera:N" a USB camera; a video file; a folder of images
    layout = "table.json"      # the table's zones (and plane) from `crib calibrate`; left out: the
                               # first frame calibrates (marker cards, or the usual split)

    [board]
    port = "/dev/ttyUSB0"      # left out: the virtual board
    brightness = 64

    [web]
    host = "0.0.0.0"
    port = 8121
    hosts = ["crib.example"]   # names it answers to besides its hostname, localhost and addresses
    certfile = "/etc/crib/cert.pem"   # both given: HTTPS (see docs/user-guide.md)
    keyfile = "/etc/crib/key.pem"

    [store]
    path = "/var/lib/crib/crib.db"

    [gpio]
    player0 = [17, 18, 27, 22] # knob A, knob B, knob press, muggins
    player1 = [23, 24, 25, 5]
    undo = 6
    hold_for_new_game = 2.0

A wrong key or value is one sentence naming it, never a traceback.  The words a value may be are the
engine's own (:class:`~companion.rules.game.Counting`, :class:`~companion.rules.game.OverClaim`, the
variants of :mod:`companion.rules.variants`), and the house rules are checked by the engine's own
:meth:`~companion.rules.settings.Settings.with_house_rules`, so the file cannot promise what the engine
does not do.
``docs/config.md`` is the table of every key.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from companion.controls import ControlPins
from companion.rules.game import Counting, OverClaim
from companion.rules.settings import Settings
from companion.rules.variants import VARIANTS as ALL_VARIANTS
from companion.rules.variants import variant_named

__all__ = ["AUTO", "CLAIMS", "THREE_TRACKS", "VARIANTS", "TableConfig", "check_camera", "load_config"]

AUTO = Counting.AUTO.value
CLAIMS = Counting.CLAIMS.value
#: The forms of cribbage a two-track board can show (the engine plays more).
VARIANTS = tuple(name for name, variant in ALL_VARIANTS.items() if not variant.needs_three_tracks)
#: The refusal of a game the board cannot show (three players need three tracks).
THREE_TRACKS = (
    "{variant} needs a track for each of three players, more than a two-track board has, so three "
    "players are kept on the scoreboard and in game files ('crib replay') only, not at the table"
)
_NUMBERS = {2: "two", 3: "three", 4: "four"}
DEFAULT_PLAYERS = ("Player 1", "Player 2", "Player 3", "Player 4")


def check_camera(source: str) -> str:
    """A camera source as ``open_source`` reads it: ``pi``, ``camera``, ``camera:N``, a number, or a
    path (a video file or a folder of images).  A bare word that is none of these is refused here, not
    opened as a video file of that name at the table."""
    text = source.strip()
    if text in ("pi", "camera") or text.isdigit():
        return text
    if text.startswith("camera:"):
        if not text.removeprefix("camera:").isdigit():
            raise ValueError(f"camera source {source!r} is not a camera: write camera:0, camera:1 ...")
        return text
    if not text or ("/" not in text and "." not in text):
        raise ValueError(
            f"camera source {source!r} is none of 'pi' (the Pi camera), 'camera:N' (a USB camera), "
            "a video file or a folder of images"
        )
    return text


@dataclass(frozen=True, slots=True)
class TableConfig:
    """Everything ``crib play`` needs to know about the table."""

    players: tuple[str, ...] = ("Player 1", "Player 2")
    """The names in seating order round the table (four players: partners are the first and third,
    the second and fourth, sitting opposite)."""
    mode: str = AUTO
    muggins_seconds: float = 8.0
    pin: str | None = None
    """None: the scoreboard keeps its own PIN in the state folder (:mod:`companion.web.pin`)."""
    games_to_win: int = 2
    variant: str = "six-card"
    muggins_in_play: bool = False
    over_claim: str = "corrected"
    muggins: bool = True
    target: int | None = None
    """None: the variant's own (121, or 61 for five-card)."""
    skunk_line: int | None = None
    double_skunk_line: int | str | None = None
    """A number, ``"none"`` (no double skunk), or None: the usual for the target."""
    skunk_double_win: bool = True
    first_deal: str = "alternate"
    camera: str | None = None
    camera_layout: str | None = None
    """A layout file written by ``crib calibrate --out``; None: the first frame calibrates the zones."""
    board_port: str | None = None
    brightness: int = 64
    web_host: str = "0.0.0.0"
    web_port: int = 8121
    web_hosts: tuple[str, ...] = ()
    web_certfile: str | None = None
    web_keyfile: str | None = None
    db_path: str = "crib.db"
    gpio: ControlPins = field(default_factory=ControlPins)

    def __post_init__(self) -> None:
        if self.mode not in (AUTO, CLAIMS):
            raise ValueError(f"mode {self.mode!r} is neither {AUTO!r} nor {CLAIMS!r}")
        if self.variant in ALL_VARIANTS and self.variant not in VARIANTS:
            raise ValueError(THREE_TRACKS.format(variant=self.variant))
        if self.variant not in VARIANTS:
            raise ValueError(f"variant {self.variant!r} is not one a two-track board can show: {VARIANTS}")
        seats = ALL_VARIANTS[self.variant].players
        if self.players == DEFAULT_PLAYERS[:2] and seats != 2:
            object.__setattr__(self, "players", DEFAULT_PLAYERS[:seats])  # no names given: numbered seats
        if len(self.players) != seats or not all(name.strip() for name in self.players):
            raise ValueError(f"the table needs the names of {_NUMBERS[seats]} players for {self.variant}")
        for name in self.players:  # shown on the scoreboard and kept with every game
            if len(name) > MAX_NAME or not name.isprintable():
                shown = _clip(name)
                raise ValueError(f"a player's name is at most {MAX_NAME} printable characters: {shown!r}")
        texts = {
            "camera": self.camera,
            "camera layout": self.camera_layout,
            "board port": self.board_port,
            "web host": self.web_host,
        }
        for label, text in {**texts, "database path": self.db_path}.items():
            if text is not None and (len(text) > MAX_TEXT or not text.isprintable()):
                shown = _clip(text)
                raise ValueError(f"the {label} is at most {MAX_TEXT} printable characters: {shown!r}")
        if len(set(self.players)) != len(self.players):
            raise ValueError("the players need different names (their statistics are kept by name)")
        if self.pin is not None and (not self.pin.isdigit() or not 4 <= len(self.pin) <= 8):
            raise ValueError("the table's PIN must be 4 to 8 digits")
        if not 0 < self.muggins_seconds <= 120:
            raise ValueError("muggins_seconds must be between 0 and 120")
        if not 1 <= self.games_to_win <= 5:
            raise ValueError("games_to_win must be 1 to 5 (1 is a single game, 2 best of three)")
        if self.over_claim not in {choice.value for choice in OverClaim}:
            known = " or ".join(repr(choice.value) for choice in OverClaim)
            raise ValueError(f"over_claim {self.over_claim!r} is not {known}")
        self.settings()  # the engine's own checks of every house rule
        if self.camera is not None:
            check_camera(self.camera)
        if not 0 <= self.brightness <= 255:
            raise ValueError("the board's brightness must be 0 to 255")
        if not 0 <= self.web_port <= 65535:
            raise ValueError(f"web port {self.web_port} is not a port number")
        if (self.web_certfile is None) != (self.web_keyfile is None):
            raise ValueError("[web] HTTPS needs both certfile and keyfile")

    def settings(self) -> Settings:
        """The engine's settings for a new match at this table: the game, the counting and the house
        rules from the file.  The table shows hands automatically (the engine counts them as soon as
        the play ends)."""
        base = Settings(
            variant=variant_named(self.variant),
            counting=Counting(self.mode),
            match_games=2 * self.games_to_win - 1,
            auto_show=True,
        )
        return base.with_house_rules(
            {
                "muggins": self.muggins,
                "muggins_in_play": self.muggins_in_play,
                "over_claim": self.over_claim,
                "target": self.target,
                "skunk_line": self.skunk_line,
                "double_skunk_line": self.double_skunk_line,
                "skunk_double_win": self.skunk_double_win,
                "first_deal": self.first_deal,
            }
        )

    def with_changes(self, **changes: Any) -> TableConfig:
        """A copy with the given settings replaced (None means: keep)."""
        return replace(self, **{k: v for k, v in changes.items() if v is not None})


_SECTIONS: dict[str, dict[str, str]] = {
    "table": {
        "players": "players",
        "mode": "mode",
        "muggins_seconds": "muggins_seconds",
        "pin": "pin",
        "games_to_win": "games_to_win",
        "variant": "variant",
        "muggins_in_play": "muggins_in_play",
        "over_claim": "over_claim",
        "muggins": "muggins",
        "target": "target",
        "skunk_line": "skunk_line",
        "double_skunk_line": "double_skunk_line",
        "skunk_double_win": "skunk_double_win",
        "first_deal": "first_deal",
    },
    "camera": {"source": "camera", "layout": "camera_layout"},
    "board": {"port": "board_port", "brightness": "brightness"},
    "web": {
        "host": "web_host",
        "port": "web_port",
        "hosts": "web_hosts",
        "certfile": "web_certfile",
        "keyfile": "web_keyfile",
    },
    "store": {"path": "db_path"},
}
_TYPES: dict[str, type | tuple[type, ...]] = {
    "players": list,
    "mode": str,
    "muggins_seconds": (int, float),
    "pin": str,
    "games_to_win": int,
    "variant": str,
    "muggins_in_play": bool,
    "over_claim": str,
    "muggins": bool,
    "target": int,
    "skunk_line": int,
    "double_skunk_line": (int, str),
    "skunk_double_win": bool,
    "first_deal": str,
    "camera": (str, int),
    "camera_layout": str,
    "board_port": str,
    "brightness": int,
    "web_host": str,
    "web_port": int,
    "web_hosts": list,
    "web_certfile": str,
    "web_keyfile": str,
    "db_path": str,
}


MAX_NAME = 40
"""The longest player's name (the scoreboard and the statistics show it whole)."""
MAX_TEXT = 1024


def _clip(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def load_config(path: str | Path | None) -> TableConfig:
    """Read the config file (None: all defaults)."""
    if path is None:
        return TableConfig()
    target = Path(path)
    try:
        data = tomllib.loads(target.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise FileNotFoundError(f"there is no config file {target}") from None
    except tomllib.TOMLDecodeError as error:
        raise ValueError(f"{target} is not valid TOML ({error})") from None
    except UnicodeDecodeError:
        raise ValueError(f"{target} is not a config file (it is not UTF-8 text)") from None
    except IsADirectoryError:
        raise IsADirectoryError(f"{target} is a folder, not a config file") from None
    return config_from_mapping(data, str(target))


def config_from_mapping(data: dict[str, Any], where: str = "the config") -> TableConfig:
    """Build the config from parsed TOML; unknown sections or keys are errors, not silently ignored."""
    values: dict[str, Any] = {}
    gpio = ControlPins()
    for section, content in data.items():
        if section == "gpio":
            if not isinstance(content, dict):
                raise ValueError(f"{where}: [gpio] must be a section")
            gpio = ControlPins.from_mapping(content)
            continue
        keys = _SECTIONS.get(section)
        if keys is None or not isinstance(content, dict):
            known = ", ".join([*_SECTIONS, "gpio"])
            raise ValueError(f"{where}: there is no section [{section}] (known: {known})")
        for key, value in content.items():
            name = keys.get(key)
            if name is None:
                raise ValueError(f"{where}: [{section}] has no setting {key!r} (known: {', '.join(keys)})")
            wanted = _TYPES[name]
            if not isinstance(value, wanted) or (isinstance(value, bool) and wanted is not bool):
                raise ValueError(f"{where}: [{section}] {key} = {value!r} has the wrong type")
            values[name] = value
    if "players" in values:
        names = values["players"]
        if len(names) not in (2, 4) or not all(isinstance(n, str) for n in names):
            raise ValueError(f"{where}: [table] players must be a list of two names (four for four-player)")
        values["players"] = tuple(names)
    if "web_hosts" in values:
        if not all(isinstance(h, str) and h for h in values["web_hosts"]):
            raise ValueError(f"{where}: [web] hosts must be a list of host names")
        values["web_hosts"] = tuple(values["web_hosts"])
    if "camera" in values:
        values["camera"] = str(values["camera"])
    if "muggins_seconds" in values:
        values["muggins_seconds"] = float(values["muggins_seconds"])
    try:
        return TableConfig(gpio=gpio, **values)
    except ValueError as error:
        raise ValueError(f"{where}: {error}") from None
