"""House rules chosen on the scoreboard before a game: the PIN-checked new-game form, the engine's
refusals as one sentence, and the rules in force shown in plain words during the game."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

with warnings.catch_warnings():
    from starlette.exceptions import StarletteDeprecationWarning

    warnings.simplefilter("ignore", StarletteDeprecationWarning)
    from fastapi.testclient import TestClient

from companion.app.config import TableConfig
from companion.app.loop import GameLoop
from companion.app.store import Journal
from companion.app.table import Table
from companion.app.view import house_rules_text, layout_dict, statistics
from companion.events import Event, NewGame
from companion.rules.settings import FirstDeal, OverClaim, Settings
from companion.web.app import create_app
from companion.web.hub import ScoreboardHub
from companion.web.server import ScoreboardServer

PIN = "5137"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 390, "height": 844}


def client() -> tuple[TestClient, list[Event]]:
    posted: list[Event] = []
    app = create_app(ScoreboardHub(), posted.append, PIN)
    return TestClient(app, base_url="http://localhost"), posted


def test_a_new_game_posts_the_house_rules_chosen() -> None:
    http, posted = client()
    chosen = {"target": 61, "muggins": False, "skunk_double_win": False, "first_deal": "loser"}
    answer = http.post("/api/new-game", json=chosen, headers={"X-Table-Pin": PIN})
    assert answer.status_code == 202
    assert posted == [NewGame(tuple(chosen.items()))]
    assert posted[0].chosen == chosen


def test_a_new_game_with_no_rules_chosen_keeps_the_settings_file_s() -> None:
    http, posted = client()
    assert http.post("/api/new-game", headers={"X-Table-Pin": PIN}).status_code == 202
    assert posted == [NewGame()]


@pytest.mark.parametrize(
    ("chosen", "sentence"),
    [
        ({"skunk_line": 130}, "the skunk line, 130, must not be above the target, 121"),
        ({"match_games": 2}, "a match is best of an odd number of games, not 2"),
        ({"muggins": "yes"}, "muggins is true or false, not 'yes'"),
        ({"first_deal": "winner"}, "first_deal is 'alternate' or 'loser', not 'winner'"),
        ({"colour": "red"}, "'colour' is not a house rule"),
    ],
)
def test_house_rules_the_engine_refuses_are_a_422_in_one_sentence(
    chosen: dict[str, object], sentence: str
) -> None:
    http, posted = client()
    answer = http.post("/api/new-game", json=chosen, headers={"X-Table-Pin": PIN})
    assert answer.status_code == 422
    detail = answer.json()["detail"]
    assert detail.startswith(sentence) and "\n" not in detail
    assert posted == []


def test_house_rules_need_the_pin() -> None:
    http, posted = client()
    assert http.post("/api/new-game", json={"target": 61}).status_code == 403
    assert http.post("/api/new-game", json={"target": 61}, headers={"X-Table-Pin": "0000"}).status_code == 403
    assert posted == []


def test_the_rules_in_force_read_as_plain_words() -> None:
    usual = house_rules_text(Settings(muggins_in_play=True))
    assert usual.startswith(
        "to 121, best of 3 · muggins on (also in the play) · skunk 91, double 61, a skunk wins two"
    )
    chosen = Settings(
        target=61,
        match_games=1,
        muggins=False,
        over_claim=OverClaim.OPPONENT_TAKES,
        first_deal=FirstDeal.LOSER,
    )
    assert (
        house_rules_text(chosen)
        == "to 61, one game · no muggins · skunk 31, no double skunk · over-claims to the opponent"
    )


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS, headless=True)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def table(tmp_path: Path) -> Iterator[tuple[GameLoop, ScoreboardServer]]:
    config = TableConfig(players=("Ann", "Bob"), pin=PIN)
    journal = Journal(tmp_path / "t.db")
    hub = ScoreboardHub()
    loop = GameLoop(Table(journal, config), hub=hub)
    app = create_app(hub, loop.post, PIN, layout=layout_dict(), stats=lambda: statistics(journal))
    server = ScoreboardServer(app, host="127.0.0.1", port=0)
    loop.start()
    try:
        yield loop, server
    finally:
        loop.stop()
        server.stop()
        journal.close()


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        yield context.new_page()
    finally:
        context.close()


def test_players_choose_house_rules_on_a_phone_before_a_new_game(
    table: tuple[GameLoop, ScoreboardServer], phone: Page
) -> None:
    loop, server = table
    phone.goto(server.url)
    rules = phone.get_by_test_id("house-rules")
    expect(rules).to_have_text(
        "to 121, best of 3 · muggins on (not in the play) · skunk 91, double 61, a skunk wins two"
        " · the deal alternates"
    )
    first = loop.table.match_id
    phone.get_by_test_id("pin").fill(PIN)
    phone.get_by_test_id("new-game").click()
    form = phone.get_by_test_id("rules-form")
    expect(form).to_be_visible()
    # The form opens with the rules in force.
    expect(phone.get_by_test_id("rules-target")).to_have_value("121")
    expect(phone.get_by_test_id("rules-skunk-double-win")).to_be_checked()
    box = form.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    # Two changes: muggins also in the play, and a skunk counting one game only.
    phone.get_by_test_id("rules-muggins").select_option("play")
    phone.get_by_test_id("rules-skunk-double-win").uncheck()
    phone.get_by_test_id("rules-start").click()
    expect(form).to_be_hidden()
    expect(rules).to_have_text(
        "to 121, best of 3 · muggins on (also in the play) · skunk 91, double 61, a skunk wins one"
        " · the deal alternates"
    )
    assert loop.wait_idle()
    settings = loop.table.game.settings
    assert loop.table.match_id != first
    assert settings.muggins_in_play and not settings.skunk_double_win
    assert settings.game_target == 121 and settings.skunk == (91, 61)


def test_a_wrong_pin_starts_no_new_game_and_says_so_in_the_form(
    table: tuple[GameLoop, ScoreboardServer], phone: Page
) -> None:
    loop, server = table
    phone.goto(server.url)
    first = loop.table.match_id
    phone.get_by_test_id("pin").fill("0000")
    phone.get_by_test_id("new-game").click()
    phone.get_by_test_id("rules-muggins").select_option("off")
    phone.get_by_test_id("rules-start").click()
    expect(phone.get_by_test_id("rules-reply")).to_have_text("wrong PIN: the game was not changed")
    expect(phone.get_by_test_id("rules-form")).to_be_visible()
    phone.get_by_test_id("rules-cancel").click()
    expect(phone.get_by_test_id("rules-form")).to_be_hidden()
    assert loop.wait_idle()
    assert loop.table.match_id == first and loop.table.game.settings.muggins


def test_the_race_marks_the_skunk_lines_the_players_chose(
    table: tuple[GameLoop, ScoreboardServer], phone: Page
) -> None:
    loop, server = table
    phone.goto(server.url)
    expect(phone.get_by_test_id("race-skunk")).to_have_attribute("data-score", "91")
    phone.get_by_test_id("pin").fill(PIN)
    phone.get_by_test_id("new-game").click()
    phone.get_by_test_id("rules-skunk").fill("100")
    phone.get_by_test_id("rules-double-skunk").fill("0")
    phone.get_by_test_id("rules-start").click()
    expect(phone.get_by_test_id("house-rules")).to_contain_text("skunk 100, no double skunk")
    expect(phone.get_by_test_id("race-skunk")).to_have_attribute("data-score", "100")
    expect(phone.get_by_test_id("race-double-skunk")).to_have_count(0)
    assert loop.wait_idle()
    assert loop.table.game.settings.skunk == (100, None)
