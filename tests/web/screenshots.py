#!/usr/bin/env python3
"""Make the scoreboard's pictures for the docs from the running app.

Run ``.venv/bin/python tests/web/screenshots.py [DIR]`` from the repository root.

A real table (game loop, journal, scoreboard server) plays recorded games: one to the end, so the
players' records have something to show, then a game with the players claiming, stopped in the show of
its second deal while muggins is offered.  Debian's chromium, driven by Playwright, photographs it:

* ``scoreboard-phone.png`` -- a phone (390x844 CSS px, drawn at twice that): scores, muggins, the board;
* ``scoreboard-phone-show.png`` -- the same phone scrolled to the show's three rows, a score tapped;
* ``scoreboard-desktop.png`` -- a laptop (1280x800);
* ``scoreboard-wall.png`` -- ``/?display=wall`` on a landscape tablet or TV (1280x800).

The default DIR is ``docs/images``.  The recordings are fixed, so the pictures change only when the page
does (or by a second on the muggins countdown, which is given a long 60 s so it reads 59 or 60).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

from companion.app.config import TableConfig
from companion.app.loop import GameLoop
from companion.app.simulate import script_game
from companion.app.store import Journal
from companion.app.table import Table
from companion.app.view import statistics
from companion.events import CallMuggins, NewGame, SetMode
from companion.web.app import create_app
from companion.web.hub import ScoreboardHub
from companion.web.server import ScoreboardServer

ROOT = Path(__file__).resolve().parents[2]
PIN = "20261126"
ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
CHROMIUM = "/usr/bin/chromium"
SHOTS = ("scoreboard-phone.png", "scoreboard-phone-show.png", "scoreboard-desktop.png", "scoreboard-wall.png")


def set_the_table(journal: Journal, hub: ScoreboardHub) -> GameLoop:
    """A table with one finished game kept, in the show of a claimed game with muggins offered."""
    config = TableConfig(players=("Ann", "Bob"), games_to_win=1, pin=PIN, muggins_seconds=60)
    loop = GameLoop(Table(journal, config), hub=hub)
    for event in script_game(7).events:  # Bob wins, a skunk
        loop.step(event)
    loop.step(NewGame())
    loop.step(SetMode("claims"))
    offers = 0
    for event in script_game(3, mode="claims", miss_rate=1.0).events:
        if isinstance(event, CallMuggins):
            offers += 1
            if offers == 2:
                break
        loop.step(event)
    return loop


def main(out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        journal = Journal(Path(folder) / "table.db")
        hub = ScoreboardHub()
        loop = set_the_table(journal, hub)
        app = create_app(hub, loop.post, PIN, stats=lambda: statistics(journal))
        written: list[Path] = []
        with ScoreboardServer(app, host="127.0.0.1", port=0) as server, sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
            try:
                phone = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2)
                page = phone.new_page()
                page.goto(server.url)
                page.wait_for_selector('[data-testid="strip-0"]')
                page.wait_for_selector('[data-testid="records"] figure')
                written.append(out / SHOTS[0])
                page.screenshot(path=written[-1], animations="disabled")
                show = page.get_by_test_id("show")
                show.scroll_into_view_if_needed()
                chips = show.locator(".item")
                if chips.count():
                    chips.first.click()
                written.append(out / SHOTS[1])
                page.screenshot(path=written[-1], animations="disabled")
                phone.close()
                for name, query in ((SHOTS[2], ""), (SHOTS[3], "/?display=wall")):
                    wide = browser.new_context(viewport={"width": 1280, "height": 800})
                    page = wide.new_page()
                    page.goto(server.url + query)
                    page.wait_for_selector('[data-testid="whole-board"]')
                    written.append(out / name)
                    page.screenshot(path=written[-1], animations="disabled")
                    wide.close()
            finally:
                browser.close()
        journal.close()
    return written


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "images"
    for path in main(target):
        print(path)
