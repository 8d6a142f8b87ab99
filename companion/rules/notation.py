"""The game notation: a whole game as text, one action per line, for saving, replaying and bug reports.

Reading and writing take open text streams; nothing here opens a file.  A game file looks like::

    # Ann (player 0) against Bob (player 1), the Red Lion, Tuesday
    variant six-card
    counting claims
    muggins on
    cut 0 7h
    cut 1 Kd                # player 0 cut lowest and deals first
    deal 0 5h 5d 5s Jc 2c 3c
    deal 1 7h 8h 9h 10h Qs Ks
    discard 1 Qs Ks
    discard 0 2c 3c
    starter 4d
    play 1 7h
    play 0 8h
    claim 0 play 2
    score 2 0
    ...

Settings come first (``variant``, ``counting auto|claims``, ``muggins on|off|play``, ``over-claim
corrected|opponent-takes``, ``target N``, ``skunk N [N|none]``, ``skunk-wins double|single`` (whether a
skunk counts as two games in a match), ``match N [alternate|loser]``, ``show auto|called``: with ``show
auto`` the engine counts each hand itself when the play ends), then
the actions, each named as in :mod:`companion.rules.game`: ``cut P CARD``, ``deal P [CARDS]``, ``deal
crib [CARD]``, ``discard P [CARDS]``, ``starter CARD``, ``play P CARD``, ``go P``, ``count P hand|crib
[CARDS]``, ``claim P hand|crib|play N [CARDS]``, ``muggins P``, ``pass``, ``switch auto|claims``,
``next-game``. Cards left out were dealt or thrown face down. An optional ``players Ann, Bob`` line
names the players in seat order (player 0 first) for what is printed; the actions still number them.
``undo`` takes back the line before (as the table did), and ``score A B ...`` asserts the score of each
track at that point, so a file is its own golden test.  ``#`` starts a comment; blank lines are ignored.

>>> game = load_game(["variant five-card", "cut 0 Ac", "cut 1 Kd   # player 0 deals", "score 0 3"])
>>> game.dealer, game.scores
(0, [0, 3])
>>> import io
>>> text = io.StringIO()
>>> write_game(game, text, notes=False)
>>> print(text.getvalue().strip())
# crib companion game file: one action per line
variant five-card
counting auto
muggins on
over-claim corrected
match 3 alternate
cut 0 Ac
cut 1 Kd
score 0 3
>>> load_game(["cut 0 Ac", "cut 1 Ac"], "bad.crib")
Traceback (most recent call last):
    ...
companion.rules.notation.NotationError: bad.crib line 2: Ac was already cut by player 0: the same card ...
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import TextIO, TypeAlias

from companion.cards import Card, InvalidCard, parse_cards
from companion.rules.errors import RulesError
from companion.rules.game import (
    Action,
    Claim,
    Count,
    Counting,
    CutForDeal,
    Deal,
    DealCrib,
    Discard,
    FirstDeal,
    Game,
    Go,
    Muggins,
    NextGame,
    Operation,
    OverClaim,
    PassMuggins,
    Play,
    Settings,
    SwitchCounting,
    TurnStarter,
)
from companion.rules.variants import variant_named

__all__ = [
    "GameFile",
    "NotationError",
    "ScoreCheck",
    "Undo",
    "action_from_line",
    "format_action",
    "load_game",
    "parse_action",
    "read_game",
    "replay_lines",
    "write_game",
]


class NotationError(ValueError):
    """A game file that cannot be read or replayed; the message names the line."""


@dataclass(frozen=True, slots=True)
class Undo:
    """The ``undo`` line: the table took back the action before."""


@dataclass(frozen=True, slots=True)
class ScoreCheck:
    """The ``score`` line: each track's score at this point, asserted on replay."""

    scores: tuple[int, ...]


Entry: TypeAlias = Action | Undo | ScoreCheck


@dataclass(frozen=True, slots=True)
class GameFile:
    """A game file read: its settings and its entries, each with the line it came from."""

    name: str
    settings: Settings
    entries: tuple[tuple[int, Entry], ...]
    #: The players' names, in seat order (player 0 first), if the file has a ``players`` line.
    players: tuple[str, ...] = ()


def _player(token: str) -> int:
    if not (token.isascii() and token.isdigit()):
        raise ValueError(f"{token!r} is not a player number")
    return int(token)


