"""A scripted peer for the link's tests: a TCP server that plays the board, one expected request at a time.

The link opens it as ``socket://127.0.0.1:PORT`` through pyserial, exactly as it opens a real port, and
the test writes the conversation: expect this request, answer that, and finally assert that nothing was
left over.  ``unplug()`` closes the connection and the listening socket (the port vanishes: opening it is
refused) and ``plug()`` brings it back on the same address.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator

import pytest

from companion.board.protocol import BadFrame, Frame, FrameDecoder

HELLO_ARGS = ("proto=1", "fw=9.9.9", "tracks=2", "holes=121", "leds=242", "cap=1500")


class ScriptedPeer:
    def __init__(self) -> None:
        self._listener: socket.socket | None = None
        self._conn: socket.socket | None = None
        self._decoder = FrameDecoder()
        self._frames: list[Frame | BadFrame] = []
        self.port = 0
        self.plug()
        self.url = f"socket://127.0.0.1:{self.port}"
        self.connections = 0

    # -- the cable
    def plug(self) -> None:
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(4)
        self.port = listener.getsockname()[1]
        self._listener = listener

    def unplug(self) -> None:
        for sock in (self._conn, self._listener):
            if sock is not None:
                sock.close()
        self._conn = self._listener = None
        self._frames.clear()
        self._decoder.reset()

    def hang_up(self) -> None:
        """Drop the connection but keep the port: the link can open it again at once."""
        if self._conn is not None:
            self._conn.close()
        self._conn = None
        self._frames.clear()
        self._decoder.reset()

    def accept(self, timeout: float = 3.0) -> None:
        """Wait for the link to open the port (a fresh connection replaces any old one)."""
        assert self._listener is not None
        self._listener.settimeout(timeout)
        conn, _ = self._listener.accept()
        if self._conn is not None:
            self._conn.close()
        self._conn = conn
        self._frames.clear()
        self._decoder.reset()
        self.connections += 1

    # -- the conversation
    def send(self, data: bytes | Frame) -> None:
        assert self._conn is not None
        self._conn.sendall(data.encode() if isinstance(data, Frame) else data)

    def next_frame(self, timeout: float = 3.0) -> Frame | BadFrame:
        assert self._conn is not None
        deadline = time.monotonic() + timeout
        while not self._frames:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError("the link sent nothing")
            self._conn.settimeout(left)
            try:
                data = self._conn.recv(4096)
            except TimeoutError:
                continue
            if not data:
                raise AssertionError("the link closed the port")
            self._frames += self._decoder.feed(data)
        return self._frames.pop(0)

    def expect(self, command: str, args: tuple[str, ...] | None = None, timeout: float = 3.0) -> Frame:
        frame = self.next_frame(timeout)
        assert isinstance(frame, Frame), f"the link sent a damaged frame: {frame}"
        assert frame.command == command, f"expected {command}, the link sent {frame}"
        if args is not None:
            assert frame.args == args, f"expected {command} {' '.join(args)}, the link sent {frame}"
        return frame

    def answer(self, request: Frame, *args: str, command: str = "OK") -> None:
        self.send(Frame(request.seq, command, args))

    def handshake(self, *, ready: bool = False) -> None:
        """Accept the link's connection and answer its HELLO as a board would."""
        self.accept()
        if ready:
            self.send(Frame(0, "READY", ("proto=1", "fw=9.9.9")))
        self.answer(self.expect("HELLO"), *HELLO_ARGS)

    def assert_quiet(self, for_s: float = 0.3) -> None:
        """Nothing left over: the link sends nothing more."""
        if self._frames:
            raise AssertionError(f"the link sent more than expected: {self._frames}")
        if self._conn is None:
            return
        self._conn.settimeout(for_s)
        try:
            data = self._conn.recv(4096)
        except TimeoutError:
            return
        assert not data, f"the link sent more than expected: {data!r}"

    def close(self) -> None:
        self.unplug()


@pytest.fixture
def peer() -> Iterator[ScriptedPeer]:
    scripted = ScriptedPeer()
    yield scripted
    scripted.close()
