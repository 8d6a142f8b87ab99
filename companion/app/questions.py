"""The table's questions: a card it will not guess at, asked about until a person names it.

A card the camera could not read, a card seen twice in one deal, a card that no legal play explains, or
a crib gathered up (or a new starter turned) before the camera read all four crib cards is not guessed
at: the table asks for a correction (pick the right card from a list, or undo) and nothing is pegged
until it is given.  The list is answered on the scoreboard or with either player's knob: while a
question waits, turning a knob moves the highlight through the choices and pressing it answers with the
highlighted card, exactly as picking that card on the scoreboard does.  Cards laid meanwhile are held,
and read in order once the question is answered.

:class:`Questions` is the part of :class:`~companion.app.table.Table` that keeps the question, the
highlight and what is held back; reading a card (``_landed``) and pegging a claim (``_peg``) are the
table's own, named here for the answer to hand on to.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, NoReturn

from companion.app.store import Journal
from companion.cards import Card, Zone, full_deck
from companion.rules.errors import RulesError
from companion.rules.game import Game

__all__ = ["CRIB_ZONE", "PLAYER_ZONES", "STARTER_ZONE", "Correction", "Questions", "raise_refusal"]

#: The zones the camera's calibration names, and which player each belongs to (four seats round the
#: table for four players: player0 near, then on round to the left).
PLAYER_ZONES: Final = {Zone.of_player(seat): seat for seat in range(4)}
STARTER_ZONE: Final = Zone.STARTER
CRIB_ZONE: Final = Zone.CRIB


@dataclass(frozen=True, slots=True)
class Correction:
    """A card the table will not guess at: the question, where it lay, what the camera said, the choices."""

    message: str
    zone: Zone
    seen: str
    choices: tuple[str, ...]

    def to_dict(self) -> dict[str, object]:
        choices = list(self.choices)
        return {"message": self.message, "zone": self.zone.value, "seen": self.seen, "choices": choices}


class _Refusal(RulesError):
    """A table event that no legal action explains."""


def raise_refusal(message: str) -> NoReturn:
    raise _Refusal(message)


class Questions:
    """The question waiting for an answer, the knobs' highlight in its choices, and what waits for it."""

    game: Game
    journal: Journal
    match_id: int
    players: tuple[str, ...]
    notice: str

    def __init__(self) -> None:
        self._correction: Correction | None = None
        self.highlighted = 0
        """The index in ``correction.choices`` the knobs point at (turn to move it, press to answer)."""
        self._held: list[tuple[str, Zone]] = []
        """Cards laid while a correction is asked for, read once it is answered."""
        self._held_claim: tuple[int, int, bool] | None = None
        """A crib claim pegged while a crib card was unread: pegged again once the card is named."""
        self.answered: tuple[str, Zone, str] | None = None
        """The answer the last event gave and the game took: the card named, its zone, and what the camera
        had read there ("" for nothing).  The camera keeps it for the card it asked about, so the same
        card lying on is not asked about, or counted, again."""

    def _forget_questions(self) -> None:
        """No question, nothing held (a new match, or an undo)."""
        self.correction = None
        self._held = []
        self._held_claim = None

    def _turn_highlight(self, steps: int) -> None:
        """A knob turned while a question waits: the highlight moves through the choices, round."""
        assert self.correction is not None
        choices = len(self.correction.choices)
        self.highlighted = (self.highlighted + steps) % choices if choices else 0

    @property
    def correction(self) -> Correction | None:
        """The question waiting for an answer, if any (nothing is read past it)."""
        return self._correction

    @correction.setter
    def correction(self, question: Correction | None) -> None:
        # Every new question (or none) starts the knobs' highlight at the first choice: for a misread,
        # a card sharing its rank or suit.
        self._correction = question
        self.highlighted = 0

    def _answer(self, card: str, zone: Zone) -> None:
        """The answer to the question: ``card`` is what lies in ``zone``; then the cards held meanwhile."""
        question = self.correction
        self.correction = None
        if zone == CRIB_ZONE:
            # A card held back while the crib was asked about may be the one now named (turned up on the
            # wrong spot): it is a crib card, not the next starter.
            self._held = [(text, at) for text, at in self._held if text != card]
        self._landed(card, zone, corrected=True)
        if self.correction is None and question is not None:
            self.answered = (card, zone, question.seen)
        self._release_held()
        if self._held_claim is not None and self.correction is None:
            player, points, knob = self._held_claim
            self._held_claim = None
            self._peg(player, points, knob=knob)

    def _answer_highlighted(self) -> None:
        """A knob pressed while a question waits: answer with the highlighted choice."""
        correction = self.correction
        assert correction is not None
        if not correction.choices:
            self.notice = "there is no card left to choose: undo to dismiss the question"
            return
        card = correction.choices[self.highlighted % len(correction.choices)]
        self._answer(card, correction.zone)

    def _unseen(self, like: str = "") -> tuple[str, ...]:
        """Cards not seen this deal: the ones a misread card could really be.  Those sharing a rank or a
        suit with what the camera read come first (a misread usually gets one of the two right)."""
        state = self.game.deal_state
        seen = set(state.seen) | ({state.starter} if state.starter else set()) | self._seen_elsewhere()
        cards = [c for c in full_deck() if c not in seen]
        if like and like not in ("unknown", "back"):
            read = Card.parse(like)
            cards.sort(key=lambda c: (c.rank is not read.rank and c.suit is not read.suit, c.index))
        return tuple(str(c) for c in cards)

    def _ask(self, message: str, zone: Zone, seen: str, likely: Sequence[str] = ()) -> None:
        choices = self._unseen(seen)
        first = [c for c in likely if c in choices]  # what the camera's frames said, most likely first
        self.correction = Correction(message, zone, seen, (*first, *(c for c in choices if c not in first)))

    def _release_held(self) -> None:
        """Cards laid while a correction was waiting, now read in order (until one needs asking about)."""
        while self._held and self.correction is None:
            text, zone = self._held.pop(0)
            self._landed(text, zone)

    # -- the table's own ---------------------------------------------------------------------------

    def _landed(self, text: str, zone: Zone, *, corrected: bool = False, likely: Sequence[str] = ()) -> None:
        """Read a card lying in ``zone`` (the table's)."""
        raise NotImplementedError  # pragma: no cover - Table reads cards

    def _peg(self, player: int, points: int, *, knob: bool) -> None:
        """Peg a claim (the table's)."""
        raise NotImplementedError  # pragma: no cover - Table pegs claims

    def _seen_elsewhere(self) -> set[Card]:
        """Cards the camera has seen that the engine has not been told of yet (turned up in the show)."""
        return set()
