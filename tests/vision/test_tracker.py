"""The tracker on synthetic sequences of sightings, 30 frames a second: stable events, each once."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import replace

from companion.cards import Card
from companion.vision.tracker import CardAppeared, CardLeft, CardMoved, CardUnread, TableEvent, Tracker
from companion.vision.types import BACK, UNKNOWN, Sighting, seen_from_text
from companion.vision.zones import CRIB, DECK, TableLayout, play_zone

FPS = 30.0
LAYOUT = TableLayout.default(1280, 720)
P1 = (640.0, 600.0)  # player 1's side (near edge)
P2 = (640.0, 130.0)  # player 2's side


def seen(label: str, at: tuple[float, float], confidence: float = 0.97) -> Sighting:
    x, y = at
    return Sighting(
        seen_from_text(label),
        confidence,
        ((x - 20, y - 30), (x + 20, y - 30), (x + 20, y + 30), (x - 20, y + 30)),
    )


def run(frames: Sequence[Iterable[Sighting]], tracker: Tracker | None = None) -> list[tuple[int, TableEvent]]:
    tracker = tracker or Tracker(LAYOUT)
    out = []
    for n, sightings in enumerate(frames):
        for event in tracker.update(list(sightings), n / FPS):
            out.append((n, event))
    return out


def test_a_card_laid_is_reported_once_in_its_zone_within_300_ms() -> None:
    frames = [[] for _ in range(10)] + [[seen("5h", P1)] for _ in range(60)]
    events = run(frames)
    assert len(events) == 1
    n, event = events[0]
    assert isinstance(event, CardAppeared)
    assert event.card == Card.parse("5h") and event.zone == play_zone(1)
    assert (n - 10) / FPS < 0.3


def test_a_hand_passing_over_a_card_makes_no_event() -> None:
    frames = [[seen("Qs", P2)] for _ in range(30)]
    frames += [[] for _ in range(15)]  # half a second under a hand
    frames += [[seen("Qs", P2)] for _ in range(30)]
    events = run(frames)
    assert [type(e) for _, e in events] == [CardAppeared]


def test_one_blurred_frame_while_laying_makes_no_extra_event() -> None:
    frames = [[seen("7c", P1)] for _ in range(3)] + [[]] + [[seen("7c", P1)] for _ in range(40)]
    events = run(frames)
    assert [type(e) for _, e in events] == [CardAppeared]


def test_a_card_removed_is_reported_as_left_once() -> None:
    frames = [[seen("Kd", P1)] for _ in range(30)] + [[] for _ in range(90)]
    events = run(frames)
    kinds = [type(e) for _, e in events]
    assert kinds == [CardAppeared, CardLeft]
    n_left, left = events[1]
    assert left.card == Card.parse("Kd") and left.zone == play_zone(1)
    assert 0.9 <= (n_left - 29) / FPS <= 1.3


def test_two_cards_laid_quickly_are_each_reported_once() -> None:
    a, b = (560.0, 600.0), (700.0, 600.0)
    frames = [[seen("5h", a)] for _ in range(3)]
    frames += [[seen("5h", a), seen("10s", b)] for _ in range(40)]
    events = run(frames)
    appeared = sorted(str(e.card) for _, e in events if isinstance(e, CardAppeared))
    assert appeared == ["10s", "5h"]
    assert len(events) == 2


def test_a_nudged_card_makes_no_event() -> None:
    frames = [[seen("9d", P1)] for _ in range(30)]
    frames += [[seen("9d", (P1[0] + 12, P1[1] - 8))] for _ in range(30)]
    assert [type(e) for _, e in run(frames)] == [CardAppeared]


def test_a_card_pushed_into_another_zone_moves_once() -> None:
    crib_spot = (LAYOUT.anchors[-1][1][0], LAYOUT.anchors[-1][1][1])
    assert LAYOUT.zone_at(crib_spot) == CRIB
    frames = [[seen("Jc", P1)] for _ in range(30)]
    # Slid across in eight frames, then left at rest in the crib zone.
    for k in range(1, 9):
        x = P1[0] + (crib_spot[0] - P1[0]) * k / 8
        y = P1[1] + (crib_spot[1] - P1[1]) * k / 8
        frames.append([seen("Jc", (x, y))])
    frames += [[seen("Jc", crib_spot)] for _ in range(30)]
    events = [e for _, e in run(frames)]
    assert [type(e) for e in events] == [CardAppeared, CardMoved]
    moved = events[1]
    assert isinstance(moved, CardMoved)
    assert moved.from_zone == play_zone(1) and moved.to_zone == CRIB


def test_a_card_still_sliding_is_not_reported_until_it_rests() -> None:
    frames = [[seen("3h", (100.0 + 40 * k, 600.0))] for k in range(12)]
    frames += [[seen("3h", (560.0, 600.0))] for _ in range(20)]
    events = run(frames)
    assert len(events) == 1
    n, event = events[0]
    assert n >= 12 and isinstance(event, CardAppeared) and event.position == (560.0, 600.0)


def test_backs_make_no_events() -> None:
    assert run([[seen(BACK, P1), seen(BACK, P2)] for _ in range(60)]) == []


def test_a_card_lying_still_unread_is_reported_once_after_about_a_second() -> None:
    frames = [[seen(UNKNOWN, P2, confidence=0.4)] for _ in range(90)]
    events = run(frames)
    assert [type(e) for _, e in events] == [CardUnread]
    n, event = events[0]
    assert isinstance(event, CardUnread) and event.zone == play_zone(2)
    assert 0.9 <= n / FPS <= 1.3
    assert event.reading.candidates == ()


def test_a_cards_other_corner_never_read_is_not_asked_about_when_its_named_corner_is_covered() -> None:
    """A card laid under a soft camera, one corner read and the other not (seen apart, the two corners
    of a card 100 pixels wide lie some 120 apart): the unread corner came with the card. When the next
    card laid covers the named corner, what is left is that card's corner, not a new card to ask about."""
    named, other = (600.0, 560.0), (670.0, 650.0)
    frames = [[seen("5d", named), seen(UNKNOWN, other, confidence=0.4)] for _ in range(20)]
    frames += [[seen(UNKNOWN, other, confidence=0.4)] for _ in range(60)]
    events = [e for _, e in run(frames)]
    assert isinstance(events[0], CardAppeared) and events[0].card == Card.parse("5d")
    assert not any(isinstance(e, CardUnread) for e in events)


