"""The table follows a deal from what the camera and the controls report, and never guesses."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from pathlib import Path

import pytest

from companion.app.simulate import script_game
from companion.app.store import Journal
from companion.app.table import Table
from companion.app.view import build_view, deal_rows
from companion.cards import Card
from companion.cli import main
from companion.events import (
    CallMuggins,
    CardLanded,
    CardLifted,
    Claim,
    Correct,
    DialClaim,
    Event,
    MugginsExpired,
    NewGame,
    PegClaim,
    SayGo,
    SetMode,
    Undo,
)
from companion.rules.game import Go, Phase, Play
from companion.rules.notation import load_game

from .helpers import NAMES, config, feed, lay, table


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("mode", ["auto", "claims"])
def test_a_whole_game_from_the_camera_ends_with_the_referees_scores(mode: str, seed: int) -> None:
    recording = script_game(seed, mode=mode)
    played = table(mode=mode)
    feed(played, recording.events)
    snapshot = played.game.snapshot()
    assert snapshot.phase is Phase.GAME_OVER
    assert tuple(snapshot.scores) == recording.final
    assert snapshot.winner == recording.winner
    assert [tuple(row["scores"]) for row in deal_rows(played.game)] == list(recording.deal_scores)


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("mode", ["auto", "claims"])
def test_five_card_cribbage_to_61_followed_from_the_camera(mode: str, seed: int) -> None:
    """The play ends at the first go (Britannica: "when neither can come in the play is at an end"):
    cards kept back are turned up for the show, and the table infers the goes from them."""
    recording = script_game(seed, mode=mode, variant="five-card")
    played = table(mode=mode, variant="five-card")
    feed(played, recording.events)
    assert played.game.target == 61
    assert played.game.phase is Phase.GAME_OVER
    assert tuple(played.game.scores) == recording.final
    assert [tuple(row["scores"]) for row in deal_rows(played.game)] == list(recording.deal_scores)


def test_five_card_cards_kept_back_are_counted_with_the_hand_and_survive_a_restart(tmp_path: Path) -> None:
    """Dealer Ann: 5h 5d 5s; Bob: 7h 8h 9h; starter Ac.  Bob 7h, Ann 5h, Bob 8h, Ann 5d, (Bob: go),
    Ann 5s: thirty, a pair and one for the go; the play is at an end and Bob's 9h is kept back.  Bob
    turns it up: his hand 7h 8h 9h + Ac counts 8 (fifteen two, a run of three, a flush of three)."""
    path = tmp_path / "t.db"
    played = table(path, variant="five-card")
    feed(played, [*opening(0)[:-1], CardLanded("Ac", "starter")])
    assert played.game.scores == [0, 3]
    feed(played, lay("player1 7h", "player0 5h", "player1 8h", "player0 5d", "player0 5s"))
    assert played.game.phase is Phase.SHOW and played.game.scores == [3, 3]
    assert played.game.snapshot().show_next == (1, "hand")  # waiting for the card Bob kept
    view = build_view(played)  # the scoreboard says what the table waits for, and offers no go
    assert view["phase"] == "show" and not view["can_go"]
    assert "Bob to show the hand, turning up the card kept back from the play" in view["phase_text"]
    feed(played, lay("player1 9h"))
    assert played.game.scores == [3 + 8, 3 + 8]  # Bob's hand, then Ann's, shown by the engine
    assert played.game.snapshot().show_next == (0, "crib")

    again = table(path, variant="five-card")
    feed(again, lay("crib 2c", "crib 3c", "crib Qs", "crib Ks"))
    assert again.game.scores == [3 + 8 + 7, 3 + 8]
    assert again.game.phase is Phase.DEAL


def test_five_card_a_card_kept_back_turned_up_after_the_game_is_won_is_not_the_next_cut() -> None:
    """Ann deals 10d As 8c, Bob holds Kh Qc 9s, starter 5h (a game to 7).  Bob Kh, Ann 10d, Bob Qc, Ann
    As: 31 for two ends the play (Ann keeps 8c, Bob 9s).  Bob turns up 9s: Kh Qc 9s + 5h is fifteen
    four, and Bob, with three for last, reaches 7 and wins.  Ann turns up her 8c anyway: the game is
    over, and it is not her cut for the next game."""
    played = table(variant="five-card", target=7, games_to_win=2)
    feed(played, [*opening(0)[:-1], CardLanded("5h", "starter")])
    feed(played, lay("player1 Kh", "player0 10d", "player1 Qc", "player0 As", "player1 9s"))
    assert played.game.phase is Phase.GAME_OVER and played.game.scores == [2, 7]
    feed(played, lay("player0 8c"))
    assert played.game.phase is Phase.GAME_OVER and played.game.game_number == 1
    feed(played, [CardLanded("Ah", "starter")])  # the next game's first starter: it begins
    assert played.game.game_number == 2 and played.game.deal_state.starter == Card.parse("Ah")


def test_five_card_a_card_kept_back_seen_before_a_restart_is_counted_after_it(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    played = table(path, variant="five-card")
    feed(played, [*opening(0)[:-1], CardLanded("Ac", "starter")])
    # Bob 10s, Ann Kh (20), Bob Qd (30, one for the go to Bob): neither can come in, and the play is
    # over with Ann holding two cards and Bob one.  Ann turns hers up first, though Bob shows first.
    feed(played, lay("player1 10s", "player0 Kh", "player1 Qd", "player0 9c"))
    assert played.game.phase is Phase.SHOW and played.game.scores == [0, 3 + 1]
    again = table(path, variant="five-card")
    feed(again, lay("player0 2d"))
    assert again.game.snapshot().show_next == (1, "hand")  # Bob's card is still to come
    feed(again, lay("player1 Jd"))  # Bob: 10s Qd Jd + Ac, a run of three: 3; Ann: Kh 9c 2d + Ac: 0
    assert again.game.scores == [0, 3 + 1 + 3]
    assert again.game.snapshot().show_next == (0, "crib")
    assert [str(c) for c in again.game.log[-1].action.cards or ()] == ["Kh", "9c", "2d"]


def test_a_finished_game_is_kept_with_each_players_statistics(tmp_path: Path) -> None:
    recording = script_game(7)  # a skunk: 86 to 121
    assert min(recording.final) < 91
    played = table(tmp_path / "t.db")
    feed(played, recording.events)
    history = played.journal.history()
    assert history[0]["scores"] == list(recording.final) and history[0]["skunk"] == 1
    stats = {s.name: s for s in played.journal.statistics()}
    winner, loser = NAMES[recording.winner], NAMES[1 - recording.winner]
    assert stats[winner].wins == 1 and stats[winner].skunks_given == 1
    assert stats[loser].wins == 0 and stats[loser].skunked == 1
    assert stats[winner].average_hand > 0 and stats[loser].average_pegging >= 0
    assert build_view(played)["skunk"] == 1


def opening(dealer: int = 0) -> list[CardLanded]:
    """Cuts that make ``dealer`` deal (lower card deals), then a starter (the 2 of clubs)."""
    low, high = ("player0 Ah", "player1 Kd") if dealer == 0 else ("player0 Kd", "player1 Ah")
    return [*lay(low, high), CardLanded("2c", "starter")]


def test_the_lower_cut_deals_and_the_starter_is_turned_after_a_face_down_deal() -> None:
    played = table()
    feed(played, opening(dealer=1))
    assert played.game.dealer == 1
    assert played.game.phase is Phase.PLAY and played.game.turn() == 0  # the pone leads


def test_his_heels_pegs_two_for_the_dealer() -> None:
    played = table()
    feed(played, [*lay("player0 Ah", "player1 Kd"), CardLanded("Js", "starter")])
    assert played.game.scores == [2, 0]
    assert "his heels" in build_view(played)["last"]["text"]


def test_a_go_is_inferred_when_the_same_player_lays_twice_running() -> None:
    played = table()
    # Bob leads; at 30 Ann cannot lay, so Bob lays again: thirty-one for two.
    feed(played, [*opening(), *lay("player1 10s", "player0 Kh", "player1 Qd", "player1 Ac")])
    actions = played.game.actions
    assert Go(0) in actions and actions[-1] == Play(1, played.game.deal_state.played_by[1][-1])
    assert played.game.scores == [0, 2]
    assert played.game.snapshot().count == 0  # a new count begins


def test_a_go_is_inferred_when_a_card_would_pass_31() -> None:
    played = table()
    # 10 + K = 20, then Bob's 5 = 25; Ann's 8 would make 33: both have said go, Bob pegs one for last,
    # and Ann (after the last to lay) leads the next count with the 8.
    feed(played, [*opening(), *lay("player1 10s", "player0 Kh", "player1 5d", "player0 8c")])
    assert played.game.actions[-3:] == (Go(0), Go(1), Play(0, played.game.deal_state.played_by[0][-1]))
    assert played.game.scores == [0, 1]
    assert played.game.snapshot().count == 8


def test_a_card_the_camera_cannot_read_is_asked_for_not_guessed() -> None:
    played = table()
    feed(played, [*opening(), *lay("player1 10s")])
    before = played.game.snapshot()
    played.handle(CardLanded("unknown", "player0"))
    assert played.correction is not None and "could not read" in played.correction.message
    assert "5h" in played.correction.choices and "10s" not in played.correction.choices  # seen cards left out
    assert played.game.snapshot() == before
    played.handle(Correct("5h", "player0"))
    assert played.correction is None
    assert played.game.scores == [2, 0]  # fifteen two for Ann


def test_a_card_seen_twice_in_a_deal_asks_for_a_correction() -> None:
    played = table()
    feed(played, [*opening(), *lay("player1 10s", "player0 5h")])
    played.handle(CardLanded("5h", "player1"))  # a misread: the five of hearts is already on the table
    assert played.correction is not None and "5h has already been" in played.correction.message
    assert played.game.scores == [2, 0]
    choices = played.correction.choices
    same = {c for c in choices if c.startswith("5") or c.endswith("h")}
    assert set(choices[: len(same)]) == same  # a misread keeps the rank or the suit: those are offered first
    played.handle(Correct("5s", "player1", seen="5h"))
    assert played.game.scores == [2, 2]  # a pair of fives for Bob


def test_a_misread_pegged_by_mistake_is_taken_back_by_undo() -> None:
    played = table()
    feed(played, [*opening(), *lay("player1 10s", "player0 5h")])
    played.handle(CardLanded("10h", "player1"))  # the camera read a 10 where Bob laid a 5: no pair
    assert played.game.scores == [2, 0]
    played.handle(Undo())
    assert played.game.snapshot().count == 15
    played.handle(CardLanded("5s", "player1"))
    assert played.game.scores == [2, 2]


def test_undo_takes_back_the_inferred_goes_with_the_card() -> None:
    played = table()
    feed(played, [*opening(), *lay("player1 10s", "player0 Kh", "player1 5d")])
    before = played.game.snapshot()
    played.handle(CardLanded("8c", "player0"))
    played.handle(Undo())
    assert played.game.snapshot() == before


def test_claims_under_claimed_points_are_offered_for_muggins() -> None:
    played = table(mode="claims")
    # Bob leads 10, Ann 5: fifteen two, which Ann claims as one.
    feed(played, [*opening(), *lay("player1 10s", "player0 5h")])
    played.handle(Claim(0, 1))
    assert played.game.scores == [1, 0]
    assert played.game.offer is None  # muggins in the play is a house rule, off by default
    # Through the play with nothing more, then the show: Bob claims too little for his hand.
    recording = script_game(3, mode="claims", miss_rate=1.0)
    fresh = table(mode="claims")
    offered = called = 0
    for event in recording.events:
        fresh.handle(event)
        offered += fresh.game.offer is not None
        called += isinstance(event, CallMuggins)
    assert offered and called
    assert tuple(fresh.game.scores) == recording.final


def test_an_unclaimed_muggins_passes_when_its_time_is_up() -> None:
    played = table(mode="claims")
    recording = script_game(3, mode="claims", miss_rate=1.0)
    for event in recording.events:
        if isinstance(event, CallMuggins):
            break
        played.handle(event)
    offer = played.game.offer
    assert offer is not None
    played.handle(MugginsExpired(offer.serial - 1))  # a stale timer changes nothing
    assert played.game.offer is offer
    played.handle(MugginsExpired(offer.serial))
    assert played.game.offer is None and "nobody calls muggins" in played.game.last_note


def test_switching_to_automatic_counting_mid_game() -> None:
    played = table(mode="claims")
    feed(played, [*opening(), SetMode("auto"), *lay("player1 10s", "player0 5h")])
    assert played.game.scores == [2, 0]


def test_resuming_from_the_journal_gives_the_same_game(tmp_path: Path) -> None:
    recording = script_game(2)
    half = len(recording.events) // 2
    first = table(tmp_path / "t.db")
    feed(first, recording.events[:half])
    snapshot = first.game.snapshot()
    first.journal.close()
    again = Table(Journal(tmp_path / "t.db"), config())
    assert again.resumed and again.game.snapshot() == snapshot
    feed(again, recording.events[half:])
    assert tuple(again.game.scores) == recording.final


def test_a_new_game_abandons_the_old_one(tmp_path: Path) -> None:
    played = table(tmp_path / "t.db")
    feed(played, opening())
    played.handle(NewGame())
    assert played.game.phase is Phase.CUT_FOR_DEAL and played.game.actions == ()
    again = Table(Journal(tmp_path / "t.db"), config())
    assert again.game.actions == () and again.match_id == played.match_id


def test_a_starter_the_camera_missed_is_asked_for_and_the_cards_laid_meanwhile_wait() -> None:
    played = table()
    feed(played, lay("player0 Ah", "player1 Kd"))  # Ann deals; no starter is seen
    played.handle(CardLanded("10s", "player1"))
    assert played.correction is not None and "starter has not been seen" in played.correction.message
    played.handle(CardLanded("5h", "player0"))  # laid while the question waits: held, not guessed at
    assert played.game.phase is not Phase.PLAY
    played.handle(Correct("Jc", "starter"))
    assert played.correction is None
    assert played.game.deal_state.starter is not None and str(played.game.deal_state.starter) == "Jc"
    assert played.game.scores == [4, 0]  # two for his heels, then fifteen two with the held 5
    assert [str(c) for _, c in played.game.snapshot().deal_cards] == ["10s", "5h"]


def _without_a_crib_card(events: tuple[Event, ...], *, gathering_seen: bool) -> tuple[list[Event], str]:
    """The events with the first crib's first card never seen by the camera (so never seen leaving
    either); without ``gathering_seen``, none of that crib's cards are seen being gathered up."""
    first = next(i for i, e in enumerate(events) if isinstance(e, CardLanded) and e.zone == "crib")
    missed = events[first]
    assert isinstance(missed, CardLanded)
    starters = [i for i, e in enumerate(events) if isinstance(e, CardLanded) and e.zone == "starter"]
    next_starter = next(i for i in starters if i > first)
    kept: list[Event] = []
    for i, event in enumerate(events):
        if i == first:
            continue
        lifted = isinstance(event, CardLifted) and event.zone == "crib" and first < i < next_starter
        if lifted and (event.card == missed.card or not gathering_seen):
            continue
        kept.append(event)
    return kept, str(missed.card)


