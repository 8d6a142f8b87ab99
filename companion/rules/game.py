"""A game (or a best-of-three match) of cribbage, from the cut for deal to the last peg.

How to drive it
---------------
Make a :class:`Game` (``Game()`` is six-card cribbage for two, counted automatically; pass
``Settings(...)`` or ``variant=`` for the rest), then tell it what happens at the table, in order.
Every action comes as a triad: ``verify_x(...)`` raises :class:`~companion.rules.errors.IllegalAction`
(or :class:`~companion.rules.errors.IllegalPlay`) with a sentence, ``can_x(...)`` answers yes or no, and
``x(...)`` does it and returns a frozen :class:`Operation` that is appended to :attr:`Game.log`.
A refused action leaves the game exactly as it was.

====================  ======================================  ====================================
phase                 actions                                 notation line
====================  ======================================  ====================================
``cut-for-deal``      ``cut_for_deal(player, card)``          ``cut 0 7h``
``deal``              ``deal(player, cards=None)``,           ``deal 0 5h 5d 5s Jc 2c 3c``,
                      ``deal_crib(card=None)`` (3 players)    ``deal 1`` (face down), ``deal crib``
``discard``           ``discard(player, cards=None)``         ``discard 1 5h 5d`` / ``discard 1``
``starter``           ``turn_starter(card)``                  ``starter Jc``
``play``              ``play(player, card)``, ``go(player)``  ``play 1 5s``, ``go 0``
``show``              ``count(player, "hand" | "crib")``      ``count 1 hand``, ``count 0 crib``
                      or, when players claim,                 ``claim 1 hand 12``
                      ``claim(player, what, points)``
``game-over``         ``next_game()`` (match not decided)     ``next-game``
any                   ``muggins(player)``, ``pass_muggins()``, ``muggins 0``, ``pass``,
                      ``switch_counting("auto" | "claims")``  ``switch claims``
====================  ======================================  ====================================

The engine never shuffles: it is told each card (by the camera, a test, or the simulator in
:mod:`companion.rules.simulate`).  Cards nobody can see may stay unknown: ``deal`` and ``discard``
accept ``None`` for face-down cards, each hand is learned from the cards laid in the play, and a crib
thrown face down is given when it is counted (``count(dealer, "crib", cards)``).

Counting: with ``Counting.AUTO`` the engine pegs every score itself.  With ``Counting.CLAIMS`` players
count their own: a scoring card in the play leaves a :class:`PendingClaim` the scorer settles with
``claim(player, "play", n)`` (laying the next card first counts as claiming nothing), and each hand and
the crib are shown with ``claim``.  An under-claim pegs what was claimed and, with muggins on, opens a
:class:`MugginsOffer` the opponents may take with ``muggins(player)`` until the next action (or
``pass_muggins()``); an over-claim is corrected, or the opponent takes the excess (a house rule).  A
muggins call with nothing left behind is refused with the reason and changes nothing: none of the rules
texts puts a penalty on a false call.

For the board and the scoreboard, :meth:`Game.snapshot` returns a frozen :class:`Snapshot` (scores,
rear and forward peg of each track, phase, dealer, whose turn, the count, the cards on the table, the
last scores with their spoken explanation, any pending claim or muggins offer, winner, skunk, match
score) with ``to_dict()`` for JSON.  :meth:`Game.undo` takes back the last action (pegs included) by
replaying the log without it; :meth:`Game.replay` rebuilds a game from its actions.

Scores and pegs belong to tracks ("sides"): one per player, except that partners in the four-player
game share one (``Game.side_of(player)``).  The three-player game has three tracks, so
``Game.needs_three_tracks`` tells a two-track board to refuse it.

A deal, by hand:

>>> from companion.cards import Card, parse_cards
>>> game = Game()
>>> game.cut_for_deal(0, Card.parse("Ac")).note
'player 0 cuts Ac'
>>> game.cut_for_deal(1, Card.parse("Kd")).note
'player 1 cuts Kd; player 0 cut lowest and deals first'
>>> for player, cards in ((0, "5h 5d 5s Jc 2c 3c"), (1, "7h 8h 9h 10h Qs Ks")):
...     _ = game.deal(player, parse_cards(cards))
>>> _ = game.discard(0, parse_cards("2c 3c")), game.discard(1, parse_cards("Qs Ks"))
>>> game.turn_starter(Card.parse("5c")).phase
<Phase.PLAY: 'play'>
>>> game.play(1, Card.parse("7h")).note
'player 1 lays 7h: seven'
>>> game.can_play(0, Card.parse("8c"))
False
>>> game.play(0, Card.parse("8c"))
Traceback (most recent call last):
    ...
companion.rules.errors.IllegalPlay: player 0 does not hold 8c
>>> op = game.play(0, Card.parse("5h"))
>>> game.snapshot().count, game.snapshot().turn
(12, 1)

The game ends the instant a side reaches the target, wherever that happens (mid-play, mid-show, on two
for his heels); the winning peg stops in the game hole and nothing is scored after.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any, ClassVar, Final, TypeAlias

from companion.cards import Card
from companion.rules.errors import IllegalAction, IllegalPlay, RulesError
from companion.rules.items import Kind, ScoreItem, number_word
from companion.rules.play import Pegging
from companion.rules.show import score_hand
from companion.rules.variants import SIX_CARD, Variant, skunk_lines_for, variant_named

__all__ = [
    "MAX_HAND",
    "MAX_PLAY",
    "Action",
    "Claim",
    "Count",
    "Counting",
    "CutForDeal",
    "Deal",
    "DealCrib",
    "DealState",
    "Discard",
    "FirstDeal",
    "Game",
    "GameResult",
    "Go",
    "Muggins",
    "MugginsOffer",
    "NextGame",
    "Operation",
    "OverClaim",
    "PassMuggins",
    "PegPosition",
    "PendingClaim",
    "Phase",
    "Play",
    "PlayToClaim",
    "Scoring",
    "Settings",
    "Snapshot",
    "SwitchCounting",
    "TurnStarter",
    "action_to_dict",
]


# ------------------------------------------------------------------------------------------------
# Settings
# ------------------------------------------------------------------------------------------------
class Phase(Enum):
    """Where the game stands; the value is the name used in JSON."""

    CUT_FOR_DEAL = "cut-for-deal"
    DEAL = "deal"
    DISCARD = "discard"
    STARTER = "starter"
    PLAY = "play"
    SHOW = "show"
    GAME_OVER = "game-over"


_DURING: Final = {
    Phase.CUT_FOR_DEAL: "while the players cut for the deal",
    Phase.DEAL: "during the deal",
    Phase.DISCARD: "while the players throw to the crib",
    Phase.STARTER: "while the starter is waited for",
    Phase.PLAY: "during the play",
    Phase.SHOW: "during the show",
    Phase.GAME_OVER: "once the game is over",
}


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
    #: A loser below this is double-skunked (``None``: 61 in a game to 121, none in a game to 61).
    double_skunk_line: int | None = None
    #: Games in the match (best of three by default; 1 for a single game).
    match_games: int = 3
    first_deal: FirstDeal = FirstDeal.ALTERNATE

    def __post_init__(self) -> None:
        if not self.muggins and self.muggins_in_play:  # muggins in the play is a widening of muggins
            object.__setattr__(self, "muggins_in_play", False)
        if self.target is not None and self.target < 1:
            raise ValueError(f"the target must be at least 1 point, not {self.target}")
        if self.match_games < 1 or self.match_games % 2 == 0:
            raise ValueError(f"a match is best of an odd number of games, not {self.match_games}")

    @property
    def game_target(self) -> int:
        """The points that win a game."""
        return self.variant.target if self.target is None else self.target

    @property
    def skunk(self) -> tuple[int, int | None]:
        """The skunk and double-skunk lines in force."""
        default_skunk, default_double = skunk_lines_for(self.game_target)
        return (
            default_skunk if self.skunk_line is None else self.skunk_line,
            default_double if self.double_skunk_line is None else self.double_skunk_line,
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
        }


# ------------------------------------------------------------------------------------------------
# Actions: what a player (or the camera) says happened.  Operations record them with what they did.
# ------------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class CutForDeal:
    """A player cut ``card`` to decide who deals first (lower deals; ten-cards are all equal)."""

    name: ClassVar[str] = "cut"
    player: int
    card: Card


@dataclass(frozen=True, slots=True)
class Deal:
    """The dealer dealt ``player`` their cards; ``None`` when they were dealt face down, unseen."""

    name: ClassVar[str] = "deal"
    player: int
    cards: tuple[Card, ...] | None = None


@dataclass(frozen=True, slots=True)
class DealCrib:
    """Three players: the dealer dealt one card straight to the crib (``None``: face down, unseen)."""

    name: ClassVar[str] = "deal-crib"
    card: Card | None = None


@dataclass(frozen=True, slots=True)
class Discard:
    """A player threw cards to the crib (``None``: face down, unseen)."""

    name: ClassVar[str] = "discard"
    player: int
    cards: tuple[Card, ...] | None = None


@dataclass(frozen=True, slots=True)
class TurnStarter:
    """The dealer turned up the starter (a jack is two for his heels)."""

    name: ClassVar[str] = "starter"
    card: Card


@dataclass(frozen=True, slots=True)
class Play:
    """A player laid a card in the play."""

    name: ClassVar[str] = "play"
    player: int
    card: Card


@dataclass(frozen=True, slots=True)
class Go:
    """A player said go: they cannot lay a card without passing 31."""

    name: ClassVar[str] = "go"
    player: int


@dataclass(frozen=True, slots=True)
class Count:
    """Automatic counting: show ``player``'s hand, or the crib (the dealer's), and peg the true count.

    ``cards`` gives the shown cards when the engine has not seen them (a crib thrown face down).
    """

    name: ClassVar[str] = "count"
    player: int
    what: str
    cards: tuple[Card, ...] | None = None


@dataclass(frozen=True, slots=True)
class Claim:
    """Players counting: ``player`` claims ``points`` for their hand, the crib, or a card in the play."""

    name: ClassVar[str] = "claim"
    player: int
    what: str
    points: int
    cards: tuple[Card, ...] | None = None


@dataclass(frozen=True, slots=True)
class Muggins:
    """An opponent calls muggins on points a player left behind, and pegs them."""

    name: ClassVar[str] = "muggins"
    player: int


@dataclass(frozen=True, slots=True)
class PassMuggins:
    """The chance to call muggins passes unused."""

    name: ClassVar[str] = "pass"


@dataclass(frozen=True, slots=True)
class SwitchCounting:
    """Switch between automatic counting and players claiming, mid-game."""

    name: ClassVar[str] = "switch"
    counting: Counting


@dataclass(frozen=True, slots=True)
class NextGame:
    """Start the next game of the match."""

    name: ClassVar[str] = "next-game"


Action: TypeAlias = (
    CutForDeal
    | Deal
    | DealCrib
    | Discard
    | TurnStarter
    | Play
    | Go
    | Count
    | Claim
    | Muggins
    | PassMuggins
    | SwitchCounting
    | NextGame
)

_WHATS: Final = ("hand", "crib", "play")


def action_to_dict(action: Action) -> dict[str, object]:
    """A JSON-ready form of an action: ``{"action": name, ...fields}`` with cards as text."""
    out: dict[str, object] = {"action": action.name}
    for key in ("player", "what", "points"):
        if hasattr(action, key):
            out[key] = getattr(action, key)
    if isinstance(action, CutForDeal | TurnStarter | Play):
        out["card"] = str(action.card)
    if isinstance(action, DealCrib):
        out["card"] = None if action.card is None else str(action.card)
    if isinstance(action, Deal | Discard | Count | Claim):
        out["cards"] = None if action.cards is None else [str(c) for c in action.cards]
    if isinstance(action, SwitchCounting):
        out["counting"] = action.counting.value
    return out


# ------------------------------------------------------------------------------------------------
# Records
# ------------------------------------------------------------------------------------------------
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
    """One action done: its place in the log, what it was, what it pegged, and a sentence saying so."""

    serial: int
    action: Action
    note: str
    scores: tuple[Scoring, ...]
    phase: Phase

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


# ------------------------------------------------------------------------------------------------
# The engine
# ------------------------------------------------------------------------------------------------
#: The most a hand can score in the show: 29 with four cards; with three (five-card cribbage) 20.
MAX_HAND: Final = {4: 29, 3: 20}
#: The most one card can peg in the play: a double pair royal making fifteen, and the last card.
MAX_PLAY: Final = 15


def _who(player: int) -> str:
    return f"player {player}"


def _cards(cards: Iterable[Card]) -> str:
    return " ".join(str(c) for c in cards)


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


class Game:
    """The state machine of a cribbage game or match.  See the module docstring for how to drive it."""

    def __init__(self, settings: Settings | None = None, *, variant: Variant | str | None = None) -> None:
        settings = settings or Settings()
        if variant is not None:
            settings = replace(
                settings, variant=variant_named(variant) if isinstance(variant, str) else variant
            )
        self.settings: Final = settings
        self.variant: Final = settings.variant
        self.target: Final = settings.game_target
        self._log: list[Operation] = []
        self.counting = settings.counting
        self.match_wins = [0] * self.variant.tracks
        self.games: list[GameResult] = []
        self.game_number = 1
        self._start_game(dealer=None)

    # -- lifecycle -------------------------------------------------------------------------------
    def _start_game(self, dealer: int | None) -> None:
        tracks = self.variant.tracks
        self.scores = [0] * tracks
        self.rear = [0] * tracks
        self.winner: int | None = None
        self.skunk: str | None = None
        self.cuts: dict[int, Card] = {}
        self.dealer: int | None = None
        self.first_dealer: int | None = None
        self.deal_state = DealState()
        self.pending: PlayToClaim | None = None
        self.offer: MugginsOffer | None = None
        self.last_scores: tuple[Scoring, ...] = ()
        self.last_note = "cut for the deal" if dealer is None else ""
        self._scored: list[Scoring] = []
        if dealer is None:
            self.phase = Phase.CUT_FOR_DEAL
        else:
            self.first_dealer = dealer
            self._open_deal(dealer)

    @property
    def log(self) -> tuple[Operation, ...]:
        """Every action done so far, in order."""
        return tuple(self._log)

    @property
    def actions(self) -> tuple[Action, ...]:
        """The actions of the log: enough to rebuild the game with :meth:`replay`."""
        return tuple(op.action for op in self._log)

    @classmethod
    def replay(cls, actions: Iterable[Action], settings: Settings | None = None) -> Game:
        """A new game with ``actions`` done in order (each verified as it is done)."""
        game = cls(settings)
        for action in actions:
            game.apply(action)
        return game

    @property
    def pone(self) -> int | None:
        """The non-dealer (with more players: the player on the dealer's left), who leads and shows first."""
        return None if self.dealer is None else (self.dealer + 1) % self.variant.players

    @property
    def over(self) -> bool:
        """Whether the game in progress has been won."""
        return self.winner is not None

    @property
    def match_winner(self) -> int | None:
        """The side that has won the match, if one has."""
        for side, wins in enumerate(self.match_wins):
            if wins >= self.settings.wins_needed:
                return side
        return None

    @property
    def needs_three_tracks(self) -> bool:
        """Whether the board must have three tracks to show this game."""
        return self.variant.needs_three_tracks

    def side_of(self, player: int) -> int:
        """The track a player pegs on."""
        return self.variant.side_of(player)

    def side_name(self, side: int | None) -> str:
        """A track named by its players: "player 1", or "players 0 and 2" for partners."""
        if side is None:
            return "nobody"
        players = self.variant.players_on(side)
        if len(players) == 1:
            return _who(players[0])
        return "players " + " and ".join(str(p) for p in players)

    # -- generic verify / can / do ---------------------------------------------------------------
    def verify(self, action: Action) -> None:
        """Raise a :class:`RulesError` with a sentence if ``action`` is not allowed now."""
        self._verifier(action)()

    def can(self, action: Action) -> bool:
        """Whether :meth:`apply` would accept ``action``."""
        try:
            self.verify(action)
        except RulesError:
            return False
        return True

    def apply(self, action: Action) -> Operation:
        """Do ``action`` (after verifying it) and return its operation record, appended to the log."""
        self.verify(action)
        self._scored = []
        if not isinstance(action, Muggins | PassMuggins):
            self.offer = None
            if not (isinstance(action, Claim) and action.what == "play") and not isinstance(
                action, SwitchCounting
            ):
                self._settle_unclaimed()
        try:
            note = self._doer(action)()
        except Exception:  # pragma: no cover - verify is meant to catch everything first
            self._rebuild(self._log)  # never leave a half-done action behind
            raise
        op = Operation(len(self._log) + 1, action, note, tuple(self._scored), self.phase)
        self._log.append(op)
        if op.scores:
            self.last_scores = op.scores
        self.last_note = note
        return op

    def undo(self) -> Operation:
        """Take back the last action: the game is rebuilt from the log without it."""
        self.verify_undo()
        last = self._log[-1]
        self._rebuild(self._log[:-1])
        return last

    def verify_undo(self) -> None:
        """Raise :class:`IllegalAction` if there is nothing to undo."""
        if not self._log:
            raise IllegalAction("there is nothing to undo: no action has been taken yet")

    def can_undo(self) -> bool:
        """Whether there is an action to take back."""
        return bool(self._log)

    def _rebuild(self, ops: Sequence[Operation]) -> None:
        fresh = Game.replay([op.action for op in ops], self.settings)
        for name in _STATE:
            setattr(self, name, getattr(fresh, name))

    def _verifier(self, action: Action) -> Any:
        match action:
            case CutForDeal(player, card):
                return lambda: self.verify_cut_for_deal(player, card)
            case Deal(player, cards):
                return lambda: self.verify_deal(player, cards)
            case DealCrib(card):
                return lambda: self.verify_deal_crib(card)
            case Discard(player, cards):
                return lambda: self.verify_discard(player, cards)
            case TurnStarter(card):
                return lambda: self.verify_turn_starter(card)
            case Play(player, card):
                return lambda: self.verify_play(player, card)
            case Go(player):
                return lambda: self.verify_go(player)
            case Count(player, what, cards):
                return lambda: self.verify_count(player, what, cards)
            case Claim(player, what, points, cards):
                return lambda: self.verify_claim(player, what, points, cards)
            case Muggins(player):
                return lambda: self.verify_muggins(player)
            case PassMuggins():
                return self.verify_pass_muggins
            case SwitchCounting(counting):
                return lambda: self.verify_switch_counting(counting)
            case NextGame():
                return self.verify_next_game
        raise IllegalAction(f"{action!r} is not a cribbage action")  # pragma: no cover

    def _doer(self, action: Action) -> Any:
        match action:
            case CutForDeal(player, card):
                return lambda: self._do_cut(player, card)
            case Deal(player, cards):
                return lambda: self._do_deal(player, cards)
            case DealCrib(card):
                return lambda: self._do_deal_crib(card)
            case Discard(player, cards):
                return lambda: self._do_discard(player, cards)
            case TurnStarter(card):
                return lambda: self._do_starter(card)
            case Play(player, card):
                return lambda: self._do_play(player, card)
            case Go(player):
                return lambda: self._do_go(player)
            case Count(player, what, cards):
                return lambda: self._do_show(player, what, None, cards)
            case Claim(player, what, points, cards):
                if what == "play":
                    return lambda: self._do_play_claim(player, points)
                return lambda: self._do_show(player, what, points, cards)
            case Muggins(player):
                return lambda: self._do_muggins(player)
            case PassMuggins():
                return self._do_pass
            case SwitchCounting(counting):
                return lambda: self._do_switch(counting)
            case NextGame():
                return self._do_next_game
        raise IllegalAction(f"{action!r} is not a cribbage action")  # pragma: no cover

    # -- common checks ---------------------------------------------------------------------------
    def _need(self, phase: Phase, doing: str) -> None:
        if self.phase is Phase.GAME_OVER and phase is not Phase.GAME_OVER:
            side = self.winner
            raise IllegalAction(
                f"cannot {doing}: the game is over, won by {self.side_name(side)} with {self.target} "
                "(nothing is scored after the winning peg)"
            )
        if self.phase is not phase:
            raise IllegalAction(f"cannot {doing} {_DURING[self.phase]}: that belongs to the {phase.value}")

    def _need_player(self, player: int) -> None:
        if not isinstance(player, int) or not 0 <= player < self.variant.players:
            raise IllegalAction(
                f"there is no player {player}: this {self.variant.name} game has players "
                f"0 to {self.variant.players - 1}"
            )

    def _need_unseen(self, card: Card, doing: str) -> None:
        where = self.deal_state.seen.get(card)
        if where is not None or card == self.deal_state.starter:
            raise IllegalAction(f"cannot {doing} {card}: it has already been seen in this deal ({where})")

    def _need_distinct(self, cards: Sequence[Card], what: str) -> None:
        if len(set(cards)) != len(cards):
            twice = next(c for c in cards if cards.count(c) > 1)
            raise IllegalAction(f"{twice} is given twice in {what}")

    # -- cut for deal ----------------------------------------------------------------------------
    def verify_cut_for_deal(self, player: int, card: Card) -> None:
        """Refuse a cut out of phase, by a player who has cut already, or of a card already cut."""
        self._need(Phase.CUT_FOR_DEAL, "cut for the deal")
        self._need_player(player)
        if player in self.cuts:
            raise IllegalAction(f"{_who(player)} has already cut {self.cuts[player]} for this deal")
        for other, cut in self.cuts.items():
            if cut == card:
                raise IllegalAction(
                    f"{card} was already cut by {_who(other)}: the same card cannot be cut twice"
                )

    def can_cut_for_deal(self, player: int, card: Card) -> bool:
        """Whether :meth:`cut_for_deal` would accept the cut."""
        return self.can(CutForDeal(player, card))

    def cut_for_deal(self, player: int, card: Card) -> Operation:
        """A player cuts for the deal; once all have cut, the lowest deals (equal cuts cut again)."""
        return self.apply(CutForDeal(player, card))

    def _do_cut(self, player: int, card: Card) -> str:
        self.cuts[player] = card
        note = f"{_who(player)} cuts {card}"
        if len(self.cuts) < self.variant.players:
            return note
        lowest = min(c.pips for c in self.cuts.values())
        low = sorted(p for p, c in self.cuts.items() if c.pips == lowest)
        if len(low) > 1:
            self.cuts = {}
            tens = " (any two ten-cards are equal)" if lowest == 10 else ""
            return f"{note}; equal lowest cuts{tens}: cut again"
        dealer = low[0]
        self.cuts = {}
        self.first_dealer = dealer
        self._open_deal(dealer)
        return f"{note}; {_who(dealer)} cut lowest and deals first"

    # -- the deal --------------------------------------------------------------------------------
    def _open_deal(self, dealer: int) -> None:
        self.dealer = dealer
        self.deal_state = DealState()
        self.phase = Phase.DEAL
        if self.variant.three_for_last:
            pone = (dealer + 1) % self.variant.players
            item = ScoreItem(Kind.THREE_FOR_LAST, (), 3)
            self._peg(pone, 3, "three-for-last", (item,), "three for last to the non-dealer")

    def verify_deal(self, player: int, cards: Sequence[Card] | None = None) -> None:
        """Refuse a deal out of phase, twice to one player, of the wrong number, or of a card seen already."""
        self._need(Phase.DEAL, "deal")
        self._need_player(player)
        if player in self.deal_state.dealt:
            raise IllegalAction(f"{_who(player)} has already been dealt their cards this deal")
        if cards is None:
            return
        cards = tuple(cards)
        if len(cards) != self.variant.dealt:
            raise IllegalAction(
                f"{_who(player)} must be dealt {self.variant.dealt} cards in {self.variant.name} "
                f"cribbage, not {len(cards)}"
            )
        self._need_distinct(cards, "the deal")
        for card in cards:
            self._need_unseen(card, f"deal {_who(player)}")

    def can_deal(self, player: int, cards: Sequence[Card] | None = None) -> bool:
        """Whether :meth:`deal` would accept these cards."""
        return self.can(Deal(player, None if cards is None else tuple(cards)))

    def deal(self, player: int, cards: Sequence[Card] | None = None) -> Operation:
        """Record the cards dealt to ``player`` (``None``: dealt face down, unseen)."""
        return self.apply(Deal(player, None if cards is None else tuple(cards)))

    def _do_deal(self, player: int, cards: tuple[Card, ...] | None) -> str:
        state = self.deal_state
        state.dealt[player] = cards
        if cards is not None:
            state.held[player] = set(cards)
            for card in cards:
                state.seen[card] = f"{_who(player)}'s hand"
        self._maybe_end_deal()
        return f"{self._dealer_name()} deals {_who(player)} " + (
            _cards(cards) if cards is not None else f"{number_word(self.variant.dealt)} cards face down"
        )

    def verify_deal_crib(self, card: Card | None = None) -> None:
        """Refuse a card dealt to the crib except once per deal in the three-player game."""
        self._need(Phase.DEAL, "deal a card to the crib")
        if not self.variant.crib_from_pack:
            raise IllegalAction(f"no card is dealt straight to the crib in {self.variant.name} cribbage")
        if self.deal_state.crib_dealt:
            raise IllegalAction("the crib has already been dealt its card this deal")
        if card is not None:
            self._need_unseen(card, "deal the crib")

    def can_deal_crib(self, card: Card | None = None) -> bool:
        """Whether :meth:`deal_crib` would accept the card."""
        return self.can(DealCrib(card))

    def deal_crib(self, card: Card | None = None) -> Operation:
        """Three players: record the card dealt straight to the crib (``None``: face down)."""
        return self.apply(DealCrib(card))

    def _do_deal_crib(self, card: Card | None) -> str:
        state = self.deal_state
        state.crib_dealt = True
        if card is None:
            state.crib_unknown += 1
        else:
            state.crib_known.append(card)
            state.seen[card] = "the crib"
        self._maybe_end_deal()
        return (
            f"{self._dealer_name()} deals "
            + ("a card face down" if card is None else str(card))
            + " to the crib"
        )

    def _maybe_end_deal(self) -> None:
        state = self.deal_state
        if len(state.dealt) == self.variant.players and (state.crib_dealt or not self.variant.crib_from_pack):
            self.phase = Phase.DISCARD

    def _dealer_name(self) -> str:
        return "the dealer" if self.dealer is None else f"{_who(self.dealer)} (dealer)"

    # -- discards --------------------------------------------------------------------------------
    def verify_discard(self, player: int, cards: Sequence[Card] | None = None) -> None:
        """Refuse a throw out of phase, twice, of the wrong number, or of cards the player does not hold."""
        self._need(Phase.DISCARD, "throw to the crib")
        self._need_player(player)
        state = self.deal_state
        if player in state.discarded:
            raise IllegalAction(f"{_who(player)} has already thrown to the crib this deal")
        if cards is None:
            return
        cards = tuple(cards)
        thrown = self.variant.thrown
        if len(cards) != thrown:
            crib = (
                len(state.crib_known) + state.crib_unknown + sum(self.variant.thrown for _ in state.discarded)
            )
            raise IllegalAction(
                f"{_who(player)} must throw {number_word(thrown)} card{'s' if thrown > 1 else ''} to the "
                f"crib, not {len(cards)} (a crib has four cards; it has {crib} so far)"
            )
        self._need_distinct(cards, "the throw")
        held = state.held.get(player)
        for card in cards:
            if held is not None:
                if card not in held:
                    raise IllegalAction(f"{_who(player)} cannot throw {card}: it is not in their hand")
            else:
                self._need_unseen(card, f"throw for {_who(player)}")

    def can_discard(self, player: int, cards: Sequence[Card] | None = None) -> bool:
        """Whether :meth:`discard` would accept the throw."""
        return self.can(Discard(player, None if cards is None else tuple(cards)))

    def discard(self, player: int, cards: Sequence[Card] | None = None) -> Operation:
        """Record ``player``'s throw to the crib (``None``: thrown face down, unseen)."""
        return self.apply(Discard(player, None if cards is None else tuple(cards)))

    def _do_discard(self, player: int, cards: tuple[Card, ...] | None) -> str:
        state = self.deal_state
        state.discarded[player] = cards
        if cards is None:
            state.crib_unknown += self.variant.thrown
        else:
            state.crib_known.extend(cards)
            for card in cards:
                state.seen[card] = "the crib"
                if player in state.held:
                    state.held[player].discard(card)
        if len(state.discarded) == self.variant.players:
            self.phase = Phase.STARTER
        return (
            f"{_who(player)} throws "
            + (_cards(cards) if cards is not None else f"{number_word(self.variant.thrown)} face down")
            + " to the crib"
        )

    # -- the starter -----------------------------------------------------------------------------
    def verify_turn_starter(self, card: Card) -> None:
        """Refuse a starter out of phase or one already seen in this deal."""
        self._need(Phase.STARTER, "turn the starter")
        self._need_unseen(card, "turn up")

    def can_turn_starter(self, card: Card) -> bool:
        """Whether :meth:`turn_starter` would accept the card."""
        return self.can(TurnStarter(card))

    def turn_starter(self, card: Card) -> Operation:
        """The dealer turns up the starter; a jack pegs two for his heels to the dealer at once."""
        return self.apply(TurnStarter(card))

    def _do_starter(self, card: Card) -> str:
        state = self.deal_state
        dealer = self.dealer
        assert dealer is not None
        state.starter = card
        state.seen[card] = "the starter"
        note = f"the starter is {card}"
        if card.rank.text == "J":
            self._peg(dealer, 2, "heels", (ScoreItem(Kind.HEELS, (card,), 2),), "two for his heels")
            note += f": two for his heels to {_who(dealer)}"
        if not self.over:
            self.phase = Phase.PLAY
            state.pegging = Pegging(
                self.variant.players, (dealer + 1) % self.variant.players, hand_size=self.variant.hand_size
            )
            state.played_by = {p: [] for p in range(self.variant.players)}
        return note

    # -- the play --------------------------------------------------------------------------------
    def _pegging(self) -> Pegging:
        pegging = self.deal_state.pegging
        assert pegging is not None
        return pegging

    def verify_play(self, player: int, card: Card) -> None:
        """Refuse a card out of turn, past 31, not held, or already seen elsewhere in this deal."""
        self._need(Phase.PLAY, "lay a card")
        self._need_player(player)
        pegging = self._pegging()
        pegging.verify_play(player, card)
        held = self.deal_state.held.get(player)
        if held is not None:
            if card not in held:
                raise IllegalPlay(f"{_who(player)} does not hold {card}")
        else:
            self._need_unseen(card, f"lay for {_who(player)}")

    def can_play(self, player: int, card: Card) -> bool:
        """Whether :meth:`play` would accept the card."""
        return self.can(Play(player, card))

    def play(self, player: int, card: Card) -> Operation:
        """``player`` lays ``card`` and pegs what it makes (or, when players claim, may claim it)."""
        return self.apply(Play(player, card))

    def _do_play(self, player: int, card: Card) -> str:
        state = self.deal_state
        peg = self._pegging().play(player, card)
        state.seen[card] = f"laid by {_who(player)}"
        state.held.get(player, set()).discard(card)
        state.played_by[player].append(card)
        said = peg.explain()
        note = f"{_who(player)} lays {card}: {said}"
        self._score_play(peg.scorer, peg.items, said)
        self._maybe_end_play()
        return note

    def verify_go(self, player: int) -> None:
        """Refuse a go out of turn, at the start of a count, or by one seen to hold a card that fits."""
        self._need(Phase.PLAY, "say go")
        self._need_player(player)
        pegging = self._pegging()
        pegging.verify_go(player)
        held = self.deal_state.held.get(player)
        if held:
            fits = sorted(c for c in held if pegging.count + c.pips <= 31)
            if fits:
                raise IllegalPlay(f"{_who(player)} cannot say go: {fits[0]} fits under 31")

    def can_go(self, player: int) -> bool:
        """Whether :meth:`go` would accept the go."""
        return self.can(Go(player))

    def go(self, player: int) -> Operation:
        """``player`` says go; if nobody can lay, the last to lay pegs one for the go."""
        return self.apply(Go(player))

    def _do_go(self, player: int) -> str:
        peg = self._pegging().go(player)
        note = f"{_who(player)} says go"
        if peg.items:
            note += f"; one for the go to {_who(peg.scorer)}"
        self._score_play(peg.scorer, peg.items, "one for the go" if peg.items else "")
        self._maybe_end_play()
        return note

    def _score_play(self, scorer: int, items: tuple[ScoreItem, ...], explanation: str) -> None:
        total = sum(i.points for i in items)
        if not total:
            return
        if self.counting is Counting.CLAIMS:
            self.pending = PlayToClaim(scorer, items, explanation)
            return
        self._peg(scorer, total, "play", items, explanation)

    def _maybe_end_play(self) -> None:
        if not self.over and self._pegging().done:
            self.phase = Phase.SHOW
            self.deal_state.show_step = 0

    def _settle_unclaimed(self) -> None:
        """A play score not claimed before the next action is lost (and open to muggins in the play)."""
        pending = self.pending
        if pending is None:
            return
        self.pending = None
        total = sum(i.points for i in pending.items)
        if self.settings.muggins and self.settings.muggins_in_play:
            self.offer = MugginsOffer(
                len(self._log) + 1,
                pending.player,
                "play",
                total,
                pending.items,
                f"{_who(pending.player)} did not claim {pending.explanation}",
            )

    # -- claims in the play ----------------------------------------------------------------------
    def verify_claim(self, player: int, what: str, points: int, cards: Sequence[Card] | None = None) -> None:
        """Refuse a claim out of turn, when the engine counts, for something unknown, or impossibly high."""
        self._need_player(player)
        if what not in _WHATS:
            raise IllegalAction(f"a claim is for the hand, the crib or the play, not {what!r}")
        if self.counting is not Counting.CLAIMS:
            raise IllegalAction(
                "the companion counts every score in this game: nobody claims (switch to claims)"
            )
        if not isinstance(points, int) or points < 0:
            raise IllegalAction(f"a claim is a number of points, 0 or more, not {points!r}")
        if what == "play":
            if self.pending is None or self.phase is Phase.GAME_OVER:
                raise IllegalAction(
                    f"{_who(player)} has nothing to claim in the play: the last card scored nothing"
                )
            if self.pending.player != player:
                raise IllegalAction(
                    f"only {_who(self.pending.player)} can claim for the last card, not {_who(player)}"
                )
            if points > MAX_PLAY:
                raise IllegalAction(f"no card in the play can score {points}: the most is {MAX_PLAY}")
            if cards:
                raise IllegalAction("a claim in the play names no cards: the cards are on the table")
            return
        self._verify_show(player, what, cards, doing=f"claim for the {what}")
        most = MAX_HAND[self.variant.hand_size] if what == "hand" else MAX_HAND[4]
        if points > most:
            raise IllegalAction(f"no {what} can score {points}: the most a {what} can score is {most}")

    def can_claim(self, player: int, what: str, points: int, cards: Sequence[Card] | None = None) -> bool:
        """Whether :meth:`claim` would accept the claim."""
        return self.can(Claim(player, what, points, None if cards is None else tuple(cards)))

    def claim(self, player: int, what: str, points: int, cards: Sequence[Card] | None = None) -> Operation:
        """``player`` claims ``points`` for their hand, the crib or their last card in the play."""
        return self.apply(Claim(player, what, points, None if cards is None else tuple(cards)))

    def _do_play_claim(self, player: int, points: int) -> str:
        pending = self.pending
        assert pending is not None
        self.pending = None
        return self._judge(player, "play", points, pending.items, pending.explanation)

    def _judge(
        self, player: int, what: str, claimed: int, items: tuple[ScoreItem, ...], explanation: str
    ) -> str:
        """Peg a claim against the true count; open muggins or hand over the excess as the settings say."""
        true = sum(i.points for i in items)
        the = "the play" if what == "play" else f"the {what}"
        note = f"{_who(player)} claims {claimed} for {the}; the true count is {true}"
        if explanation and true:
            note += f" ({explanation})"
        if claimed == true:
            self._peg(player, true, what, items, explanation)
            return note
        if claimed < true:
            self._peg(player, claimed, what, items, f"{explanation} (claimed {claimed} of {true})")
            muggins = self.settings.muggins and (what != "play" or self.settings.muggins_in_play)
            if muggins and not self.over:
                self.offer = MugginsOffer(
                    len(self._log) + 1,
                    player,
                    what,
                    true - claimed,
                    items,
                    f"{_who(player)} claimed {claimed} of {true}: {explanation}",
                )
                return note + f"; {true - claimed} left behind: muggins may be called"
            return note + f"; {true - claimed} left behind and lost"
        self._peg(player, true, what, items, f"{explanation} (claimed {claimed}, corrected to {true})")
        excess = claimed - true
        if self.settings.over_claim is OverClaim.OPPONENT_TAKES and not self.over:
            taker = (player + 1) % self.variant.players
            self._peg(taker, excess, "over-claim", (), f"{excess} over-claimed by {_who(player)}")
            return note + f"; corrected, and {_who(taker)} takes the {excess} over-claimed"
        return note + f"; corrected to {true}"

    # -- the show --------------------------------------------------------------------------------
    def show_order(self) -> tuple[tuple[int, str], ...]:
        """The show of this deal: each hand from the dealer's left round to the dealer, then the crib."""
        if self.dealer is None:
            return ()
        n = self.variant.players
        hands = tuple(((self.dealer + step) % n, "hand") for step in range(1, n + 1))
        return (*hands, (self.dealer, "crib"))

    def _show_next(self) -> tuple[int, str] | None:
        if self.phase is not Phase.SHOW:
            return None
        return self.show_order()[self.deal_state.show_step]

    def _verify_show(self, player: int, what: str, cards: Sequence[Card] | None, doing: str) -> None:
        self._need(Phase.SHOW, doing)
        expected = self._show_next()
        assert expected is not None
        who, shown = expected
        if (player, what) != expected:
            raise IllegalAction(
                f"{_who(player)} cannot {doing} now: next in the show is {_who(who)}'s {shown} "
                "(the non-dealer's hand, then the dealer's, then the crib)"
            )
        if what == "hand":
            hand = self.deal_state.played_by[player]
            if cards is not None and set(cards) != set(hand):
                raise IllegalAction(
                    f"{_who(player)} laid {_cards(hand)} in the play, so cannot show {_cards(cards)}"
                )
            return
        state = self.deal_state
        if cards is None:
            if state.crib_unknown:
                raise IllegalAction("the crib was thrown face down: give its four cards to count it")
            return
        cards = tuple(cards)
        if len(cards) != 4:
            raise IllegalAction(f"a crib has four cards, not {len(cards)}")
        self._need_distinct(cards, "the crib")
        missing = [c for c in state.crib_known if c not in cards]
        if missing:
            raise IllegalAction(f"{missing[0]} went into the crib, so it must be among the crib shown")
        for card in cards:
            if card not in state.crib_known:
                if not state.crib_unknown:
                    raise IllegalAction(f"{card} is not in the crib: it holds {_cards(state.crib_known)}")
                self._need_unseen(card, "show in the crib")

    def verify_count(self, player: int, what: str, cards: Sequence[Card] | None = None) -> None:
        """Refuse a count out of order or when players claim their own counts."""
        self._need_player(player)
        if what not in ("hand", "crib"):
            raise IllegalAction(f"the show counts a hand or the crib, not {what!r}")
        if self.counting is not Counting.AUTO:
            self._need(Phase.SHOW, f"count the {what}")
            raise IllegalAction(f"players claim their own counts in this game: {_who(player)} must claim")
        self._verify_show(player, what, cards, doing=f"count the {what}")

    def can_count(self, player: int, what: str, cards: Sequence[Card] | None = None) -> bool:
        """Whether :meth:`count` would accept it."""
        return self.can(Count(player, what, None if cards is None else tuple(cards)))

    def count(self, player: int, what: str, cards: Sequence[Card] | None = None) -> Operation:
        """Show and count ``player``'s hand or the crib with the starter, and peg the true count."""
        return self.apply(Count(player, what, None if cards is None else tuple(cards)))

    def _do_show(self, player: int, what: str, claimed: int | None, cards: tuple[Card, ...] | None) -> str:
        state = self.deal_state
        starter = state.starter
        assert starter is not None
        if what == "hand":
            hand = tuple(state.played_by[player])
        else:
            hand = cards if cards is not None else tuple(state.crib_known)
            for card in hand:
                if card not in state.crib_known:
                    state.crib_known.append(card)
                    state.seen[card] = "the crib"
            state.crib_unknown = 0
        shown = score_hand(hand, starter, crib=what == "crib")
        explanation = shown.explain()
        state.show_step += 1
        if claimed is None:
            whose = "the crib" if what == "crib" else "their hand"
            note = f"{_who(player)} shows {whose} {_cards(hand)} with {starter}: {explanation}"
            self._peg(player, shown.total, what, shown.items, explanation)
        else:
            note = self._judge(player, what, claimed, shown.items, explanation)
        if not self.over and state.show_step == len(self.show_order()):
            assert self.dealer is not None
            self._open_deal((self.dealer + 1) % self.variant.players)
        return note

    # -- muggins ---------------------------------------------------------------------------------
    def verify_muggins(self, player: int) -> None:
        """Refuse a muggins call with nothing left behind, or from the player who left it."""
        self._need_player(player)
        offer = self.offer
        if offer is None:
            if not self.settings.muggins:
                raise IllegalAction("muggins is not played at this table")
            raise IllegalAction(
                "there is nothing to call muggins on: the last count claimed every point it was worth"
            )
        if self.side_of(player) == self.side_of(offer.against):
            raise IllegalAction(
                f"{_who(player)} cannot call muggins on their own side's count: only an opponent pegs "
                "the points left behind"
            )

    def can_muggins(self, player: int) -> bool:
        """Whether :meth:`muggins` would accept the call."""
        return self.can(Muggins(player))

    def muggins(self, player: int) -> Operation:
        """``player`` calls muggins and pegs the points the opponent left behind."""
        return self.apply(Muggins(player))

    def _do_muggins(self, player: int) -> str:
        offer = self.offer
        assert offer is not None
        self.offer = None
        self._peg(player, offer.points, "muggins", offer.items, offer.explanation)
        return f"{_who(player)} calls muggins and pegs the {offer.points} {_who(offer.against)} left behind"

    def verify_pass_muggins(self) -> None:
        """Refuse a pass when no muggins can be called."""
        if self.offer is None:
            raise IllegalAction("there is no muggins to pass")

    def can_pass_muggins(self) -> bool:
        """Whether a muggins offer is open."""
        return self.offer is not None

    def pass_muggins(self) -> Operation:
        """Let the chance to call muggins pass (the table's timer ran out)."""
        return self.apply(PassMuggins())

    def _do_pass(self) -> str:
        offer = self.offer
        assert offer is not None
        self.offer = None
        return f"nobody calls muggins: the {offer.points} {_who(offer.against)} left behind are lost"

    # -- counting mode ---------------------------------------------------------------------------
    def verify_switch_counting(self, counting: Counting) -> None:
        """Refuse a switch to the mode already in force."""
        if not isinstance(counting, Counting):
            raise IllegalAction(f"counting is 'auto' or 'claims', not {counting!r}")
        if counting is self.counting:
            raise IllegalAction(f"counting is already {counting.value}")

    def can_switch_counting(self, counting: Counting) -> bool:
        """Whether :meth:`switch_counting` would accept it."""
        return self.can(SwitchCounting(counting))

    def switch_counting(self, counting: Counting | str) -> Operation:
        """Switch between automatic counting and players claiming (a play score pending is pegged in full)."""
        mode = counting if isinstance(counting, Counting) else Counting(counting)
        return self.apply(SwitchCounting(mode))

    def _do_switch(self, counting: Counting) -> str:
        self.counting = counting
        pending = self.pending
        if counting is Counting.AUTO and pending is not None:
            self.pending = None
            self._peg(
                pending.player,
                sum(i.points for i in pending.items),
                "play",
                pending.items,
                pending.explanation,
            )
        return (
            "the companion counts from now on" if counting is Counting.AUTO else "players claim from now on"
        )

    # -- the match -------------------------------------------------------------------------------
    def verify_next_game(self) -> None:
        """Refuse a new game while one is in progress or once the match is decided."""
        if self.phase is not Phase.GAME_OVER:
            raise IllegalAction(f"cannot start the next game {_DURING[self.phase]}: finish this one first")
        winner = self.match_winner
        if winner is not None:
            raise IllegalAction(
                f"the match is over: {self.side_name(winner)} won {self.match_wins[winner]} of "
                f"{self.settings.match_games} games"
            )

    def can_next_game(self) -> bool:
        """Whether the match goes on to another game."""
        return self.can(NextGame())

    def next_game(self) -> Operation:
        """Start the next game; its first deal follows the match rule (alternate, decider cut, or loser)."""
        return self.apply(NextGame())

    def _do_next_game(self) -> str:
        last = self.games[-1]
        n = self.variant.players
        self.game_number += 1
        needed = self.settings.wins_needed
        if self.settings.first_deal is FirstDeal.LOSER:
            losers = [s for s in range(self.variant.tracks) if s != last.winner]
            loser_side = min(losers, key=lambda s: last.scores[s])
            dealer = next(
                (last.first_dealer + step) % n
                for step in range(1, n + 1)
                if self.side_of((last.first_dealer + step) % n) == loser_side
            )
            self._start_game(dealer)
            return f"game {self.game_number}: {_who(dealer)} lost the last game and deals first"
        decider = all(w == needed - 1 for w in self.match_wins)
        if decider:
            self._start_game(None)
            return f"game {self.game_number}, the decider: a fresh cut for the deal"
        dealer = (last.first_dealer + 1) % n
        self._start_game(dealer)
        return f"game {self.game_number}: first box alternates, {_who(dealer)} deals first"

    # -- pegging ---------------------------------------------------------------------------------
    def _peg(
        self, player: int, points: int, reason: str, items: tuple[ScoreItem, ...], explanation: str
    ) -> None:
        """Move the side's pegs: the rear peg jumps ahead of the forward one; a win stops in the game hole."""
        if self.over or points <= 0:
            return
        side = self.side_of(player)
        before = self.scores[side]
        credited = min(points, self.target - before)
        self.rear[side] = before
        self.scores[side] = before + credited
        self._scored.append(
            Scoring(player, side, credited, reason, items, explanation, before, self.scores[side])
        )
        if self.scores[side] >= self.target:
            self._win(side)

    def _win(self, side: int) -> None:
        self.winner = side
        self.phase = Phase.GAME_OVER
        self.pending = None
        self.offer = None
        skunk_line, double_line = self.settings.skunk
        best_loser = max(s for i, s in enumerate(self.scores) if i != side)
        if double_line is not None and best_loser < double_line:
            self.skunk = "double-skunk"
        elif best_loser < skunk_line:
            self.skunk = "skunk"
        self.match_wins[side] += 1
        assert self.first_dealer is not None
        self.games.append(
            GameResult(self.game_number, side, tuple(self.scores), self.skunk, self.first_dealer)
        )

    # -- what the table shows --------------------------------------------------------------------
    def turn(self) -> int | None:
        """The player to act next: the dealer to turn the starter, the player to lay, the player to show.

        A play score waiting to be claimed does not change it (see :attr:`Snapshot.pending_claim`).
        """
        if self.phase is Phase.STARTER:
            return self.dealer
        if self.phase is Phase.PLAY:
            return self._pegging().turn
        nxt = self._show_next()
        return None if nxt is None else nxt[0]

    def expects(self) -> tuple[str, ...]:
        """Names of the kinds of action the game accepts now (as in the notation: "play", "go", ...)."""
        names: list[str] = []
        if self.offer is not None:
            names += ["muggins", "pass"]
        if self.pending is not None:
            names.append("claim")
        phase = self.phase
        if phase is Phase.CUT_FOR_DEAL:
            names.append("cut")
        elif phase is Phase.DEAL:
            names.append("deal")
            if self.variant.crib_from_pack and not self.deal_state.crib_dealt:
                names.append("deal-crib")
        elif phase is Phase.DISCARD:
            names.append("discard")
        elif phase is Phase.STARTER:
            names.append("starter")
        elif phase is Phase.PLAY:
            names += ["play", "go"]
        elif phase is Phase.SHOW:
            names.append("count" if self.counting is Counting.AUTO else "claim")
        elif self.match_winner is None:
            names.append("next-game")
        return tuple(dict.fromkeys(names))

    def waiting_for(self) -> str:
        """A sentence saying what the game waits for next."""
        if self.offer is not None:
            lead = f"muggins may be called on {_who(self.offer.against)}'s {self.offer.points}; "
        else:
            lead = ""
        return lead + self._waiting()

    def _waiting(self) -> str:
        state = self.deal_state
        if self.phase is Phase.CUT_FOR_DEAL:
            left = [p for p in range(self.variant.players) if p not in self.cuts]
            return "cut for the deal: " + ", ".join(_who(p) for p in left)
        if self.phase is Phase.DEAL:
            left = [p for p in range(self.variant.players) if p not in state.dealt]
            parts = [_who(p) for p in left]
            if self.variant.crib_from_pack and not state.crib_dealt:
                parts.append("the crib")
            return f"{self._dealer_name()} to deal to " + ", ".join(parts)
        if self.phase is Phase.DISCARD:
            left = [p for p in range(self.variant.players) if p not in state.discarded]
            return "to throw to the crib: " + ", ".join(_who(p) for p in left)
        if self.phase is Phase.STARTER:
            return f"{self._dealer_name()} to turn the starter"
        if self.pending is not None:
            return f"{_who(self.pending.player)} to claim for the play (or play on)"
        if self.phase is Phase.PLAY:
            return f"{_who(self._pegging().turn)} to lay a card or say go (count {self._pegging().count})"
        if self.phase is Phase.SHOW:
            player, what = self.show_order()[state.show_step]
            verb = "claim" if self.counting is Counting.CLAIMS else "show"
            return f"{_who(player)} to {verb} the {what}"
        if self.match_winner is not None:
            return f"the match is over: {self.side_name(self.match_winner)} won"
        return f"{self.side_name(self.winner)} won game {self.game_number}; next game of the match"

    def snapshot(self) -> Snapshot:
        """A frozen picture of the game for the board and the scoreboard."""
        state = self.deal_state
        pegging = state.pegging
        in_play = pegging is not None and self.phase in (Phase.PLAY, Phase.SHOW, Phase.GAME_OVER)
        pending = None if self.pending is None else PendingClaim(self.pending.player, "play")
        if pending is None and self.phase is Phase.SHOW and self.counting is Counting.CLAIMS:
            nxt = self._show_next()
            assert nxt is not None
            pending = PendingClaim(*nxt)
        count_cards: tuple[tuple[int, Card], ...] = ()
        deal_cards: tuple[tuple[int, Card], ...] = ()
        if in_play and pegging is not None:
            deal_cards = tuple(pegging.played)
            count_cards = deal_cards[len(deal_cards) - len(pegging.laid) :] if pegging.laid else ()
        return Snapshot(
            serial=len(self._log),
            variant=self.variant.name,
            players=self.variant.players,
            tracks=self.variant.tracks,
            needs_three_tracks=self.variant.needs_three_tracks,
            sides=tuple(self.variant.players_on(s) for s in range(self.variant.tracks)),
            target=self.target,
            counting=self.counting,
            phase=self.phase,
            game_number=self.game_number,
            dealer=self.dealer,
            pone=self.pone,
            turn=self.turn(),
            waiting_for=self.waiting_for(),
            scores=tuple(self.scores),
            pegs=tuple(PegPosition(r, f) for r, f in zip(self.rear, self.scores, strict=True)),
            count=pegging.count if in_play and pegging is not None else 0,
            count_cards=count_cards,
            deal_cards=deal_cards,
            starter=state.starter,
            crib=tuple(state.crib_known),
            cuts=tuple(sorted(self.cuts.items())),
            show_next=self._show_next(),
            last_scores=self.last_scores,
            last_note=self.last_note,
            pending_claim=pending,
            muggins_offer=self.offer,
            winner=self.winner,
            skunk=self.skunk,
            match_wins=tuple(self.match_wins),
            match_winner=self.match_winner,
            games=tuple(self.games),
            expects=self.expects(),
        )


#: The attributes that make up the state; undo copies them from a replayed game.
_STATE: Final = (
    "_log",
    "counting",
    "match_wins",
    "games",
    "game_number",
    "scores",
    "rear",
    "winner",
    "skunk",
    "cuts",
    "dealer",
    "first_dealer",
    "deal_state",
    "pending",
    "offer",
    "last_scores",
    "last_note",
    "_scored",
    "phase",
)