def test_an_unread_card_laid_after_a_named_one_beside_it_is_asked_about() -> None:
    """The same places, the unread thing laid half a second after the named card: a card of its own."""
    named, other = (600.0, 560.0), (670.0, 650.0)
    frames = [[seen("5d", named)] for _ in range(15)]
    frames += [[seen("5d", named), seen(UNKNOWN, other, confidence=0.4)] for _ in range(60)]
    events = [e for _, e in run(frames)]
    assert [type(e) for e in events] == [CardAppeared, CardUnread]


def test_an_unread_card_seen_at_both_corners_is_asked_about_once_when_a_later_card_is_read() -> None:
    """A card lies unread, its two corners seen apart (some 120 pixels apart on a card 100 wide);
    a card laid after it, across the table, is read surely.  The game needs the unread one first,
    and it is one card: one question, then the card laid after it."""
    corners = ((600.0, 560.0), (670.0, 650.0))
    unread = [seen(UNKNOWN, at, confidence=0.4) for at in corners]
    frames = [unread for _ in range(15)]
    frames += [[*unread, seen("9h", P2)] for _ in range(15)]
    events = [e for _, e in run(frames)]
    assert [type(e) for e in events] == [CardUnread, CardAppeared]


def test_an_unread_card_laid_beside_one_not_yet_asked_about_is_asked_about_too() -> None:
    """Two unread cards in the play, the second laid a quarter of a second after the first, over its
    corner (the play's cards overlap), both lying still: two questions, not one."""
    first, second = (600.0, 560.0), (670.0, 560.0)
    both = [seen(UNKNOWN, first, confidence=0.4), seen(UNKNOWN, second, confidence=0.4)]
    frames = [both[:1] for _ in range(8)] + [both for _ in range(60)]
    events = [e for _, e in run(frames)]
    assert [type(e) for e in events] == [CardUnread, CardUnread]


def test_an_unread_card_laid_over_a_named_cards_corner_is_asked_about() -> None:
    """The 3c lies read in the play; the next card, unreadable, is laid over its corner, its index
    three quarters of a card along the row: a card of its own, asked about, not a corner of the 3c."""
    named, laid = (566.0, 527.0), (641.0, 527.0)
    frames = [[seen("3c", named)] for _ in range(30)]
    frames += [[seen("3c", named), seen(UNKNOWN, laid, confidence=0.5)] for _ in range(60)]
    events = [e for _, e in run(frames)]
    assert [type(e) for e in events] == [CardAppeared, CardUnread]
    assert math.dist(events[1].position, laid) < 5