@pytest.mark.parametrize("gathering_seen", [True, False])
@pytest.mark.parametrize("mode", ["auto", "claims"])
def test_a_crib_card_the_camera_missed_is_asked_for_not_guessed(mode: str, gathering_seen: bool) -> None:
    """The crib is counted from its four cards: one never read is asked for -- as the crib is gathered
    up when the camera sees that, else when the next starter is turned -- and that starter waits for
    the answer rather than being taken into the crib."""
    recording = script_game(3, mode=mode)
    events, missed = _without_a_crib_card(recording.events, gathering_seen=gathering_seen)
    played = table(mode=mode)
    asked = []
    for event in events:
        played.handle(event)
        if played.correction is not None:
            asked.append(played.correction.message)
            assert played.correction.zone == "crib" and missed in played.correction.choices
            played.handle(Correct(missed, "crib"))
            assert played.correction is None
    assert asked == ["The camera saw 3 of the crib's four cards: which card is missing?"]
    assert tuple(played.game.scores) == recording.final
    assert [tuple(row["scores"]) for row in deal_rows(played.game)] == list(recording.deal_scores)


def test_a_short_crib_is_never_counted_and_the_question_stays_until_answered() -> None:
    recording = script_game(3)
    events, missed = _without_a_crib_card(recording.events, gathering_seen=False)
    played = table()
    for event in events:
        played.handle(event)
        if played.correction is not None:
            break
    assert played.game.phase is Phase.SHOW  # the crib not counted: nothing pegged on three cards
    played.handle(Undo())  # dismissed: the held starter is read again, and the crib is asked for again
    assert played.correction is not None and played.game.phase is Phase.SHOW
    played.handle(Correct(missed, "crib"))
    assert played.correction is None and played.game.phase is not Phase.SHOW


