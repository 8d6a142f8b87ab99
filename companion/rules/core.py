"""The engine's core: the state of a game, the checks every action shares, and pegging.

:class:`GameCore` holds everything that is the game (scores, pegs, the deal in progress, the match) as
plain attributes set in :meth:`GameCore.__init__` and :meth:`GameCore._start_game`; the game's actions
are added by :class:`~companion.rules.dealing.Dealing` and :class:`~companion.rules.showing.Showing`, and
:class:`~companion.rules.game.Game` puts them together with the log, groups and undo.  Undo needs no list
of these attributes: it keeps a copy of every instance attribute except the few fixed at creation
(:data:`FIXED`), so an attribute added here is taken back by undo without anyone remembering to.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence
from dataclasses import replace
from enum import Enum
from typing import Any, Final

from companion.cards import Card
from companion.rules.actions import Action
from companion.rules.errors import IllegalAction, RulesError
from companion.rules.items import Kind, ScoreItem
from companion.rules.play import Pegging
from companion.rules.records import DealState, GameResult, MugginsOffer, Operation, PlayToClaim, Scoring
from companion.rules.settings import Counting, OverClaim, Phase, Settings
from companion.rules.variants import Variant, variant_named

__all__ = [
    "CHECKPOINT",
    "DURING",
    "FIXED",
    "MAX_HAND",
    "MAX_PLAY",
    "GameCore",
    "card_list",
    "copy_state",
    "who",
]

#: The most a hand can score in the show: 29 with four cards; with three (five-card cribbage) 20.
MAX_HAND: Final = {4: 29, 3: 20}
#: The most one card can peg in the play: a double pair royal making fifteen, and the last card.
MAX_PLAY: Final = 15
#: Undo keeps a copy of the state before every CHECKPOINT-th group of actions and does the groups since
#: again: copying the state at every action would make every action slower for the rare undo.
CHECKPOINT: Final = 8
#: Attributes that are not the game's state: fixed at creation, or the log and the undo history.
FIXED: Final = frozenset({"settings", "variant", "target", "_log", "_groups"})

DURING: Final = {
    Phase.CUT_FOR_DEAL: "while the players cut for the deal",
    Phase.DEAL: "during the deal",
    Phase.DISCARD: "while the players throw to the crib",
    Phase.STARTER: "while the starter is waited for",
    Phase.PLAY: "during the play",
    Phase.SHOW: "during the show",
    Phase.GAME_OVER: "once the game is over",
}


def copy_state(value: Any) -> Any:
    """A copy of ``value`` that shares what cannot change and copies what can.

    Frozen values (enums, numbers, text, tuples, frozen dataclasses such as cards and score records)
    are shared; lists, dicts, sets and plain mutable objects (the deal in progress, the play's
    :class:`Pegging`) are copied all the way down.  Much cheaper than :func:`copy.deepcopy`, which would
    copy every card and every record; the game keeps one such copy per group of actions for undo.
    """
    kind = type(value)
    if kind in _SHARED:
        return value
    if kind is list:
        return [item if type(item) in _SHARED else copy_state(item) for item in value]
    if kind is dict:
        return {key: item if type(item) in _SHARED else copy_state(item) for key, item in value.items()}
    if kind is set:
        return set(value)  # members are hashable, so frozen
    params = getattr(kind, "__dataclass_params__", None)
    if isinstance(value, Enum) or (params is not None and params.frozen):
        _SHARED.add(kind)
        return value
    copied = object.__new__(kind)
    if hasattr(value, "__dict__"):
        copied.__dict__.update({key: copy_state(item) for key, item in vars(value).items()})
        return copied
    slots = getattr(kind, "__slots__", None)
    if slots is None:  # pragma: no cover - every kind the state holds is handled above
        return copy.deepcopy(value)
    for name in slots:
        setattr(copied, name, copy_state(getattr(value, name)))
    return copied


#: Kinds shared by :func:`copy_state` (it adds each frozen dataclass and enum it meets).
_SHARED: set[type] = {int, str, bool, float, type(None), tuple, frozenset}


def who(player: int) -> str:
    """A player as the engine's sentences name them."""
    return f"player {player}"


def card_list(cards: Iterable[Card]) -> str:
    """Cards as canonical text, space-separated."""
    return " ".join(str(c) for c in cards)


