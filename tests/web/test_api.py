"""The scoreboard's HTTP side: anyone may watch, every change needs the table's PIN."""

from __future__ import annotations

import json
import queue
import threading
import warnings
from typing import Any

import httpx
import pytest
from starlette.exceptions import StarletteDeprecationWarning

with warnings.catch_warnings():
    # Starlette now prefers the httpx2 fork for its test client; httpx (a dev dependency) still works.
    warnings.simplefilter("ignore", StarletteDeprecationWarning)
    from fastapi.testclient import TestClient

from companion.events import CallMuggins, Claim, Correct, Event, NewGame, SayGo, SetMode, Undo
from companion.web.app import create_app
from companion.web.hub import ScoreboardHub
from companion.web.server import ScoreboardServer

PIN = "4821"


def make() -> tuple[TestClient, ScoreboardHub, list[Event]]:
    hub = ScoreboardHub()
    posted: list[Event] = []
    layout = {"size_mm": [90, 500], "holes": [], "start_holes": []}
    app = create_app(hub, posted.append, PIN, layout=layout, stats=lambda: {"players": [{"name": "Ann"}]})
    return TestClient(app, base_url="http://localhost"), hub, posted


def test_anyone_may_watch_the_page_its_files_and_the_game() -> None:
    client, hub, _ = make()
    hub.publish({"players": ["Ann", "Bob"], "scores": [12, 7]})
    page = client.get("/")
    assert page.status_code == 200 and 'data-testid="board"' in page.text
    assert client.get("/static/app.js").headers["content-type"].startswith("text/javascript")
    assert client.get("/static/style.css").status_code == 200
    assert client.get("/static/../app.py").status_code == 404
    state = client.get("/api/state").json()
    assert state["scores"] == [12, 7] and state["version"] == 1
    assert client.get("/api/layout").json()["size_mm"] == [90, 500]
    assert client.get("/api/stats").json()["players"] == [{"name": "Ann"}]


CHANGES: list[tuple[str, dict[str, Any], Event]] = [
    ("/api/undo", {}, Undo()),
    ("/api/new-game", {}, NewGame()),
    ("/api/go", {"player": 1}, SayGo(1)),
    ("/api/muggins", {"player": 0}, CallMuggins(0)),
    ("/api/claim", {"player": 1, "points": 8}, Claim(1, 8)),
    ("/api/correct", {"card": "5H", "zone": "player0", "seen": "5d"}, Correct("5h", "player0", "5d")),
    ("/api/settings", {"mode": "claims"}, SetMode("claims")),
]


@pytest.mark.parametrize(("path", "body", "event"), CHANGES, ids=[c[0] for c in CHANGES])
def test_every_change_needs_the_pin(path: str, body: dict[str, Any], event: Event) -> None:
    client, _, posted = make()
    missing = client.post(path, json=body)
    assert missing.status_code == 403 and "PIN is needed" in missing.json()["detail"]
    wrong = client.post(path, json=body, headers={"X-Table-Pin": "0000"})
    assert wrong.status_code == 403 and wrong.json()["detail"].startswith("wrong PIN")
    assert posted == []
    reply = client.post(path, json=body, headers={"X-Table-Pin": PIN})
    assert reply.status_code == 202
    assert posted == [event]


def test_bad_changes_are_refused_with_a_sentence() -> None:
    client, _, posted = make()
    pin = {"X-Table-Pin": PIN}
    bad_card = client.post("/api/correct", json={"card": "11h", "zone": "player0"}, headers=pin)
    assert bad_card.status_code == 422 and "is not a card" in bad_card.json()["detail"]
    off_table = client.post("/api/correct", json={"card": "5h", "zone": "floor"}, headers=pin)
    assert off_table.status_code == 422 and off_table.json()["detail"].startswith("zone: ")
    assert client.post("/api/settings", json={"mode": "fast"}, headers=pin).status_code == 422
    assert client.post("/api/claim", json={"player": 0, "points": 30}, headers=pin).status_code == 422
    assert posted == []


def test_the_pin_must_be_digits() -> None:
    with pytest.raises(ValueError, match="4 to 8 digits"):
        create_app(ScoreboardHub(), lambda e: None, "12a4")


def test_watchers_get_every_change_as_a_server_sent_event() -> None:
    hub = ScoreboardHub()
    hub.publish({"scores": [0, 0]})
    with ScoreboardServer(create_app(hub, lambda e: None, PIN), host="127.0.0.1", port=0) as server:
        views: queue.Queue[dict[str, Any]] = queue.Queue()

        def watch() -> None:
            seen = 0
            with (
                httpx.Client(timeout=10) as client,
                client.stream("GET", f"{server.url}/api/events") as stream,
            ):
                for line in stream.iter_lines():
                    if line.startswith("data: "):
                        views.put(json.loads(line[6:]))
                        seen += 1
                        if seen == 3:
                            return

        watcher = threading.Thread(target=watch)
        watcher.start()
        assert views.get(timeout=10)["scores"] == [0, 0]
        hub.publish({"scores": [2, 0]})
        assert views.get(timeout=10)["scores"] == [2, 0]
        hub.publish({"scores": [2, 5]})
        third = views.get(timeout=10)
        watcher.join(timeout=10)
    assert third["scores"] == [2, 5] and third["version"] == 3


def test_a_busy_port_is_a_clear_error() -> None:
    hub = ScoreboardHub()
    with (
        ScoreboardServer(create_app(hub, lambda e: None, PIN), host="127.0.0.1", port=0) as first,
        pytest.raises(OSError, match="cannot serve the scoreboard"),
    ):
        ScoreboardServer(create_app(hub, lambda e: None, PIN), host="127.0.0.1", port=first.port)
