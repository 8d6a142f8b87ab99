"""The watch between the camera's tracker and the table: only what a table can do reaches the game, a
close reading is settled by the cards the game rules out, an unread card is asked about.

Sightings here are made by hand, 30 frames a second, at the spots the usual layout gives each zone
(the pixel tests of the same behaviour are in ``test_live_film.py``)."""

from __future__ import annotations

from collections.abc import Sequence

from companion.app.seen import GameView, Watch, allowance
from companion.app.view import build_view
from companion.cards import Card
from companion.events import CardLanded, CardLifted, Event, TableNotice
from companion.vision.arrivals import Arrival
from companion.vision.types import UNKNOWN, Sighting, Zone, seen_from_text
from companion.vision.zones import TableLayout

from .helpers import feed, lay, table

FPS = 30.0
LAYOUT = TableLayout.default(1280, 720)
NEAR = (640.0, 600.0)  # in front of the first player (Ann)
FAR = (640.0, 130.0)  # in front of the second (Bob)
CRIB = (870.0, 360.0)


def seen(label: str, at: tuple[float, float], confidence: float = 0.97) -> Sighting:
    x, y = at
    corners = ((x - 20, y - 30), (x + 20, y - 30), (x + 20, y + 30), (x - 20, y + 30))
    return Sighting(seen_from_text(label), confidence, corners)


def watch_frames(watch: Watch, frames: Sequence[Sequence[Sighting]], start: int = 0) -> list[Event]:
    out: list[Event] = []
    for n, sightings in enumerate(frames, start):
        out += watch.see(list(sightings), n / FPS, at=1.0)
    return out


def in_play() -> GameView:
    """The view of a game in the play: 5c is the starter, 9h already laid by Ann."""
    return GameView(
        "play", {Card.parse("5c"): "is the starter", Card.parse("9h"): "is already played"}, ("Ann", "Bob")
    )


def landed(events: Sequence[Event]) -> list[tuple[str, str]]:
    return [(str(e.card), e.zone) for e in events if isinstance(e, CardLanded)]


def test_the_phase_says_how_many_cards_a_zone_may_take_at_once() -> None:
    assert allowance("play", Zone.PLAYER0) == 1
    assert allowance("cut-for-deal", Zone.STARTER) == 0
    assert allowance("show", Zone.CRIB) == 4
    assert allowance("play", Zone.CRIB) == 1


def test_a_card_laid_in_the_play_is_fed_once_in_its_zone_and_said() -> None:
    said: list[str] = []
    watch = Watch(LAYOUT, say=said.append)
    watch.view = in_play()
    events = watch_frames(watch, [[seen("7d", FAR)] for _ in range(30)])
    assert landed(events) == [("7d", "player1")]
    assert said == ["7d in front of Bob"]


def test_cards_laid_by_both_players_in_turn_are_each_fed() -> None:
    watch = Watch(LAYOUT)
    watch.view = in_play()
    frames = [[seen("7d", FAR)] for _ in range(5)] + [[seen("7d", FAR), seen("2s", NEAR)] for _ in range(30)]
    assert landed(watch_frames(watch, frames)) == [("7d", "player1"), ("2s", "player0")]


def test_a_hand_shown_in_the_play_is_held_and_reported_once() -> None:
    said: list[str] = []
    watch = Watch(LAYOUT, say=said.append)
    watch.view = in_play()
    hand = [seen(c, (520.0 + 74 * k, 600.0)) for k, c in enumerate(("Ks", "Qd", "3c", "4h"))]
    events = watch_frames(watch, [hand for _ in range(60)])
    assert landed(events) == []
    assert len(said) == 1 and said[0].startswith("4 cards appeared at once")
    # Taken away, they are forgotten; the next card laid is fed as usual.
    events = watch_frames(watch, [[] for _ in range(40)], start=60)
    assert landed(events) == [] and not any(isinstance(e, CardLifted) for e in events)
    events = watch_frames(watch, [[seen("Kd", FAR)] for _ in range(20)], start=100)
    assert landed(events) == [("Kd", "player1")]