def _number(token: str) -> int:
    if not (token.isascii() and token.isdigit()):
        raise ValueError(f"{token!r} is not a number of points")
    return int(token)


def _one_card(tokens: list[str], verb: str) -> Card:
    if len(tokens) != 1:
        raise ValueError(f"'{verb}' takes one card, not {len(tokens)}")
    return Card.parse(tokens[0])


def _maybe_cards(tokens: list[str]) -> tuple[Card, ...] | None:
    return parse_cards(tokens) if tokens else None


def _exactly(tokens: list[str], n: int, form: str) -> None:
    if len(tokens) != n:
        raise ValueError(f"expected '{form}'")


def parse_action(line: str) -> Entry:
    """One action line (no comment) as an action, ``Undo`` or ``ScoreCheck``; ValueError if unreadable."""
    verb, *rest = line.split()
    verb = verb.lower()
    if verb == "cut":
        _exactly(rest, 2, "cut PLAYER CARD")
        return CutForDeal(_player(rest[0]), Card.parse(rest[1]))
    if verb == "deal":
        if not rest:
            raise ValueError("expected 'deal PLAYER [CARDS]' or 'deal crib [CARD]'")
        if rest[0].lower() == "crib":
            return DealCrib(_one_card(rest[1:], "deal crib") if rest[1:] else None)
        return Deal(_player(rest[0]), _maybe_cards(rest[1:]))
    if verb == "discard":
        if not rest:
            raise ValueError("expected 'discard PLAYER [CARDS]'")
        return Discard(_player(rest[0]), _maybe_cards(rest[1:]))
    if verb == "starter":
        return TurnStarter(_one_card(rest, "starter"))
    if verb == "play":
        _exactly(rest, 2, "play PLAYER CARD")
        return Play(_player(rest[0]), Card.parse(rest[1]))
    if verb == "go":
        _exactly(rest, 1, "go PLAYER")
        return Go(_player(rest[0]))
    if verb == "count":
        if len(rest) < 2:
            raise ValueError("expected 'count PLAYER hand|crib [CARDS]'")
        return Count(_player(rest[0]), rest[1].lower(), _maybe_cards(rest[2:]))
    if verb == "claim":
        if len(rest) < 3:
            raise ValueError("expected 'claim PLAYER hand|crib|play POINTS [CARDS]'")
        return Claim(_player(rest[0]), rest[1].lower(), _number(rest[2]), _maybe_cards(rest[3:]))
    if verb == "muggins":
        _exactly(rest, 1, "muggins PLAYER")
        return Muggins(_player(rest[0]))
    if verb == "pass":
        _exactly(rest, 0, "pass")
        return PassMuggins()
    if verb == "switch":
        _exactly(rest, 1, "switch auto|claims")
        return SwitchCounting(_counting(rest[0]))
    if verb == "next-game":
        _exactly(rest, 0, "next-game")
        return NextGame()
    if verb == "undo":
        _exactly(rest, 0, "undo")
        return Undo()
    if verb == "score":
        if not rest:
            raise ValueError("expected 'score N N ...', one score per track")
        return ScoreCheck(tuple(_number(t) for t in rest))
    raise ValueError(f"{verb!r} is not an action a game file knows")


def action_from_line(line: str) -> Action:
    """One action line as the engine's action: what the journal keeps (``undo`` and ``score`` are lines
    of a file, not actions, so they are a ValueError here, as anything unreadable is)."""
    entry = parse_action(line)
    if isinstance(entry, Undo | ScoreCheck):
        raise ValueError(f"{line!r} is not an action")
    return entry


def _counting(token: str) -> Counting:
    try:
        return Counting(token.lower())
    except ValueError:
        raise ValueError(f"counting is 'auto' or 'claims', not {token!r}") from None


def _on_off(token: str) -> tuple[bool, bool]:
    token = token.lower()
    table = {"on": (True, False), "off": (False, False), "play": (True, True)}
    if token not in table:
        raise ValueError(f"muggins is 'on', 'off' or 'play' (also in the play), not {token!r}")
    return table[token]


