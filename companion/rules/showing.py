"""The actions of the show and around it: counting and claiming, muggins, switching who counts, and
the next game of a match; each as a verify / can / do triad (see :class:`~companion.rules.game.Game`)."""

from __future__ import annotations

from collections.abc import Sequence

from companion.cards import Card
from companion.rules.actions import WHATS, Claim, Count, Muggins, NextGame, PassMuggins, SwitchCounting
from companion.rules.core import DURING, MAX_HAND, MAX_PLAY, GameCore, card_list, who
from companion.rules.errors import IllegalAction
from companion.rules.items import number_word
from companion.rules.records import Operation
from companion.rules.settings import Counting, FirstDeal, Phase
from companion.rules.show import score_hand

__all__ = ["Showing"]


class Showing(GameCore):
    """The show, claims and muggins, the counting mode, and the match."""

    def verify_claim(self, player: int, what: str, points: int, cards: Sequence[Card] | None = None) -> None:
        """Refuse a claim out of turn, when the engine counts, for something unknown, or impossibly high."""
        self._need_player(player)
        if what not in WHATS:
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
                    f"{who(player)} has nothing to claim in the play: the last card scored nothing"
                )
            if self.pending.player != player:
                raise IllegalAction(
                    f"only {who(self.pending.player)} can claim for the last card, not {who(player)}"
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

    def _verify_show(self, player: int, what: str, cards: Sequence[Card] | None, doing: str) -> None:
        self._need(Phase.SHOW, doing)
        expected = self._show_next()
        assert expected is not None
        next_player, shown = expected
        if (player, what) != expected:
            raise IllegalAction(
                f"{who(player)} cannot {doing} now: next in the show is {who(next_player)}'s {shown} "
                "(the non-dealer's hand, then the dealer's, then the crib)"
            )
        if what == "hand":
            self._verify_hand(player, cards)
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
                    raise IllegalAction(f"{card} is not in the crib: it holds {card_list(state.crib_known)}")
                if not any(card in state.held[p] for p in state.hidden_throws):
                    self._need_unseen(card, "show in the crib")
        for player, thrown in state.hidden_throws.items():  # dealt face up, thrown face down
            theirs = {c for c in cards if c in state.held[player]}
            if len(theirs) != thrown:
                among = card_list(sorted(state.held[player]))
                raise IllegalAction(
                    f"{who(player)} threw {number_word(thrown)} of the cards dealt to them, so the crib "
                    f"holds {number_word(thrown)} of {among}, not {len(theirs)}"
                )
            missing = sorted(state.must_have_thrown.get(player, set()) - theirs)
            if missing:
                raise IllegalAction(
                    f"{who(player)} said go while {missing[0]} would have fitted, so it must be in the crib"
                )

    def _verify_hand(self, player: int, cards: Sequence[Card] | None) -> None:
        """A hand shown is the cards laid in the play and, if the play ended early, those kept back."""
        state = self.deal_state
        laid = state.played_by[player]
        kept = self.kept_back(player)
        if not kept:
            if cards is not None and set(cards) != set(laid):
                raise IllegalAction(
                    f"{who(player)} laid {card_list(laid)} in the play, so cannot show {card_list(cards)}"
                )
            return
        size = self.variant.hand_size
        if cards is None:
            if self.shown_hand(player) is None:
                raise IllegalAction(
                    f"{who(player)} kept {number_word(kept)} of their cards when the play ended: give the "
                    f"hand's {number_word(size)} cards to count it"
                )
            return
        cards = tuple(cards)
        self._need_distinct(cards, "the hand")
        if len(cards) != size:
            raise IllegalAction(f"a hand in this game has {number_word(size)} cards, not {len(cards)}")
        missing = [c for c in laid if c not in cards]
        if missing:
            raise IllegalAction(f"{who(player)} laid {missing[0]} in the play, so it is in the hand shown")
        held = state.held.get(player)
        for card in cards:
            if card in laid:
                continue
            if held is None:
                self._need_unseen(card, "show in the hand")
            elif card not in held:
                raise IllegalAction(f"{who(player)} was not dealt {card}, so cannot show it")
            elif card in state.must_have_thrown.get(player, set()):
                raise IllegalAction(
                    f"{who(player)} said go while {card} would have fitted, so it went to the crib"
                )

    def verify_count(self, player: int, what: str, cards: Sequence[Card] | None = None) -> None:
        """Refuse a count out of order or when players claim their own counts."""
        self._need_player(player)
        if what not in ("hand", "crib"):
            raise IllegalAction(f"the show counts a hand or the crib, not {what!r}")
        if self.counting is not Counting.AUTO:
            self._need(Phase.SHOW, f"count the {what}")
            raise IllegalAction(f"players claim their own counts in this game: {who(player)} must claim")
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
            known = self.shown_hand(player)
            hand = cards if cards is not None else known
            assert hand is not None
            for card in hand:
                if card not in state.played_by[player]:
                    state.seen[card] = f"{who(player)}'s hand"
                    for held in state.held.values():
                        held.discard(card)
        else:
            hand = cards if cards is not None else tuple(state.crib_known)
            for card in hand:
                if card not in state.crib_known:
                    state.crib_known.append(card)
                    state.seen[card] = "the crib"
                    for held in state.held.values():
                        held.discard(card)
            state.crib_unknown = 0
        shown = score_hand(hand, starter, crib=what == "crib")
        explanation = shown.explain()
        state.show_step += 1
        if claimed is None:
            whose = "the crib" if what == "crib" else "their hand"
            note = f"{who(player)} shows {whose} {card_list(hand)} with {starter}: {explanation}"
            self._peg(player, shown.total, what, shown.items, explanation)
        else:
            note = self._judge(player, what, claimed, shown.items, explanation)
        if not self.over and state.show_step == len(self.show_order()):
            assert self.dealer is not None
            self._open_deal((self.dealer + 1) % self.variant.players)
        return note

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
                f"{who(player)} cannot call muggins on their own side's count: only an opponent pegs "
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
        return f"{who(player)} calls muggins and pegs the {offer.points} {who(offer.against)} left behind"

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
        return f"nobody calls muggins: the {offer.points} {who(offer.against)} left behind are lost"

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

    def verify_next_game(self) -> None:
        """Refuse a new game while one is in progress or once the match is decided."""
        if self.phase is not Phase.GAME_OVER:
            raise IllegalAction(f"cannot start the next game {DURING[self.phase]}: finish this one first")
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
            return f"game {self.game_number}: {who(dealer)} lost the last game and deals first"
        decider = all(w == needed - 1 for w in self.match_wins)
        if decider:
            self._start_game(None)
            return f"game {self.game_number}, the decider: a fresh cut for the deal"
        dealer = (last.first_dealer + 1) % n
        self._start_game(dealer)
        return f"game {self.game_number}: first box alternates, {who(dealer)} deals first"
