"""The scoreboard: a FastAPI app any phone at the table can watch, and only the table's PIN can change.

Pages and data:

* ``GET /`` -- the scoreboard page (static HTML, JS and CSS shipped inside this package);
* ``GET /api/state`` -- the latest view of the game as JSON;
* ``GET /api/events`` -- the same views as server-sent events, one per change, for live updates;
* ``GET /manifest.webmanifest`` -- the web-app manifest (added to a home screen, the page opens full screen);
* ``GET /api/layout`` -- the board's holes from its layout file (for other clients: the page draws its own);
* ``GET /api/stats`` -- finished games and each player's record.

Changes: ``POST /api/undo``, ``/api/new-game`` (its body: the house rules chosen for the new match, by
the engine's names, e.g. ``{"target": 121, "muggins": true, "skunk_double_win": false}``; empty: the
settings file's), ``/api/correct``, ``/api/settings``, ``/api/go``,
``/api/muggins``, ``/api/claim`` (and ``/api/pin``, which only checks a PIN).  Each needs the PIN in the
``X-Table-Pin`` header, checked with the Host header and the body's size by :class:`TableGuard` before
the route runs (see :mod:`companion.web.guard`).  They do not touch the game: each posts one event to the
game loop's queue and answers 202; the result arrives through the event stream like any other change.
A body that does not fit (a number out of range, not a number, bad JSON) is a 422 with one sentence.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable, Iterable
from importlib import resources
from typing import Any

from fastapi import Body, FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from pydantic import BaseModel, ConfigDict, Field

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
from companion.rules.settings import Settings
from companion.vision.types import Zone
from companion.web.guard import MAX_BODY, PinGuard, TableGuard, default_hosts
from companion.web.hub import ScoreboardHub

__all__ = ["create_app"]

_STATIC = {
    "app.js": "text/javascript; charset=utf-8",
    "board.js": "text/javascript; charset=utf-8",
    "charts.js": "text/javascript; charset=utf-8",
    "style.css": "text/css; charset=utf-8",
    "favicon.svg": "image/svg+xml",
}

_MANIFEST: dict[str, Any] = {
    "name": "Crib companion scoreboard",
    "short_name": "Crib",
    "description": "The cribbage table's scores, pegs and counts, live.",
    "start_url": "/",
    "scope": "/",
    "display": "standalone",
    "orientation": "any",
    "background_color": "#1b130c",
    "theme_color": "#2b1d12",
    "icons": [{"src": "/static/favicon.svg", "sizes": "any", "type": "image/svg+xml", "purpose": "any"}],
}


class _Body(BaseModel):
    """A change's body: its fields exactly, nothing unknown (a typo is refused, not ignored)."""

    model_config = ConfigDict(extra="forbid")


class Player(_Body):
    player: int = Field(ge=0, le=3)


class ClaimBody(_Body):
    player: int = Field(ge=0, le=3)
    points: int = Field(ge=0, le=29)


class CorrectBody(_Body):
    card: str
    zone: Zone
    """One of the table's zones (the shared :class:`~companion.cards.Zone`): any other is refused."""
    seen: str = ""


class SettingsBody(_Body):
    mode: str


def create_app(
    hub: ScoreboardHub,
    post: Callable[[Event], None],
    pin: str | Callable[[], str],
    *,
    layout: dict[str, Any] | None = None,
    stats: Callable[[], dict[str, Any]] | None = None,
    hosts: Iterable[str] | None = None,
    max_body: int = MAX_BODY,
) -> FastAPI:
    """The scoreboard app for one table.

    ``post`` puts an event on the game loop's queue; ``pin`` is the table's PIN, or a function giving the
    current one (a :class:`~companion.web.pin.PinFile`); ``layout`` is the board's layout (holes with
    their positions) for the drawing; ``stats`` returns the finished games and players' records;
    ``hosts`` the names the table answers to besides addresses (default: its hostname and localhost).
    """
    if isinstance(pin, str) and (not pin.isdigit() or not 4 <= len(pin) <= 8):
        raise ValueError("the table's PIN must be 4 to 8 digits")
    app = FastAPI(title="Crib companion scoreboard", docs_url=None, redoc_url=None, openapi_url=None)
    allowed = tuple(hosts) if hosts is not None else default_hosts()
    app.add_middleware(TableGuard, guard=PinGuard(pin), hosts=allowed, max_body=max_body)

    @app.exception_handler(RequestValidationError)
    async def refused(request: Request, error: RequestValidationError) -> JSONResponse:
        return JSONResponse({"detail": _sentence(error)}, status_code=422)

    package = resources.files("companion.web") / "static"

    @app.get("/", response_class=HTMLResponse)
    def page() -> HTMLResponse:
        return HTMLResponse((package / "index.html").read_text(encoding="utf-8"))

    @app.get("/static/{name}")
    def static(name: str) -> Response:
        if name not in _STATIC:
            raise HTTPException(404, f"no file {name}")
        return Response((package / name).read_bytes(), media_type=_STATIC[name])

    @app.get("/manifest.webmanifest")
    def manifest() -> JSONResponse:
        return JSONResponse(_MANIFEST, media_type="application/manifest+json")

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
    def check_pin() -> JSONResponse:
        return JSONResponse({"ok": True})

    @app.post("/api/undo")
    def undo() -> JSONResponse:
        return accept(Undo())

    @app.post("/api/new-game")
    def new_game(chosen: dict[str, Any] | None = Body(default=None)) -> JSONResponse:  # noqa: B008
        # The form's house rules are checked by the engine's own reader here, so a choice it refuses is
        # a 422 with its sentence at once, not a notice after the old match was given up.
        try:
            Settings().with_house_rules(chosen or {})
        except ValueError as error:
            raise HTTPException(422, str(error)) from None
        return accept(NewGame(tuple((chosen or {}).items())))

    @app.post("/api/go")
    def say_go(body: Player) -> JSONResponse:
        return accept(SayGo(body.player))

    @app.post("/api/muggins")
    def muggins(body: Player) -> JSONResponse:
        return accept(CallMuggins(body.player))

    @app.post("/api/claim")
    def claim(body: ClaimBody) -> JSONResponse:
        return accept(Claim(body.player, body.points))

    @app.post("/api/correct")
    def correct(body: CorrectBody) -> JSONResponse:
        try:
            card = str(Card.parse(body.card))
        except ValueError as error:
            raise HTTPException(422, str(error)) from None
        return accept(Correct(card, body.zone, body.seen))

    @app.post("/api/settings")
    def settings(body: SettingsBody) -> JSONResponse:
        if body.mode not in ("auto", "claims"):
            raise HTTPException(422, "the mode is 'auto' (the companion counts) or 'claims' (players claim)")
        return accept(SetMode(body.mode))

    return app


def _sse(view: dict[str, Any]) -> str:
    return f"event: view\ndata: {json.dumps(view, separators=(',', ':'))}\n\n"


def _sentence(error: RequestValidationError) -> str:
    """The first problem with a change's body as one sentence (never echoing the value sent back)."""
    problems = error.errors()
    if not problems:
        return "the change's body is not what the table expects"
    first = problems[0]
    where = ".".join(str(p) for p in first.get("loc", ()) if p != "body") or "the body"
    return f"{where}: {str(first.get('msg', 'not accepted')).lower()}"
