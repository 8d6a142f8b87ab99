"""The game loop on its own thread: events in from anywhere, the board and the scoreboard kept showing
the game -- with the virtual board, and with the real firmware running in the simulator."""

from __future__ import annotations

import threading
import time
import uuid
from pathlib import Path
from typing import Any

from companion.app.loop import GameLoop
from companion.app.simulate import script_game
from companion.board.layout import default_layout
from companion.board.link import BoardLink
from companion.board.sim import SimulatedBoard
from companion.board.state import BoardState, Mode
from companion.board.virtual import PtyServer, VirtualBoard
from companion.events import CallMuggins, CardLanded, Claim, Correct, Undo
from companion.rules.game import PassMuggins, Phase
from companion.web.hub import ScoreboardHub

from .helpers import lay, table


def test_a_whole_game_posted_to_the_loop_reaches_the_board_and_the_scoreboard(tmp_path: Path) -> None:
    recording = script_game(4)
    name = f"loop-{uuid.uuid4().hex}"
    hub = ScoreboardHub()
    with BoardLink(f"virtual://{name}", heartbeat=None) as link:
        loop = GameLoop(table(tmp_path / "t.db"), board=link, hub=hub)
        loop.start()
        try:
            assert VirtualBoard.named(name).state.mode is Mode.IDLE  # before the first card
            halfway = len(recording.events) // 2
            for event in recording.events[:halfway]:
                loop.post(event)
            assert loop.wait_idle() and link.wait_shown()
            pegs = loop.table.game.snapshot().pegs
            shown = VirtualBoard.named(name).state
            assert shown.mode is Mode.GAME
            assert [(p.rear, p.forward) for p in shown.pegs] == [(p.rear, p.forward) for p in pegs]
            for event in recording.events[halfway:]:
                loop.post(event)
            assert loop.wait_idle() and link.wait_shown()
        finally:
            loop.stop()
        VirtualBoard.forget(name)
    final = link.shown
    assert final is not None and final.mode is Mode.WIN and final.winner == recording.winner
    view = hub.view
    assert tuple(view["scores"]) == recording.final
    assert view["winner"] == recording.winner
    assert [tuple(d["scores"]) for d in view["deals"]] == list(recording.deal_scores)


def test_muggins_not_called_in_time_passes_by_itself() -> None:
    recording = script_game(3, mode="claims", miss_rate=1.0)
    loop = GameLoop(table(mode="claims", muggins_seconds=0.2))
    loop.start()
    try:
        for event in recording.events:
            if isinstance(event, CallMuggins):
                break
            loop.post(event)
        assert loop.wait_idle()
        assert loop.table.game.offer is not None
        deadline = time.monotonic() + 5
        while loop.table.game.offer is not None and time.monotonic() < deadline:
            time.sleep(0.02)
        assert loop.wait_idle()
    finally:
        loop.stop()
    assert loop.table.game.offer is None
    assert isinstance(loop.table.game.actions[-1], PassMuggins)


def test_the_real_firmware_in_the_simulator_shows_the_pegs_of_a_replayed_game() -> None:
    recording = script_game(5)
    layout = default_layout()
    with SimulatedBoard() as board, BoardLink(board.port, heartbeat=None) as link:
        loop = GameLoop(table(), board=link)
        for event in recording.events:
            loop.step(event)  # on this thread; the link's sender catches the board up
            if loop.table.game.snapshot().serial >= 60:
                break
        snapshot = loop.table.game.snapshot()
        assert snapshot.phase is not Phase.GAME_OVER and not loop.board_error
        holes = [(side, hole) for side, p in enumerate(snapshot.pegs) for hole in (p.rear, p.forward)]
        expected = {layout.led(side, hole) for side, hole in holes if hole}
        # The harness reports each latched frame from its own process: wait for the report to arrive.
        frame = board.wait_for_frame(lambda f: set(f.lit()) == expected, timeout=10)
        assert expected and set(frame.lit()) == expected
        assert board.lost_count == 0 and not board.violations


def test_a_card_landing_is_timed_from_its_frame_to_the_outputs() -> None:
    loop = GameLoop(table(), hub=ScoreboardHub())
    loop.step(CardLanded("Ah", "player0", at=time.monotonic()))
    assert len(loop.latencies) == 1 and 0 <= loop.latencies[0] < 5