def test_a_held_burst_is_said_on_the_scoreboard_and_kept_with_the_match_but_changes_no_score() -> None:
    said: list[str] = []
    watch = Watch(LAYOUT, say=said.append)
    played = table()
    watch.follow(played, None)  # the cut for the deal: no cards in front of anyone yet
    hand = [seen(c, (520.0 + 74 * k, 600.0)) for k, c in enumerate(("Ks", "Qd", "3c", "4h"))]
    events = watch_frames(watch, [hand for _ in range(60)])
    notices = [e for e in events if isinstance(e, TableNotice)]
    assert len(notices) == 1 and notices[0].text == said[0]
    before = played.game.snapshot()
    for event in events:
        played.handle(event)
    view = build_view(played)
    assert view["notice"] is not None and view["notice"].startswith("4 cards appeared at once")
    assert "none is counted" in view["notice"] and view["scores"] == [0, 0]
    assert played.game.snapshot() == before
    assert played.journal.note(played.match_id, "camera") == [notices[0].text]


def test_a_close_reading_is_settled_by_a_card_already_played_and_the_reason_shown() -> None:
    said: list[str] = []
    watch = Watch(LAYOUT, say=said.append)
    watch.view = in_play()
    frames = [[seen("6h" if n % 2 else "9h", NEAR)] for n in range(30)]
    events = watch_frames(watch, frames)
    assert landed(events) == [("6h", "player0")]
    event = next(e for e in events if isinstance(e, CardLanded))
    assert event.why == "read 6h or 9h; 9h is already played: 6h"
    assert said == ["6h in front of Ann (read 6h or 9h; 9h is already played: 6h)"]


def test_a_card_that_stays_unread_is_asked_about_with_the_likely_cards_first() -> None:
    watch = Watch(LAYOUT)
    watch.view = in_play()
    frames = [[seen("6h", NEAR, 0.55) if n % 3 == 0 else seen(UNKNOWN, NEAR, 0.4)] for n in range(45)]
    events = watch_frames(watch, frames)
    unread = [e for e in events if isinstance(e, CardLanded)]
    assert [(e.card, e.zone, e.likely) for e in unread] == [("unknown", "player0", ("6h",))]


def test_the_table_asks_with_the_likely_card_first_and_the_answer_goes_on() -> None:
    played = table()
    feed(played, lay("player0 2c", "player1 Kd"))  # Ann cuts low: she deals
    feed(played, lay("starter 5c", "player1 9h"))
    played.handle(CardLanded("unknown", "player0", likely=("6h", "8h")))
    question = played.correction
    assert question is not None and question.choices[:2] == ("6h", "8h")
    assert "9h" not in question.choices  # already played: never offered
    from companion.events import PegClaim

    played.handle(PegClaim(0))  # the knob pressed on the first choice
    assert played.correction is None
    assert [str(c) for _, c in played.game.snapshot().deal_cards][-1] == "6h"


def test_how_a_reading_was_settled_is_shown_and_kept_in_the_journal() -> None:
    played = table()
    feed(played, lay("player0 2c", "player1 Kd", "starter 5c", "player1 9h"))
    why = "read 6h or 9h; 9h is already played: 6h"
    played.handle(CardLanded("6h", "player0", why=why))
    assert played.notice == why and played.correction is None
    assert played.journal.note(played.match_id, "camera") == [why]


def test_a_card_nothing_was_read_on_is_asked_about_before_a_card_laid_after_it() -> None:
    """Something new lies still in front of Ann that the recogniser read nothing on (an arrival); Bob
    then lays the 7s.  The table is asked about Ann's card first, then given the 7s."""
    watch = Watch(LAYOUT)
    watch.view = in_play()
    box = ((600.0, 540.0), (680.0, 540.0), (680.0, 660.0), (600.0, 660.0))
    arrival = Arrival(1, 0.0, box)
    out: list[Event] = []
    for n in range(20):
        sightings = [seen("7s", FAR)] if n >= 8 else []
        out += watch.see(sightings, n / FPS, at=1.0, arrivals=[arrival])
    assert landed(out) == [("unknown", "player0"), ("7s", "player1")]
    assert watch.reports == ["a card in front of Ann cannot be read: asking", "7s in front of Bob"]


def test_a_card_nothing_was_read_on_is_asked_about_once_after_a_second_alone() -> None:
    watch = Watch(LAYOUT)
    watch.view = in_play()
    box = ((830.0, 300.0), (910.0, 300.0), (910.0, 420.0), (830.0, 420.0))
    out: list[Event] = []
    for n in range(60):
        out += watch.see([], n / FPS, at=1.0, arrivals=[Arrival(4, 0.0, box)])
        if n < 29:
            assert out == []  # a second, as for any card that stays unread
    assert landed(out) == [("unknown", "crib")]