def test_cards_laid_while_a_card_is_asked_about_are_read_after_the_answer() -> None:
    played = table()
    feed(played, [*opening(), *lay("player1 10s")])
    played.handle(CardLanded("unknown", "player0"))
    played.handle(CardLanded("10d", "player1"))
    assert played.game.snapshot().count == 10  # nothing read past the question
    played.handle(Correct("5h", "player0"))
    assert played.game.snapshot().count == 25 and played.game.scores == [2, 0]


def test_house_rule_the_opponent_takes_points_over_claimed() -> None:
    played = table(mode="claims", over_claim="opponent-takes")
    feed(played, [*opening(), *lay("player1 10s", "player0 5h")])
    played.handle(Claim(0, 4))  # fifteen two, claimed as four
    assert played.game.scores == [2, 2]


def test_house_rule_muggins_in_the_play() -> None:
    played = table(mode="claims", muggins_in_play=True, muggins_seconds=30)
    feed(played, [*opening(), *lay("player1 10s", "player0 5h")])
    played.handle(Claim(0, 1))  # fifteen two, claimed as one: Bob may call muggins on the other
    assert played.game.offer is not None
    played.handle(CallMuggins(1))
    assert played.game.scores == [1, 1]


def test_the_knob_pressed_with_nothing_dialled_says_go() -> None:
    for mode in ("auto", "claims"):
        played = table(mode=mode)
        feed(played, [*opening(), *lay("player1 10s", "player0 Kh", "player1 Qd")])
        played.handle(PegClaim(0))  # Ann, at 30, cannot lay: she presses her knob
        assert played.game.actions[-1] == Go(0)