def test_the_knobs_dial_a_claim_that_blinks_on_the_board_and_the_press_pegs_it() -> None:
    from gpiozero.pins.mock import MockFactory

    from companion.controls import ControlPins, TableControls

    recording = script_game(3, mode="claims", miss_rate=0.0)
    name = f"knobs-{uuid.uuid4().hex}"
    factory = MockFactory()
    with BoardLink(f"virtual://{name}", heartbeat=None) as link:
        loop = GameLoop(table(mode="claims", muggins_seconds=30), board=link)
        loop.start()
        try:
            with TableControls(loop.post, ControlPins(bounce=None), pin_factory=factory):
                # Up to the show: the first claim of a hand is made with the knob instead of the scoreboard.
                events = iter(recording.events)
                for event in events:
                    if isinstance(event, Claim) and loop.table.game.phase is Phase.SHOW:
                        break
                    loop.post(event)
                    assert loop.wait_idle()
                assert isinstance(event, Claim)
                player, points = event.player, event.points
                score = loop.table.game.scores[player]
                a, b, press = ((17, 18, 27), (23, 24, 25))[player]
                for _ in range(points + 2):  # two past the count, then back two
                    turn(factory, a, b, 1)
                turn(factory, a, b, -2)
                assert loop.wait_idle() and link.wait_shown()
                shown = VirtualBoard.named(name).state
                assert points > 0
                assert shown.tentative is not None and shown.tentative.hole == score + points
                factory.pin(press).drive_low()
                factory.pin(press).drive_high()
                assert loop.wait_idle() and link.wait_shown()
                assert loop.table.game.scores[player] == score + points
                assert VirtualBoard.named(name).state.tentative is None
        finally:
            loop.stop()
            factory.reset()
            factory.close()
            VirtualBoard.forget(name)


def turn(factory: object, a: int, b: int, clicks: int) -> None:
    first, second = (a, b) if clicks > 0 else (b, a)
    for _ in range(abs(clicks)):
        for pin, level in ((first, 0), (second, 0), (first, 1), (second, 1)):
            mock = factory.pin(pin)  # type: ignore[attr-defined]
            mock.drive_low() if level == 0 else mock.drive_high()


class RecordingBoard:
    """A board that keeps every state it is shown."""

    def __init__(self) -> None:
        self.shown: list[BoardState] = []

    def show(self, state: BoardState) -> None:
        self.shown.append(state)


def test_a_card_waiting_for_a_correction_raises_the_question_on_the_board_until_it_is_answered() -> None:
    board = RecordingBoard()
    loop = GameLoop(table(), board=board)
    for event in [*lay("player0 Ah", "player1 Kd"), CardLanded("2c", "starter"), *lay("player1 10s")]:
        loop.step(event)
    assert not board.shown[-1].question
    loop.step(CardLanded("unknown", "player0"))
    asking = board.shown[-1]
    assert loop.table.correction is not None
    assert asking.question and asking.mode is Mode.GAME
    assert [(p.rear, p.forward) for p in asking.pegs] == [(0, 0), (0, 0)]
    loop.step(Correct("5h", "player0"))  # answered from the scoreboard
    assert loop.table.correction is None
    assert not board.shown[-1].question and board.shown[-1].pegs[0].forward == 2  # fifteen two
    loop.step(CardLanded("5h", "player1"))  # seen twice: asked again
    assert board.shown[-1].question
    loop.step(Undo())  # dismissed
    assert loop.table.correction is None and not board.shown[-1].question


def test_a_question_before_the_first_card_is_read_shows_in_place_of_the_idle_pattern() -> None:
    board = RecordingBoard()
    loop = GameLoop(table(), board=board)
    loop.show(None)
    assert board.shown[-1].mode is Mode.IDLE
    loop.step(CardLanded("unknown", "player0"))  # the very first cut, unreadable
    assert board.shown[-1].mode is Mode.GAME and board.shown[-1].question
    loop.step(Undo())
    assert board.shown[-1].mode is Mode.IDLE and not board.shown[-1].question


