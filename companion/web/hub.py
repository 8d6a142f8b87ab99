"""The scoreboard's copy of what the game shows, handed from the game loop to the web server.

The game loop is the only writer: after every change it publishes a fresh *view* (a JSON-ready dict made
from the game's snapshot).  The web server, on its own thread and asyncio loop, only reads: the latest
view for a page load, and a stream of views for each watching phone.  Handing over is thread-safe
(``call_soon_threadsafe`` into the server's loop), so the loop never waits on a slow phone.
"""

from __future__ import annotations

import asyncio
import copy
import threading
from typing import Any

__all__ = ["ScoreboardHub"]


class ScoreboardHub:
    """Holds the latest view and fans it out to every subscriber."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._view: dict[str, Any] = {"version": 0, "phase": "starting"}
        self._subscribers: set[tuple[asyncio.AbstractEventLoop, asyncio.Queue[dict[str, Any]]]] = set()

    @property
    def view(self) -> dict[str, Any]:
        """The latest view (a copy: callers may not change what others see)."""
        with self._lock:
            return copy.deepcopy(self._view)

    @property
    def version(self) -> int:
        with self._lock:
            return int(self._view.get("version", 0))

    def publish(self, view: dict[str, Any]) -> None:
        """Replace the view (called by the game loop); every subscriber gets it."""
        with self._lock:
            version = int(self._view.get("version", 0)) + 1
            self._view = {**view, "version": version}
            shown = copy.deepcopy(self._view)
            subscribers = list(self._subscribers)
        for loop, queue in subscribers:
            try:
                loop.call_soon_threadsafe(_offer, queue, shown)
            except RuntimeError:  # that server's loop has closed: forget it
                with self._lock:
                    self._subscribers.discard((loop, queue))

    def subscribe(self) -> asyncio.Queue[dict[str, Any]]:
        """A queue of views for one watcher, fed on the calling (running) asyncio loop."""
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(maxsize=4)
        with self._lock:
            self._subscribers.add((asyncio.get_running_loop(), queue))
        return queue

    def unsubscribe(self, queue: asyncio.Queue[dict[str, Any]]) -> None:
        with self._lock:
            self._subscribers = {pair for pair in self._subscribers if pair[1] is not queue}

    @property
    def watchers(self) -> int:
        with self._lock:
            return len(self._subscribers)


def _offer(queue: asyncio.Queue[dict[str, Any]], view: dict[str, Any]) -> None:
    """Give a watcher the newest view; one who has fallen behind skips the stale ones."""
    while queue.full():
        queue.get_nowait()
    queue.put_nowait(view)
