"""Serving the scoreboard with uvicorn on a thread beside the game loop.

The socket is bound here, before uvicorn starts, so a busy port is a clear one-sentence error at start-up
and port 0 (any free port, as the tests use) gives a known address straight away.
"""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from types import TracebackType
from typing import Any

import uvicorn

__all__ = ["ScoreboardServer"]


class ScoreboardServer:
    """A running uvicorn server for an ASGI app; ``stop()`` is idempotent; a context manager."""

    def __init__(self, app: Any, host: str = "0.0.0.0", port: int = 8121) -> None:
        self._sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
        self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            self._sock.bind((host, port))
        except OSError as error:
            self._sock.close()
            raise OSError(f"cannot serve the scoreboard on {host}:{port}: {error.strerror}") from None
        self._sock.listen(64)
        self._sock.setblocking(False)
        self.host = host
        self.port = int(self._sock.getsockname()[1])
        config = uvicorn.Config(
            app,
            log_level="warning",
            access_log=False,
            lifespan="off",
            timeout_graceful_shutdown=1,
            ws="none",
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._run, name="scoreboard", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 10
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise OSError(f"the scoreboard server did not start on {host}:{self.port}")
            time.sleep(0.005)

    @property
    def url(self) -> str:
        shown = "127.0.0.1" if self.host in ("0.0.0.0", "") else self.host
        return f"http://{shown}:{self.port}"

    def _run(self) -> None:
        asyncio.run(self._server.serve(sockets=[self._sock]))

    def stop(self) -> None:
        if self._thread.is_alive():
            self._server.should_exit = True
            self._thread.join(timeout=5)
        self._sock.close()

    def __enter__(self) -> ScoreboardServer:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.stop()
