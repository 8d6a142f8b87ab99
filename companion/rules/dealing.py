"""The actions of the deal and the play: the cut for deal, the deal, the throws, the starter, laying
cards and saying go; each as a verify / can / do triad (see :class:`~companion.rules.game.Game`)."""

from __future__ import annotations

from collections.abc import Sequence

from companion.cards import Card
from companion.rules.actions import CutForDeal, Deal, DealCrib, Discard, Go, Play, TurnStarter
from companion.rules.core import GameCore, card_list, who
from companion.rules.errors import IllegalAction, IllegalPlay
from companion.rules.items import Kind, ScoreItem, number_word
from companion.rules.play import Pegging
from companion.rules.records import Operation
from companion.rules.settings import Phase

__all__ = ["Dealing"]


class Dealing(GameCore):
    """The deal and the play, from the cut for deal to the last card laid."""

    def verify_cut_for_deal(self, player: int, card: Card) -> None:
        """Refuse a cut out of phase, by a player who has cut already, or of a card already cut."""
        self._need(Phase.CUT_FOR_DEAL, "cut for the deal")
        self._need_player(player)
        if player in self.cuts:
            raise IllegalAction(f"{who(player)} has already cut {self.cuts[player]} for this deal")
        for other, cut in self.cuts.items():
            if cut == card:
                raise IllegalAction(
                    f"{card} was already cut by {who(other)}: the same card cannot be cut twice"
                )

    def can_cut_for_deal(self, player: int, card: Card) -> bool:
        """Whether :meth:`cut_for_deal` would accept the cut."""
        return self.can(CutForDeal(player, card))

    def cut_for_deal(self, player: int, card: Card) -> Operation:
        """A player cuts for the deal; once all have cut, the lowest deals (equal cuts cut again)."""
        return self.apply(CutForDeal(player, card))

    def _do_cut(self, player: int, card: Card) -> str:
        self.cuts[player] = card
        note = f"{who(player)} cuts {card}"
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
        self._open_deal(dealer, first=True)
        return f"{note}; {who(dealer)} cut lowest and deals first"

    def verify_deal(self, player: int, cards: Sequence[Card] | None = None) -> None:
        """Refuse a deal out of phase, twice to one player, of the wrong number, or of a card seen already."""
        self._need(Phase.DEAL, "deal")
        self._need_player(player)
        if player in self.deal_state.dealt:
            raise IllegalAction(f"{who(player)} has already been dealt their cards this deal")
        if cards is None:
            return
        cards = tuple(cards)
        if len(cards) != self.variant.dealt:
            raise IllegalAction(
                f"{who(player)} must be dealt {self.variant.dealt} cards in {self.variant.name} "
                f"cribbage, not {len(cards)}"
            )
        self._need_distinct(cards, "the deal")
        for card in cards:
            self._need_unseen(card, f"deal {who(player)}")

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
                state.seen[card] = f"{who(player)}'s hand"
        self._maybe_end_deal()
        return f"{self._dealer_name()} deals {who(player)} " + (
            card_list(cards) if cards is not None else f"{number_word(self.variant.dealt)} cards face down"
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

    def verify_discard(self, player: int, cards: Sequence[Card] | None = None) -> None:
        """Refuse a throw out of phase, twice, of the wrong number, or of cards the player does not hold."""
        self._need(Phase.DISCARD, "throw to the crib")
        self._need_player(player)
        state = self.deal_state
        if player in state.discarded:
            raise IllegalAction(f"{who(player)} has already thrown to the crib this deal")
        if cards is None:
            return
        cards = tuple(cards)
        thrown = self.variant.thrown
        if len(cards) != thrown:
            crib = (
                len(state.crib_known) + state.crib_unknown + sum(self.variant.thrown for _ in state.discarded)
            )
            raise IllegalAction(
                f"{who(player)} must throw {number_word(thrown)} card{'s' if thrown > 1 else ''} to the "
                f"crib, not {len(cards)} (a crib has four cards; it has {crib} so far)"
            )
        self._need_distinct(cards, "the throw")
        held = state.held.get(player)
        for card in cards:
            if held is not None:
                if card not in held:
                    raise IllegalAction(f"{who(player)} cannot throw {card}: it is not in their hand")
            else:
                self._need_unseen(card, f"throw for {who(player)}")

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
            if player in state.held:  # seen dealt: the thrown cards are among those dealt
                state.hidden_throws[player] = self.variant.thrown
        else:
            state.crib_known.extend(cards)
            for card in cards:
                state.seen[card] = "the crib"
                if player in state.held:
                    state.held[player].discard(card)
        if len(state.discarded) == self.variant.players:
            self.phase = Phase.STARTER
        return (
            f"{who(player)} throws "
            + (card_list(cards) if cards is not None else f"{number_word(self.variant.thrown)} face down")
            + " to the crib"
        )

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
            note += f": two for his heels to {who(dealer)}"
        if not self.over:
            self.phase = Phase.PLAY
            state.pegging = Pegging(
                self.variant.players,
                (dealer + 1) % self.variant.players,
                hand_size=self.variant.hand_size,
                one_count=self.variant.one_count,
            )
            state.played_by = {p: [] for p in range(self.variant.players)}
        return note

    def verify_play(self, player: int, card: Card) -> None:
        """Refuse a card out of turn, past 31, not held, or already seen elsewhere in this deal."""
        self._need(Phase.PLAY, "lay a card")
        self._need_player(player)
        pegging = self._pegging()
        pegging.verify_play(player, card)
        held = self.deal_state.held.get(player)
        if held is not None:
            if card not in held:
                raise IllegalPlay(f"{who(player)} does not hold {card}")
            if card in self.deal_state.must_have_thrown.get(player, set()):
                raise IllegalPlay(
                    f"{who(player)} said go while {card} would have fitted, so threw it to the crib"
                )
        else:
            self._need_unseen(card, f"lay for {who(player)}")

    def can_play(self, player: int, card: Card) -> bool:
        """Whether :meth:`play` would accept the card."""
        return self.can(Play(player, card))

    def play(self, player: int, card: Card) -> Operation:
        """``player`` lays ``card`` and pegs what it makes (or, when players claim, may claim it)."""
        return self.apply(Play(player, card))

    def _do_play(self, player: int, card: Card) -> str:
        state = self.deal_state
        peg = self._pegging().play(player, card)
        state.seen[card] = f"laid by {who(player)}"
        state.held.get(player, set()).discard(card)
        state.played_by[player].append(card)
        said = peg.explain()
        note = f"{who(player)} lays {card}: {said}"
        self._score_play(peg.scorer, peg.items, said)
        self._maybe_end_play()
        return note + self._cut_short_note()

    def verify_go(self, player: int) -> None:
        """Refuse a go out of turn, at the start of a count, or by one seen to hold a card that fits."""
        self._need(Phase.PLAY, "say go")
        self._need_player(player)
        pegging = self._pegging()
        pegging.verify_go(player)
        state = self.deal_state
        held = state.held.get(player)
        if held:
            fits = sorted(c for c in held if pegging.count + c.pips <= 31)
            hidden = state.hidden_throws.get(player, 0)
            thrown = state.must_have_thrown.get(player, set())
            # Dealt face up, thrown face down: the hand is some of ``held``, and the go stands if the
            # cards that fit could all be among those thrown.
            if len(thrown | set(fits)) > hidden:
                fit = next(c for c in fits if c not in thrown)
                raise IllegalPlay(f"{who(player)} cannot say go: {fit} fits under 31")

    def can_go(self, player: int) -> bool:
        """Whether :meth:`go` would accept the go."""
        return self.can(Go(player))

    def go(self, player: int) -> Operation:
        """``player`` says go; if nobody can lay, the last to lay pegs one for the go."""
        return self.apply(Go(player))

    def _do_go(self, player: int) -> str:
        state = self.deal_state
        if state.hidden_throws.get(player):
            count = self._pegging().count
            fits = {c for c in state.held[player] if count + c.pips <= 31}
            state.must_have_thrown[player] = state.must_have_thrown.get(player, set()) | fits
        peg = self._pegging().go(player)
        note = f"{who(player)} says go"
        if peg.items:
            note += f"; one for the go to {who(peg.scorer)}"
        self._score_play(peg.scorer, peg.items, "one for the go" if peg.items else "")
        self._maybe_end_play()
        return note + self._cut_short_note()

    def _cut_short_note(self) -> str:
        """What the note adds when this action ended a one-count play with cards still held."""
        if not self._pegging().cut_short:
            return ""
        return "; neither can go on, so the play is at an end: the cards still held are only shown"
