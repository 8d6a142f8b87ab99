"""Serving the scoreboard with uvicorn on a thread beside the game loop.

The socket is bound here, before uvicorn starts, so a busy port is a clear one-sentence error at start-up
and port 0 (any free port, as the tests use) gives a known address straight away.

On a shared Wi-Fi (a pub's), anyone on the network can read plain HTTP, the PIN header included; given a
certificate and its key (``certfile``/``keyfile``), the scoreboard is served over HTTPS instead.  Both
are checked before the server starts, so a wrong path or a key that does not match the certificate is a
one-sentence error rather than a server that never answers.
"""

from __future__ import annotations

import asyncio
import socket
import ssl
import threading
import time
from types import TracebackType
from typing import Any

import uvicorn

__all__ = ["ScoreboardServer"]


class ScoreboardServer:
    """A running uvicorn server for an ASGI app; ``stop()`` is idempotent; a context manager."""

    def __init__(
        self,
        app: Any,
        host: str = "0.0.0.0",
        port: int = 8121,
        *,
        certfile: str | None = None,
        keyfile: str | None = None,
    ) -> None:
        if (certfile is None) != (keyfile is None):
            raise ValueError("HTTPS needs both a certificate and its key (certfile and keyfile)")
        if certfile is not None and keyfile is not None:
            _check_certificate(certfile, keyfile)
        self.scheme = "https" if certfile else "http"
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
            ssl_certfile=certfile,
            ssl_keyfile=keyfile,
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
        if ":" in shown:
            shown = f"[{shown}]"
        return f"{self.scheme}://{shown}:{self.port}"

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


def _check_certificate(certfile: str, keyfile: str) -> None:
    """Load the certificate and key once, so a bad pair is an error here and not in the server's thread."""
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    try:
        context.load_cert_chain(certfile, keyfile)
    except FileNotFoundError as error:
        raise OSError(f"cannot serve the scoreboard over HTTPS: there is no file {error.filename}") from None
    except (ssl.SSLError, OSError) as error:
        raise OSError(
            f"cannot serve the scoreboard over HTTPS: {certfile} and {keyfile} are not a certificate and "
            f"its key ({error.strerror or error})"
        ) from None
