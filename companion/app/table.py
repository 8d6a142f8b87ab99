"""The table: what the camera, the knobs and the scoreboard report, turned into the engine's actions.

This is the game loop's brain, kept free of threads and timers so it can be tested event by event.  It
owns the rules engine's :class:`~companion.rules.game.Game` and the :class:`~companion.app.store.Journal`;
each event is interpreted against the game as it stands:

* **cut for the deal** -- a card landing in a player's zone is that player's cut;
* **the starter** -- a card landing on the starter spot: the deal and the throws to the crib happened face
  down, so they are recorded as unseen cards, then the starter is turned (a jack: two for his heels);
* **the play** -- a card landing in a player's zone was laid by that player.  A "go" is inferred when the
  same player lays twice running or a card would pass 31 (the opponent, or both, must have said go;
  with four players, everyone round the table between the last to lay and this one);
  the knob's press also says go;
* **the show** -- the hands are the cards each player laid (and any kept back in five-card cribbage),
  the crib its four cards turned face up (:mod:`companion.app.show_cards` follows them).  With automatic
  counting the engine pegs each count; with claims each player dials and pegs a claim and
  under-claimed points are offered to the opponent (muggins).

A card that does not fit is never guessed at: the table asks a question (:mod:`companion.app.questions`)
and reads nothing past it until it is answered.  The three modules are one object, :class:`Table`, each
keeping its own part of the state: every event is read against the same game and journal.

Four players in partnership (``variant = "four-player"``) sit round the table in the order named, so the
deal, the play and the show go round from the dealer's left; each seat has its own zone, partners
(the first and third, the second and fourth) peg on one track, and each track's knob serves both of
its partners.

One event's actions form a group (a play and the goes inferred before it), done by the engine all or
none (:meth:`~companion.rules.game.Game.apply_group`), with the automatic show done by the engine itself
as part of the group.  The groups one event does, and the notes of cards seen beside them, are committed
to the journal together, in the game notation, before anything is shown (a journal that cannot take
them puts the table back to what it holds), so a power cut never leaves half of what one event did;
undo takes back the last group in the engine and in the journal, each whole, so an undo never leaves
half of what one card caused.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from typing import Any, Final

from companion.app.config import TableConfig
from companion.app.questions import CRIB_ZONE, PLAYER_ZONES, STARTER_ZONE, Correction, raise_refusal
from companion.app.show_cards import ShowCards
from companion.app.store import GameSummary, Journal, SavedMatch, SeatSummary
from companion.cards import Card, InvalidCard, Zone
from companion.events import (
    CallMuggins,
    CardLanded,
    CardLifted,
    Claim,
    Correct,
    DialClaim,
    Event,
    MugginsExpired,
    NewGame,
    PegClaim,
    SayGo,
    SetMode,
    Shutdown,
    TableNotice,
    Undo,
)
from companion.rules.errors import RulesError
from companion.rules.game import (
    Action,
    Count,
    Counting,
    CutForDeal,
    Deal,
    Discard,
    Game,
    Go,
    Muggins,
    NextGame,
    PassMuggins,
    Phase,
    Play,
    Settings,
    SwitchCounting,
    TurnStarter,
)
from companion.rules.game import Claim as ClaimAction
from companion.rules.names import named as name_players
from companion.rules.notation import action_from_line, format_action

__all__ = ["PLAYER_ZONES", "Correction", "Table", "game_summaries", "side_names"]

_SKUNK: Final = {None: 0, "skunk": 1, "double-skunk": 2}


def _settings_dict(config: TableConfig, chosen: Mapping[str, object] | None = None) -> dict[str, Any]:
    """The engine's settings for a new match, as saved with it (read back by ``Settings.from_dict``): the
    settings file's, with the house rules ``chosen`` on the scoreboard (if any) over them.  The match's
    own copy is what a resume reads, so a restart keeps the rules the players chose."""
    settings = config.settings()
    if chosen:
        settings = settings.with_house_rules(chosen)
    return settings.to_dict()


class Table(ShowCards):
    """One table's game: the engine, its journal, and the deal followed from events."""

    def __init__(self, journal: Journal, config: TableConfig) -> None:
        super().__init__()
        self.journal = journal
        self.config = config
        self.notice = ""
        self.taken_in: Zone | None = None
        """Where the last card the camera saw land was taken into the game: its own zone, or one it lay
        nearly as near where the game took it (None where it was asked about or held back)."""
        self.dial: dict[int, int] = dict.fromkeys(range(len(config.players)), 0)
        self._recorded = 0
        self._event_cursor: int | None = None
        self.cursor = -1
        """Position in a replayed recording of the last event that took effect (a resume goes on after it)."""
        saved = journal.unfinished()
        if saved is None:
            self._begin_match()
        else:
            self._read_back(saved)
            self._event_cursor = None if self.cursor < 0 else self.cursor
            self._count_crib()  # a crib seen whole before a power cut is counted now
            self._sync_record()
            self._event_cursor = None
        self.resumed = saved is not None and bool(saved.actions)

    # -- matches -----------------------------------------------------------------------------------

    def _read_back(self, saved: SavedMatch) -> None:
        """The match exactly as the journal holds it: its groups replayed through the engine, the cards
        seen turned up read from its notes, nothing else remembered (no question, no claim dialled)."""
        settings = Settings.from_dict(saved.settings)
        game = Game(settings)
        for group in saved.groups:
            game.apply_group([action_from_line(line) for line in group])
        self.match_id = saved.id
        self.players = saved.players
        self.settings = settings
        self.game = game
        self.cursor = saved.cursor
        self._recorded = len(self.game.games)
        self._forget_questions()
        self.dial = dict.fromkeys(range(len(self.players)), 0)
        self._read_show_notes(saved.id)

    def _begin_match(self, chosen: Mapping[str, object] | None = None) -> None:
        self.players = self.config.players
        settings = _settings_dict(self.config, chosen)
        self.settings = Settings.from_dict(settings)
        self.match_id = self.journal.begin_match(settings, self.players)
        self.game = Game(self.settings)
        self._recorded = 0
        self._reset_follower()

    def _reset_follower(self) -> None:
        self._forget_questions()
        self.dial = dict.fromkeys(range(len(self.players)), 0)
        self._forget_show()

    def new_match(self, chosen: Mapping[str, object] | None = None) -> None:
        """Abandon (or close, if decided) the match in progress and start afresh, under the house rules
        ``chosen`` on the scoreboard (None: the settings file's).  Rules the engine refuses leave the
        match in progress alone and say why."""
        try:
            _settings_dict(self.config, chosen)
        except ValueError as error:
            self.notice = f"no new game: {error}"
            return
        winner = self.game.match_winner
        if winner is not None:
            self.journal.finish_match(self.match_id, winner)
        else:
            self.journal.abandon(self.match_id)
        self._begin_match(chosen)
        self.notice = "a new game: cut for the deal"

    # -- what the outputs show ----------------------------------------------------------------------

    def tentative(self) -> tuple[int, int] | None:
        """The claim being dialled, as (track, hole) for the board's blinking peg; None if none."""
        for player, dial in self.dial.items():
            if dial > 0 and player < self.game.variant.players:
                side = self.game.side_of(player)
                return side, min(self.game.target, self.game.scores[side] + dial)
        return None

    # -- doing, journalled first ---------------------------------------------------------------------

    def _do(self, actions: Sequence[Action], notes: Mapping[str, object] | None = None) -> None:
        """Do one group of actions (all or none; a refusal raises the engine's sentence) and journal it.

        The engine does the group first, in memory, then the journal writes it (committed with the rest
        of the event, see :meth:`handle`) before anything is shown; if the journal cannot be written,
        the group is taken back and the error goes on.  ``notes`` go into the journal with the group.
        """
        if not actions:
            return
        self.game.apply_group(actions)
        try:
            lines = [format_action(action) for action in actions]
            self.journal.append_group(self.match_id, lines, self._event_cursor, notes)
        except BaseException:
            self.game.undo_group()
            raise
        self._sync_record()

    def undo(self) -> bool:
        """Take back the last group of actions (or dismiss a pending correction); False if nothing to undo."""
        if self.correction is not None:
            self.correction = None
            self.notice = "the unread card is ignored"
            self._held_claim = None
            self._release_held()
            return True
        if not self.game.can_undo():
            self.notice = "there is nothing to undo"
            return False
        self.journal.pop_group(self.match_id)  # one transaction: the whole group or nothing
        undone = [op.note for op in self.game.undo_group()]
        self._reset_follower()
        self._sync_record()
        self.notice = named("undone: " + "; ".join(undone), self.players)
        return True

    def _sync_record(self) -> None:
        if len(self.game.games) != self._recorded:
            self.journal.record_games(self.match_id, game_summaries(self.game, self.players))
            self._recorded = len(self.game.games)

    # -- events --------------------------------------------------------------------------------------

    def handle(self, event: Event, *, cursor: int | None = None) -> None:
        """Interpret one event; a refused action leaves the game as it was and says why in ``notice``.

        ``cursor`` is the event's position in a replayed recording, written with the actions it causes,
        so a replay interrupted by a power cut resumes after the last event that took effect.

        Everything the event writes -- its groups of actions, and the notes of cards seen that they
        make stale or that lead to them -- is committed in one transaction, when the event is done: a
        power cut leaves the journal as it stood before the event or after it, never part-way (a
        starter journalled without the last deal's crib cards cleared from the notes, or a card laid
        without the kept card it turned up, resumed after the event's cursor as a game of its own).
        If the journal cannot take it, the error goes on and the table goes back to what the journal
        holds, so the game shown is the one a restart would resume.
        """
        self.notice = ""
        self.answered = None
        self._event_cursor = cursor
        try:
            with self.journal.atomic():
                self._interpret(event)
        except BaseException:
            self._go_back()
            raise
        finally:
            self._event_cursor = None

    def _interpret(self, event: Event) -> None:
        """``_handle``, with a refused action said in ``notice`` (what the event did before stands)."""
        try:
            self._handle(event)
        except RulesError as error:
            self.notice = named(str(error), self.players)
        except InvalidCard as error:
            self.notice = str(error)

    def _go_back(self) -> None:
        """After an event the journal did not take: the game as the journal holds it (if it can still
        be read: else the error on its way says why, and the table stops as it stands)."""
        with contextlib.suppress(Exception):  # whatever the damage, the event's own error is the one told
            saved = self.journal.unfinished()
            if saved is not None:
                self._read_back(saved)

    def _handle(self, event: Event) -> None:
        match event:
            case CardLanded(card, zone, likely=likely, why=why, also_near=near):
                # Held cards and answers share the text form.
                self._landed(str(card), zone, likely=likely, also_near=near)
                self.notice = self.notice or why
                if why:  # how the camera settled a doubtful reading, kept with the match
                    self._camera_note(why)
            case TableNotice(text):
                self.notice = text  # cards the camera left out of the game, shown and kept with the match
                self._camera_note(text)
            case Correct(card, zone, _):
                self._answer(card, zone)
            case CardLifted(_, zone):
                if zone == CRIB_ZONE and self._crib_short():
                    # The crib gathered up before the camera saw all four: ask now, while the players
                    # still have it in mind, rather than leave it uncounted or take in a later card.
                    self._ask_for_crib()
            case Undo():
                self.undo()
            case NewGame():
                self.new_match(event.chosen)
            case SayGo(player):
                self._do([Go(player)])
                self._count_crib()
            case CallMuggins(player):
                self._do([Muggins(player)])
            case MugginsExpired(serial):
                offer = self.game.offer
                if offer is not None and offer.serial == serial:
                    self._do([PassMuggins()])
            case SetMode(mode):
                counting = Counting(mode)
                if counting is not self.game.counting:
                    self._do([SwitchCounting(counting)])
                    self._count_crib()
            case DialClaim(steps=steps) if self.correction is not None:
                self._turn_highlight(steps)
            case DialClaim(knob, steps):
                player = self._knob_player(knob)
                self.dial[player] = max(0, min(29, self.dial.get(player, 0) + steps))
            case PegClaim() if self.correction is not None:
                self._answer_highlighted()
            case PegClaim(knob):
                player = self._knob_player(knob)
                self._peg(player, self.dial.get(player, 0), knob=True)
            case Claim(player, points):
                self._peg(player, points, knob=False)
            case Shutdown():
                pass

    def _camera_note(self, text: str) -> None:
        """Keep what the camera said about the match in the journal's ``camera`` note."""
        self.journal.set_note(
            self.match_id, "camera", [*self.journal.note(self.match_id, "camera", []), text]
        )

    def _knob_player(self, knob: int) -> int:
        """Whom a knob dials and pegs for.  The board has a knob by each track; with four players a
        track's knob serves both partners: it acts for whichever of them the game waits for (a score to
        claim, a hand to show, a card to lay), the first of them if neither."""
        game = self.game
        if not game.variant.partnerships:
            return knob
        snapshot = game.snapshot()
        waiting = [
            snapshot.pending_claim.player if snapshot.pending_claim is not None else None,
            snapshot.show_next[0] if game.phase is Phase.SHOW and snapshot.show_next is not None else None,
            game.turn() if game.phase is Phase.PLAY else None,
        ]
        return next((p for p in waiting if p is not None and game.side_of(p) == knob), knob)

    def _peg(self, player: int, points: int, *, knob: bool) -> None:
        game = self.game
        if game.phase is Phase.GAME_OVER:
            self._next_game()
            return
        in_turn = game.phase is Phase.PLAY and game.turn() == player
        if knob and points == 0 and in_turn and game.can_go(player):
            # The knob pressed with nothing dialled, in the play: "go" (a claim of nothing means nothing).
            self._do([Go(player)])
            self._count_crib()
            return
        goes = self._goes_before_claim(player) if game.counting is Counting.CLAIMS else None
        if goes is not None:
            pending = goes[1]
            cards: tuple[Card, ...] | None = None
            if pending == "crib":
                cards = self._crib_cards()
                if self._crib_short() and self._crib_seen:
                    # Turned up, but a card of it not read: the claim waits for that card to be named.
                    self._held_claim = (player, points, knob)
                    self._ask_for_crib()
                    return
                if cards is None:
                    self.notice = "turn the crib face up first: the camera has not seen its four cards"
                    return
            elif pending == "hand" and game.shown_hand(player) is None:
                cards = self._kept_hand(player)
                if cards is None:
                    self.notice = (
                        f"{self.players[player]}, turn up the cards you kept back first: the camera has "
                        "not seen them"
                    )
                    return
            self._do([*goes[0], ClaimAction(player, pending, points, cards)])
            if pending == "hand":
                self._forget_kept(player)
            self.dial[player] = 0
            self._count_crib()
            return
        self.notice = f"{self.players[player]} has nothing to peg now: {game.waiting_for()}"

    def _goes_before_claim(self, player: int) -> tuple[list[Action], str] | None:
        """What ``player`` may claim for now, and the goes the claim implies (one for the go is claimed
        before the camera can know the opponent said go: no card was laid)."""
        snapshot = self.game.snapshot()
        pending = snapshot.pending_claim
        if pending is not None and pending.player == player:
            return ([], pending.what)
        nxt = snapshot.show_next
        if self.game.phase is Phase.SHOW and nxt is not None and nxt[0] == player:
            return ([], nxt[1])  # a play score still unclaimed is lost when the show begins
        if self.game.phase is not Phase.PLAY:
            return None
        game = self.game
        goes: list[Action] = []
        try:  # the goes are tried on the game itself, each taken back below
            for _ in range(game.variant.players):
                turn = game.turn()
                if turn is None or game.phase is not Phase.PLAY or not game.can_go(turn):
                    return None
                game.apply(Go(turn))
                goes.append(Go(turn))
                claim = game.snapshot().pending_claim
                if claim is not None:
                    return (list(goes), claim.what) if claim.player == player else None
            return None
        finally:
            for _ in goes:
                game.undo_group()

    def _next_game(self) -> None:
        self._kept_seen = {}  # the last deal's, if the game was won before every hand was shown
        if self.game.match_winner is not None:
            self.new_match()
        else:
            self._do([NextGame()])

    # -- following the deal from the camera -----------------------------------------------------------

    def _landed(
        self,
        text: str,
        zone: Zone,
        *,
        corrected: bool = False,
        likely: Sequence[str] = (),
        also_near: Sequence[Zone] = (),
    ) -> None:
        self.taken_in = None
        if text == "back":
            return  # a face-down card: the pack, the crib, a hand put down
        if self.correction is not None and not corrected:
            # Nothing is read past a question: the answer may change what this card means.
            self._held.append((text, zone))
            return
        where = _zone_words(zone, self.players)
        if text == "unknown":
            self._ask(f"The camera could not read the card {where}: which card is it?", zone, "", likely)
            return
        card = Card.parse(text)
        game = self.game
        if game.phase is Phase.GAME_OVER:
            state = game.deal_state
            if zone == CRIB_ZONE or card in state.seen or card == state.starter:
                return  # the last deal's cards, still being turned over or gathered up
            if self._late_kept(card, zone):
                return  # a card kept back, turned up after the game was won: not a cut for the next
            self._next_game()
            game = self.game
        placed = None if self._lays_in(zone) else next((z for z in also_near if self._lays_in(z)), None)
        if placed is not None:
            # A cut on the starter's spot, a starter in a player's place: laid where this part of
            # the deal lays no card, and nearly as near where it does.
            zone, where, also_near = placed, _zone_words(placed, self.players), ()
        before, lays = len(self.game.log), self._lays_in(zone)
        try:
            self._take(card, zone)
        except RulesError as error:
            for near in also_near:
                # Laid between two zones: the one nearly as near where the card fits the game (or
                # where the game has it already: the same card seen again).
                try:
                    self._take(card, near)
                except RulesError:
                    continue
                self.taken_in = near
                if len(self.game.log) != before:
                    self._between(card, near)
                return
            reason = _sentence(error, self.players)
            question = f"{card} {where} does not fit the game: {reason}. Which card is it (or undo)?"
            self._ask(question, zone, str(card))
            return
        self.taken_in = zone if lays else None  # else held back, or not counted
        if placed is not None and len(self.game.log) != before:
            self._between(card, zone)
        if corrected and self.correction is None:
            self.notice = f"corrected: {card} {where}"

    def _lays_in(self, zone: Zone) -> bool:
        """Whether this part of the deal lays a card face up in ``zone`` at all: a cut for the deal in
        a player's place, the starter on its spot; any zone later (the game says which fit)."""
        phase = self.game.phase
        if phase is Phase.CUT_FOR_DEAL:
            return zone in PLAYER_ZONES
        if phase in (Phase.DEAL, Phase.DISCARD, Phase.STARTER):
            return zone == STARTER_ZONE
        return True

    def _between(self, card: Card, zone: Zone) -> None:
        """Say (and keep with the match) that a card laid between two zones was taken in ``zone``."""
        self.notice = (
            f"{card} lay between two places; taken as laid {_zone_words(zone, self.players)}, "
            "where it fits the game"
        )
        self._camera_note(self.notice)  # kept with the match, as a doubtful reading settled is

    def _take(self, card: Card, zone: Zone) -> None:
        """The card laid in ``zone`` taken into the game as its phase reads it (a RulesError, the game
        as it was, where it does not fit)."""
        phase = self.game.phase
        if phase is Phase.CUT_FOR_DEAL:
            self._cut(card, zone)
        elif phase in (Phase.DEAL, Phase.DISCARD, Phase.STARTER):
            self._starter(card, zone)
        elif phase is Phase.PLAY:
            self._lay(card, zone)
        elif phase is Phase.SHOW:
            self._shown(card, zone)

    def _cut(self, card: Card, zone: Zone) -> None:
        player = PLAYER_ZONES.get(zone)
        if player is None:
            self.notice = "a card cut for the deal is laid in front of the player who cut it"
            return
        if self.game.cuts.get(player) == card:
            return  # the same cut seen again where it lies (a hand passed over it)
        self._do([CutForDeal(player, card)])

    def _starter(self, card: Card, zone: Zone) -> None:
        if zone != STARTER_ZONE:
            if zone in PLAYER_ZONES and self.game.phase is not Phase.CUT_FOR_DEAL:
                # A card laid for the play before any starter was seen: the camera missed the starter.
                self._held.append((str(card), zone))
                self._ask("The starter has not been seen: which card was turned up?", STARTER_ZONE, "")
                return
            self.notice = f"waiting for the starter: {card} {_zone_words(zone, self.players)} is not counted"
            return
        game = self.game
        actions: list[Action] = []
        players = game.variant.players
        state = game.deal_state
        if game.phase is Phase.DEAL:
            actions += [Deal(p) for p in range(players) if p not in state.dealt]
        if game.phase in (Phase.DEAL, Phase.DISCARD):
            actions += [Discard(p) for p in range(players) if p not in state.discarded]
        actions.append(TurnStarter(card))
        self._do(actions)
        self._set_crib_seen([])

    def _lay(self, card: Card, zone: Zone) -> None:
        player = PLAYER_ZONES.get(zone)
        game = self.game
        if player is None:
            if card == game.deal_state.starter:
                return  # the starter seen again
            raise_refusal(f"a card laid in the play belongs in front of the player who laid it, not {zone}")
        if any(c == card and p == player for p, c in game.snapshot().deal_cards):
            return  # the same card seen again where it was laid
        plan = self._plan_play(player, card)
        self._do(plan)
        if not isinstance(plan[-1], Play):
            # The goes ended a one-count play: the card is one kept back, turned up for the show.
            self._shown(card, zone)
        self._count_crib()

    def _plan_play(self, player: int, card: Card) -> list[Action]:
        """The play, with the goes that must have been said before it for it to be legal."""
        if self.game.can_play(player, card):
            return [Play(player, card)]
        game = self.game
        plan: list[Action] = []
        try:  # the goes are tried on the game itself, each taken back below
            for _ in range(game.variant.players):
                turn = game.turn()
                if turn is None or game.phase is not Phase.PLAY or not game.can_go(turn):
                    break
                game.apply(Go(turn))
                plan.append(Go(turn))
                if game.phase is Phase.PLAY and game.can_play(player, card):
                    return [*plan, Play(player, card)]
                if game.kept_back(player) and not game.over and game.phase is not Phase.PLAY:
                    # Neither could come in (five-card cribbage): the play is over, and the card is
                    # one the player kept back, turned up for the show.
                    return list(plan)
        finally:
            for _ in plan:
                game.undo_group()
        game.verify_play(player, card)  # raises the engine's own sentence for what is wrong
        raise_refusal(f"no go explains {card} laid by {self.players[player]}")


