"""The scoreboard's door: who may talk to it, and what a stranger on the pub's Wi-Fi cannot do.

Three checks run in one ASGI middleware (:class:`TableGuard`), before any route sees the request:

1. **The Host header** must name this table: its hostname (with or without ``.local``), ``localhost``,
   a name listed in the settings, or an address typed as digits.  A page elsewhere that rebinds one of
   its own names to the Pi (DNS rebinding) sends its own name, so it is refused; an address typed
   directly cannot be rebound, so addresses pass.
2. **The PIN**, for every request that could change something (anything but GET and HEAD), is checked
   from the ``X-Table-Pin`` header *before a byte of the body is read*: a stranger's upload is refused
   at its headers and the connection closed.
3. **The body** of a request with the right PIN is read here, at most :data:`MAX_BODY` bytes whether it
   says its length or comes in chunks, and handed to the route from memory; more is refused with 413.

Wrong PINs are limited per device (:class:`PinGuard`): each client address may make a few mistakes, then
must wait longer and longer between tries.  A flood from one phone therefore never stops another phone
from giving the right PIN -- one lockout for the whole table would let any stranger lock the players out.
"""

from __future__ import annotations

import ipaddress
import json
import secrets
import socket
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from dataclasses import dataclass
from typing import Any

__all__ = ["MAX_BODY", "PinGuard", "TableGuard", "Verdict", "default_hosts"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

MAX_BODY = 16 * 1024
"""The largest body a change may carry: the biggest real one (a correction) is under a hundred bytes."""

FREE_TRIES = 5
"""Wrong PINs a device may give before it has to wait (typos happen)."""

LONGEST_WAIT = 300.0
"""The wait between tries doubles with every wrong PIN after the free ones, up to this many seconds."""

FORGET_AFTER = 3600.0
"""A device that has not tried for this long starts again with its free tries."""

DEVICES_KEPT = 4096
"""At most this many devices' counts are kept (the longest idle forgotten first), so a stranger cannot
grow the table's memory by trying from many addresses."""


@dataclass(frozen=True, slots=True)
class Verdict:
    """What the guard decided about one try: ``status`` 200 (right), 403 (wrong) or 429 (wait first)."""

    status: int
    wait: float = 0.0

    @property
    def allowed(self) -> bool:
        return self.status == 200


@dataclass(slots=True)
class _Device:
    misses: int = 0
    not_before: float = 0.0
    last: float = 0.0


class PinGuard:
    """Checks PINs in constant time, with wrong tries limited per device (client address).

    ``pin`` is the PIN itself or a function returning the current one (a PIN file that can be rotated
    while the table runs).  A device that has used up its free tries waits 1, 2, 4 ... seconds (at most
    :data:`LONGEST_WAIT`) after each wrong PIN; a try before then is refused unchecked, so waiting is the
    only way on.  A right PIN clears the device's count.  IPv6 devices are counted by their /64 network,
    since one device can take any address in it.
    """

    def __init__(self, pin: str | Callable[[], str], *, clock: Callable[[], float] = time.monotonic) -> None:
        self._pin = pin if callable(pin) else (lambda: pin)
        self._clock = clock
        self._lock = threading.Lock()
        self._devices: OrderedDict[str, _Device] = OrderedDict()

    def check(self, given: str | None, device: str) -> Verdict:
        """Judge one try from ``device`` (its address); counts the try when it is wrong."""
        key = _device_key(device)
        now = self._clock()
        with self._lock:
            self._forget_idle(now)
            known = self._devices.get(key)
            if known is not None and now < known.not_before:
                return Verdict(429, known.not_before - now)
            right = given is not None and secrets.compare_digest(given.encode(), self._pin().encode())
            if right:
                self._devices.pop(key, None)
                return Verdict(200)
            if known is None:
                known = self._devices[key] = _Device()
                while len(self._devices) > DEVICES_KEPT:
                    self._devices.popitem(last=False)
            self._devices.move_to_end(key)
            known.misses += 1
            known.last = now
            extra = known.misses - FREE_TRIES
            if extra >= 0:
                known.not_before = now + min(LONGEST_WAIT, 2.0**extra)
            return Verdict(403)

    def waiting(self, device: str) -> float:
        """Seconds ``device`` must still wait before its next try is checked (0: it may try now)."""
        with self._lock:
            known = self._devices.get(_device_key(device))
            return 0.0 if known is None else max(0.0, known.not_before - self._clock())

    def _forget_idle(self, now: float) -> None:
        while self._devices:
            key, oldest = next(iter(self._devices.items()))
            if now - oldest.last < FORGET_AFTER:
                return
            del self._devices[key]


def _device_key(address: str) -> str:
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.IPv6Network((parsed, 64), strict=False))
    return str(parsed)


