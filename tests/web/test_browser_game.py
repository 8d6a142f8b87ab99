"""The scoreboard in a real browser, served beside a real game loop: it shows what the game holds, and
the PIN guards every change the page can make to the game."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

from companion.app.config import TableConfig
from companion.app.loop import GameLoop
from companion.app.simulate import script_game
from companion.app.store import Journal
from companion.app.table import Table
from companion.app.view import layout_dict, statistics
from companion.cards import Card
from companion.events import CardLanded, Claim, DialClaim, SayGo
from companion.rules.game import Phase
from companion.web.app import create_app
from companion.web.hub import ScoreboardHub
from companion.web.server import ScoreboardServer

ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PIN = "7315"
SUIT = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}


def shown(card: Card | str) -> str:
    text = str(card)
    return text[:-1] + SUIT[text[-1]]


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS, headless=True)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def game(tmp_path: Path) -> Iterator[tuple[GameLoop, ScoreboardServer]]:
    config = TableConfig(players=("Ann", "Bob"), games_to_win=1, pin=PIN)
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
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context()
    try:
        yield context.new_page()
    finally:
        context.close()


def play_until_the_play(loop: GameLoop, minimum_laid: int) -> None:
    """Feed a scripted game until at least ``minimum_laid`` cards are on the table in the play."""
    for event in script_game(9).events:
        loop.post(event)
        assert loop.wait_idle()
        snapshot = loop.table.game.snapshot()
        if snapshot.phase.value == "play" and len(snapshot.count_cards) >= minimum_laid:
            return
    raise AssertionError("the scripted game never reached the play")


def test_the_page_shows_the_game_as_the_engine_holds_it(
    game: tuple[GameLoop, ScoreboardServer], page: Page
) -> None:
    loop, server = game
    play_until_the_play(loop, 2)
    page.goto(server.url)
    snapshot = loop.table.game.snapshot()
    for side in (0, 1):
        expect(page.get_by_test_id(f"score-{side}")).to_have_text(str(snapshot.scores[side]))
        forward = page.locator(f'#pegs circle[data-track="{side}"][data-peg="forward"]')
        expect(forward).to_have_attribute("data-score", str(snapshot.pegs[side].forward))
    expect(page.get_by_test_id("count")).to_have_text(str(snapshot.count))
    assert snapshot.starter is not None
    expect(page.get_by_test_id("starter")).to_have_text(shown(snapshot.starter))
    run = [shown(card) for _, card in snapshot.count_cards]
    expect(page.get_by_test_id("run").locator(".card")).to_have_text(run)
    expect(page.get_by_test_id("name-0")).to_have_text("Ann")
    # The next card laid at the table appears without reloading the page.
    before = len(snapshot.count_cards)
    play_until_the_play(loop, before + 1)
    after = loop.table.game.snapshot()
    expect(page.get_by_test_id("count")).to_have_text(str(after.count))
    expect(page.get_by_test_id("run").locator(".card")).to_have_count(len(after.count_cards))


def test_undo_from_the_page_needs_the_pin(game: tuple[GameLoop, ScoreboardServer], page: Page) -> None:
    loop, server = game
    play_until_the_play(loop, 2)
    before = loop.table.game.snapshot()
    page.goto(server.url)
    page.get_by_test_id("pin").fill("0000")
    page.get_by_test_id("undo").click()
    expect(page.get_by_test_id("reply")).to_contain_text("PIN")
    assert loop.wait_idle() and loop.table.game.snapshot() == before
    page.get_by_test_id("pin").fill(PIN)
    page.get_by_test_id("undo").click()
    expect(page.get_by_test_id("reply")).to_have_text("done")
    expect(page.get_by_test_id("run").locator(".card")).to_have_count(len(before.count_cards) - 1)
    assert loop.wait_idle() and loop.table.game.snapshot().serial < before.serial


def test_a_card_the_camera_could_not_read_is_picked_on_the_page(
    game: tuple[GameLoop, ScoreboardServer], page: Page
) -> None:
    loop, server = game
    play_until_the_play(loop, 1)
    laid = len(loop.table.game.snapshot().deal_cards)
    turn = loop.table.game.turn()
    page.goto(server.url)
    loop.post(CardLanded("unknown", f"player{turn}"))
    expect(page.get_by_test_id("correction")).to_be_visible()
    expect(page.get_by_test_id("correction-message")).to_contain_text("could not read")
    choice = loop.table.correction.choices[0] if loop.table.correction else ""
    page.get_by_test_id(f"choice-{choice}").click()  # no PIN given yet: refused
    expect(page.get_by_test_id("reply")).to_contain_text("PIN")
    assert len(loop.table.game.snapshot().deal_cards) == laid
    choices = loop.table.correction.choices if loop.table.correction else ()
    expect(page.get_by_test_id(f"choice-{choices[0]}")).to_have_attribute("aria-current", "true")
    loop.post(DialClaim(0, +1))  # a knob turned: the highlight follows on the page
    expect(page.get_by_test_id(f"choice-{choices[1]}")).to_have_attribute("aria-current", "true")
    page.get_by_test_id("pin").fill(PIN)
    page.get_by_test_id(f"choice-{choice}").click()
    expect(page.get_by_test_id("correction")).to_be_hidden()
    assert loop.wait_idle()
    assert loop.table.game.snapshot().deal_cards[-1] == (turn, Card.parse(choice))


def test_a_finished_game_shows_in_the_players_statistics(
    game: tuple[GameLoop, ScoreboardServer], page: Page
) -> None:
    loop, server = game
    page.goto(server.url)
    recording = script_game(7)  # Bob wins 121 to 86: a skunk
    for event in recording.events:
        loop.post(event)
    assert loop.wait_idle()
    expect(page.get_by_test_id("winner")).to_have_text("Bob wins — a skunk!")
    bob = page.get_by_test_id("stats").locator('tr[data-player="Bob"] td')
    expect(bob.nth(1)).to_have_text("1")  # games
    expect(bob.nth(2)).to_have_text("1")  # wins
    expect(bob.nth(4)).to_have_text("1")  # skunks given
    ann = page.get_by_test_id("stats").locator('tr[data-player="Ann"] td')
    expect(ann.nth(5)).to_have_text("1")  # skunked


def test_muggins_is_offered_on_the_page_and_called_with_the_pin(browser: Browser, tmp_path: Path) -> None:
    from companion.events import CallMuggins

    config = TableConfig(players=("Ann", "Bob"), games_to_win=1, pin=PIN, mode="claims", muggins_seconds=60)
    journal = Journal(tmp_path / "m.db")
    hub = ScoreboardHub()
    loop = GameLoop(Table(journal, config), hub=hub)
    server = ScoreboardServer(create_app(hub, loop.post, PIN), host="127.0.0.1", port=0)
    context = browser.new_context()
    try:
        for event in script_game(3, mode="claims", miss_rate=1.0).events:
            if isinstance(event, CallMuggins):
                break
            loop.step(event)
        offer = loop.table.game.offer
        assert offer is not None
        caller = 1 - offer.against
        page = context.new_page()
        page.goto(server.url)
        banner = page.get_by_test_id("muggins")
        expect(banner).to_be_visible()
        expect(banner).to_contain_text(f"left {offer.points} behind")
        before = loop.table.game.scores[caller]
        loop.start()
        page.get_by_test_id("pin").fill(PIN)
        page.get_by_test_id("call-muggins").click()
        expect(banner).to_be_hidden()
        assert loop.wait_idle()
        assert loop.table.game.scores[caller] == before + offer.points
    finally:
        context.close()
        loop.stop()
        server.stop()
        journal.close()


def _twin(events: list[Any], config: TableConfig) -> Table:
    """The same table fed the same events directly: what the game should be after the page's change."""
    twin = Table(Journal(":memory:"), config)
    for event in events:
        twin.handle(event)
    return twin


