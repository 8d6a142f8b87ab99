"""The scoreboard in a real headless browser (Debian's chromium driven by Playwright)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

from companion.events import Event, SetMode, Undo
from companion.web.app import create_app
from companion.web.hub import ScoreboardHub
from companion.web.server import ScoreboardServer

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PIN = "2468"


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def table() -> Iterator[tuple[ScoreboardServer, ScoreboardHub, list[Event]]]:
    hub = ScoreboardHub()
    posted: list[Event] = []
    layout: dict[str, Any] = {
        "size_mm": [90, 500],
        "holes": [
            {"track": t, "hole": h, "x_mm": 20.0 + 50 * t, "y_mm": 480.0 - 3.8 * h}
            for t in (0, 1)
            for h in range(1, 122)
        ],
        "start_holes": [],
    }
    server = ScoreboardServer(create_app(hub, posted.append, PIN, layout=layout), host="127.0.0.1", port=0)
    try:
        yield server, hub, posted
    finally:
        server.stop()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context()
    opened = context.new_page()
    try:
        yield opened
    finally:
        context.close()


VIEW: dict[str, Any] = {
    "players": ["Ann", "Bob"],
    "scores": [17, 9],
    "pegs": [[12, 17], [5, 9]],
    "phase": "play",
    "phase_text": "the play: Bob to lay",
    "dealer": 0,
    "turn": 1,
    "count": 25,
    "run": [{"card": "10h", "player": 1}, {"card": "5s", "player": 0}, {"card": "Kd", "player": 1}],
    "starter": "Jc",
    "crib": [],
    "last": {"player": 0, "points": 2, "text": "fifteen two"},
    "history": [{"player": 0, "points": 2, "text": "fifteen two"}],
    "deals": [{"deal": 1, "points": [12, 5], "scores": [12, 5]}],
    "match": {"games_won": [1, 0], "games_to_win": 2},
    "mode": "auto",
    "winner": None,
    "muggins": None,
    "correction": None,
}


def test_the_page_shows_what_the_game_holds_and_follows_it_live(
    table: tuple[ScoreboardServer, ScoreboardHub, list[Event]], page: Page
) -> None:
    server, hub, _ = table
    hub.publish(VIEW)
    page.goto(server.url)
    expect(page.get_by_test_id("score-0")).to_have_text("17")
    expect(page.get_by_test_id("score-1")).to_have_text("9")
    expect(page.get_by_test_id("name-1")).to_have_text("Bob")
    expect(page.get_by_test_id("count")).to_have_text("25")
    expect(page.get_by_test_id("run").locator(".card")).to_have_count(3)
    expect(page.get_by_test_id("starter")).to_contain_text("J♣")
    expect(page.get_by_test_id("last-score")).to_have_text("Ann: fifteen two")
    expect(page.get_by_test_id("games-0")).to_have_text("games 1 of 2")
    forward = page.locator('#pegs circle[data-track="0"][data-peg="forward"]')
    expect(forward).to_have_attribute("data-score", "17")
    # A change in the game reaches the open page without a reload.
    hub.publish(
        {
            **VIEW,
            "scores": [19, 9],
            "pegs": [[17, 19], [5, 9]],
            "count": 0,
            "run": [],
            "last": {"player": 0, "points": 2, "text": "a pair of kings is two"},
        }
    )
    expect(page.get_by_test_id("score-0")).to_have_text("19")
    expect(page.get_by_test_id("last-score")).to_have_text("Ann: a pair of kings is two")
    expect(forward).to_have_attribute("data-score", "19")
    expect(page.get_by_test_id("live")).to_have_class("live on")


def test_changes_from_the_page_need_the_pin(
    table: tuple[ScoreboardServer, ScoreboardHub, list[Event]], page: Page
) -> None:
    server, hub, posted = table
    hub.publish(
        {
            **VIEW,
            "correction": {
                "message": "Which card is this?",
                "zone": "player1",
                "seen": "",
                "choices": ["5h", "5d"],
                "highlighted": 1,
            },
        }
    )
    page.goto(server.url)
    # the choice the knobs point at is marked
    expect(page.get_by_test_id("choice-5d")).to_have_attribute("aria-current", "true")
    expect(page.get_by_test_id("choice-5h")).not_to_have_attribute("aria-current", "true")
    page.get_by_test_id("undo").click()
    expect(page.get_by_test_id("reply")).to_contain_text("PIN")
    assert posted == []
    page.get_by_test_id("pin").fill(PIN)
    page.get_by_test_id("undo").click()
    expect(page.get_by_test_id("reply")).to_have_text("done")
    page.get_by_test_id("mode").select_option("claims")
    expect(page.get_by_test_id("reply")).to_have_text("done")
    page.get_by_test_id("choice-5d").click()
    expect(page.get_by_test_id("reply")).to_have_text("done")
    assert posted[:2] == [Undo(), SetMode("claims")]
    assert posted[2].name == "correct" and posted[2].card == "5d"  # type: ignore[union-attr]
