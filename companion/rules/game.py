"""A game (or a best-of-three match) of cribbage, from the cut for deal to the last peg.

The engine is in five modules, one idea each: :mod:`~companion.rules.settings` (the phases and the
house rules), :mod:`~companion.rules.actions` (what happens at the table, with its JSON both ways),
:mod:`~companion.rules.records` (what each action did, and the snapshot), and the engine itself:
:mod:`~companion.rules.core` (state, shared checks, pegging), :mod:`~companion.rules.dealing` and
:mod:`~companion.rules.showing` (the actions), and this module, which puts them together with the log,
groups and undo.  Every public name is importable from here.

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
score) with ``to_dict()`` for JSON.  :meth:`Game.replay` rebuilds a game from its actions.

Groups and undo: :meth:`Game.apply_group` does several actions as one (a play and the goes said before
it): all of them or, if one is refused, none, with that action's error raised.  :meth:`Game.undo_group`
(or :meth:`Game.undo`) takes back the last group, pegs included, in the same time however long the game
has run: the state before each group is kept, not rebuilt by replaying the log.

Automations are settings, as the counting is: with ``Settings(auto_show=True)`` and automatic counting
the engine shows each hand as soon as the play ends, and the crib once its four cards are known (a crib
thrown face down waits for ``count(dealer, "crib", cards)``).  What it does by itself joins the group of
the action that caused it and is marked ``automatic`` in the log.

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

from companion.cards import Card
from companion.rules.actions import (
    Action,
    Claim,
    Count,
    CutForDeal,
    Deal,
    DealCrib,
    Discard,
    Go,
    Muggins,
    NextGame,
    PassMuggins,
    Play,
    SwitchCounting,
    TurnStarter,
    action_from_dict,
    action_to_dict,
)
from companion.rules.core import CHECKPOINT, FIXED, MAX_HAND, MAX_PLAY, copy_state, who
from companion.rules.dealing import Dealing
from companion.rules.errors import IllegalAction
from companion.rules.items import number_word
from companion.rules.records import (
    DealState,
    GameResult,
    MugginsOffer,
    Operation,
    PegPosition,
    PendingClaim,
    PlayToClaim,
    Scoring,
    Snapshot,
)
from companion.rules.settings import Counting, FirstDeal, OverClaim, Phase, Settings
from companion.rules.showing import Showing

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
    "action_from_dict",
    "action_to_dict",
]


class Game(Dealing, Showing):
    """The state machine of a cribbage game or match.  See the module docstring for how to drive it."""

    @classmethod
    def replay(cls, actions: Iterable[Action], settings: Settings | None = None) -> Game:
        """A new game with ``actions`` done in order (each verified as it is done)."""
        game = cls(settings)
        for action in actions:
            game.apply(action)
        return game

    # -- doing and undoing -----------------------------------------------------------------------
    def verify(self, action: Action) -> None:
        """Raise a :class:`RulesError` with a sentence if ``action`` is not allowed now."""
        match action:
            case CutForDeal(player, card):
                self.verify_cut_for_deal(player, card)
            case Deal(player, cards):
                self.verify_deal(player, cards)
            case DealCrib(card):
                self.verify_deal_crib(card)
            case Discard(player, cards):
                self.verify_discard(player, cards)
            case TurnStarter(card):
                self.verify_turn_starter(card)
            case Play(player, card):
                self.verify_play(player, card)
            case Go(player):
                self.verify_go(player)
            case Count(player, what, cards):
                self.verify_count(player, what, cards)
            case Claim(player, what, points, cards):
                self.verify_claim(player, what, points, cards)
            case Muggins(player):
                self.verify_muggins(player)
            case PassMuggins():
                self.verify_pass_muggins()
            case SwitchCounting(counting):
                self.verify_switch_counting(counting)
            case NextGame():
                self.verify_next_game()
            case _:  # pragma: no cover - the type admits nothing else
                raise IllegalAction(f"{action!r} is not a cribbage action")

    def apply(self, action: Action) -> Operation:
        """Do ``action`` (after verifying it) as a group of its own; return its operation record.

        What the engine then does by itself (the automatic show) joins the same group.
        """
        return self.apply_group((action,))[0]

    def apply_group(self, actions: Sequence[Action]) -> tuple[Operation, ...]:
        """Do ``actions`` in order as one group: all of them, or none if one is refused.

        The refused action's :class:`RulesError` is raised and the game is left exactly as it was.
        Returns the group's operations (the actions given, then any the engine did by itself).
        """
        actions = tuple(actions)
        if not actions:
            raise IllegalAction("a group of actions needs at least one action")
        self.verify(actions[0])  # the common refusal changes nothing and costs nothing to take back
        before = self._state() if len(self._groups) % CHECKPOINT == 0 else None
        start = len(self._log)
        try:
            for index, action in enumerate(actions):
                if index:
                    self.verify(action)
                self._do(action, automatic=False)
                self._automate()
        except BaseException:
            del self._log[start:]
            if before is not None:
                self._restore(before)
            else:
                self._rewind(len(self._groups))
            raise
        self._groups.append((start, before))
        return tuple(self._log[start:])

    def undo_group(self) -> tuple[Operation, ...]:
        """Take back the last group of actions (pegs included) and return its operations.

        The state is put back from the one kept at the last checkpoint, at most :data:`CHECKPOINT`
        groups back, so this costs the same however long the game has run.
        """
        self.verify_undo()
        start, _ = self._groups[-1]
        undone = tuple(self._log[start:])
        self._rewind(len(self._groups) - 1)
        return undone

    def undo(self) -> Operation:
        """Take back the last group (one action and what the engine did after it); return the action's
        operation record."""
        return self.undo_group()[0]

    def _rewind(self, count: int) -> None:
        """Put the game back as it was before group ``count``: the state kept at the nearest checkpoint
        at or before it, then the groups from there to ``count`` done again (fewer than CHECKPOINT)."""
        last = min(count, len(self._groups) - 1)
        base = next(i for i in range(last, -1, -1) if self._groups[i][1] is not None)
        bounds = [start for start, _ in self._groups[base:count]]
        end = self._groups[count][0] if count < len(self._groups) else len(self._log)
        ends = [*bounds[1:], end] if bounds else []
        again = [
            tuple(op.action for op in self._log[begin:end] if not op.automatic)
            for begin, end in zip(bounds, ends, strict=True)
        ]
        start, state = self._groups[base]
        assert state is not None
        del self._log[start:]
        del self._groups[base:]
        self._restore(state)
        for group in again:
            self.apply_group(group)

    def verify_undo(self) -> None:
        """Raise :class:`IllegalAction` if there is nothing to undo."""
        if not self._groups:
            raise IllegalAction("there is nothing to undo: no action has been taken yet")

    def can_undo(self) -> bool:
        """Whether there is an action to take back."""
        return bool(self._groups)

    def _state(self) -> dict[str, object]:
        """A copy of everything that is the game now: every attribute but the fixed ones (see FIXED)."""
        return {name: copy_state(value) for name, value in vars(self).items() if name not in FIXED}

    def _restore(self, state: dict[str, object]) -> None:
        for name in [name for name in vars(self) if name not in FIXED and name not in state]:
            delattr(self, name)
        vars(self).update(state)

    def _do(self, action: Action, *, automatic: bool) -> None:
        """Do a verified action and log it."""
        self._scored = []
        if not isinstance(action, Muggins | PassMuggins):
            self.offer = None
            if not (isinstance(action, Claim) and action.what == "play") and not isinstance(
                action, SwitchCounting
            ):
                self._settle_unclaimed()
        note = self._done(action)
        op = Operation(len(self._log) + 1, action, note, tuple(self._scored), self.phase, automatic)
        self._log.append(op)
        if op.scores:
            self.last_scores = op.scores
        self.last_note = note

    def _done(self, action: Action) -> str:
        match action:
            case CutForDeal(player, card):
                return self._do_cut(player, card)
            case Deal(player, cards):
                return self._do_deal(player, cards)
            case DealCrib(card):
                return self._do_deal_crib(card)
            case Discard(player, cards):
                return self._do_discard(player, cards)
            case TurnStarter(card):
                return self._do_starter(card)
            case Play(player, card):
                return self._do_play(player, card)
            case Go(player):
                return self._do_go(player)
            case Count(player, what, cards):
                return self._do_show(player, what, None, cards)
            case Claim(player, "play", points, _):
                return self._do_play_claim(player, points)
            case Claim(player, what, points, cards):
                return self._do_show(player, what, points, cards)
            case Muggins(player):
                return self._do_muggins(player)
            case PassMuggins():
                return self._do_pass()
            case SwitchCounting(counting):
                return self._do_switch(counting)
            case NextGame():
                return self._do_next_game()
        raise IllegalAction(f"{action!r} is not a cribbage action")  # pragma: no cover

    def _automate(self) -> None:
        """The automatic show, when the settings ask for it: each hand as soon as the play ends, then
        the crib if its cards are known."""
        if not self.settings.auto_show:
            return
        while self.counting is Counting.AUTO and self.phase is Phase.SHOW:
            nxt = self._show_next()
            assert nxt is not None
            player, what = nxt
            if what == "crib" and self.deal_state.crib_unknown:
                return  # thrown face down: shown when someone gives its cards
            if what == "hand" and self.shown_hand(player) is None:
                return  # cards kept back at the end of a one-count play, dealt face down: the same
            count = Count(player, what)
            self.verify(count)
            self._do(count, automatic=True)

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
            lead = f"muggins may be called on {who(self.offer.against)}'s {self.offer.points}; "
        else:
            lead = ""
        return lead + self._waiting()

    def _waiting(self) -> str:
        state = self.deal_state
        if self.phase is Phase.CUT_FOR_DEAL:
            left = [p for p in range(self.variant.players) if p not in self.cuts]
            return "cut for the deal: " + ", ".join(who(p) for p in left)
        if self.phase is Phase.DEAL:
            left = [p for p in range(self.variant.players) if p not in state.dealt]
            parts = [who(p) for p in left]
            if self.variant.crib_from_pack and not state.crib_dealt:
                parts.append("the crib")
            return f"{self._dealer_name()} to deal to " + ", ".join(parts)
        if self.phase is Phase.DISCARD:
            left = [p for p in range(self.variant.players) if p not in state.discarded]
            return "to throw to the crib: " + ", ".join(who(p) for p in left)
        if self.phase is Phase.STARTER:
            return f"{self._dealer_name()} to turn the starter"
        if self.pending is not None:
            return f"{who(self.pending.player)} to claim for the play (or play on)"
        if self.phase is Phase.PLAY:
            return f"{who(self._pegging().turn)} to lay a card or say go (count {self._pegging().count})"
        if self.phase is Phase.SHOW:
            player, what = self.show_order()[state.show_step]
            verb = "claim" if self.counting is Counting.CLAIMS else "show"
            if what == "hand" and self.shown_hand(player) is None:
                kept = self.kept_back(player)
                cards = "the card" if kept == 1 else f"the {number_word(kept)} cards"
                return f"{who(player)} to {verb} the hand, turning up {cards} kept back from the play"
            return f"{who(player)} to {verb} the {what}"
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
