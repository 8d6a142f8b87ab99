"""What the engine keeps and shows: the frozen records of what each action did, the snapshot for the
board and the scoreboard, and the two mutable holders of a deal in progress."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.cards import Card
from companion.rules.actions import Action, action_to_dict
from companion.rules.items import ScoreItem
from companion.rules.play import Pegging
from companion.rules.settings import Counting, Phase

__all__ = [
    "DealState",
    "GameResult",
    "MugginsOffer",
    "Operation",
    "PegPosition",
    "PendingClaim",
    "PlayToClaim",
    "Scoring",
    "Snapshot",
]


@dataclass(frozen=True, slots=True)
class Scoring:
    """Points pegged on one track, why, and where the two pegs stand afterwards.

    ``points`` is the number of holes pegged: the full score, except that a winning score stops in the
    game hole (``target``); ``items`` always lists the whole score with its cards.
    """

    player: int
    side: int
    points: int
    reason: str
    items: tuple[ScoreItem, ...]
    explanation: str
    rear: int
    forward: int

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready form."""
        return {
            "player": self.player,
            "side": self.side,
            "points": self.points,
            "reason": self.reason,
            "items": [item.to_dict() for item in self.items],
            "explanation": self.explanation,
            "rear": self.rear,
            "forward": self.forward,
        }


@dataclass(frozen=True, slots=True)
class Operation:
    """One action done: its place in the log, what it was, what it pegged, and a sentence saying so.

    ``automatic`` marks an action the engine did by itself (the automatic show): it follows from the
    settings and the actions before it, so it is not one of :attr:`Game.actions` and no file records it.
    """

    serial: int
    action: Action
    note: str
    scores: tuple[Scoring, ...]
    phase: Phase
    automatic: bool = False

    @property
    def points(self) -> int:
        """Holes pegged by this action, all tracks together."""
        return sum(s.points for s in self.scores)

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready form."""
        return {
            "serial": self.serial,
            "action": action_to_dict(self.action),
            "note": self.note,
            "scores": [s.to_dict() for s in self.scores],
            "phase": self.phase.value,
            "automatic": self.automatic,
        }


@dataclass(frozen=True, slots=True)
class PendingClaim:
    """A score a player is expected to claim (the true count stays hidden until they do)."""

    player: int
    what: str

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready form."""
        return {"player": self.player, "what": self.what}


@dataclass(frozen=True, slots=True)
class MugginsOffer:
    """Points a player under-claimed, open to the opponents until the next action.

    ``serial`` identifies the offer (the operation that opened it), so a timer that lets it lapse can
    name the offer it meant.
    """

    serial: int
    against: int
    what: str
    points: int
    items: tuple[ScoreItem, ...]
    explanation: str

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready form."""
        return {
            "serial": self.serial,
            "against": self.against,
            "what": self.what,
            "points": self.points,
            "items": [item.to_dict() for item in self.items],
            "explanation": self.explanation,
        }


@dataclass(frozen=True, slots=True)
class PegPosition:
    """The two pegs of one track: the forward peg is the score, the rear peg the score before."""

    rear: int
    forward: int

    def to_dict(self) -> dict[str, int]:
        """A JSON-ready form."""
        return {"rear": self.rear, "forward": self.forward}


@dataclass(frozen=True, slots=True)
class GameResult:
    """How one game of a match ended."""

    number: int
    winner: int
    scores: tuple[int, ...]
    #: ``"skunk"``, ``"double-skunk"`` or ``None``, judged on the best-placed loser.
    skunk: str | None
    first_dealer: int

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready form."""
        return {
            "number": self.number,
            "winner": self.winner,
            "scores": list(self.scores),
            "skunk": self.skunk,
            "first_dealer": self.first_dealer,
        }


