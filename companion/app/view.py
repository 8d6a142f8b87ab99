"""What the board and the scoreboard show, made from the game's snapshot (and nothing else).

The board gets a :class:`~companion.board.state.BoardState`: both tracks' rear and forward pegs, the
tentative peg blinking while a player dials a claim, the question flashing while a card waits for a
correction, the winner's animation at the end, the idle pattern before the first card.  The scoreboard
gets a JSON-ready *view*: names, scores, pegs, the count and the cards on the table, the last score with
its spoken explanation, the deal's history, the deal-by-deal table, muggins offers, corrections asked
for (with the choice the knobs highlight), the match and skunks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.board.state import DEFAULT_COLOURS, BoardState, Mode, Pegs, Tentative
from companion.rules.game import Counting, Deal, Game, NextGame, Phase, Snapshot
from companion.rules.names import named
from companion.rules.settings import FirstDeal, OverClaim, Settings

if TYPE_CHECKING:
    from companion.app.store import Journal
    from companion.app.table import Table

__all__ = ["board_state", "build_view", "deal_rows", "house_rules_text", "layout_dict", "statistics"]

_PHASE_WORDS = {
    Phase.CUT_FOR_DEAL: "cut for the deal",
    Phase.DEAL: "the deal",
    Phase.DISCARD: "throwing to the crib",
    Phase.STARTER: "turn the starter",
    Phase.PLAY: "the play",
    Phase.SHOW: "the show",
    Phase.GAME_OVER: "game over",
}


def house_rules_text(settings: Settings) -> str:
    """The match's length and house rules in a compact line of plain words, for the scoreboard:
    "to 121, best of 3 · muggins on (also in the play) · skunk 91, double 61, a skunk wins two"."""
    length = f"to {settings.game_target}"
    length += ", one game" if settings.match_games == 1 else f", best of {settings.match_games}"
    if not settings.muggins:
        muggins = "no muggins"
    else:
        muggins = "muggins on" + (" (also in the play)" if settings.muggins_in_play else " (not in the play)")
    skunk, double = settings.skunk
    lines = f"skunk {skunk}" + (", no double skunk" if double is None else f", double {double}")
    if settings.match_games > 1:
        lines += ", a skunk wins two" if settings.skunk_double_win else ", a skunk wins one"
    parts = [length, muggins, lines]
    if settings.over_claim is OverClaim.OPPONENT_TAKES:
        parts.append("over-claims to the opponent")
    if settings.match_games > 1:
        loser = settings.first_deal is FirstDeal.LOSER
        parts.append("the loser deals next" if loser else "the deal alternates")
    return " · ".join(parts)


def statistics(journal: Journal) -> dict[str, Any]:
    """Each player's record and the recent finished games, for the scoreboard's statistics."""
    return {"players": [s.to_dict() for s in journal.statistics()], "games": journal.history()}


def layout_dict() -> dict[str, Any] | None:
    """The board's layout (holes and start holes in mm) for the scoreboard's drawing; None if unreadable."""
    from companion.board.layout import LayoutError, default_layout

    try:
        layout = default_layout()
    except (OSError, LayoutError):
        return None
    return {
        "size_mm": list(layout.size_mm),
        "holes": [{"track": h.track, "hole": h.hole, "x_mm": h.x_mm, "y_mm": h.y_mm} for h in layout.holes],
        "start_holes": [
            {"track": s.track, "peg": s.peg, "x_mm": s.x_mm, "y_mm": s.y_mm} for s in layout.start_holes
        ],
    }


def board_state(
    snapshot: Snapshot,
    *,
    tentative: tuple[int, int] | None = None,
    brightness: int = 64,
    question: bool = False,
) -> BoardState:
    """The board's full state for this moment of the game.

    ``question``: the table is waiting for a correction.  The board shows it in game mode only, so a
    question outranks the idle pattern and the winner's wave: nothing is read until it is answered, and
    the players must see that before anything else.
    """
    pegs = tuple(
        Pegs(min(p.rear, p.forward) if p.forward else 0, p.forward, DEFAULT_COLOURS[side])
        for side, p in enumerate(snapshot.pegs[:2])
    )
    if question:
        return BoardState(Mode.GAME, brightness, (pegs[0], pegs[1]), _blink(tentative), None, True)
    if snapshot.phase is Phase.GAME_OVER and snapshot.winner is not None and snapshot.winner < 2:
        return BoardState(Mode.WIN, brightness, (pegs[0], pegs[1]), None, snapshot.winner)
    if snapshot.serial == 0:
        return BoardState(Mode.IDLE, brightness, (pegs[0], pegs[1]))
    return BoardState(Mode.GAME, brightness, (pegs[0], pegs[1]), _blink(tentative), None)


def _blink(tentative: tuple[int, int] | None) -> Tentative | None:
    if tentative is not None:
        side, hole = tentative
        if 0 <= side < 2 and 1 <= hole <= 121:
            return Tentative(side, hole)
    return None


def deal_rows(game: Game) -> list[dict[str, Any]]:
    """The current game's deals: who dealt, the points each side made, and the scores after."""
    sides = game.variant.tracks
    rows: list[dict[str, Any]] = []
    scores = [0] * sides
    previous: object = None
    first_dealer = game.first_dealer
    for op in game.log:
        if isinstance(op.action, NextGame):
            rows, scores = [], [0] * sides
        elif isinstance(op.action, Deal) and not isinstance(previous, Deal):
            dealer = None if first_dealer is None else (first_dealer + len(rows)) % game.variant.players
            row = {"deal": len(rows) + 1, "dealer": dealer, "points": [0] * sides, "scores": list(scores)}
            rows.append(row)
        for scoring in op.scores:
            scores[scoring.side] += scoring.points
            if rows:
                rows[-1]["points"][scoring.side] += scoring.points
                rows[-1]["scores"] = list(scores)
        previous = op.action
    return rows


