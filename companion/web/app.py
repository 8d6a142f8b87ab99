"""The scoreboard: a FastAPI app any phone at the table can watch, and only the table's PIN can change.

Pages and data:

* ``GET /`` -- the scoreboard page (static HTML, JS and CSS shipped inside this package);
* ``GET /api/state`` -- the latest view of the game as JSON;
* ``GET /api/events`` -- the same views as server-sent events, one per change, for live updates;
* ``GET /api/layout`` -- the board's holes (from the board's layout file) for drawing the pegs;
* ``GET /api/stats`` -- finished games and each player's record.

Changes (each needs the PIN in the ``X-Table-Pin`` header, else 403): ``POST /api/undo``,
``/api/new-game``, ``/api/correct``, ``/api/settings``, ``/api/go``, ``/api/muggins``, ``/api/claim``.
They do not touch the game: each posts one event to the game loop's queue and answers 202; the result
arrives through the event stream like any other change.  Wrong PINs are counted, and after five within a
minute the table refuses further tries for a minute (a four-digit PIN must not be guessable by a script).
"""

from __future__ import annotations

import asyncio
import json
import secrets
import threading
import time
from collections.abc import AsyncIterator, Callable
from importlib import resources
from typing import Any

from fastapi import FastAPI, Header, HTTPException, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from pydantic import BaseModel, Field

from companion.cards import Card
from companion.events import (
    CallMuggins,
    Claim,
    Correct,
    Event,
    NewGame,
    SayGo,
    SetMode,
    Undo,
)
from companion.web.hub import ScoreboardHub

__all__ = ["create_app"]

_STATIC = {
    "app.js": "text/javascript; charset=utf-8",
    "style.css": "text/css; charset=utf-8",
    "favicon.svg": "image/svg+xml",
}
_TRIES = 5
_LOCKOUT = 60.0


class Player(BaseModel):
    player: int = Field(ge=0, le=3)


class ClaimBody(BaseModel):
    player: int = Field(ge=0, le=3)
    points: int = Field(ge=0, le=29)


class CorrectBody(BaseModel):
    card: str
    zone: str
    seen: str = ""


class SettingsBody(BaseModel):
    mode: str


class _PinGuard:
    """Checks the PIN in constant time and locks out a run of wrong guesses."""

    def __init__(self, pin: str) -> None:
        self._pin = pin
        self._lock = threading.Lock()
        self._misses: list[float] = []

    def check(self, given: str | None) -> None:
        now = time.monotonic()
        with self._lock:
            self._misses = [t for t in self._misses if now - t < _LOCKOUT]
            if len(self._misses) >= _TRIES:
                raise HTTPException(429, "too many wrong PINs: try again in a minute")
            if given is not None and secrets.compare_digest(given.encode(), self._pin.encode()):
                return
            self._misses.append(now)
        raise HTTPException(403, "the table's PIN is needed to change the game")


def create_app(
    hub: ScoreboardHub,
    post: Callable[[Event], None],
    pin: str,
    *,
    layout: dict[str, Any] | None = None,
    stats: Callable[[], dict[str, Any]] | None = None,
) -> FastAPI:
    """The scoreboard app for one table.

    ``post`` puts an event on the game loop's queue; ``layout`` is the board's layout (holes with their
    positions) for the drawing; ``stats`` returns the finished games and players' records.
    """
    if not pin.isdigit() or not 4 <= len(pin) <= 8:
        raise ValueError("the table's PIN must be 4 to 8 digits")
    guard = _PinGuard(pin)
    app = FastAPI(title="Crib companion scoreboard", docs_url=None, redoc_url=None, openapi_url=None)
    package = resources.files("companion.web") / "static"

    @app.get("/", response_class=HTMLResponse)
    def page() -> HTMLResponse:
        return HTMLResponse((package / "index.html").read_text(encoding="utf-8"))

    @app.get("/static/{name}")
    def static(name: str) -> Response:
        if name not in _STATIC:
            raise HTTPException(404, f"no file {name}")
        return Response((package / name).read_bytes(), media_type=_STATIC[name])

    @app.get("/api/state")
    def state() -> JSONResponse:
        return JSONResponse(hub.view, headers={"Cache-Control": "no-store"})

    @app.get("/api/layout")
    def board_layout() -> JSONResponse:
        if layout is None:
            raise HTTPException(404, "this table has no board layout")
        return JSONResponse(layout)

    @app.get("/api/stats")
    def statistics() -> JSONResponse:
        return JSONResponse(stats() if stats is not None else {"players": [], "games": []})

    @app.get("/api/events")
    async def events(request: Request) -> StreamingResponse:
        queue = hub.subscribe()

        async def stream() -> AsyncIterator[str]:
            try:
                yield _sse(hub.view)
                while not await request.is_disconnected():
                    try:
                        view = await asyncio.wait_for(queue.get(), timeout=15.0)
                    except TimeoutError:
                        yield ": still here\n\n"  # keeps phones' connections from idling out
                        continue
                    yield _sse(view)
            finally:
                hub.unsubscribe(queue)

        return StreamingResponse(
            stream(),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
        )

    def accept(event: Event) -> JSONResponse:
        post(event)
        return JSONResponse({"accepted": event.name}, status_code=202)

    @app.post("/api/pin")
    def check_pin(x_table_pin: str | None = Header(default=None)) -> JSONResponse:
        guard.check(x_table_pin)
        return JSONResponse({"ok": True})

    @app.post("/api/undo")
    def undo(x_table_pin: str | None = Header(default=None)) -> JSONResponse:
        guard.check(x_table_pin)
        return accept(Undo())

    @app.post("/api/new-game")
    def new_game(x_table_pin: str | None = Header(default=None)) -> JSONResponse:
        guard.check(x_table_pin)
        return accept(NewGame())

    @app.post("/api/go")
    def say_go(body: Player, x_table_pin: str | None = Header(default=None)) -> JSONResponse:
        guard.check(x_table_pin)
        return accept(SayGo(body.player))

    @app.post("/api/muggins")
    def muggins(body: Player, x_table_pin: str | None = Header(default=None)) -> JSONResponse:
        guard.check(x_table_pin)
        return accept(CallMuggins(body.player))

    @app.post("/api/claim")
    def claim(body: ClaimBody, x_table_pin: str | None = Header(default=None)) -> JSONResponse:
        guard.check(x_table_pin)
        return accept(Claim(body.player, body.points))

    @app.post("/api/correct")
    def correct(body: CorrectBody, x_table_pin: str | None = Header(default=None)) -> JSONResponse:
        guard.check(x_table_pin)
        try:
            card = str(Card.parse(body.card))
        except ValueError as error:
            raise HTTPException(422, str(error)) from None
        return accept(Correct(card, body.zone, body.seen))

    @app.post("/api/settings")
    def settings(body: SettingsBody, x_table_pin: str | None = Header(default=None)) -> JSONResponse:
        guard.check(x_table_pin)
        if body.mode not in ("auto", "claims"):
            raise HTTPException(422, "the mode is 'auto' (the companion counts) or 'claims' (players claim)")
        return accept(SetMode(body.mode))

    return app


def _sse(view: dict[str, Any]) -> str:
    return f"event: view\ndata: {json.dumps(view, separators=(',', ':'))}\n\n"