def test_a_restarted_companion_relights_the_board_as_it_was(tmp_path: Path) -> None:
    recording = script_game(8)
    name = f"relight-{uuid.uuid4().hex}"
    first = GameLoop(table(tmp_path / "t.db"))
    for event in recording.events[:90]:
        first.step(event)
    pegs = [(p.rear, p.forward) for p in first.table.game.snapshot().pegs]
    assert any(forward for _, forward in pegs)
    first.table.journal.close()  # the power goes
    VirtualBoard.forget(name)  # and the board forgets what it showed
    with BoardLink(f"virtual://{name}", heartbeat=None) as link:
        again = GameLoop(table(tmp_path / "t.db"), board=link, hub=ScoreboardHub())
        again.start()
        again.stop()
        assert link.wait_shown()
        shown = VirtualBoard.named(name).state
    VirtualBoard.forget(name)
    assert [(p.rear, p.forward) for p in shown.pegs] == pegs
    assert again.hub is not None and [tuple(p) for p in again.hub.view["pegs"]] == pegs


def test_a_match_goes_on_to_the_next_game_and_keeps_the_games_won(tmp_path: Path) -> None:
    first = script_game(6)  # Bob wins, 121 to 102 (a skunk would win the match outright)
    loop = GameLoop(table(tmp_path / "t.db", games_to_win=2), hub=ScoreboardHub())
    for event in first.events:
        loop.step(event)
    game = loop.table.game
    assert game.phase is Phase.GAME_OVER and game.match_winner is None
    assert loop.table.journal.games_won(loop.table.match_id) == (0, 1)
    # The next card turned up starts game two of the match (the first deal alternates: no cut).
    loop.step(CardLanded("5c", "starter"))
    assert game.game_number == 2 and game.phase is Phase.PLAY and game.scores == [0, 0]
    assert loop.hub is not None and loop.hub.view["match"]["games_won"] == [0, 1]


QUICK: dict[str, Any] = {"reply_timeout": 0.2, "connect_timeout": 2.0, "retry_interval": 0.1}
QUICK["heartbeat"] = None


class SilentBoard(VirtualBoard):
    """A board plugged in that says nothing while ``silent`` is set (it hung, or its firmware is wrong)."""

    def __init__(self) -> None:
        super().__init__()
        self.silent = threading.Event()

    def receive(self, data: bytes) -> bytes:
        return b"" if self.silent.is_set() else super().receive(data)


def test_a_silent_board_does_not_hold_up_the_game_and_catches_up_when_it_answers() -> None:
    recording = script_game(4)
    board = SilentBoard()
    board.silent.set()
    hub = ScoreboardHub()
    with PtyServer(board) as server:
        link = BoardLink(server.path, **{**QUICK, "connect_timeout": 1.0})
        loop = GameLoop(table(), board=link, hub=hub)
        offline, online = threading.Event(), threading.Event()
        link.listeners.append(lambda trouble: (offline if trouble else online).set())
        loop.start()
        try:
            for event in recording.events:
                loop.post(event)
            # Each event waiting on the board would take a second (the handshake's timeout): minutes.
            assert loop.wait_idle(timeout=len(recording.events) * 1.0 / 10)
            assert loop.table.game.snapshot().phase is Phase.GAME_OVER and link.stats.connects == 0
            assert offline.wait(10) and loop.wait_idle()
            assert hub.view["board"] == "offline" and "board offline" in hub.view["notice"]
            final = link.shown
            board.silent.clear()  # it answers again
            assert link.wait_shown(timeout=15)
            assert board.state == link.shown and final != link.shown  # the last state, not a stale one
            assert board.state.mode is Mode.WIN and board.state.winner == recording.winner
            assert online.wait(5) and loop.wait_idle()
            assert hub.view["board"] == "online" and "board offline" not in (hub.view["notice"] or "")
        finally:
            loop.stop()
            link.close()


def test_a_board_that_stops_answering_is_reported_offline_at_its_first_timeout() -> None:
    board = SilentBoard()
    with PtyServer(board) as server:
        link = BoardLink(server.path, **QUICK)
        timeouts_when_offline: list[int] = []
        reported = threading.Event()

        def heard(trouble: str) -> None:
            if trouble and not reported.is_set():
                timeouts_when_offline.append(link.stats.timeouts)
                reported.set()

        try:
            link.post(BoardState.playing((1, 5), (0, 0)))
            assert link.wait_shown(timeout=10) and not link.trouble
            link.listeners.append(heard)
            board.silent.set()
            link.post(BoardState.playing((5, 9), (0, 0)))
            assert reported.wait(10)
            assert timeouts_when_offline == [1]
        finally:
            link.close()