def _setting(settings: Settings, verb: str, rest: list[str]) -> Settings:
    if verb == "variant":
        _exactly(rest, 1, "variant NAME")
        return replace(settings, variant=variant_named(rest[0]))
    if verb == "counting":
        _exactly(rest, 1, "counting auto|claims")
        return replace(settings, counting=_counting(rest[0]))
    if verb == "muggins":
        _exactly(rest, 1, "muggins on|off|play")
        muggins, in_play = _on_off(rest[0])
        return replace(settings, muggins=muggins, muggins_in_play=in_play)
    if verb == "over-claim":
        _exactly(rest, 1, "over-claim corrected|opponent-takes")
        try:
            return replace(settings, over_claim=OverClaim(rest[0].lower()))
        except ValueError:
            raise ValueError(f"over-claim is 'corrected' or 'opponent-takes', not {rest[0]!r}") from None
    if verb == "target":
        _exactly(rest, 1, "target POINTS")
        return replace(settings, target=_number(rest[0]))
    if verb == "skunk":
        if len(rest) not in (1, 2):
            raise ValueError("expected 'skunk LINE [DOUBLE-LINE|none]'")
        double = None if len(rest) == 1 else 0 if rest[1].lower() == "none" else _number(rest[1])
        return replace(settings, skunk_line=_number(rest[0]), double_skunk_line=double)
    if verb == "skunk-wins":
        _exactly(rest, 1, "skunk-wins double|single")
        if rest[0].lower() not in ("double", "single"):
            raise ValueError(f"a skunk wins 'double' (two games) or 'single', not {rest[0]!r}")
        return replace(settings, skunk_double_win=rest[0].lower() == "double")
    if verb == "show":
        _exactly(rest, 1, "show auto|called")
        if rest[0].lower() not in ("auto", "called"):
            raise ValueError(f"the show is 'auto' (counted by the companion) or 'called', not {rest[0]!r}")
        return replace(settings, auto_show=rest[0].lower() == "auto")
    if verb == "match":
        if len(rest) not in (1, 2):
            raise ValueError("expected 'match GAMES [alternate|loser]'")
        first = settings.first_deal
        if len(rest) == 2:
            try:
                first = FirstDeal(rest[1].lower())
            except ValueError:
                raise ValueError(f"the first deal rule is 'alternate' or 'loser', not {rest[1]!r}") from None
        return replace(settings, match_games=_number(rest[0]), first_deal=first)
    raise KeyError(verb)


_SETTINGS = ("variant", "counting", "muggins", "over-claim", "target", "skunk", "skunk-wins", "match", "show")


def read_game(stream: Iterable[str], name: str = "game") -> GameFile:
    """Read a game file; a :class:`NotationError` names the first line that cannot be read."""
    settings = Settings()
    entries: list[tuple[int, Entry]] = []
    players: tuple[str, ...] = ()
    for number, raw in enumerate(stream, start=1):
        if number == 1:
            raw = raw.removeprefix("\ufeff")  # a byte-order mark, as some editors save UTF-8
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        verb, *rest = line.split()
        try:
            is_action = verb.lower() == "muggins" and rest[:1] and rest[0].isdigit()
            if verb.lower() in (*_SETTINGS, "players") and not is_action:
                if entries:
                    raise ValueError(f"the setting {verb!r} must come before the first action")
                if verb.lower() == "players":
                    players = _names(line.split(None, 1)[1] if rest else "")
                else:
                    settings = _setting(settings, verb.lower(), rest)
                continue
            entries.append((number, parse_action(line)))
        except (ValueError, InvalidCard) as error:
            raise NotationError(f"{name} line {number}: {error}") from None
    if len(players) not in (0, settings.variant.players):
        raise NotationError(
            f"{name}: the players line names {len(players)} players, but {settings.variant.name} "
            f"cribbage has {settings.variant.players}"
        )
    return GameFile(name, settings, tuple(entries), players)


def _names(text: str) -> tuple[str, ...]:
    """The ``players`` line's names: separated by commas, in seat order."""
    names = tuple(part.strip() for part in text.split(","))
    if not all(names):
        raise ValueError("expected 'players NAME, NAME ...', the names in seat order from player 0")
    return names


def replay_lines(record: GameFile) -> Iterator[tuple[int, Entry, Operation | None, Game]]:
    """Replay a game file step by step: each line, its entry, the operation it did, and the game.

    ``undo`` yields the operation it took back; ``score`` yields ``None`` after checking the scores.
    A refused action or a wrong score raises :class:`NotationError` naming the line.
    """
    game = Game(record.settings)
    for number, entry in record.entries:
        try:
            if isinstance(entry, Undo):
                yield number, entry, game.undo(), game
            elif isinstance(entry, ScoreCheck):
                if entry.scores != tuple(game.scores):
                    raise RulesError(
                        f"the score should be {' '.join(map(str, entry.scores))} but is "
                        f"{' '.join(map(str, game.scores))}"
                    )
                yield number, entry, None, game
            else:
                yield number, entry, game.apply(entry), game
        except RulesError as error:
            raise NotationError(f"{record.name} line {number}: {error}") from None