def default_hosts() -> tuple[str, ...]:
    """The names this table answers to when the settings name none: its hostname and localhost."""
    name = socket.gethostname().lower()
    return tuple(dict.fromkeys([name, f"{name}.local", name.split(".")[0], "localhost"]))


def _host_name(header: str) -> str:
    """The name in a Host header, without its port ("[::1]:8121" -> "::1")."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1 : header.find("]")] if "]" in header else header
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class TableGuard:
    """ASGI middleware: the Host check, the PIN before any body, and the body's size (see the module).

    ``hosts`` are the names allowed besides addresses; ``"*"`` among them allows any name.
    """

    def __init__(
        self, app: ASGIApp, guard: PinGuard, hosts: Iterable[str], *, max_body: int = MAX_BODY
    ) -> None:
        self.app = app
        self.guard = guard
        self.hosts = frozenset(h.lower().rstrip(".") for h in hosts)
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = _headers(scope)
        host = _host_name(headers.get("host", ""))
        if "*" not in self.hosts and host.rstrip(".") not in self.hosts and not _is_address(host):
            name = host[:100] or "(none)"
            text = f"this scoreboard does not answer to the name {name}: add it to [web] hosts"
            await _answer(send, 400, text)
            return
        if scope["method"] not in ("GET", "HEAD"):
            given = headers.get("x-table-pin", "").strip()
            if not given:  # not a guess: nothing to count against the device
                await _answer(send, 403, "the table's PIN is needed: the game was not changed")
                return
            client = scope.get("client")
            verdict = self.guard.check(given, client[0] if client else "")
            if verdict.status == 429:
                wait = max(1, round(verdict.wait + 0.5))
                text = f"too many wrong PINs from this device: try again in {wait} seconds"
                await _answer(send, 429, text, {"retry-after": str(wait)})
                return
            if not verdict.allowed:
                await _answer(send, 403, "wrong PIN: the game was not changed")
                return
        length = headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            await _answer(send, 413, f"a change is at most {self.max_body} bytes")
            return
        if scope["method"] in ("GET", "HEAD"):
            await self.app(scope, receive, send)
            return
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            if len(body) > self.max_body:
                await _answer(send, 413, f"a change is at most {self.max_body} bytes")
                return
            if not message.get("more_body", False):
                break
        await self.app(scope, _replay(bytes(body), receive), send)


def _headers(scope: Scope) -> dict[str, str]:
    return {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}


def _replay(body: bytes, receive: Receive) -> Receive:
    """A receive that gives the body already read, then passes on (a disconnect, for streaming routes)."""
    given = False

    async def replay() -> Message:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


async def _answer(send: Send, status: int, detail: str, extra: dict[str, str] | None = None) -> None:
    """Answer at once with ``{"detail": ...}`` and close: a refused body is never read."""
    payload = json.dumps({"detail": detail}).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(payload)).encode()),
        (b"connection", b"close"),
        *((k.encode(), v.encode()) for k, v in (extra or {}).items()),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": payload})