def _history(game: Game, names: tuple[str, ...]) -> list[list[dict[str, Any]]]:
    """Every score of the game in progress, deal by deal (oldest first), each with its explanation and
    the cards of every item (for the scoreboard to light them)."""
    groups: list[list[dict[str, Any]]] = []
    previous: object = None
    for op in game.log:
        if isinstance(op.action, NextGame):
            groups = []
        elif isinstance(op.action, Deal) and not isinstance(previous, Deal):
            groups.append([])
        previous = op.action
        for scoring in op.scores:
            if not groups:
                groups.append([])
            groups[-1].append(
                {
                    "player": scoring.player,
                    "points": scoring.points,
                    "reason": scoring.reason,
                    "text": _named(scoring.explanation or scoring.reason, names),
                    "items": [item.to_dict() for item in scoring.items],
                }
            )
    return groups


def _named(text: str, names: tuple[str, ...]) -> str:
    return named(text, names)


def build_view(table: Table) -> dict[str, Any]:
    """The scoreboard's view of the table right now."""
    from companion.app.table import side_names

    game = table.game
    snapshot = game.snapshot()
    names = tuple(table.players)
    last = None
    if snapshot.last_scores:
        first = snapshot.last_scores[-1]
        last = {
            "player": first.player,
            "points": sum(s.points for s in snapshot.last_scores if s.player == first.player),
            "text": _named(first.explanation or first.reason, names),
        }
    offer = snapshot.muggins_offer
    muggins = None
    if offer is not None:
        muggins = {
            "player": (offer.against + 1) % game.variant.players,
            "against": offer.against,
            "points": offer.points,
            "text": _named(offer.explanation, names),
            "serial": offer.serial,
            "seconds": table.config.muggins_seconds,
            "what": offer.what,
            "items": [item.to_dict() for item in offer.items],
        }
    tentative = table.tentative()
    history = _history(game, names)
    turn_name = names[snapshot.turn] if snapshot.turn is not None and snapshot.turn < len(names) else ""
    phase_text = _PHASE_WORDS[snapshot.phase]
    if snapshot.phase is not Phase.GAME_OVER:
        phase_text += f": {_named(snapshot.waiting_for, names)}"
    skunk = {None: 0, "skunk": 1, "double-skunk": 2}.get(snapshot.skunk, 0)
    return {
        "players": list(names),
        # The board's two tracks by name: a player's, or both partners' ("Ann & Cal") with four players;
        # "players" are the seats round the table, which "turn", "dealer" and every score's "player" name.
        "sides": list(side_names(game, names)),
        "side_of": [game.side_of(p) for p in range(game.variant.players)],
        "colours": ["#" + c.hex for c in DEFAULT_COLOURS[:2]],
        "mode": "claims" if snapshot.counting is Counting.CLAIMS else "auto",
        "phase": snapshot.phase.value,
        "phase_text": phase_text,
        "turn": snapshot.turn,
        "turn_name": turn_name,
        "dealer": snapshot.dealer,
        "pone": snapshot.pone,
        "show_next": None if snapshot.show_next is None else list(snapshot.show_next),
        "expects": list(snapshot.expects),
        "can_go": snapshot.phase is Phase.PLAY and snapshot.turn is not None and game.can_go(snapshot.turn),
        "pending_claim": None if snapshot.pending_claim is None else snapshot.pending_claim.to_dict(),
        "game_number": snapshot.game_number,
        "target": snapshot.target,
        "scores": list(snapshot.scores),
        "pegs": [[p.rear, p.forward] for p in snapshot.pegs],
        "tentative": None if tentative is None else {"player": tentative[0], "score": tentative[1]},
        "count": snapshot.count,
        "run": [{"player": p, "card": str(c)} for p, c in snapshot.count_cards],
        "laid": [{"player": p, "card": str(c)} for p, c in snapshot.deal_cards],
        "starter": None if snapshot.starter is None else str(snapshot.starter),
        "crib": [str(c) for c in snapshot.crib] or list(table.crib_seen()),
        "last": last,
        "last_note": _named(snapshot.last_note, names),
        "history": history[-1] if history else [],
        "deal_history": history,
        "deals": deal_rows(game),
        "muggins": muggins,
        "correction": None
        if table.correction is None
        else {**table.correction.to_dict(), "highlighted": table.highlighted},
        "notice": table.notice or None,
        "winner": snapshot.winner,
        "skunk": skunk,
        "match": {
            "games_won": list(snapshot.match_wins),
            "games_to_win": game.settings.wins_needed,
            "winner": snapshot.match_winner,
            "games": [g.to_dict() for g in snapshot.games],
        },
        "settings": game.settings.to_dict(),
        "house_rules": house_rules_text(game.settings),
        "serial": snapshot.serial,
    }
