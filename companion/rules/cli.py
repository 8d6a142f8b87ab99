"""``crib score`` and ``crib peg``: the rules engine at the terminal, for settling a dispute by hand."""

from __future__ import annotations

import argparse
import json
from dataclasses import replace
from typing import Any

from companion.cards import Card, InvalidCard, parse_cards
from companion.rules.errors import IllegalHand, IllegalPlay
from companion.rules.items import Kind, ScoreItem
from companion.rules.play import Peg, Pegging
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
        help="what each card scores in the play to 31 (write go for a player who cannot lay)",
        description="Lay the cards in the order given, players taking turns (two players unless "
        "--players says otherwise; the first card is player 1's), and say what each card scores. Write "
        "go where the player whose turn it is cannot lay: the others play on, and once nobody can lay "
        "the last to lay pegs one for the go and the count starts again at 0. A card that passes 31 is "
        "refused, and the last card given pegs one for last (unless it makes 31). Example: "
        "crib peg 10h Jc 9h go 2c",
    )
    peg.add_argument(
        "cards",
        nargs="+",
        metavar="CARD",
        help="the cards in the order laid, and go for a player who cannot lay",
    )
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
    """Lay the cards in turn, with the goes given, and print what each one pegs.

    Nobody's hand is known, so every player is taken to hold enough cards: the turn passes round the
    table, a go passes it on, and the player after the last to lay leads the fresh count.  The end of
    the cards given is the end of the play: the last to lay pegs one for last.
    """
    tokens: list[str] = args.cards
    players: int = args.players
    cards = _cards([t for t in tokens if t.strip().lower() != "go"])
    _distinct(cards)
    laid = iter(cards)
    pegging = Pegging(players, 0, hand_size=len(tokens))
    records: list[dict[str, object]] = []
    for token in tokens:
        player = pegging.turn
        if token.strip().lower() == "go":
            peg = pegging.go(player)
        else:
            card = next(laid)
            try:
                peg = pegging.play(player, card)
            except IllegalPlay as error:
                if pegging.count + card.pips <= 31:
                    raise
                raise IllegalPlay(f"{error}: write go before it if {_who(player)} could not lay") from None
        record = peg.to_dict() | {"explain": peg.explain(), "restart": peg.card is None and bool(peg.items)}
        records.append(record)
    if pegging.laid and pegging.last_player is not None:  # the cards given are all laid: one for last
        item = ScoreItem(Kind.LAST_CARD, (pegging.laid[-1],), 1)
        last = pegging.history[-1]
        if last.card is not None:
            peg = replace(last, items=(*last.items, item))
            records[-1] = peg.to_dict() | {"explain": peg.explain(), "restart": False}
        else:  # it ends with goes: the last to lay pegs it as the others cannot answer
            peg = Peg(pegging.last_player, None, pegging.count, (item,), pegging.last_player)
            records.append(peg.to_dict() | {"explain": "one for last", "restart": False})
        pegging.points[peg.scorer] += 1
    for record in records:
        _print_peg(record, args.json)
    print(f"points {', '.join(f'{_who(p)}: {n}' for p, n in enumerate(pegging.points))}")
    return 0


def _who(player: int) -> str:
    """A player as people count them: the first to lay is player 1."""
    return f"player {player + 1}"


def _print_peg(record: dict[str, object], as_json: bool) -> None:
    if as_json:
        print(json.dumps(record))
        return
    player = record["player"]
    scorer = record["scorer"]
    assert isinstance(player, int) and isinstance(scorer, int)
    if record["card"] is None and record["explain"] == "one for last":
        print(f"{_who(player)} pegs one for last: the cards given are all laid")
    elif record["card"] is None:
        line = f"{_who(player)} says go"
        if record["restart"]:
            line += f": one for the go to {_who(scorer)}, and the count starts again at 0"
        print(line)
    else:
        print(f"{_who(player)} lays {record['card']}: {record['explain']}")