def load_game(stream: Iterable[str], name: str = "game") -> Game:
    """Read and replay a game file, returning the game as it stands at the end."""
    record = read_game(stream, name)
    game = Game(record.settings)
    for _, _, _, replayed in replay_lines(record):
        game = replayed
    return game


def _cards(cards: Iterable[Card] | None) -> str:
    return "" if cards is None else " " + " ".join(str(c) for c in cards)


def format_action(action: Entry) -> str:
    """One action as its notation line (the inverse of :func:`parse_action`)."""
    match action:
        case CutForDeal(player, card):
            return f"cut {player} {card}"
        case Deal(player, cards):
            return f"deal {player}{_cards(cards)}"
        case DealCrib(card):
            return "deal crib" + ("" if card is None else f" {card}")
        case Discard(player, cards):
            return f"discard {player}{_cards(cards)}"
        case TurnStarter(card):
            return f"starter {card}"
        case Play(player, card):
            return f"play {player} {card}"
        case Go(player):
            return f"go {player}"
        case Count(player, what, cards):
            return f"count {player} {what}{_cards(cards)}"
        case Claim(player, what, points, cards):
            return f"claim {player} {what} {points}{_cards(cards)}"
        case Muggins(player):
            return f"muggins {player}"
        case PassMuggins():
            return "pass"
        case SwitchCounting(counting):
            return f"switch {counting.value}"
        case NextGame():
            return "next-game"
        case Undo():
            return "undo"
        case ScoreCheck(scores):
            return "score " + " ".join(map(str, scores))
    raise ValueError(f"{action!r} has no notation")  # pragma: no cover


def _settings_lines(settings: Settings) -> list[str]:
    muggins = "off" if not settings.muggins else ("play" if settings.muggins_in_play else "on")
    lines = [
        f"variant {settings.variant.name}",
        f"counting {settings.counting.value}",
        f"muggins {muggins}",
        f"over-claim {settings.over_claim.value}",
        f"match {settings.match_games} {settings.first_deal.value}",
    ]
    if settings.target is not None:  # only what differs from the variant, so the file reads back the same
        lines.append(f"target {settings.target}")
    if settings.skunk_line is not None or settings.double_skunk_line is not None:
        skunk, _ = settings.skunk
        double = settings.double_skunk_line
        lines.append(f"skunk {skunk}" + ("" if double is None else " none" if double == 0 else f" {double}"))
    if not settings.skunk_double_win:
        lines.append("skunk-wins single")
    if settings.auto_show:
        lines.append("show auto")
    return lines


def write_game(
    game: Game,
    stream: TextIO,
    *,
    scores: bool = True,
    notes: bool = True,
    players: Sequence[str] = (),
) -> None:
    """Write the game's settings and actions; with ``scores`` a ``score`` line after every score pegged,
    with ``notes`` each action's sentence as a comment, and ``players``' names on a ``players`` line.

    What the engine did by itself (the automatic show) is written as a comment only: replayed under the
    same settings, the engine does it again.
    """
    stream.write("# crib companion game file: one action per line\n")
    for line in _settings_lines(game.settings):
        stream.write(line + "\n")
    if players:
        stream.write("players " + ", ".join(players) + "\n")
    totals = [0] * game.variant.tracks
    log = game.log
    pegged = False
    for index, op in enumerate(log):
        if isinstance(op.action, NextGame):
            totals = [0] * game.variant.tracks
        text = format_action(op.action)
        if op.automatic:
            if notes:
                stream.write(f"# {op.note}\n")
        else:
            stream.write(f"{text:<32} # {op.note}\n" if notes else text + "\n")
        for scoring in op.scores:
            totals[scoring.side] = scoring.forward
        pegged = pegged or bool(op.scores)
        # The score is checked once the engine has done all it does by itself after the action.
        if scores and pegged and (index + 1 == len(log) or not log[index + 1].automatic):
            stream.write(format_action(ScoreCheck(tuple(totals))) + "\n")
            pegged = False
