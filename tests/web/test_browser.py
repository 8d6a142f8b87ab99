"""The scoreboard in a real headless browser (Debian's chromium driven by Playwright)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

from companion.events import CallMuggins, Event, SetMode, Undo
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


SHOW: dict[str, Any] = {
    **VIEW,
    "phase": "show",
    "phase_text": "the show: Bob to count the crib",
    "dealer": 1,
    "pone": 0,
    "turn": 1,
    "show_next": [1, "crib"],
    "count": 0,
    "run": [],
    "starter": "5c",
    "laid": [
        {"player": 0, "card": "5h"},
        {"player": 1, "card": "10s"},
        {"player": 0, "card": "5d"},
        {"player": 1, "card": "Jh"},
        {"player": 0, "card": "9s"},
        {"player": 1, "card": "Qd"},
        {"player": 0, "card": "2c"},
        {"player": 1, "card": "Kc"},
    ],
    "crib": [],
    "deal_history": [
        [{"player": 0, "points": 2, "reason": "hand", "text": "fifteen two", "items": []}],
        [
            {
                "player": 1,
                "points": 2,
                "reason": "heels",
                "text": "two for his heels",
                "items": [{"kind": "heels", "cards": ["Jd"], "points": 2}],
            },
            {
                "player": 0,
                "points": 1,
                "reason": "play",
                "text": "one for the go",
                "items": [{"kind": "last-card", "cards": ["2c"], "points": 1}],
            },
            {
                "player": 1,
                "points": 2,
                "reason": "play",
                "text": "fifteen two",
                "items": [{"kind": "fifteen", "cards": ["5h", "Jh"], "points": 2}],
            },
            {
                "player": 0,
                "points": 4,
                "reason": "hand",
                "text": "fifteen two, and a pair is four",
                "items": [
                    {"kind": "fifteen", "cards": ["5h", "5c", "5d"], "points": 2},
                    {"kind": "pair", "cards": ["5h", "5d"], "points": 2},
                ],
            },
            {
                "player": 1,
                "points": 3,
                "reason": "hand",
                "text": "a run of three is three",
                "items": [{"kind": "run", "cards": ["10s", "Jh", "Qd"], "points": 3}],
            },
        ],
    ],
    "deals": [
        {"deal": 1, "dealer": 0, "points": [2, 0], "scores": [2, 0]},
        {"deal": 2, "dealer": 1, "points": [5, 7], "scores": [7, 7]},
    ],
    "muggins": None,
}


def test_the_show_has_a_row_each_for_pone_dealer_and_crib_with_the_starter(
    table: tuple[ScoreboardServer, ScoreboardHub, list[Event]], page: Page
) -> None:
    server, hub, _ = table
    hub.publish(SHOW)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(server.url)
    pone, dealer, crib = (page.get_by_test_id(f"show-{row}") for row in ("pone", "dealer", "crib"))
    expect(pone.locator(".row-head")).to_have_text("Ann's hand (pone): 4")
    expect(pone.locator(".card")).to_have_text(["5♥", "5♦", "9♠", "2♣", "5♣"])
    expect(dealer.locator(".row-head")).to_contain_text("Bob's hand (dealer): 3")
    expect(dealer.locator(".card")).to_have_text(["10♠", "J♥", "Q♦", "K♣", "5♣"])
    # the crib is still face down while Bob is about to count it: four backs, and the starter
    expect(crib.locator(".row-head")).to_contain_text("Bob's crib")
    expect(crib).to_have_class("show-row next")
    expect(crib.locator(".card.back")).to_have_count(4)
    expect(crib.locator(".card.is-starter")).to_have_text("5♣")
    # tapping a scored item lights exactly its cards
    pone.get_by_text("a pair 2").click()
    expect(pone.locator(".card.lit")).to_have_text(["5♥", "5♦"])
    expect(pone.locator(".card.dim")).to_have_count(3)
    pone.get_by_text("fifteen 2").click()
    expect(pone.locator(".card.lit")).to_have_text(["5♥", "5♦", "5♣"])
    pone.get_by_text("fifteen 2").click()  # tapped again: nothing lit
    expect(pone.locator(".card.lit")).to_have_count(0)


def test_the_history_is_grouped_by_deal_labelled_and_earlier_deals_folded(
    table: tuple[ScoreboardServer, ScoreboardHub, list[Event]], page: Page
) -> None:
    server, hub, _ = table
    hub.publish(SHOW)
    page.goto(server.url)
    now, earlier = page.get_by_test_id("deal-2"), page.get_by_test_id("deal-1")
    expect(now).to_have_attribute("open", "")
    expect(now.locator("summary")).to_have_text("deal 2 (now) · Bob's crib · Ann +5, Bob +7")
    expect(now.locator(".tag")).to_have_text(["his heels", "go", "play", "hand", "hand"])
    expect(earlier).not_to_have_attribute("open", "")
    expect(earlier.locator("li")).to_be_hidden()
    # The cards gathered for the next deal: the finished deal folds away with the others.
    hub.publish({**SHOW, "phase": "deal", "phase_text": "the deal"})
    expect(page.get_by_test_id("deal-2")).not_to_have_attribute("open", "")


MUGGINS = {
    **SHOW,
    "mode": "claims",
    "muggins": {
        "player": 1,
        "against": 0,
        "points": 2,
        "text": "Ann claimed 4 of 6: fifteen two, fifteen four, and a pair is six",
        "serial": 30,
        "seconds": 8.0,
        "what": "hand",
        "items": [
            {"kind": "fifteen", "cards": ["5h", "Jh"], "points": 2},
            {"kind": "fifteen", "cards": ["5d", "Jh"], "points": 2},
            {"kind": "pair", "cards": ["5h", "5d"], "points": 2},
        ],
    },
}


def test_muggins_counts_down_and_names_the_missed_points(
    table: tuple[ScoreboardServer, ScoreboardHub, list[Event]], page: Page
) -> None:
    server, hub, posted = table
    hub.publish(MUGGINS)
    page.goto(server.url)
    banner = page.get_by_test_id("muggins")
    expect(page.get_by_test_id("muggins-missed")).to_have_text(
        "Ann missed a pair: 2 (claimed 4 of 6 for the hand)"
    )
    expect(page.get_by_test_id("muggins-caller")).to_have_text("Bob")
    first = int(page.get_by_test_id("muggins-countdown").inner_text())
    assert 7 <= first <= 8
    page.wait_for_function(
        f"() => Number(document.querySelector('[data-testid=muggins-countdown]').textContent) < {first}"
    )
    page.get_by_test_id("pin").fill(PIN)
    banner.get_by_test_id("call-muggins").click()
    expect(page.get_by_test_id("reply")).to_have_text("done")
    assert posted == [CallMuggins(1)]


def test_a_wrong_pin_is_said_to_be_wrong(
    table: tuple[ScoreboardServer, ScoreboardHub, list[Event]], page: Page
) -> None:
    server, hub, posted = table
    hub.publish(VIEW)
    page.goto(server.url)
    page.get_by_test_id("undo").click()
    expect(page.get_by_test_id("reply")).to_have_text("the table's PIN is needed: the game was not changed")
    page.get_by_test_id("pin").fill("0000")
    page.get_by_test_id("undo").click()
    expect(page.get_by_test_id("reply")).to_have_text("wrong PIN: the game was not changed")
    expect(page.get_by_test_id("pin")).to_have_class("bad")
    assert posted == []


WAKE_STUB = """
window.__wake = [];
Object.defineProperty(navigator, "wakeLock", {
  configurable: true,
  value: {
    request: (kind) => { window.__wake.push(kind); return Promise.resolve({ addEventListener() {} }); },
  },
});
"""


def test_the_page_keeps_the_screen_awake_and_can_be_added_to_a_home_screen(
    table: tuple[ScoreboardServer, ScoreboardHub, list[Event]], page: Page
) -> None:
    server, hub, _ = table
    hub.publish(VIEW)
    page.add_init_script(WAKE_STUB)
    page.goto(server.url)
    page.wait_for_function("() => window.__wake.length > 0")
    assert page.evaluate("window.__wake") == ["screen"]
    expect(page.locator("body")).to_have_attribute("data-wake", "on")
    href = page.locator('link[rel="manifest"]').get_attribute("href")
    manifest = page.evaluate("async (href) => (await fetch(href)).json()", href)
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    assert manifest["icons"][0]["src"] == "/static/favicon.svg"


def test_on_a_phone_the_board_shows_the_pegs_stretch_large_and_numbered(
    table: tuple[ScoreboardServer, ScoreboardHub, list[Event]], page: Page
) -> None:
    server, hub, _ = table
    hub.publish({**VIEW, "scores": [92, 70], "pegs": [[85, 92], [58, 70]]})
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(server.url)
    ann, bob = page.get_by_test_id("strip-0"), page.get_by_test_id("strip-1")
    expect(ann).to_be_visible()
    # The strip is shown first and laid out to the screen's width after: measured once every hole has
    # a size (a fresh clone's run once caught a hole still at width 0).
    page.wait_for_function(
        """() => {
          const holes = [...document.querySelectorAll('[data-testid="strip-0"] .hole')];
          return holes.length >= 30 && holes.every((h) => h.getBoundingClientRect().width > 0);
        }"""
    )
    sizes = ann.locator(".hole").evaluate_all("(holes) => holes.map((h) => h.getBoundingClientRect().width)")
    assert len(sizes) >= 30 and min(sizes) >= 8
    numbers = ann.locator("text.num")
    assert {"90", "95", "100", "105"} <= set(numbers.all_text_contents())
    assert ann.locator("text.num.ten").all_text_contents()[:2] == ["90", "100"]
    heights = numbers.evaluate_all("(all) => all.map((t) => t.getBoundingClientRect().height)")
    assert min(heights) >= 7  # readable, not specks
    expect(numbers.first).to_be_visible()
    expect(ann.get_by_test_id("skunk-line")).to_have_attribute("data-hole", "91")
    expect(bob.get_by_test_id("double-skunk-line")).to_have_attribute("data-hole", "61")
    rear = ann.locator('circle[data-peg="rear"]')
    forward = ann.locator('circle[data-peg="forward"]')
    expect(rear).to_have_attribute("data-score", "85")
    expect(forward).to_have_attribute("data-score", "92")
    # rear and forward look plainly different: an open ring against a solid peg ringed in white
    look = "(c) => [getComputedStyle(c).fill, getComputedStyle(c).stroke, c.getBoundingClientRect().width]"
    rear_fill, rear_stroke, rear_size = rear.evaluate(look)
    fore_fill, fore_stroke, fore_size = forward.evaluate(look)
    assert rear_stroke == "rgb(0, 192, 255)" and rear_fill != rear_stroke
    assert fore_fill == "rgb(0, 192, 255)" and fore_stroke == "rgb(255, 255, 255)" and fore_size > rear_size
    # the last move slides the forward peg along
    hub.publish({**VIEW, "scores": [96, 70], "pegs": [[92, 96], [58, 70]]})
    expect(forward).to_have_attribute("data-moved", "92")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


COUNT_BOARDS_DRAWN = """
window.boardsDrawn = 0;
new MutationObserver((changes) => {
  for (const change of changes) {
    for (const node of change.addedNodes) {
      if (node.dataset && node.dataset.testid === "whole-board") window.boardsDrawn += 1;
    }
  }
}).observe(document, { childList: true, subtree: true });
"""


def test_the_wall_display_shows_the_whole_board_and_no_controls(
    table: tuple[ScoreboardServer, ScoreboardHub, list[Event]], page: Page
) -> None:
    server, hub, _ = table
    hub.publish(MUGGINS)
    page.set_viewport_size({"width": 1280, "height": 800})
    page.add_init_script(COUNT_BOARDS_DRAWN)
    page.goto(server.url + "/?display=wall")
    board = page.get_by_test_id("whole-board")
    expect(board).to_be_visible()
    # the page's own fetch and the live stream's first message bring one view: it is drawn once
    expect(page.get_by_test_id("live")).to_have_class(re.compile(r"\bon\b"))
    assert page.evaluate("window.boardsDrawn") == 1
    expect(board.locator(".hole")).to_have_count(2 * 121)
    expect(board.get_by_test_id("skunk-line")).to_have_count(2)
    expect(board.get_by_test_id("double-skunk-line")).to_have_count(2)
    for control in ("pin", "undo", "go", "claim-pad", "call-muggins"):
        expect(page.get_by_test_id(control)).to_be_hidden()
    expect(page.get_by_test_id("muggins-countdown")).to_be_visible()
    box = board.bounding_box()
    assert box is not None and box["width"] > 1200


def test_the_race_and_the_players_records_are_drawn_by_the_page(
    browser: Browser,
) -> None:
    hub = ScoreboardHub()
    stats = {
        "players": [
            {
                "name": "Ann",
                "games": 5,
                "wins": 3,
                "matches_won": 1,
                "skunks_given": 1,
                "skunked": 0,
                "average_hand": 7.25,
                "average_crib": 4.5,
                "average_pegging": 3.1,
            },
            {
                "name": "Bob",
                "games": 5,
                "wins": 2,
                "matches_won": 0,
                "skunks_given": 0,
                "skunked": 1,
                "average_hand": 8.0,
                "average_crib": 5.0,
                "average_pegging": 2.4,
            },
        ],
        "games": [],
    }
    app = create_app(hub, lambda e: None, PIN, stats=lambda: stats)
    hub.publish(SHOW)
    context = browser.new_context(viewport={"width": 390, "height": 844})
    with ScoreboardServer(app, host="127.0.0.1", port=0) as server:
        page = context.new_page()
        page.goto(server.url)
        expect(page.get_by_test_id("race-0")).to_have_attribute("data-scores", "0,2,7")
        expect(page.get_by_test_id("race-1")).to_have_attribute("data-scores", "0,0,7")
        expect(page.get_by_test_id("race-skunk")).to_have_attribute("data-score", "91")
        expect(page.get_by_test_id("race-double-skunk")).to_have_attribute("data-score", "61")
        records = page.get_by_test_id("records")
        expect(records.locator("figure")).to_have_count(5)
        wins = records.locator('figure[data-measure="wins"] rect.bar')
        expect(wins).to_have_count(2)
        assert wins.nth(0).evaluate("(b) => b.getBoundingClientRect().width") > wins.nth(1).evaluate(
            "(b) => b.getBoundingClientRect().width"
        )
        expect(records.locator('figure[data-measure="average_hand"]')).to_contain_text("8.0")
        assert not page.locator("script[src^='http']").count()  # drawn here, nothing from a CDN
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
    context.close()


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


def test_four_players_show_as_two_partnerships_and_each_can_claim(
    table: tuple[ScoreboardServer, ScoreboardHub, list[Event]], page: Page
) -> None:
    server, hub, _ = table
    four = {
        **VIEW,
        "players": ["Ann", "Bob", "Cal", "Dee"],
        "sides": ["Ann & Cal", "Bob & Dee"],
        "side_of": [0, 1, 0, 1],
        "turn": 3,
        "mode": "claims",
        "last": {"player": 2, "points": 2, "text": "fifteen two"},
    }
    hub.publish(four)
    page.goto(server.url)
    expect(page.get_by_test_id("name-0")).to_have_text("Ann & Cal")
    expect(page.get_by_test_id("name-1")).to_have_text("Bob & Dee")
    expect(page.get_by_test_id("player-1")).to_have_class("player p1 turn")  # Dee's turn: her track
    expect(page.get_by_test_id("last-score")).to_have_text("Cal: fifteen two")
    expect(page.get_by_test_id("claim-player-2")).to_have_text("Cal")
    expect(page.get_by_test_id("claim-player-2")).to_be_visible()
    expect(page.get_by_test_id("claim-send")).to_have_text("peg 0 for Dee")  # the player to lay
    hub.publish({**VIEW, "mode": "claims"})
    expect(page.get_by_test_id("claim-player-1")).to_be_visible()
    expect(page.get_by_test_id("claim-player-3")).to_be_hidden()  # two players: two buttons


def test_four_players_show_round_the_table_from_the_dealers_left(
    table: tuple[ScoreboardServer, ScoreboardHub, list[Event]], page: Page
) -> None:
    from companion.app.config import TableConfig
    from companion.app.simulate import script_game
    from companion.app.store import Journal
    from companion.app.table import Table
    from companion.app.view import build_view
    from companion.rules.game import Phase

    names = ("Ann", "Bob", "Cal", "Dee")
    played = Table(Journal(":memory:"), TableConfig(players=names, variant="four-player", games_to_win=1))
    for event in script_game(6, variant="four-player").events:  # up to the show of the first deal
        played.handle(event)
        if played.game.phase is Phase.SHOW:  # the hands counted, the crib waiting to be turned up
            break
    view = build_view(played)
    dealer = played.game.snapshot().dealer
    assert dealer is not None and view["phase"] == "show"
    server, hub, _ = table
    hub.publish(view)
    page.goto(server.url)
    rows = [page.get_by_test_id(f"show-{row}") for row in ("pone", "second", "third", "dealer")]
    for offset, row in enumerate(rows, start=1):
        seat = (dealer + offset) % 4
        expect(row.locator(".row-head")).to_contain_text(f"{names[seat]}'s hand")
        expect(row.locator(".row-head")).to_have_class(f"row-head p{seat % 2}")  # the partnership's colour
        expect(row.locator(".card:not(.is-starter)")).to_have_count(4)  # five dealt, one to the crib
    expect(page.get_by_test_id("show-crib").locator(".row-head")).to_contain_text(f"{names[dealer]}'s crib")
