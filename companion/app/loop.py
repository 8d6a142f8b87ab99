"""The game loop: one thread owns the table; everything else only posts events to its queue.

The camera's tracker, the knobs and buttons (on gpiozero's threads), the scoreboard (on the web
server's thread) and the loop's own timers never touch the game.  They put frozen events on the queue;
the loop takes them one at a time, lets the :class:`~companion.app.table.Table` interpret each (which
journals every action before applying it), then shows the result: the board gets its full state, the
scoreboard its view.  A slow phone or a board being re-plugged never blocks the game: the hub hands views
over without waiting, and a board that does not answer is reported on the scoreboard while the link
reconnects by itself.

The board: a link with a sender of its own (:class:`~companion.board.link.BoardLink`) is only handed the
latest state (``post``) and never waited on; when its ``trouble`` changes the loop republishes the view,
which then says "board offline" (``view["board"]``) while the game goes on.

Storage: if the journal cannot record an action (the disk full, the SD card turned read-only, the file
damaged) the table stops loudly rather than play on unrecorded: nothing more is accepted, the board
flashes its question pattern, the view carries the sentence in ``view["fault"]`` (and the notice), the log
says how to recover, and ``crib play`` exits non-zero (it watches ``fault_listeners``).

Muggins: when a claim leaves points behind, the loop starts a timer; if nobody calls muggins within
``muggins_seconds`` the chance passes (a :class:`~companion.events.MugginsExpired` event).
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

from companion.app.config import TableConfig
from companion.app.store import Journal, StorageError
from companion.app.table import Table
from companion.app.view import board_state, build_view
from companion.board.state import BoardState
from companion.events import CardLanded, Event, MugginsExpired, Shutdown

__all__ = ["Board", "GameLoop", "Scoreboard", "resume_table"]

log = logging.getLogger(__name__)


class Board(Protocol):
    """Anything that shows a board state: the link to the real board, or the virtual one."""

    def show(self, state: BoardState) -> Any: ...


class Scoreboard(Protocol):
    """Anything that takes the scoreboard's view: the web server's hub (:mod:`companion.web.hub`).

    The loop only hands the view over; it must not block, and the loop never learns who is watching, so
    the app needs nothing of the web package and the web package nothing of the app.
    """

    def publish(self, view: dict[str, Any]) -> None: ...


class _Refresh:
    """Queued by the board link's thread when the board goes offline or comes back: republish the view."""


def resume_table(journal: Journal, config: TableConfig) -> Table:
    """The table over ``journal``: the unfinished game read back and replayed, or a new one.

    A journal damaged where SQLite cannot see it (a byte changed inside an action's text) fails while the
    game is replayed, with whatever error the damaged text leads to; every such failure is reported as
    one sentence naming the file and the fix, never a traceback.
    """
    try:
        return Table(journal, config)
    except StorageError:
        raise
    except Exception as error:  # any failure here comes from what the file holds
        text = " ".join(str(error).split()) or type(error).__name__
        text = text if len(text) <= 80 else text[:77] + "..."
        raise StorageError(
            f"the game in {journal.path} cannot be read back ({text}): the file is damaged; move it aside "
            "(or restore a copy made with crib backup) and start crib play again"
        ) from None


