"""How a table plays: the phases of a game and every house-rule option, as one frozen :class:`Settings`.

:meth:`Settings.from_dict` is the one reader of saved settings (the journal's, the scoreboard's); the
game file's setting lines are read by :mod:`companion.rules.notation` into the same value.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any, Final

from companion.rules.variants import SIX_CARD, Variant, skunk_lines_for, variant_named

__all__ = ["HOUSE_RULES", "MOST_POINTS", "Counting", "FirstDeal", "OverClaim", "Phase", "Settings"]

#: The highest target (and the most games in a match) a table may set: far past any real game, and
#: low enough that every figure stays a small number.
MOST_POINTS: Final = 1000


#: The options players choose before a game (the settings file's ``[table]`` keys and the scoreboard's
#: new-game form use these names): the game's length and every house rule where the rules texts differ.
HOUSE_RULES: Final = (
    "target",
    "match_games",
    "muggins",
    "muggins_in_play",
    "over_claim",
    "skunk_line",
    "double_skunk_line",
    "skunk_double_win",
    "first_deal",
)
_YES_NO: Final = ("muggins", "muggins_in_play", "skunk_double_win")


class Phase(Enum):
    """Where the game stands; the value is the name used in JSON."""

    CUT_FOR_DEAL = "cut-for-deal"
    DEAL = "deal"
    DISCARD = "discard"
    STARTER = "starter"
    PLAY = "play"
    SHOW = "show"
    GAME_OVER = "game-over"


class Counting(Enum):
    """Who counts: the engine (``auto``), or the players, who claim their points (``claims``)."""

    AUTO = "auto"
    CLAIMS = "claims"


class OverClaim(Enum):
    """What happens to points claimed beyond the true count."""

    #: Tournament style (American Cribbage Congress): the claim is simply corrected.
    CORRECTED = "corrected"
    #: Traditional house rule: the claim is corrected and the opponent pegs the excess.
    OPPONENT_TAKES = "opponent-takes"


class FirstDeal(Enum):
    """Who deals first in the later games of a match."""

    #: The primary text: first box alternates for the second game; a deciding game has a fresh cut.
    ALTERNATE = "alternate"
    #: The quick guide: the loser of the previous game deals.
    LOSER = "loser"


@dataclass(frozen=True, slots=True)
class Settings:
    """How this table plays.  Every house-rule option of the rules texts is one field here."""

    variant: Variant = SIX_CARD
    counting: Counting = Counting.AUTO
    #: Muggins on the show (hands and crib): the opponent may peg points a player left behind.
    muggins: bool = True
    #: Muggins also on scores missed in the play ("some people apply the same rule").
    muggins_in_play: bool = False
    over_claim: OverClaim = OverClaim.CORRECTED
    #: Points to win; ``None`` for the variant's own (121, or 61 for five-card).
    target: int | None = None
    #: A loser below this is skunked (``None``: 30 short of the target, i.e. 91 in a game to 121).
    skunk_line: int | None = None
    #: A loser below this is double-skunked (``None``: 61 in a game to 121, none in a game to 61;
    #: 0: no double skunk at this table).
    double_skunk_line: int | None = None
    #: A skunk (or double skunk) counts as two games won in a match: "the victor scores a skunk, or
    #: double win" (the quick guide; the American text agrees).  Off: every game counts one.
    skunk_double_win: bool = True
    #: Games in the match (best of three by default; 1 for a single game).
    match_games: int = 3
    first_deal: FirstDeal = FirstDeal.ALTERNATE
    #: The automatic show (an automation, as the counting is): with automatic counting the engine shows
    #: each hand itself as soon as the play ends, and the crib once its four cards are known, so no caller
    #: has to step it.  Off, each count is an action of its own (``count P hand``).
    auto_show: bool = False

    def __post_init__(self) -> None:
        if not self.muggins and self.muggins_in_play:  # muggins in the play is a widening of muggins
            object.__setattr__(self, "muggins_in_play", False)
        if self.target is not None and self.target < 1:
            raise ValueError(f"the target must be at least 1 point, not {self.target}")
        if self.target is not None and self.target > MOST_POINTS:
            raise ValueError(f"the target must be at most {MOST_POINTS} points, not {self.target}")
        if self.match_games < 1 or self.match_games % 2 == 0:
            raise ValueError(f"a match is best of an odd number of games, not {self.match_games}")
        if self.match_games > MOST_POINTS:
            raise ValueError(f"a match is at most {MOST_POINTS} games, not {self.match_games}")
        skunk, _ = self.skunk
        if self.skunk_line is not None and not 0 <= self.skunk_line <= MOST_POINTS:
            raise ValueError(f"the skunk line must be from 0 to {MOST_POINTS} points, not {self.skunk_line}")
        if self.double_skunk_line is not None and not 0 <= self.double_skunk_line <= max(skunk, 0):
            double = self.double_skunk_line
            raise ValueError(f"the double-skunk line must be from 0 to the skunk line, {skunk}, not {double}")

    def with_house_rules(self, chosen: Mapping[str, object]) -> Settings:
        """These settings with the house rules ``chosen`` by the players (keys of :data:`HOUSE_RULES`).

        The one strict reader of a choice made outside the engine (the settings file, the scoreboard's
        form): a value of the wrong kind is refused here in one sentence rather than coerced, so a table
        never plays a rule nobody chose.  ``double_skunk_line`` may be ``"none"`` (or 0): no double skunk;
        ``target`` and the lines may be None: the usual for the game.
        """
        changes: dict[str, object] = {}
        for key, value in chosen.items():
            if key not in HOUSE_RULES:
                raise ValueError(f"{key!r} is not a house rule (they are {', '.join(HOUSE_RULES)})")
            if key in _YES_NO:
                if not isinstance(value, bool):
                    raise ValueError(f"{key} is true or false, not {value!r}")
                changes[key] = value
            elif key == "over_claim":
                changes[key] = _choice(OverClaim, key, value)
            elif key == "first_deal":
                changes[key] = _choice(FirstDeal, key, value)
            elif key == "double_skunk_line" and isinstance(value, str) and value.strip().lower() == "none":
                changes[key] = 0
            elif value is None and key != "match_games":
                changes[key] = None
            elif isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"{key} is a whole number, not {value!r}")
            else:
                changes[key] = value
        if changes.get("target") == self.variant.target:
            changes["target"] = None  # the variant's own: the game file names only what differs
        settings = replace(self, **changes)  # type: ignore[arg-type]
        skunk, _ = settings.skunk
        if skunk > settings.game_target:
            raise ValueError(f"the skunk line, {skunk}, must not be above the target, {settings.game_target}")
        return settings

    @property
    def game_target(self) -> int:
        """The points that win a game."""
        return self.variant.target if self.target is None else self.target

    @property
    def skunk(self) -> tuple[int, int | None]:
        """The skunk and double-skunk lines in force."""
        default_skunk, default_double = skunk_lines_for(self.game_target)
        double = default_double if self.double_skunk_line is None else self.double_skunk_line
        return (
            default_skunk if self.skunk_line is None else self.skunk_line,
            None if double == 0 else double,
        )

    @property
    def wins_needed(self) -> int:
        """Games a side must win to take the match."""
        return self.match_games // 2 + 1

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Settings:
        """Read back :meth:`to_dict` (unknown keys are ignored; a bad value is a ValueError)."""
        target = data.get("target")
        variant = variant_named(str(data.get("variant", SIX_CARD.name)))
        skunk = data.get("skunk_line")
        double = data.get("double_skunk_line")
        if double is None and "double_skunk_line" in data:
            double = 0  # written as null: no double skunk at this table
        return cls(
            variant=variant,
            counting=Counting(data.get("counting", "auto")),
            muggins=bool(data.get("muggins", True)),
            muggins_in_play=bool(data.get("muggins_in_play", False)),
            over_claim=OverClaim(data.get("over_claim", OverClaim.CORRECTED.value)),
            target=None if target is None or int(target) == variant.target else int(target),
            skunk_line=None if skunk is None else int(skunk),
            double_skunk_line=None if double is None else int(double),
            match_games=int(data.get("match_games", 3)),
            first_deal=FirstDeal(data.get("first_deal", FirstDeal.ALTERNATE.value)),
            auto_show=bool(data.get("auto_show", False)),
            skunk_double_win=bool(data.get("skunk_double_win", True)),
        )

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready form (the lines in force, so a reader need not know the defaults)."""
        skunk, double = self.skunk
        return {
            "variant": self.variant.name,
            "counting": self.counting.value,
            "muggins": self.muggins,
            "muggins_in_play": self.muggins_in_play,
            "over_claim": self.over_claim.value,
            "target": self.game_target,
            "skunk_line": skunk,
            "double_skunk_line": double,
            "match_games": self.match_games,
            "first_deal": self.first_deal.value,
            "auto_show": self.auto_show,
            "skunk_double_win": self.skunk_double_win,
        }


def _choice(kind: type[OverClaim] | type[FirstDeal], key: str, value: object) -> OverClaim | FirstDeal:
    """The option of ``kind`` named ``value``; anything else is one sentence naming the options."""
    for option in kind:
        if value == option.value:
            return option
    known = " or ".join(repr(option.value) for option in kind)
    raise ValueError(f"{key} is {known}, not {value!r}")