def test_a_claim_and_a_go_entered_on_the_page_change_the_game(browser: Browser, tmp_path: Path) -> None:
    config = TableConfig(players=("Ann", "Bob"), games_to_win=1, pin=PIN, mode="claims", muggins_seconds=60)
    journal = Journal(tmp_path / "c.db")
    hub = ScoreboardHub()
    loop = GameLoop(Table(journal, config), hub=hub)
    server = ScoreboardServer(create_app(hub, loop.post, PIN), host="127.0.0.1", port=0)
    context = browser.new_context(viewport={"width": 390, "height": 844})
    events = script_game(3, mode="claims", miss_rate=1.0).events
    first_claim = next(i for i, e in enumerate(events) if isinstance(e, Claim))
    claim = events[first_claim]
    assert isinstance(claim, Claim)
    fed = list(events[:first_claim])
    try:
        for event in fed:
            loop.step(event)
        loop.start()
        page = context.new_page()
        page.goto(server.url)
        page.get_by_test_id("pin").fill(PIN)
        # the claim, on the number pad, for the player the script claims for
        # the pad already offers the claim to the player with a score to claim
        for side in (0, 1):
            picked = "true" if side == claim.player else "false"
            expect(page.get_by_test_id(f"claim-player-{side}")).to_have_attribute("aria-pressed", picked)
        for digit in str(claim.points):
            page.get_by_test_id(f"pad-{digit}").click()
        expect(page.get_by_test_id("claim-value")).to_have_text(str(claim.points))
        page.get_by_test_id("claim-send").click()
        expect(page.get_by_test_id("reply")).to_have_text("done")
        assert loop.wait_idle()
        expected = _twin([*fed, claim], config).game.snapshot()
        assert loop.table.game.snapshot() == expected
        expect(page.get_by_test_id(f"score-{claim.player}")).to_have_text(str(expected.scores[claim.player]))
        # No go at the start of a count (any card fits under 31): the page offers none.
        go = page.get_by_test_id("go")
        assert not loop.table.game.can_go(loop.table.game.turn() or 0)
        expect(go).to_be_disabled()
        # The play goes on until the player in turn may say go; then a go from the page.
        fed.append(claim)
        for event in events[first_claim + 1 :]:
            game = loop.table.game
            turn = game.turn()
            if game.phase is Phase.PLAY and turn is not None and game.can_go(turn):
                break
            loop.post(event)
            assert loop.wait_idle()
            fed.append(event)
        assert turn is not None
        before = loop.table.game.snapshot()
        expect(go).to_have_text(f"{config.players[turn]} says go")
        expect(go).to_be_enabled()
        go.click()
        expect(page.get_by_test_id("reply")).to_have_text("done")
        assert loop.wait_idle()
        after_go = _twin([*fed, SayGo(turn)], config).game.snapshot()
        assert loop.table.game.snapshot() == after_go and after_go.serial > before.serial
    finally:
        context.close()
        loop.stop()
        server.stop()
        journal.close()
