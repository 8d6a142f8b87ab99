"""The game loop on its own thread: events in from anywhere, the board and the scoreboard kept showing
the game -- with the virtual board, and with the real firmware running in the simulator."""

from __future__ import annotations

import time
import uuid
from pathlib import Path

from companion.app.events import CallMuggins, CardLanded
from companion.app.loop import GameLoop
from companion.app.simulate import script_game
from companion.board.layout import default_layout
from companion.board.link import BoardLink
from companion.board.sim import SimulatedBoard
from companion.board.state import Mode
from companion.board.virtual import VirtualBoard
from companion.rules.game import PassMuggins, Phase
from companion.web.hub import ScoreboardHub

from .helpers import table


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
            assert loop.wait_idle()
            pegs = loop.table.game.snapshot().pegs
            shown = VirtualBoard.named(name).state
            assert shown.mode is Mode.GAME
            assert [(p.rear, p.forward) for p in shown.pegs] == [(p.rear, p.forward) for p in pegs]
            for event in recording.events[halfway:]:
                loop.post(event)
            assert loop.wait_idle()
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
            loop.step(event)  # on this thread: each step returns once the board has latched
            if loop.table.game.snapshot().serial >= 60:
                break
        snapshot = loop.table.game.snapshot()
        assert snapshot.phase is not Phase.GAME_OVER
        frame = board.latest_frame
        assert frame is not None
        holes = [(side, hole) for side, p in enumerate(snapshot.pegs) for hole in (p.rear, p.forward)]
        expected = {layout.led(side, hole) for side, hole in holes if hole}
        assert expected and set(frame.lit()) == expected
        assert board.lost_count == 0 and not board.violations


def test_a_card_landing_is_timed_from_its_frame_to_the_outputs() -> None:
    loop = GameLoop(table(), hub=ScoreboardHub())
    loop.step(CardLanded("Ah", "player0", at=time.monotonic()))
    assert len(loop.latencies) == 1 and 0 <= loop.latencies[0] < 5