def _asking() -> Table:
    """Bob has led the 10s; Ann's card is unreadable: the table asks which card it is."""
    played = table()
    feed(played, [*opening(), *lay("player1 10s")])
    played.handle(CardLanded("unknown", "player0"))
    assert played.correction is not None
    return played


def test_a_knob_turned_while_a_card_is_asked_about_moves_the_highlight_not_the_claim() -> None:
    played = _asking()
    assert played.correction is not None
    choices = played.correction.choices
    assert build_view(played)["correction"]["highlighted"] == 0
    played.handle(DialClaim(1, +1))  # either player's knob
    played.handle(DialClaim(0, +1))
    played.handle(DialClaim(0, +1))
    played.handle(DialClaim(1, -1))
    view = build_view(played)["correction"]
    assert view["highlighted"] == 2 and view["choices"] == list(choices)
    assert played.dial == {0: 0, 1: 0} and played.tentative() is None  # no claim is dialled
    played.handle(DialClaim(0, -3))  # past the first choice: round to the last
    assert build_view(played)["correction"]["highlighted"] == len(choices) - 1


def test_a_knob_pressed_while_a_card_is_asked_about_answers_with_the_highlighted_card() -> None:
    knobbed, picked = _asking(), _asking()
    assert knobbed.correction is not None
    five = knobbed.correction.choices.index("5h")
    for _ in range(five):
        knobbed.handle(DialClaim(1, +1))
    knobbed.handle(PegClaim(1))  # Bob's press answers for the table, as the scoreboard would
    assert knobbed.correction is None
    assert knobbed.game.scores == [2, 0]  # the five of hearts for Ann: fifteen two
    picked.handle(Correct("5h", "player0"))  # the same answer picked on the scoreboard
    assert knobbed.game.snapshot() == picked.game.snapshot()
    assert knobbed.notice == picked.notice == "corrected: 5h in front of Ann"
    # the question answered, the knobs dial claims again
    knobbed.handle(DialClaim(0, +2))
    assert knobbed.dial[0] == 2


