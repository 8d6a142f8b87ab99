"""The forms of cribbage the engine plays: one engine, a handful of numbers that differ.

Six-card cribbage for two is the standard game of the primary rules text.  The others change only how
many cards are dealt and thrown, how many players share a track, the target, and one extra score:

* **five-card** (two players): five cards each, two to the crib, three-card hands, game to 61; the
  non-dealer pegs *three for last* once, at the start of the game, and the play is one count only:
  "when neither can come in the play is at an end" (Britannica), the cards still held are not laid;
* **three players**: five cards each and one dealt straight to the crib, each throws one; three tracks,
  so a two-track board cannot show it (:attr:`Variant.needs_three_tracks`);
* **four players** in fixed partnerships, partners sitting opposite (players 0 and 2 against 1 and 3):
  five cards each, each throws one; partners peg on one shared track.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

__all__ = [
    "FIVE_CARD",
    "FOUR_PLAYER",
    "SIX_CARD",
    "THREE_PLAYER",
    "VARIANTS",
    "Variant",
    "skunk_lines_for",
    "variant_named",
]


@dataclass(frozen=True, slots=True)
class Variant:
    """The numbers that make one form of cribbage."""

    #: Name used in game files and JSON ("six-card").
    name: str
    players: int
    #: Cards dealt to each player.
    dealt: int
    #: Cards each player throws to the crib.
    thrown: int
    #: Cards the dealer deals straight to the crib from the pack (one in the three-player game).
    crib_from_pack: int
    #: Points to win ("121 or over").
    target: int
    #: Whether the non-dealer pegs three for last at the start of the game (five-card cribbage).
    three_for_last: bool
    #: Whether partners sitting opposite share a track (four players).
    partnerships: bool
    #: Whether the play is one count only: once neither player can lay (a go, or 31) the play is at an
    #: end and the cards still held are not laid, only shown (two-handed five-card cribbage).  Otherwise
    #: a fresh count starts with the cards still held, as often as needed.
    one_count: bool = False

    @property
    def hand_size(self) -> int:
        """Cards each player keeps for the play and the show."""
        return self.dealt - self.thrown

    @property
    def tracks(self) -> int:
        """Scoring tracks on the board: one per player, or one per partnership."""
        return 2 if self.partnerships else self.players

    @property
    def needs_three_tracks(self) -> bool:
        """Whether the board must have three tracks to show this game (the two-track board refuses it)."""
        return self.tracks > 2

    def side_of(self, player: int) -> int:
        """The track (side) a player scores on: partners share one."""
        return player % 2 if self.partnerships else player

    def players_on(self, side: int) -> tuple[int, ...]:
        """The players who peg on a track."""
        return tuple(p for p in range(self.players) if self.side_of(p) == side)

    @property
    def skunk_lines(self) -> tuple[int, int | None]:
        """The default skunk and double-skunk lines: 30 and 60 holes short of the target.

        That gives 91 and 61 in the game to 121 (the quick guide and the American text), and 31 with no
        double skunk in the game to 61, where 60 holes short would be below the start.
        """
        return skunk_lines_for(self.target)


def skunk_lines_for(target: int) -> tuple[int, int | None]:
    """Skunk 30 holes short of the target, double skunk 60 short (none if that is at the start).

    A game shorter than 30 points has no skunk: its line is the start (0), which no score is below.
    """
    double = target - 60
    return max(target - 30, 0), (double if double > 1 else None)


SIX_CARD: Final = Variant("six-card", 2, 6, 2, 0, 121, False, False)
FIVE_CARD: Final = Variant("five-card", 2, 5, 2, 0, 61, True, False, one_count=True)
THREE_PLAYER: Final = Variant("three-player", 3, 5, 1, 1, 121, False, False)
FOUR_PLAYER: Final = Variant("four-player", 4, 5, 1, 0, 121, False, True)

VARIANTS: Final = {v.name: v for v in (SIX_CARD, FIVE_CARD, THREE_PLAYER, FOUR_PLAYER)}


def variant_named(name: str) -> Variant:
    """The variant called ``name``; a ValueError names the ones there are."""
    try:
        return VARIANTS[name.strip().lower()]
    except KeyError:
        known = ", ".join(VARIANTS)
        raise ValueError(f"{name!r} is not a form of cribbage this engine plays: choose {known}") from None