class GameCore:
    """The state of a cribbage game or match and what every action shares (see :class:`Game`)."""

    def verify(self, action: Action) -> None:
        """Raise a :class:`RulesError` with a sentence if ``action`` is not allowed now."""
        raise NotImplementedError  # pragma: no cover - Game dispatches to each action's check

    def apply(self, action: Action) -> Operation:
        """Do ``action`` (after verifying it) and return its operation record."""
        raise NotImplementedError  # pragma: no cover - Game does it

    def can(self, action: Action) -> bool:
        """Whether :meth:`apply` would accept ``action``."""
        try:
            self.verify(action)
        except RulesError:
            return False
        return True

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
        #: Per group of actions done together: where it starts in the log, and (at each checkpoint) the
        #: state before it.
        self._groups: list[tuple[int, dict[str, object] | None]] = []
        self.counting = settings.counting
        self.match_wins = [0] * self.variant.tracks
        self.games: list[GameResult] = []
        self.game_number = 1
        self._start_game(dealer=None)

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
            self._open_deal(dealer, first=True)

    @property
    def log(self) -> tuple[Operation, ...]:
        """Every action done so far, in order."""
        return tuple(self._log)

    @property
    def actions(self) -> tuple[Action, ...]:
        """The actions of the log, less those the engine did by itself: enough to rebuild the game with
        :meth:`replay` under the same settings."""
        return tuple(op.action for op in self._log if not op.automatic)

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
            return who(players[0])
        return "players " + " and ".join(str(p) for p in players)

    def _need(self, phase: Phase, doing: str) -> None:
        if self.phase is Phase.GAME_OVER and phase is not Phase.GAME_OVER:
            side = self.winner
            raise IllegalAction(
                f"cannot {doing}: the game is over, won by {self.side_name(side)} with {self.target} "
                "(nothing is scored after the winning peg)"
            )
        if self.phase is not phase:
            raise IllegalAction(f"cannot {doing} {DURING[self.phase]}: that belongs to the {phase.value}")

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

    def _open_deal(self, dealer: int, *, first: bool = False) -> None:
        """Open a deal; the first of a game gives the five-card game's three for last (Hoyle: "the
        non-dealer at the commencement of the game ... scores 3 points"), once, not every deal."""
        self.dealer = dealer
        self.deal_state = DealState()
        self.phase = Phase.DEAL
        if first and self.variant.three_for_last:
            pone = (dealer + 1) % self.variant.players
            item = ScoreItem(Kind.THREE_FOR_LAST, (), 3)
            self._peg(pone, 3, "three-for-last", (item,), "three for last to the non-dealer")

    def _dealer_name(self) -> str:
        return "the dealer" if self.dealer is None else f"{who(self.dealer)} (dealer)"

    def _pegging(self) -> Pegging:
        pegging = self.deal_state.pegging
        assert pegging is not None
        return pegging

    def _score_play(self, scorer: int, items: tuple[ScoreItem, ...], explanation: str) -> None:
        total = sum(i.points for i in items)
        if not total:
            return
        if self.counting is Counting.CLAIMS:
            self.pending = PlayToClaim(scorer, items, explanation)
            return
        self._peg(scorer, total, "play", items, explanation)

    def kept_back(self, player: int) -> int:
        """How many cards ``player`` still held when the play ended (only a one-count play leaves any)."""
        pegging = self.deal_state.pegging
        return 0 if pegging is None else pegging.cards_left(player)

    def shown_hand(self, player: int) -> tuple[Card, ...] | None:
        """The hand ``player`` shows: the cards laid in the play and any kept back, or None while the
        engine does not know the cards kept back (dealt face down: they must be given to count it)."""
        state = self.deal_state
        laid = tuple(state.played_by.get(player, ()))
        kept = self.kept_back(player)
        if not kept:
            return laid
        held = state.held.get(player)
        if held is None or len(held) != kept:  # unseen, or some of them went face down to the crib
            return None
        return (*laid, *sorted(held))

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
                f"{who(pending.player)} did not claim {pending.explanation}",
            )

    def _judge(
        self, player: int, what: str, claimed: int, items: tuple[ScoreItem, ...], explanation: str
    ) -> str:
        """Peg a claim against the true count; open muggins or hand over the excess as the settings say."""
        true = sum(i.points for i in items)
        the = "the play" if what == "play" else f"the {what}"
        note = f"{who(player)} claims {claimed} for {the}; the true count is {true}"
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
                    f"{who(player)} claimed {claimed} of {true}: {explanation}",
                )
                return note + f"; {true - claimed} left behind: muggins may be called"
            return note + f"; {true - claimed} left behind and lost"
        self._peg(player, true, what, items, f"{explanation} (claimed {claimed}, corrected to {true})")
        excess = claimed - true
        if self.settings.over_claim is OverClaim.OPPONENT_TAKES and not self.over:
            taker = (player + 1) % self.variant.players
            self._peg(taker, excess, "over-claim", (), f"{excess} over-claimed by {who(player)}")
            return note + f"; corrected, and {who(taker)} takes the {excess} over-claimed"
        return note + f"; corrected to {true}"

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
        self.match_wins[side] += 2 if self.skunk and self.settings.skunk_double_win else 1
        assert self.first_dealer is not None
        self.games.append(
            GameResult(self.game_number, side, tuple(self.scores), self.skunk, self.first_dealer)
        )