class GameLoop:
    """Runs a table on its own thread (``start``), or step by step on the caller's (``step``)."""

    def __init__(
        self,
        table: Table,
        *,
        board: Board | None = None,
        hub: Scoreboard | None = None,
        brightness: int = 64,
    ) -> None:
        self.table = table
        self.board = board
        self.hub = hub
        self.brightness = brightness
        self.listeners: list[Callable[[Table, Event | None], None]] = []
        self.latencies: list[float] = []
        """Seconds from the frame that showed a card to the board and scoreboard showing its result."""
        self.board_error = ""
        self.errors: list[str] = []
        """Events the loop failed on (logged; the table goes on)."""
        self.fault = ""
        """Why the table stopped (the journal cannot record), or "" while it plays."""
        self.fault_listeners: list[Callable[[str], None]] = []
        """Called once, on the loop's thread, when the table stops for a storage fault."""
        self._queue: queue.Queue[tuple[Event | _Refresh, int | None]] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._timers: dict[int, threading.Timer] = {}
        self._last_board: BoardState | None = None
        self._lock = threading.Lock()
        listeners = getattr(board, "listeners", None)
        if isinstance(listeners, list) and hasattr(board, "post"):
            listeners.append(self._board_changed)

    # -- posting (any thread) -------------------------------------------------------------------------

    def post(self, event: Event) -> None:
        """Queue an event for the loop (safe from any thread: callbacks, the web server, timers)."""
        self._queue.put((event, None))

    def post_at(self, event: Event, cursor: int) -> None:
        """Queue an event of a replayed recording, with its position (journalled, for resuming)."""
        self._queue.put((event, cursor))

    def wait_idle(self, timeout: float = 10.0) -> bool:
        """Block until every event posted so far has been handled (for tests, benchmarks and replays)."""
        deadline = time.monotonic() + timeout
        while self._queue.unfinished_tasks:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.002)
        return True

    # -- the loop ------------------------------------------------------------------------------------

    def _board_changed(self, trouble: str) -> None:
        if self._thread is not None:  # stepped by hand (tests), nobody would take it off the queue
            self._queue.put((_Refresh(), None))

    def start(self) -> None:
        """Show the game as it stands (a resumed game re-lights the board) and start the loop thread."""
        try:
            self.show(None)
        except StorageError as error:
            self._stop_table(error)
        self._thread = threading.Thread(target=self._run, name="game-loop", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Finish the events already queued, then stop (idempotent)."""
        thread, self._thread = self._thread, None
        if thread is not None and thread.is_alive():
            self.post(Shutdown())
            thread.join(timeout)
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()

    def _run(self) -> None:
        while True:
            event, cursor = self._queue.get()
            try:
                if isinstance(event, Shutdown):
                    return
                if isinstance(event, _Refresh):
                    self.show(None, quiet=True)
                elif not self.fault:  # stopped: nothing is accepted that cannot be recorded
                    self.step(event, cursor=cursor)
            except Exception as error:  # one bad event (or output) must not stop the table
                log.exception("the game loop could not handle %s", event)
                self.errors.append(f"{event}: {error}")
            finally:
                self._queue.task_done()

    def step(self, event: Event, *, cursor: int | None = None) -> None:
        """Handle one event and show the result (after a storage fault: refuse it, and say why again)."""
        if self.fault:
            return
        try:
            self.table.handle(event, cursor=cursor)
            self.show(event)
        except StorageError as error:
            self._stop_table(error)
            return
        self._arm_muggins()

    def _stop_table(self, error: StorageError) -> None:
        """The journal failed: stop the table loudly (see the module's docstring)."""
        if self.fault:
            return
        self.fault = str(error)
        log.error("the game has stopped: %s", self.fault)
        for timer in self._timers.values():
            timer.cancel()
        try:
            self.show(None, quiet=True)
        except StorageError:
            log.exception("the table could not show its fault")
        for listener in self.fault_listeners:
            listener(self.fault)

    def show(self, event: Event | None, *, quiet: bool = False) -> None:
        """Send the board its state (only when it changed) and the scoreboard its view.

        ``quiet``: only republish (the board went offline or came back, or the table stopped), without
        telling the listeners of a step.
        """
        table = self.table
        state = board_state(
            table.game.snapshot(),
            tentative=table.tentative(),
            brightness=self.brightness,
            question=table.correction is not None or bool(self.fault),
        )
        board = self.board
        if board is not None and state != self._last_board:
            post = getattr(board, "post", None)
            if post is not None:  # the link shows it from its own thread: hand it over, never wait
                try:
                    post(state)
                    self._last_board = state
                except OSError as error:
                    self.board_error = f"the board is not answering ({error}); the game goes on"
            else:
                try:
                    board.show(state)
                    self._last_board = state
                    self.board_error = ""
                except (OSError, ValueError) as error:
                    self.board_error = f"the board is not answering ({error}); the game goes on"
        trouble = str(getattr(board, "trouble", "") or "")
        if trouble:
            self.board_error = f"board offline: {trouble}; the game goes on"
        elif hasattr(board, "trouble"):
            self.board_error = ""
        if self.hub is not None:
            view = build_view(table)
            view["board"] = "none" if board is None else "offline" if self.board_error else "online"
            view["fault"] = self.fault
            if self.board_error:
                view["notice"] = " ".join(filter(None, [view.get("notice"), self.board_error]))
            if self.fault:
                view["notice"] = f"the game has stopped: {self.fault}"
            self.hub.publish(view)
        if quiet:
            return
        if isinstance(event, CardLanded) and event.at > 0:
            self.latencies.append(time.monotonic() - event.at)
        for listener in self.listeners:
            listener(table, event)

    def _arm_muggins(self) -> None:
        offer = self.table.game.offer
        if offer is None or offer.serial in self._timers:
            return
        timer = threading.Timer(self.table.config.muggins_seconds, self.post, [MugginsExpired(offer.serial)])
        timer.daemon = True
        self._timers[offer.serial] = timer
        timer.start()
