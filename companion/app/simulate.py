"""Whole games as the table would see them: scripted with a seeded random source, for replays and tests.

A :class:`Recording` is what the camera and the knobs would report during a real game -- the cuts for
the deal, the starter, every card laid in front of the player who laid it (never a word about "go": the
table must infer it), the crib turned face up, and in claims mode each player's claim and the muggins
calls -- together with what a referee who saw every card (the rules engine told each hand as dealt)
says the scores were, deal by deal.  Replaying the events through the table, which sees only what the
camera sees, must end with exactly the referee's scores.

The players here are simple: they lay a random card that fits, and in claims mode sometimes miss a few
points.  The dealing is done from ``random.Random(seed)``, so a seed is a game.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from companion.cards import Card, Zone, full_deck
from companion.events import (
    CallMuggins,
    CardLanded,
    CardLifted,
    Claim,
    Event,
    Undo,
    event_from_dict,
    event_to_dict,
)
from companion.rules.game import Count, Counting, Game, Phase, Settings
from companion.rules.show import score_hand
from companion.rules.variants import variant_named

__all__ = ["DEMO_PATH", "Recording", "demo_recording", "script_game"]

#: What ``crib play`` replays with no camera (rewritten by ``python -m companion.app.simulate``).
DEMO_PATH = Path(__file__).resolve().parent / "data" / "demo-game.json"
#: The demo game: a skunk, his heels, thirty-ones and goes; a misread corrected by undo is added to it.
DEMO_SEED = 2


@dataclass(frozen=True, slots=True)
class Recording:
    """The events of one scripted game, and the referee's scores after each deal and at the end."""

    seed: int
    mode: str
    events: tuple[Event, ...]
    deal_scores: tuple[tuple[int, int], ...]
    final: tuple[int, int]
    winner: int
    variant: str = "six-card"

    def to_dict(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "mode": self.mode,
            "variant": self.variant,
            "final": list(self.final),
            "winner": self.winner,
            "deal_scores": [list(s) for s in self.deal_scores],
            "events": [event_to_dict(e) for e in self.events],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Recording:
        return cls(
            seed=int(data["seed"]),
            mode=str(data["mode"]),
            events=tuple(event_from_dict(e) for e in data["events"]),
            deal_scores=tuple((int(a), int(b)) for a, b in data["deal_scores"]),
            final=(int(data["final"][0]), int(data["final"][1])),
            winner=int(data["winner"]),
            variant=str(data.get("variant", "six-card")),
        )

    def save(self, path: str | Path) -> None:
        """Write as JSON, one event per line (readable, and a diff shows which events changed)."""
        data = self.to_dict()
        events = data.pop("events")
        head = json.dumps(data)[:-1]
        body = ",\n".join(json.dumps(e, separators=(",", ":")) for e in events)
        Path(path).write_text(f'{head}, "events": [\n{body}\n]}}\n', encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> Recording:
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
            return cls.from_dict(data)
        except (json.JSONDecodeError, UnicodeDecodeError, KeyError, TypeError) as error:
            raise ValueError(f"{path} is not a recorded game ({error})") from None


def script_game(
    seed: int, *, mode: str = "auto", miss_rate: float = 0.3, variant: str = "six-card"
) -> Recording:
    """Play one whole game to the target with seeded dealing; return what the table would have seen."""
    rng = random.Random(seed)
    # The referee shows the hands itself as the table's engine does (the automatic show is a setting).
    settings = Settings(
        variant=variant_named(variant), counting=Counting(mode), match_games=1, auto_show=True
    )
    referee = Game(settings)
    dealt, thrown_each = referee.variant.dealt, referee.variant.thrown
    seats = referee.variant.players
    if referee.variant.crib_from_pack:
        raise ValueError(f"{variant} is not played at the table (the board has two tracks)")
    events: list[Event] = []
    deal_scores: list[tuple[int, int]] = []

    def land(card: Card, zone: Zone) -> None:
        events.append(CardLanded(card, zone))

    # The cut for the deal: cut again on equal cards, as the engine says.
    while referee.phase is Phase.CUT_FOR_DEAL:
        cuts = rng.sample(full_deck(), seats)
        for player, card in enumerate(cuts):
            referee.cut_for_deal(player, card)
            land(card, Zone.of_player(player))
        for player, card in enumerate(cuts):
            events.append(CardLifted(card, Zone.of_player(player)))

    while referee.phase is not Phase.GAME_OVER:
        dealer = referee.dealer
        assert dealer is not None
        pack = list(full_deck())
        rng.shuffle(pack)
        # Dealt one at a time round the table from the dealer's left, the dealer last.
        order = [(dealer + 1 + i) % seats for i in range(seats)]
        hands = {p: pack[dealt * i : dealt * i + dealt] for i, p in enumerate(order)}
        for player in order:
            referee.deal(player, hands[player])
        crib: list[Card] = []
        for player in order:
            thrown = rng.sample(hands[player], thrown_each)
            referee.discard(player, thrown)
            crib += thrown
        starter = pack[seats * dealt]
        referee.turn_starter(starter)
        mark = len(referee.log)
        land(starter, Zone.STARTER)
        laid: list[tuple[int, Card]] = []
        while referee.phase is Phase.PLAY:
            turn = referee.turn()
            assert turn is not None
            if referee.counting is Counting.CLAIMS and referee.snapshot().pending_claim is not None:
                pending = referee.snapshot().pending_claim
                assert pending is not None
                # A fair player claims what the card scored.
                points = _pending_points(referee)
                referee.claim(pending.player, "play", points)
                events.append(Claim(pending.player, points))
                continue
            held = [c for c in hands[turn] if c not in crib and (turn, c) not in laid]
            fits = [c for c in held if referee.can_play(turn, c)]
            if fits:
                card = rng.choice(fits)
                referee.play(turn, card)
                laid.append((turn, card))
                land(card, Zone.of_player(turn))
            else:
                referee.go(turn)
        if referee.pending is not None and not referee.over:
            # The last card of the play scored (one for last, or more): its player claims it.
            scorer = referee.pending.player
            points = _pending_points(referee)
            referee.claim(scorer, "play", points)
            events.append(Claim(scorer, points))
        # The show: from the dealer's left round to the dealer, then the crib turned face up.  Cards kept
        # back when a one-count play ended (five-card cribbage) are turned up in front of their player.
        kept = {p: [c for c in hands[p] if c not in crib and (p, c) not in laid] for p in order}
        turned_up: list[tuple[int, Card]] = []

        for op in referee.log[mark:]:  # hands the referee showed by itself
            if op.automatic and isinstance(op.action, Count) and op.action.what == "hand":
                turned_up += [(op.action.player, card) for card in kept[op.action.player]]
        for player, card in turned_up:
            land(card, Zone.of_player(player))
        shown_crib = 0
        # The crib is turned up if the game lasted until the show (shown already when automatic).
        shown = referee.phase is Phase.SHOW or any(op.automatic for op in referee.log[mark:])
        for card in crib:
            if not shown:
                break
            land(card, Zone.CRIB)
            shown_crib += 1
        while referee.phase is Phase.SHOW:
            nxt = referee.snapshot().show_next
            assert nxt is not None
            player, what = nxt
            assert referee.counting is Counting.CLAIMS, "the referee shows automatic counts itself"
            if what == "hand":
                for card in kept[player]:
                    land(card, Zone.of_player(player))
                    turned_up.append((player, card))
            hand = crib if what == "crib" else [c for p, c in laid if p == player] + kept[player]
            true = score_hand(hand, starter, crib=what == "crib").total
            claimed = true - rng.randint(1, 3) if true >= 3 and rng.random() < miss_rate else true
            referee.claim(player, what, claimed, crib if what == "crib" else None)
            events.append(Claim(player, claimed))
            if referee.offer is not None and rng.random() < 0.7:
                caller = (player + 1) % seats  # an opponent: the next player round the table
                referee.muggins(caller)
                events.append(CallMuggins(caller))
        deal_scores.append((referee.scores[0], referee.scores[1]))
        # Everything is gathered up for the next deal: the cards laid, the starter, the crib.
        for player, card in [*laid, *turned_up]:
            events.append(CardLifted(card, Zone.of_player(player)))
        events.append(CardLifted(starter, Zone.STARTER))
        events += [CardLifted(card, Zone.CRIB) for card in crib[:shown_crib]]
    assert referee.winner is not None
    return Recording(
        seed=seed,
        mode=mode,
        events=tuple(events),
        deal_scores=tuple(deal_scores),
        final=(referee.scores[0], referee.scores[1]),
        winner=referee.winner,
        variant=variant,
    )


def _pending_points(game: Game) -> int:
    """The true points of the pending play score (a fair player claims them all)."""
    hidden = game.pending
    assert hidden is not None
    return sum(item.points for item in hidden.items)


def demo_recording() -> Recording:
    """The bundled demo: the scripted game of :data:`DEMO_SEED` with one card misread by the camera (the
    next card laid seen as another) and taken back with the undo button before the real card is seen."""
    base = script_game(DEMO_SEED)
    events = list(base.events)
    plays = [i for i, e in enumerate(events) if isinstance(e, CardLanded) and e.zone.startswith("player")]
    at = plays[len(plays) // 3]
    real = events[at]
    assert isinstance(real, CardLanded) and isinstance(real.card, Card)
    card = real.card
    same_suit = [c for c in full_deck() if c.suit is card.suit and c != card]
    misread = next(c for c in same_suit if c.pips == min(card.pips + 2, 10))
    events[at:at] = [CardLanded(misread, real.zone), Undo()]
    return replace(base, events=tuple(events))


if __name__ == "__main__":
    DEMO_PATH.parent.mkdir(exist_ok=True)
    demo_recording().save(DEMO_PATH)
    print(f"wrote {DEMO_PATH}")