def test_a_card_read_laid_beside_an_unread_one_is_a_card_of_its_own() -> None:
    """A crib card lies unread; a quarter of a second later the next is turned up beside it, its index
    three quarters of a card along, and read: it is not taken for the unread one.  The unread card,
    turned up first, is asked about first."""
    unread, laid = (867.0, 314.0), (941.0, 312.0)
    frames = [[seen(UNKNOWN, unread, confidence=0.5)] for _ in range(8)]
    frames += [[seen(UNKNOWN, unread, confidence=0.5), seen("7d", laid)] for _ in range(30)]
    events = [e for _, e in run(frames)]
    assert [type(e) for e in events] == [CardUnread, CardAppeared]
    assert math.dist(events[0].position, unread) < 5
    assert isinstance(events[1], CardAppeared) and events[1].card == Card.parse("7d")


def test_an_unread_card_read_at_two_spots_by_turns_is_still_at_rest_and_asked_about() -> None:
    """Something unread whose reading lands on its index in some frames and on a mark beside it in
    others (60 pixels apart) lies still all the same: asked about once, after about a second."""
    spots = ((714.0, 97.0), (751.0, 144.0))
    frames = [[seen(UNKNOWN, spots[(n // 2) % 2], confidence=0.5)] for n in range(60)]
    events = run(frames)
    assert [type(e) for _, e in events] == [CardUnread]
    assert 0.9 <= events[0][0] / FPS <= 1.3


def test_a_name_read_only_unsurely_is_asked_about_with_that_name_first() -> None:
    frames = [[seen("4c", (300.0, 360.0), confidence=0.5)] for _ in range(60)]
    events = [e for _, e in run(frames)]
    assert len(events) == 1 and isinstance(events[0], CardUnread)
    assert events[0].reading.candidates == (Card.parse("4c"),)


def test_a_name_read_at_0_75_over_the_frames_is_taken() -> None:
    events = [e for _, e in run([[seen("8d", P1, confidence=0.75)] for _ in range(20)])]
    assert [type(e) for e in events] == [CardAppeared] and events[0].card == Card.parse("8d")


def test_one_misread_frame_among_good_ones_is_outvoted() -> None:
    frames = [[seen("6h", P1)] for _ in range(2)] + [[seen("8h", P1, confidence=0.9)]]
    frames += [[seen("6h", P1)] for _ in range(30)]
    events = [e for _, e in run(frames)]
    assert [type(e) for e in events] == [CardAppeared]
    assert events[0].card == Card.parse("6h")
    assert events[0].reading.candidates == (Card.parse("6h"), Card.parse("8h"))


def test_a_name_that_keeps_changing_is_not_guessed_but_asked() -> None:
    frames = [[seen("6h" if n % 2 else "8h", P1)] for n in range(60)]
    events = [e for _, e in run(frames)]
    assert [type(e) for e in events] == [CardUnread]
    assert set(events[0].reading.candidates) == {Card.parse("6h"), Card.parse("8h")}


def test_the_game_settles_a_close_reading_and_the_reason_is_kept() -> None:
    tracker = Tracker(LAYOUT)
    tracker.excluded = {Card.parse("8h"): "is already played"}
    frames = [[seen("6h" if n % 2 else "8h", P1)] for n in range(20)]
    events = [e for _, e in run(frames, tracker)]
    assert [type(e) for e in events] == [CardAppeared]
    assert events[0].card == Card.parse("6h")
    assert events[0].reading.ruled_out == ((Card.parse("8h"), "is already played"),)


def test_a_card_lifted_and_laid_again_at_once_makes_no_event() -> None:
    frames = [[seen("Jd", P1)] for _ in range(30)] + [[] for _ in range(12)]
    frames += [[seen("Jd", (P1[0] + 30, P1[1] - 10))] for _ in range(30)]
    assert [type(e) for _, e in run(frames)] == [CardAppeared]


def test_a_card_lifted_for_long_and_laid_again_leaves_and_appears_again() -> None:
    frames = [[seen("Jd", P1)] for _ in range(30)] + [[] for _ in range(45)]
    frames += [[seen("Jd", P1)] for _ in range(30)]
    assert [type(e) for _, e in run(frames)] == [CardAppeared, CardLeft, CardAppeared]


def test_a_card_seen_twice_in_one_frame_is_still_one_card() -> None:
    frames = [[seen("As", P1), seen("As", (P1[0] + 5, P1[1] + 3))] for _ in range(30)]
    events = run(frames)
    assert len(events) == 1
    tracker = Tracker(LAYOUT)
    for n, sightings in enumerate(frames):
        tracker.update(sightings, n / FPS)
    assert tracker.on_table == {Card.parse("As"): play_zone(1)}


def test_zone_is_none_without_a_layout_and_deck_zone_is_found() -> None:
    events = run([[seen("2s", (300.0, 360.0))] for _ in range(20)], Tracker(None))
    assert isinstance(events[0][1], CardAppeared) and events[0][1].zone is None
    deck_spot = dict(LAYOUT.anchors)[DECK]
    events = run([[seen("2s", deck_spot)] for _ in range(20)])
    assert isinstance(events[0][1], CardAppeared) and events[0][1].zone == DECK


def test_a_card_read_at_one_corner_is_in_the_zone_of_its_middle_not_its_index() -> None:
    """The index of a card in front of player 1 lies nearer the deck's anchor than player 1's, as at a
    camera's slant; the card's middle (the sighting says where) is player 1's, and so is the card."""
    anchors = dict(LAYOUT.anchors)
    deck, near = anchors[DECK], anchors[play_zone(1)]
    index = (deck[0] + 0.45 * (near[0] - deck[0]), deck[1] + 0.45 * (near[1] - deck[1]))
    middle = (deck[0] + 0.8 * (near[0] - deck[0]), deck[1] + 0.8 * (near[1] - deck[1]))
    corner = replace(seen("7d", index), middle=middle)
    assert corner.where == middle and seen("7d", index).where == index
    events = run([[corner] for _ in range(20)])
    assert [type(e) for _, e in events] == [CardAppeared]
    appeared = events[0][1]
    assert isinstance(appeared, CardAppeared) and appeared.zone == play_zone(1)
    assert math.dist(appeared.position, middle) < 1


def test_a_card_named_alike_in_every_frame_is_taken_as_soon_as_it_lies_still() -> None:
    """Three sure readings of one name, the last two at one spot: decisive, no waiting out the rest."""
    events = run([[] for _ in range(5)] + [[seen("5h", P1)] for _ in range(10)])
    assert [(n, type(e)) for n, e in events] == [(7, CardAppeared)]  # its third frame


def test_a_card_whose_frames_disagree_waits_for_more_of_them() -> None:
    frames = (
        [[] for _ in range(5)] + [[seen("5h", P1)], [seen("6h", P1)]] + [[seen("5h", P1)] for _ in range(20)]
    )
    events = run(frames)
    assert (
        len(events) == 1 and isinstance(events[0][1], CardAppeared) and events[0][1].card == Card.parse("5h")
    )
    assert events[0][0] > 7


def test_a_card_seen_only_once_at_each_spot_is_not_taken_while_it_slides() -> None:
    frames = [[seen("5h", (400.0 + 40 * k, 600.0))] for k in range(6)] + [
        [seen("5h", (640.0, 600.0))] for _ in range(10)
    ]
    events = run(frames)
    assert [(n, type(e)) for n, e in events] == [(7, CardAppeared)]  # the second frame at rest


def test_a_card_the_players_renamed_is_still_that_card_when_read_as_before() -> None:
    """The camera decided 7d where the players say the 7c lies: read 7d there again, it is the 7c
    (nothing new); a 7d laid on the other side of the table is a card of its own."""
    tracker = Tracker(LAYOUT)
    events = run([[seen("7d", P1)] for _ in range(30)], tracker)
    ((_, appeared),) = events
    assert isinstance(appeared, CardAppeared)
    assert not tracker.name(P2, Card.parse("7c"))  # nothing decided or asked about lies there
    assert tracker.name(appeared.position, Card.parse("7c"))
    assert tracker.on_table == {Card.parse("7c"): play_zone(1)}
    later = [(n, e) for n in range(30, 90) for e in tracker.update([seen("7d", P1)], n / FPS)]
    assert later == []
    both = [seen(UNKNOWN, P1, 0.4), seen("7d", P2)]  # one name is taken once a frame: the surest
    laid = [e for n in range(90, 130) for e in tracker.update(both, n / FPS)]
    assert [(type(e), e.card, e.zone) for e in laid] == [(CardAppeared, Card.parse("7d"), play_zone(2))]


def test_a_card_asked_about_and_named_is_not_asked_about_again_while_it_lies_there() -> None:
    tracker = Tracker(LAYOUT)
    events = run([[seen(UNKNOWN, P1, 0.4)] for _ in range(45)], tracker)
    ((_, unread),) = events
    assert isinstance(unread, CardUnread)
    assert tracker.name(unread.position, Card.parse("As"))
    later = [e for n in range(45, 150) for e in tracker.update([seen(UNKNOWN, P1, 0.4)], n / FPS)]
    later += [e for n in range(150, 200) for e in tracker.update([seen("As", P1)], n / FPS)]
    assert later == []
    assert tracker.on_table == {Card.parse("As"): play_zone(1)}