def test_undo_still_dismisses_a_question_the_knobs_were_picking_in() -> None:
    played = _asking()
    before = played.game.snapshot()
    played.handle(DialClaim(0, +5))
    played.handle(Undo())
    assert played.correction is None and played.highlighted == 0
    assert played.game.snapshot() == before
    assert build_view(played)["correction"] is None


def test_each_new_question_starts_at_its_first_choice() -> None:
    played = _asking()
    played.handle(DialClaim(0, +4))
    played.handle(CardLanded("5h", "player1"))  # laid while the question waits: held
    played.handle(Correct("5h", "player0"))  # answered; the held card, now seen twice, is asked about
    assert played.correction is not None and "5h has already been" in played.correction.message
    assert build_view(played)["correction"]["highlighted"] == 0


def test_a_refused_go_names_the_player_not_a_seat_number() -> None:
    played = table()
    feed(played, [*opening(0), *lay("player1 10s")])
    played.handle(SayGo(1))  # not Bob's turn: Ann is to lay
    assert played.notice.startswith("it is Ann's turn to play, not Bob's")
    assert "player" not in played.notice


@pytest.mark.parametrize("mode", ["auto", "claims"])
def test_a_game_played_at_the_table_is_exported_as_a_file_crib_replay_reproduces(
    tmp_path: Path, mode: str
) -> None:
    recording = script_game(4, mode=mode)
    played = table(tmp_path / "t.db", mode=mode)
    events = list(recording.events)
    # A card laid in the play, taken back with undo and laid again: the undone group is not exported.
    at = next(i for i, e in enumerate(events) if i > 30 and isinstance(e, CardLanded) and "player" in e.zone)
    feed(played, [*events[: at + 1], Undo(), *events[at:]])
    assert tuple(played.game.scores) == recording.final
    played.journal.close()
    out = tmp_path / "game.crib"
    assert main(["export", str(tmp_path / "t.db"), "-o", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert "show auto" in text and "score " in text
    assert "players Ann, Bob" in text.splitlines()  # crib replay says the names, not the seat numbers
    replayed = load_game(text.splitlines(), "game.crib")  # every score line is checked on the way
    assert replayed.log == played.game.log
    assert tuple(replayed.scores) == recording.final
    assert replayed.snapshot() == played.game.snapshot()


def test_export_says_in_one_sentence_when_there_is_no_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["export", str(tmp_path / "none.db")]) == 1
    assert capsys.readouterr().err.strip() == f"crib: there is no game database at {tmp_path / 'none.db'}"


class _FullDisk(Journal):
    def append_group(
        self, match_id: int, lines: Sequence[str], cursor: int | None = None, notes: object = None
    ) -> int:
        raise OSError("the disk is full")


def test_a_group_the_journal_cannot_keep_is_taken_back_from_the_game() -> None:
    played = table()
    feed(played, [*opening(), *lay("player1 10s")])
    before = (played.game.snapshot(), played.game.log)
    played.journal.__class__ = _FullDisk
    with pytest.raises(OSError, match="the disk is full"):
        played.handle(CardLanded("5h", "player0"))
    assert (played.game.snapshot(), played.game.log) == before


def test_undo_of_a_group_takes_back_its_rows_in_the_journal_too(tmp_path: Path) -> None:
    played = table(tmp_path / "t.db")
    feed(played, [*opening(), *lay("player1 10s", "player0 Kh", "player1 5d")])
    rows = played.journal.groups(played.match_id)
    played.handle(CardLanded("8c", "player0"))  # 25 + 8 passes 31: both goes inferred, one group
    assert played.journal.groups(played.match_id)[-1] == ("go 0", "go 1", "play 0 8c")
    played.handle(Undo())
    assert played.journal.groups(played.match_id) == rows


def test_a_journal_of_an_older_companion_is_converted_and_resumed(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    old = sqlite3.connect(path)
    old.executescript(
        "CREATE TABLE matches (id INTEGER PRIMARY KEY, started REAL NOT NULL, finished REAL, "
        "abandoned INTEGER NOT NULL DEFAULT 0, settings TEXT NOT NULL, players TEXT NOT NULL, "
        "winner INTEGER);"
        "CREATE TABLE actions (match_id INTEGER NOT NULL, seq INTEGER NOT NULL, at REAL NOT NULL, "
        "action TEXT NOT NULL, PRIMARY KEY (match_id, seq));"
    )
    settings = {"variant": "six-card", "counting": "auto", "match_games": 1}
    old.execute(
        "INSERT INTO matches VALUES (1, 0, NULL, 0, ?, ?, NULL)", (json.dumps(settings), '["Ann", "Bob"]')
    )
    rows = [
        {"action": "cut", "player": 0, "card": "Ah", "_group": 1},
        {"action": "cut", "player": 1, "card": "Kd", "_group": 2},
        {"action": "deal", "player": 1, "cards": None, "_group": 3},
        {"action": "deal", "player": 0, "cards": None, "_group": 3},
        {"action": "discard", "player": 1, "cards": None, "_group": 3},
        {"action": "discard", "player": 0, "cards": None, "_group": 3},
        {"action": "starter", "card": "2c", "_group": 3, "_cursor": 5},
    ]
    for seq, row in enumerate(rows):
        old.execute("INSERT INTO actions VALUES (1, ?, 0, ?)", (seq, json.dumps(row)))
    old.commit()
    old.close()
    resumed = Table(Journal(path), config())
    assert resumed.resumed and resumed.cursor == 5
    assert resumed.game.phase is Phase.PLAY and resumed.game.settings.auto_show
    assert resumed.journal.groups(1)[-1] == ("deal 1", "deal 0", "discard 1", "discard 0", "starter 2c")
    feed(resumed, lay("player1 10s", "player0 5h"))
    assert resumed.game.scores == [2, 0]


def test_a_cut_laid_between_a_players_place_and_the_starters_is_the_players_cut() -> None:
    """No card is cut for the deal on the starter's spot: one laid nearly as near Ann's place is
    Ann's cut, and the scoreboard says how it was taken; one squarely on the spot is not counted."""
    t = table()
    t.handle(CardLanded("Qs", "starter"))
    assert t.game.cuts == {} and t.taken_in is None
    t.handle(CardLanded("Qs", "starter", also_near=("player0",)))
    assert t.game.cuts == {0: Card.parse("Qs")} and t.taken_in == "player0"
    assert "Qs lay between two places; taken as laid in front of Ann" in t.notice
    t.handle(CardLanded("3d", "crib", also_near=("starter", "player1")))  # Bob's cut ends the cutting
    assert t.game.phase is not Phase.CUT_FOR_DEAL and t.taken_in == "player1"


def test_a_starter_laid_between_its_spot_and_a_players_place_is_the_starter() -> None:
    """Before the starter is turned no card of the play is laid: a card nearly as near the starter's
    spot as Bob's place is the starter, and the deal goes on to the play."""
    t = table()
    feed(t, lay("player0 2c", "player1 Kd"))
    t.handle(CardLanded("7h", "player1", also_near=("starter",)))
    assert t.correction is None
    assert t.game.deal_state.starter == Card.parse("7h") and t.game.phase is Phase.PLAY
    t.handle(CardLanded("7h", "player1", also_near=("starter",)))  # the same card seen again
    assert t.correction is None and t.notice == ""
