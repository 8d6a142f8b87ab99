"""The play: one round of laying cards to a running count of 31, for two, three or four players.

:class:`Pegging` follows the primary rules text: players lay in turn starting with the leader (the
non-dealer); a player who cannot lay a card without passing 31 says "go" and the others carry on; when
nobody can lay, the last player to lay pegs one for the go (never on 31, which is two on its own), the
count starts afresh, and the player after the one who laid last leads.  Pairs and runs count only among
the latest cards of the current count; a run counts in any order.

A player who has laid all their cards is passed over without saying go.  With ``one_count`` (two-handed
five-card cribbage: "when neither can come in the play is at an end") the first count to close, by a go
or by 31, ends the play, and the cards still held are never laid.  The engine may be told each
player's cards (``hands=``); then it also refuses a card the player does not hold and a "go" from a
player who could still lay a card.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from companion.cards import Card
from companion.rules.errors import IllegalPlay
from companion.rules.items import Kind, ScoreItem, number_word

__all__ = ["Peg", "Pegging", "pegging_items"]

_PLAY_CALLS = {
    Kind.PAIR: "a pair for two",
    Kind.PAIR_ROYAL: "a pair royal for six",
    Kind.DOUBLE_PAIR_ROYAL: "a double pair royal for twelve",
    Kind.LAST_CARD: "one for last",
}


def _play_call(item: ScoreItem) -> str:
    if item.kind is Kind.RUN:
        length = number_word(len(item.cards))
        return f"a run of {length} for {length}"
    return _PLAY_CALLS[item.kind]


_SAME_RANK = {2: (Kind.PAIR, 2), 3: (Kind.PAIR_ROYAL, 6), 4: (Kind.DOUBLE_PAIR_ROYAL, 12)}


@dataclass(frozen=True, slots=True)
class Peg:
    """What one action of the play did: who acted, the card (none for a go), and what it scored.

    ``scorer`` is the player credited with ``items``: the player who laid the card, or, for a go that
    closes the count, the player who laid the last card before it.
    """

    player: int
    card: Card | None
    count: int
    items: tuple[ScoreItem, ...]
    scorer: int

    @property
    def total(self) -> int:
        """Points pegged by this action."""
        return sum(item.points for item in self.items)

    def explain(self) -> str:
        """The call a player makes as they lay: the new count, then what it scores, as said at the table.

        A count of fifteen or thirty-one is its own call ("fifteen two", "thirty-one for two"); other
        counts are said as a number before the combinations ("twenty-one, a pair for two").
        """
        kinds = {item.kind for item in self.items}
        if self.card is None:
            said = "go"
        elif Kind.FIFTEEN in kinds:
            said = "fifteen two"
        elif Kind.THIRTY_ONE in kinds:
            said = "thirty-one for two"
        else:
            said = number_word(self.count)
        calls = [_play_call(item) for item in self.items if item.kind not in (Kind.FIFTEEN, Kind.THIRTY_ONE)]
        return ", ".join([said, *calls])

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready form."""
        return {
            "player": self.player,
            "card": None if self.card is None else str(self.card),
            "count": self.count,
            "items": [item.to_dict() for item in self.items],
            "scorer": self.scorer,
            "total": self.total,
        }


def pegging_items(laid: Sequence[Card]) -> tuple[ScoreItem, ...]:
    """What the last card of ``laid`` (the cards of the current count, in order) scores.

    Fifteen and 31 by the running total; pairs by how many cards of the same rank were laid one after
    another at the end; runs by the longest tail of the count whose ranks are all different and make an
    unbroken sequence, in any order (4-2-3 is a run of three; 3-3-4-5 ends with the run 3-4-5).
    """
    if not laid:
        return ()
    last = laid[-1]
    count = sum(card.pips for card in laid)
    items: list[ScoreItem] = []
    if count == 15:
        items.append(ScoreItem(Kind.FIFTEEN, tuple(laid), 2))
    elif count == 31:
        items.append(ScoreItem(Kind.THIRTY_ONE, tuple(laid), 2))
    same = 1
    while same < len(laid) and laid[-same - 1].rank is last.rank:
        same += 1
    if same >= 2:
        kind, points = _SAME_RANK[same]
        items.append(ScoreItem(kind, tuple(laid[-same:]), points))
    for length in range(len(laid), 2, -1):
        tail = laid[-length:]
        orders = {card.order for card in tail}
        if len(orders) == length and max(orders) - min(orders) == length - 1:
            items.append(ScoreItem(Kind.RUN, tuple(tail), length))
            break
    return tuple(items)