def _answered_cut() -> tuple[Watch, object, list[Event]]:
    """Ann's cut card lies unread in front of her until it is asked about; she answers "As" with the
    knob.  Returns the watch, the table and what the watch fed it."""
    from companion.events import Correct

    played = table()
    watch = Watch(LAYOUT)
    watch.follow(played, None)
    fed: list[Event] = []
    for n in range(45):
        for event in watch.see([seen(UNKNOWN, NEAR, 0.4)], n / FPS, at=1.0):
            fed.append(event)
            played.handle(event)
            watch.follow(played, event)
    assert landed(fed) == [("unknown", "player0")]
    question = played.correction
    assert question is not None
    answer = Correct("As", question.zone)
    played.handle(answer)
    watch.follow(played, answer)
    assert played.correction is None
    return watch, played, fed


def _go_on(watch: Watch, played: object, frames: Sequence[Sequence[Sighting]], start: int) -> list[Event]:
    from companion.app.table import Table

    assert isinstance(played, Table)
    fed: list[Event] = []
    for n, sightings in enumerate(frames, start):
        for event in watch.see(list(sightings), n / FPS, at=1.0):
            fed.append(event)
            played.handle(event)
            watch.follow(played, event)
    return fed


def test_an_answered_card_read_surely_later_is_the_same_card_not_a_second_one() -> None:
    """The frames that read the answered card at last name the card it lies as: nothing new."""
    watch, played, _ = _answered_cut()
    fed = _go_on(watch, played, [[seen("As", NEAR)] for _ in range(60)], 45)
    assert landed(fed) == []
    assert played.correction is None  # type: ignore[attr-defined]


def test_an_answered_card_unread_again_after_a_hand_hid_it_is_offered_first_and_changes_nothing() -> None:
    """A hand hides the answered card for a second and a half, past the time a card is taken to have
    left; then it is seen unread again where it lay.  It may be something else now, so it is asked
    about, with the card named there before first; the same answer again leaves the game as it was."""
    from companion.app.table import Table
    from companion.events import PegClaim

    watch, played, _ = _answered_cut()
    assert isinstance(played, Table)
    before = played.game.snapshot()
    frames = [[] for _ in range(45)] + [[seen(UNKNOWN, NEAR, 0.4)] for _ in range(60)]
    fed = _go_on(watch, played, frames, 45)
    asked = [e for e in fed if isinstance(e, CardLanded)]
    assert [(e.card, e.zone, e.likely[:1]) for e in asked] == [("unknown", "player0", ("As",))]
    question = played.correction
    assert question is not None and question.choices[0] == "As"
    played.handle(PegClaim(0))
    assert played.correction is None and "does not fit" not in played.notice
    assert played.game.snapshot() == before


def test_answers_about_two_unread_cards_in_one_zone_name_each_the_card_it_was_about() -> None:
    """Bob lays two cards running (Ann has said go), neither readable; Ann's next card is read before
    either is asked about, so both are asked about at once, in the order laid, before hers.  Each
    answer names the thing it was about, so each, read at last, is the card it was named."""
    from companion.events import Correct

    played = table()
    feed(played, lay("player0 2c", "player1 Kd", "starter 5c"))  # Ann cut low and dealt: Bob leads
    watch = Watch(LAYOUT)
    watch.follow(played, None)
    first, second = (560.0, 130.0), (700.0, 130.0)
    both = [seen(UNKNOWN, first, 0.4), seen(UNKNOWN, second, 0.4)]
    frames = [both[:1] for _ in range(10)] + [both for _ in range(10)]
    frames += [[*both, seen("9h", NEAR)] for _ in range(40)]
    answers = iter(("7d", "6s"))
    for n, sightings in enumerate(frames):
        for event in watch.see(list(sightings), n / FPS, at=1.0):
            played.handle(event)
            watch.follow(played, event)
            while played.correction is not None:
                answer = Correct(next(answers), played.correction.zone)
                played.handle(answer)
                watch.follow(played, answer)
    assert [str(c) for _, c in played.game.snapshot().deal_cards] == ["7d", "6s", "9h"]
    watch.see([], len(frames) / FPS, at=1.0)  # the answers reach the tracker with the next frame
    on_table = watch.tracker.on_table
    bob, ann = Zone.PLAYER1, Zone.PLAYER0
    assert on_table == {Card.parse("7d"): bob, Card.parse("6s"): bob, Card.parse("9h"): ann}
    later = [[seen("7d", first), seen("6s", second), seen("9h", NEAR)] for _ in range(30)]
    fed = _go_on(watch, played, later, len(frames) + 1)
    assert landed(fed) == [] and played.correction is None