@dataclass(frozen=True, slots=True)
class Snapshot:
    """Everything the board and the scoreboard show, at one moment.  Tracks are indexed by side."""

    serial: int
    variant: str
    players: int
    tracks: int
    needs_three_tracks: bool
    #: The players pegging on each track.
    sides: tuple[tuple[int, ...], ...]
    target: int
    counting: Counting
    phase: Phase
    game_number: int
    dealer: int | None
    pone: int | None
    #: The player the game waits for, if one (the player to lay, to show, to claim, to turn the starter).
    turn: int | None
    waiting_for: str
    scores: tuple[int, ...]
    pegs: tuple[PegPosition, ...]
    count: int
    #: Cards of the current count, in order, with who laid them.
    count_cards: tuple[tuple[int, Card], ...]
    #: Every card laid this deal, in order, with who laid it.
    deal_cards: tuple[tuple[int, Card], ...]
    starter: Card | None
    #: Crib cards known so far (all four once shown).
    crib: tuple[Card, ...]
    #: Cuts for deal in the current round.
    cuts: tuple[tuple[int, Card], ...]
    #: The next hand to show: (player, "hand" or "crib").
    show_next: tuple[int, str] | None
    last_scores: tuple[Scoring, ...]
    last_note: str
    pending_claim: PendingClaim | None
    muggins_offer: MugginsOffer | None
    winner: int | None
    skunk: str | None
    match_wins: tuple[int, ...]
    match_winner: int | None
    games: tuple[GameResult, ...]
    #: Names of the actions the game accepts now ("play", "go", "claim", "muggins", ...).
    expects: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form (cards as canonical text, enums as their values)."""
        return {
            "serial": self.serial,
            "variant": self.variant,
            "players": self.players,
            "tracks": self.tracks,
            "needs_three_tracks": self.needs_three_tracks,
            "sides": [list(s) for s in self.sides],
            "target": self.target,
            "counting": self.counting.value,
            "phase": self.phase.value,
            "game_number": self.game_number,
            "dealer": self.dealer,
            "pone": self.pone,
            "turn": self.turn,
            "waiting_for": self.waiting_for,
            "scores": list(self.scores),
            "pegs": [p.to_dict() for p in self.pegs],
            "count": self.count,
            "count_cards": [{"player": p, "card": str(c)} for p, c in self.count_cards],
            "deal_cards": [{"player": p, "card": str(c)} for p, c in self.deal_cards],
            "starter": None if self.starter is None else str(self.starter),
            "crib": [str(c) for c in self.crib],
            "cuts": [{"player": p, "card": str(c)} for p, c in self.cuts],
            "show_next": None if self.show_next is None else list(self.show_next),
            "last_scores": [s.to_dict() for s in self.last_scores],
            "last_note": self.last_note,
            "pending_claim": None if self.pending_claim is None else self.pending_claim.to_dict(),
            "muggins_offer": None if self.muggins_offer is None else self.muggins_offer.to_dict(),
            "winner": self.winner,
            "skunk": self.skunk,
            "match_wins": list(self.match_wins),
            "match_winner": self.match_winner,
            "games": [g.to_dict() for g in self.games],
            "expects": list(self.expects),
        }


@dataclass(slots=True)
class PlayToClaim:
    """A play score waiting for its claim, with the true count the claim is judged against.

    Held by :attr:`Game.pending`; the snapshot shows only who may claim (:class:`PendingClaim`), never
    the true count, so the scoreboard cannot give the answer away before muggins.
    """

    player: int
    items: tuple[ScoreItem, ...]
    explanation: str


@dataclass(slots=True)
class DealState:
    """Everything about the deal in progress (replaced whole at each new deal), as :attr:`Game.deal_state`.

    Read it freely (the table uses ``seen`` to name where a card already is); change it only through
    the game's actions.
    """

    dealt: dict[int, tuple[Card, ...] | None] = field(default_factory=dict)
    crib_dealt: bool = False
    discarded: dict[int, tuple[Card, ...] | None] = field(default_factory=dict)
    #: Cards each player still holds, when the engine knows them.
    held: dict[int, set[Card]] = field(default_factory=dict)
    crib_known: list[Card] = field(default_factory=list)
    crib_unknown: int = 0
    starter: Card | None = None
    #: Where each card seen this deal is, for "a card seen twice" ("player 0's hand", "the crib").
    seen: dict[Card, str] = field(default_factory=dict)
    pegging: Pegging | None = None
    played_by: dict[int, list[Card]] = field(default_factory=dict)
    show_step: int = 0
    #: Players dealt face up who threw face down: how many of the cards in ``held`` went to the crib.
    hidden_throws: dict[int, int] = field(default_factory=dict)
    #: Cards such a player must have thrown, since they said go while the cards would have fitted.
    must_have_thrown: dict[int, set[Card]] = field(default_factory=dict)