def _zone_words(zone: Zone, players: Sequence[str]) -> str:
    player = PLAYER_ZONES.get(zone)
    if player is not None and player < len(players):
        return f"in front of {players[player]}"
    return {"starter": "on the starter spot", "crib": "on the crib"}.get(zone, f"in zone {zone}")


def _sentence(error: Exception, players: Sequence[str]) -> str:
    return named(str(error).rstrip("."), players)


def named(text: str, players: Sequence[str]) -> str:
    """The engine's sentences say "player 0"; the table says the players' names."""
    return name_players(text, players)


def side_names(game: Game, players: Sequence[str]) -> tuple[str, ...]:
    """Each track's name: its player's, or both partners' ("Ann & Cal") when partners share a track."""
    variant = game.variant
    return tuple(
        " & ".join(players[p] for p in variant.players_on(side) if p < len(players)) or f"track {side}"
        for side in range(variant.tracks)
    )


def game_summaries(game: Game, players: Sequence[str]) -> list[GameSummary]:
    """Each finished game of the match with every player's figures, worked out from the operation log."""
    sides = game.variant.tracks
    results = list(game.games)
    summaries: list[GameSummary] = []
    number = 1
    figures = _fresh(sides)
    for op in game.log:
        action = op.action
        if isinstance(action, NextGame):
            number += 1
            figures = _fresh(sides)
            continue
        if isinstance(action, Count | ClaimAction) and action.what in ("hand", "crib"):
            figures[game.side_of(action.player)][f"{action.what}s"] += 1
        if isinstance(action, TurnStarter):
            for side in range(sides):
                figures[side]["deals"] += 1
        for scoring in op.scores:
            key = {"hand": "hand_points", "crib": "crib_points", "play": "pegging_points"}.get(scoring.reason)
            if key is not None:
                figures[scoring.side][key] += scoring.points
        finished = next((r for r in results if r.number == number), None)
        over = op.phase is Phase.GAME_OVER
        if over and finished is not None and not any(s.number == number for s in summaries):
            summaries.append(
                GameSummary(
                    number,
                    finished.winner,
                    _SKUNK.get(finished.skunk, 0),
                    tuple(
                        SeatSummary(side_names(game, players)[side], finished.scores[side], **figures[side])
                        for side in range(sides)
                    ),
                )
            )
    return summaries


def _fresh(sides: int) -> list[dict[str, int]]:
    keys = ("hand_points", "hands", "crib_points", "cribs", "pegging_points", "deals")
    return [dict.fromkeys(keys, 0) for _ in range(sides)]
