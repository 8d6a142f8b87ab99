"""Random legal games, dealt from an injected :class:`random.Random`: for tests and the benchmark.

The engine never shuffles; this helper plays the part of the table.  It shuffles a deck with the given
random source at every cut and every deal, tells the game each card, picks a legal throw and a legal
card to lay at random, and -- when players claim -- makes honest claims most of the time and mistakes
(under- and over-claims) some of the time, calling muggins at random.  The same seed always gives the
same game, so a failure found by a property test can be replayed exactly.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, replace

from companion.cards import Card, full_deck
from companion.rules.game import (
    Action,
    Claim,
    Count,
    Counting,
    CutForDeal,
    Deal,
    DealCrib,
    Discard,
    Game,
    Go,
    Muggins,
    NextGame,
    PassMuggins,
    Phase,
    Play,
    Settings,
    TurnStarter,
)
from companion.rules.show import score_hand

__all__ = ["Table", "random_game"]


@dataclass
class Table:
    """The physical side of a simulated game: the shuffled pack and the cards in each hand.

    ``hidden`` deals and throws face down (the engine learns hands from the play and the crib when it
    is counted), as at a real table where the camera sees only cards turned face up.
    """

    rng: random.Random
    hidden: bool = False
    #: Chance that a claim is wrong (when players claim).
    mistakes: float = 0.2
    #: Chance that an open muggins is called.
    muggins_rate: float = 0.5

    def __post_init__(self) -> None:
        self._pack: list[Card] = []
        self._hands: dict[int, list[Card]] = {}
        self._crib: list[Card] = []

    def _shuffle(self) -> None:
        self._pack = list(full_deck())
        self.rng.shuffle(self._pack)

    def next_action(self, game: Game) -> Action | None:
        """A legal action for the game as it stands, or ``None`` once the match is over."""
        rng = self.rng
        if game.offer is not None and rng.random() < self.muggins_rate:
            callers = [p for p in range(game.variant.players) if game.can_muggins(p)]
            if callers:
                return Muggins(rng.choice(callers))
        if game.offer is not None and rng.random() < 0.3:
            return PassMuggins()
        if game.pending is not None and rng.random() < 0.85:
            true = sum(i.points for i in game.pending.items)
            return Claim(game.pending.player, "play", self._claimed(true, 15))
        phase = game.phase
        if phase is Phase.CUT_FOR_DEAL:
            if not game.cuts:
                self._shuffle()
            player = next(p for p in range(game.variant.players) if p not in game.cuts)
            return CutForDeal(player, self._pack.pop())
        if phase is Phase.DEAL:
            state = game.deal_state
            if not state.dealt and not state.crib_dealt:
                self._shuffle()
                self._hands = {}
                self._crib = []
            for player in range(game.variant.players):
                if player not in state.dealt:
                    cards = [self._pack.pop() for _ in range(game.variant.dealt)]
                    self._hands[player] = cards
                    return Deal(player, None if self.hidden else tuple(cards))
            card = self._pack.pop()
            self._crib = [card]
            return DealCrib(None if self.hidden else card)
        if phase is Phase.DISCARD:
            player = next(p for p in range(game.variant.players) if p not in game.deal_state.discarded)
            hand = self._hands[player]
            thrown = rng.sample(hand, game.variant.thrown)
            for card in thrown:
                hand.remove(card)
            self._crib.extend(thrown)
            return Discard(player, None if self.hidden else tuple(thrown))
        if phase is Phase.STARTER:
            return TurnStarter(self._pack.pop())
        if phase is Phase.PLAY:
            pegging = game.deal_state.pegging
            assert pegging is not None
            player = pegging.turn
            hand = self._hands[player]
            fits = [c for c in hand if pegging.count + c.pips <= 31]
            if not fits:
                return Go(player)
            card = rng.choice(fits)
            hand.remove(card)
            return Play(player, card)
        if phase is Phase.SHOW:
            player, what = game.show_order()[game.deal_state.show_step]
            if what == "crib":
                shown = tuple(self._crib)
                given: tuple[Card, ...] | None = shown
            else:
                # The cards laid, and any kept back when a one-count play ended (five-card cribbage):
                # turned up for the show, so given when the engine has not seen them.
                shown = (*game.deal_state.played_by[player], *self._hands[player])
                given = shown if game.shown_hand(player) is None else None
            if game.counting is Counting.AUTO:
                return Count(player, what, given)
            starter = game.deal_state.starter
            assert starter is not None
            true = score_hand(shown, starter, crib=what == "crib").total
            most = 29 if len(shown) == 4 else 20
            return Claim(player, what, self._claimed(true, most), given)
        if game.can_next_game():
            return NextGame()
        return None

    def _claimed(self, true: int, most: int) -> int:
        if self.rng.random() >= self.mistakes:
            return true
        return self.rng.randint(0, most)

    def actions(self, game: Game) -> Iterator[Action]:
        """Play the game out, yielding each action after doing it."""
        while True:
            action = self.next_action(game)
            if action is None:
                return
            game.apply(action)
            yield action


def random_game(
    rng: random.Random, settings: Settings | None = None, *, hidden: bool = False, match: bool = False
) -> Game:
    """A whole random game (or, with ``match``, a whole match) played out from ``rng``."""
    settings = settings or Settings(match_games=1)
    if not match and settings.match_games != 1:
        settings = replace(settings, match_games=1)
    game = Game(settings)
    table = Table(rng, hidden=hidden)
    for _ in table.actions(game):
        pass
    return game
