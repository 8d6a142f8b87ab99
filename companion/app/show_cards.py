"""Cards turned face up in the show, followed from the camera: the crib, and cards kept back.

The hands are the cards each player laid, and in five-card cribbage, whose play ends at the first go,
any card kept back and turned face up in front of its player; the crib is counted when its four cards
are turned face up.  Until then the cards seen are kept in the journal's notes (``crib_seen``,
``kept_seen``), so a restart does not forget them; with automatic counting each hand and the crib is
counted as soon as its cards are all seen, in the show's order.

:class:`ShowCards` is that part of :class:`~companion.app.table.Table`; doing the count (``_do``) is the
table's own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from companion.app.questions import CRIB_ZONE, PLAYER_ZONES, STARTER_ZONE, Questions, raise_refusal
from companion.cards import Card, Zone
from companion.rules.game import Action, Count, Counting, Phase

__all__ = ["ShowCards"]


class ShowCards(Questions):
    """The crib and the cards kept back, seen turned up before the engine counts them."""

    def __init__(self) -> None:
        super().__init__()
        self._crib_seen: list[Card] = []
        self._kept_seen: dict[int, list[Card]] = {}
        """Cards turned up in the show in front of a player who kept them back when the play ended."""

    def _seen_elsewhere(self) -> set[Card]:
        return {*self._crib_seen, *(c for cards in self._kept_seen.values() for c in cards)}

    def _read_show_notes(self, match_id: int) -> None:
        """After a restart: the cards seen turned up before it, from the journal."""
        self._crib_seen = [Card.parse(c) for c in self.journal.note(match_id, "crib_seen", [])]
        self._kept_seen = {}
        for player, text in self.journal.note(match_id, "kept_seen", []):
            self._kept_seen.setdefault(int(player), []).append(Card.parse(text))

    def _forget_show(self) -> None:
        """Nothing seen turned up (a new match, or an undo)."""
        self._set_crib_seen([])
        self._kept_seen = {}
        self.journal.set_note(self.match_id, "kept_seen", [])

    def _set_crib_seen(self, cards: list[Card]) -> None:
        """The crib cards seen so far, kept in the journal too (they are not actions until counted)."""
        if cards != self._crib_seen or not cards:
            self._crib_seen = cards
            self.journal.set_note(self.match_id, "crib_seen", [str(c) for c in cards])

    def _kept_note(self) -> list[list[object]]:
        """The cards kept back and seen, as the journal keeps them: [player, card] pairs."""
        return [[p, str(c)] for p, cards in sorted(self._kept_seen.items()) for c in cards]

    def crib_seen(self) -> tuple[str, ...]:
        """Crib cards the camera has seen turned up, before the crib is counted."""
        return tuple(str(c) for c in self._crib_seen)

    def _shown(self, card: Card, zone: Zone) -> None:
        state = self.game.deal_state
        if zone == STARTER_ZONE and card != state.starter and self._crib_short():
            # The next deal's starter (any card but this deal's, once the pack is shuffled): the crib
            # went back with a card the camera never read. That card is asked for; the starter waits
            # for the answer.
            self._held.append((str(card), zone))
            self._ask_for_crib()
            return
        if card in state.seen or card == state.starter or card in self._crib_seen:
            return  # a card of the play or the starter, seen again as the hands are shown
        if self._kept_card(card, zone):
            self._count_crib()  # the hand counted once all its cards are seen (and the crib, if ready)
            return
        if len(self._crib_seen) >= 4:
            raise_refusal("the crib already has four cards")
        seen = [*self._crib_seen, card]
        if not self._count_crib(seen):  # the fourth card and the count reach the journal together
            self._set_crib_seen(seen)

    def _kept_card(self, card: Card, zone: Zone) -> bool:
        """A card turned up in front of a player whose hand, still to be shown, has cards kept back
        when a one-count play ended: noted as one of them (True), and the hand counted once all are."""
        game = self.game
        player = PLAYER_ZONES.get(zone)
        if player is None or player >= game.variant.players:
            return False
        kept = game.kept_back(player)
        to_show = game.show_order()[game.deal_state.show_step :]
        if not kept or (player, "hand") not in to_show or game.shown_hand(player) is not None:
            return False
        if card in self._kept_seen.get(player, []):
            return True  # seen again
        if len(self._kept_seen.get(player, [])) >= kept:
            raise_refusal(f"{self.players[player]} kept back only {kept} card(s) when the play ended")
        self._kept_seen.setdefault(player, []).append(card)
        self.journal.set_note(self.match_id, "kept_seen", self._kept_note())
        return True

    def _late_kept(self, card: Card, zone: Zone) -> bool:
        """Once the game is won: a card in front of a player who kept cards back and has not turned them
        all up is one of those (True), not the first card of the next game."""
        player = PLAYER_ZONES.get(zone)
        if player is None or player >= self.game.variant.players:
            return False
        seen = self._kept_seen.setdefault(player, [])
        if card in seen or len(seen) < self.game.kept_back(player):
            if card not in seen:
                seen.append(card)
            return True
        return False

    def _kept_hand(self, player: int) -> tuple[Card, ...] | None:
        """The hand ``player`` shows: the cards laid and those kept back, once the camera has seen all."""
        game = self.game
        seen = self._kept_seen.get(player, [])
        if len(seen) != game.kept_back(player):
            return None
        return (*game.deal_state.played_by[player], *seen)

    def _forget_kept(self, player: int) -> None:
        if self._kept_seen.pop(player, None) is not None:
            self.journal.set_note(self.match_id, "kept_seen", self._kept_note())

    def _count_kept(self) -> None:
        """Automatic counting: a hand with cards kept back (dealt face down, so unknown to the engine)
        is shown as soon as the camera has seen them turned up, in the show's order."""
        game = self.game
        while game.counting is Counting.AUTO and game.phase is Phase.SHOW:
            nxt = game.snapshot().show_next
            if nxt is None or nxt[1] != "hand":
                return
            player = nxt[0]
            cards = self._kept_hand(player)
            if cards is None:
                return
            rest = [pair for pair in self._kept_note() if pair[0] != player]
            self._do([Count(player, "hand", cards)], notes={"kept_seen": rest})
            self._kept_seen.pop(player, None)

    def _crib_short(self) -> bool:
        """The show is on and the crib, still to be counted, lacks cards the camera has not read."""
        return self.game.phase is Phase.SHOW and self._crib_cards() is None

    def _ask_for_crib(self) -> None:
        if self.correction is None:
            seen = len({*self.game.deal_state.crib_known, *self._crib_seen})
            message = f"The camera saw {seen} of the crib's four cards: which card is missing?"
            self._ask(message, CRIB_ZONE, "")

    def _crib_cards(self, seen: Sequence[Card] | None = None) -> tuple[Card, ...] | None:
        state = self.game.deal_state
        known = list(state.crib_known)
        cards = known + [c for c in (self._crib_seen if seen is None else seen) if c not in known]
        return tuple(cards) if len(cards) == 4 else None

    def _count_crib(self, seen: Sequence[Card] | None = None) -> bool:
        """Automatic counting shows the hands by itself (an engine setting); the crib, thrown face down,
        is shown once the camera has seen its four cards turned up (``seen``: the crib cards seen, if
        not yet noted).  True if the crib was counted.

        The count clears the note of crib cards in its own transaction, so a power cut never leaves
        a counted crib's cards noted, nor a crib's fourth card noted without the count its event made
        (a resume would count it under an earlier event's cursor)."""
        self._count_kept()
        game = self.game
        if game.counting is not Counting.AUTO or game.snapshot().show_next != (game.dealer, "crib"):
            return False
        cards = self._crib_cards(seen)
        if cards is None or game.dealer is None:
            return False
        self._do([Count(game.dealer, "crib", cards)], notes={"crib_seen": []})
        self._crib_seen = []
        return True

    # -- the table's own ---------------------------------------------------------------------------

    def _do(self, actions: Sequence[Action], notes: Mapping[str, object] | None = None) -> None:
        """Do and journal a group of actions (the table's)."""
        raise NotImplementedError  # pragma: no cover - Table does actions
