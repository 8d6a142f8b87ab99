"""``crib score`` and ``crib peg``: the rules engine at the terminal, for settling a dispute by hand."""

from __future__ import annotations

import argparse
import json
from typing import Any

from companion.cards import Card, InvalidCard, parse_cards
from companion.rules.errors import IllegalHand
from companion.rules.play import Pegging
from companion.rules.show import score_hand


def register(subparsers: Any) -> None:
    """Add the scoring sub-commands."""
    score = subparsers.add_parser(
        "score",
        help="count a hand or crib with its starter (the last card given)",
        description="Count a hand (4 cards, or 3 for five-card cribbage) or a crib with the starter, "
        "which is the last card given, and explain every point.",
    )
    score.add_argument(
        "cards", nargs="+", metavar="CARD", help="the hand then the starter, e.g. 5h 5d 5s Jc 5c"
    )
    score.add_argument("--crib", action="store_true", help="count as the crib (only a five-card flush)")
    score.add_argument("--json", action="store_true", help="print one JSON object")
    score.set_defaults(func=run_score)

    peg = subparsers.add_parser(
        "peg",
        help="what each card scores in one count to 31",
        description="Lay the cards in the order given, players taking turns (two players unless "
        "--players says otherwise), and say what each card scores. Each player holds as many cards as "
        "they lay here. The count closes with one for last; a card that passes 31 is refused.",
    )
    peg.add_argument("cards", nargs="+", metavar="CARD", help="the cards in the order laid")
    peg.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    peg.add_argument("--json", action="store_true", help="print one JSON object per line")
    peg.set_defaults(func=run_peg)


def _cards(tokens: list[str]) -> tuple[Card, ...]:
    """The cards typed, refusing an empty argument (``''``) rather than dropping it."""
    if any(not token.strip() for token in tokens):
        raise InvalidCard("an empty argument is not a card: give each card as its rank and suit, e.g. 5h")
    return parse_cards(tokens)


def _distinct(cards: tuple[Card, ...]) -> None:
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise IllegalHand(f"{card} is given twice")
        seen.add(card)


def run_score(args: argparse.Namespace) -> int:
    """Print the count of a hand or crib."""
    cards = _cards(args.cards)
    _distinct(cards)
    if len(cards) not in (4, 5):
        raise IllegalHand(f"give 4 or 5 cards (the hand, then the starter), not {len(cards)}")
    result = score_hand(cards[:-1], cards[-1], crib=args.crib)
    if args.json:
        print(json.dumps(result.to_dict()))
        return 0
    what = "crib" if args.crib else "hand"
    print(f"{what} {' '.join(map(str, result.hand))}, starter {result.starter}")
    for item in result.items:
        print(f"  {item.kind.value:<10} {' '.join(map(str, item.cards)):<16} {item.points:>2}")
    print(f"{result.explain()}")
    print(f"total {result.total}")
    return 0


def run_peg(args: argparse.Namespace) -> int:
    """Lay the cards in turn and print what each one pegs."""
    cards = _cards(args.cards)
    _distinct(cards)
    players: int = args.players
    holders = [i % players for i in range(len(cards))]
    sizes = [holders.count(p) for p in range(players)]
    if min(sizes) == 0:
        raise IllegalHand(f"give at least one card for each of the {players} players")
    pegging = Pegging(players, 0, hand_size=sizes)
    for holder, card in zip(holders, cards, strict=True):
        peg = pegging.play(holder, card)
        _print_peg(peg.to_dict() | {"explain": peg.explain()}, args.json)
    print(f"points {' '.join(f'player {p}: {n}' for p, n in enumerate(pegging.points))}")
    return 0


def _print_peg(record: dict[str, object], as_json: bool) -> None:
    if as_json:
        print(json.dumps(record))
    else:
        print(f"player {record['player']} lays {record['card']}: {record['explain']}")