class Pegging:
    """One round of the play (every card laid once) for 2, 3 or 4 players.

    Not a value: the game engine owns one per deal and records each :class:`Peg` it returns.
    """

    def __init__(
        self,
        players: int = 2,
        leader: int = 0,
        *,
        hand_size: int | Sequence[int] = 4,
        hands: Sequence[Iterable[Card]] | None = None,
        one_count: bool = False,
    ) -> None:
        if players not in (2, 3, 4):
            raise IllegalPlay(f"the play is for 2, 3 or 4 players, not {players}")
        if not 0 <= leader < players:
            raise IllegalPlay(f"the leader must be a player from 0 to {players - 1}, not {leader}")
        sizes = [hand_size] * players if isinstance(hand_size, int) else list(hand_size)
        if len(sizes) != players or min(sizes) < 1:
            raise IllegalPlay(f"each of the {players} players needs at least one card, not {hand_size}")
        self.players = players
        self.hands: list[set[Card]] | None = None
        if hands is not None:
            held = [set(hand) for hand in hands]
            if [len(h) for h in held] != sizes:
                raise IllegalPlay(f"the {players} players must hold {sizes} cards")
            if len(set().union(*held)) != sum(sizes):
                raise IllegalPlay("the same card is in two hands")
            self.hands = held
        self.points = [0] * players
        self.laid: list[Card] = []
        self.played: list[tuple[int, Card]] = []
        self.turn = leader
        self.last_player: int | None = None
        self._said_go: set[int] = set()
        self._left = sizes
        self.history: list[Peg] = []
        self.one_count = one_count
        #: Whether the play ended with cards still held (one count only, and it has closed).
        self.cut_short = False

    # -- what the table shows ---------------------------------------------------------------
    @property
    def count(self) -> int:
        """The running total of the current count (0 after a go or 31 closes it)."""
        return sum(card.pips for card in self.laid)

    @property
    def done(self) -> bool:
        """Every card has been laid and the last count closed, or the one count of the play has closed."""
        return self.cut_short or (not any(self._left) and not self.laid)

    def cards_left(self, player: int) -> int:
        """How many cards the player still has to lay."""
        return self._left[player]

    # -- verify / can / do ----------------------------------------------------------------------
    def verify_play(self, player: int, card: Card) -> None:
        """Raise :class:`IllegalPlay` with a sentence if ``player`` may not lay ``card`` now."""
        self._verify_turn(player)
        if any(card == seen for _, seen in self.played):
            raise IllegalPlay(f"{card} has already been played in this round")
        if self._left[player] == 0:
            raise IllegalPlay(f"player {player} has no cards left to play")
        if self.hands is not None and card not in self.hands[player]:
            raise IllegalPlay(f"player {player} does not hold {card}")
        if self.count + card.pips > 31:
            raise IllegalPlay(
                f"{card} would take the count from {self.count} to {self.count + card.pips}, past 31"
            )

    def can_play(self, player: int, card: Card) -> bool:
        """Whether :meth:`play` would accept this card."""
        try:
            self.verify_play(player, card)
        except IllegalPlay:
            return False
        return True

    def play(self, player: int, card: Card) -> Peg:
        """Lay ``card`` for ``player`` and peg what it makes."""
        self.verify_play(player, card)
        self.laid.append(card)
        self.played.append((player, card))
        self._left[player] -= 1
        if self.hands is not None:
            self.hands[player].discard(card)
        self.last_player = player
        count = self.count
        items = list(pegging_items(self.laid))
        nxt = self._next_able(player)
        if count == 31:
            self._close_count()
        elif nxt is None:
            # Nobody, the layer included, can lay again in this count: one for the go, or for last.
            items.append(ScoreItem(Kind.LAST_CARD, (card,), 1))
            self._close_count()
        else:
            self.turn = nxt
        return self._record(Peg(player, card, count, tuple(items), player))

    def verify_go(self, player: int) -> None:
        """Raise :class:`IllegalPlay` if ``player`` may not say go now."""
        self._verify_turn(player)
        if not self.laid:
            raise IllegalPlay("nobody says go at the start of a count: any card fits under 31")
        if self.hands is not None:
            fits = sorted(c for c in self.hands[player] if self.count + c.pips <= 31)
            if fits:
                raise IllegalPlay(f"player {player} can still play: {fits[0]} fits under 31")

    def can_go(self, player: int) -> bool:
        """Whether :meth:`go` would accept a go from this player."""
        try:
            self.verify_go(player)
        except IllegalPlay:
            return False
        return True

    def go(self, player: int) -> Peg:
        """``player`` cannot lay a card: pass the turn, or close the count if nobody can lay."""
        self.verify_go(player)
        count = self.count
        self._said_go.add(player)
        nxt = self._next_able(player)
        if nxt is None:
            scorer = self.last_player if self.last_player is not None else player
            items = (ScoreItem(Kind.LAST_CARD, (self.laid[-1],), 1),)
            self._close_count()
            return self._record(Peg(player, None, count, items, scorer))
        self.turn = nxt
        return self._record(Peg(player, None, count, (), player))

    # -- mechanics --------------------------------------------------------------------------------
    def _verify_turn(self, player: int) -> None:
        if not 0 <= player < self.players:
            raise IllegalPlay(f"there is no player {player} in a game of {self.players}")
        if self.cut_short:
            raise IllegalPlay(
                "the play is over: neither player could go on, and this game has no second count "
                "(the cards still held are only shown)"
            )
        if self.done:
            raise IllegalPlay("the play is over: every card has been laid")
        if player != self.turn:
            raise IllegalPlay(f"it is player {self.turn}'s turn to play, not player {player}'s")

    def _record(self, peg: Peg) -> Peg:
        self.points[peg.scorer] += peg.total
        self.history.append(peg)
        return peg

    def _next_able(self, player: int) -> int | None:
        """The next player after ``player`` (then ``player`` itself) who holds cards and has not said go."""
        for step in range(1, self.players + 1):
            candidate = (player + step) % self.players
            if self._left[candidate] and candidate not in self._said_go:
                return candidate
        return None

    def _close_count(self) -> None:
        """Start a fresh count; the player after the last to lay leads (passing over empty hands).

        In the one-count game the play ends here instead, whatever is still held.
        """
        if self.one_count and any(self._left):
            self.cut_short = True
            self.laid = []
            return
        self.laid = []
        self._said_go = set()
        if self.last_player is not None and any(self._left):
            nxt = self._next_able(self.last_player)
            assert nxt is not None
            self.turn = nxt
