"""Four players in partnership at the table: partners sit opposite (the first and third names, the second
and fourth), the deal and the play go round the table to the left, all four throw to the crib, and each
partnership pegs on one of the board's two tracks."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from companion.app.config import TableConfig, config_from_mapping
from companion.app.simulate import script_game
from companion.app.table import Table, side_names
from companion.app.view import board_state, build_view
from companion.cli import main
from companion.events import CardLanded
from companion.rules.game import Go, Phase, Play

from .helpers import feed, lay, table

FOUR = ("Ann", "Bob", "Cal", "Dee")


def four(path: Path | str = ":memory:", mode: str = "auto") -> Table:
    return table(path, mode, players=FOUR, variant="four-player")


@pytest.mark.parametrize(("seed", "mode"), [(1, "auto"), (2, "claims"), (3, "auto")])
def test_a_whole_four_player_game_through_the_table_scores_as_crib_replay_of_its_actions(
    seed: int, mode: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    recording = script_game(seed, mode=mode, variant="four-player")
    db = tmp_path / "four.db"
    played = table(db, mode, players=FOUR, variant="four-player")
    feed(played, recording.events)
    assert played.game.phase is Phase.GAME_OVER
    assert tuple(played.game.scores) == recording.final  # the referee, who saw every card
    played.journal.close()
    game_file = tmp_path / "four.crib"
    assert main(["export", str(db), "-o", str(game_file)]) == 0
    capsys.readouterr()
    assert main(["replay", str(game_file)]) == 0
    out = capsys.readouterr().out
    found = re.search(r"final scores: Ann and Cal (\d+), Bob and Dee (\d+)", out)  # named by the file
    assert found is not None, out
    assert (int(found[1]), int(found[2])) == tuple(played.game.scores)


def cut_ann_deals() -> list[CardLanded]:
    """All four cut; Ann's ace is lowest, so Ann deals and Bob, on her left, leads."""
    return [*lay("player0 Ad", "player1 9c", "player2 Kh", "player3 7s")]


def test_the_lowest_of_four_cuts_deals_and_the_player_on_the_dealers_left_leads() -> None:
    played = four()
    feed(played, [*cut_ann_deals(), CardLanded("2c", "starter")])
    assert played.game.dealer == 0
    assert played.game.phase is Phase.PLAY and played.game.turn() == 1


def test_the_play_goes_round_the_table_and_partners_peg_on_one_track() -> None:
    played = four()
    # Bob 5, Cal 10 (fifteen for two: Cal and Ann's track), Dee 5, Ann a king (thirty): Bob next.
    feed(played, [*cut_ann_deals(), CardLanded("2c", "starter")])
    feed(played, lay("player1 5h", "player2 10d", "player3 5s", "player0 Kd"))
    assert played.game.scores == [2, 0]  # fifteen by Cal, on the track Cal shares with Ann
    assert played.game.snapshot().count == 30
    assert played.game.turn() == 1


def test_a_go_round_the_table_is_inferred_when_a_later_player_lays() -> None:
    played = four()
    feed(played, [*cut_ann_deals(), CardLanded("2c", "starter")])
    # Bob 10, Cal king, Dee queen: 30 (no run).  Ann and Bob cannot lay without passing 31 (each said go), so
    # the ace comes next from Cal: thirty-one for two.
    feed(played, lay("player1 10h", "player2 Kd", "player3 Qs"))
    played.handle(CardLanded("Ac", "player2"))
    assert played.correction is None, played.correction
    assert played.game.actions[-3:] == (Go(0), Go(1), Play(2, played.game.deal_state.played_by[2][-1]))
    assert played.game.scores == [2, 0]  # thirty-one for two, pegged by Cal's partnership
    assert played.game.snapshot().count == 0


def test_the_two_tracks_are_named_after_the_partners_sharing_them() -> None:
    played = four()
    assert side_names(played.game, played.players) == ("Ann & Cal", "Bob & Dee")


def test_four_player_needs_four_names_in_seat_order() -> None:
    with pytest.raises(ValueError, match="four players for four-player"):
        TableConfig(players=("Ann", "Bob"), variant="four-player")
    assert TableConfig(variant="four-player").players == ("Player 1", "Player 2", "Player 3", "Player 4")
    loaded = config_from_mapping({"table": {"players": list(FOUR), "variant": "four-player"}})
    assert loaded.players == FOUR and loaded.settings().variant.partnerships


def test_three_players_are_refused_at_the_table_in_one_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = tmp_path / "three.toml"
    settings.write_text('[table]\nvariant = "three-player"\n', encoding="utf-8")
    status = main(["play", "--config", str(settings), "--events"])
    err = capsys.readouterr().err
    assert status != 0 and err.count("\n") == 1 and "Traceback" not in err
    assert "two-track board" in err and "scoreboard and in game files" in err


def test_the_scoreboard_and_the_board_show_each_partnership_on_its_track() -> None:
    recording = script_game(4, variant="four-player")
    played = four()
    feed(played, recording.events)
    view = build_view(played)
    assert view["players"] == list(FOUR)  # the seats, which turns, deals and scores name
    assert view["sides"] == ["Ann & Cal", "Bob & Dee"]  # the two tracks
    assert view["side_of"] == [0, 1, 0, 1]
    assert view["scores"] == list(recording.final)
    scorers = {row["player"] for group in view["deal_history"] for row in group}
    assert scorers == {0, 1, 2, 3}  # every seat pegged something in a whole game, each on its own name
    pegs = board_state(played.game.snapshot()).pegs
    assert [p.forward for p in pegs] == list(recording.final)
    records = {s.name: s.wins for s in played.journal.statistics()}  # kept by partnership
    assert records == {"Ann & Cal": int(recording.winner == 0), "Bob & Dee": int(recording.winner == 1)}


def test_crib_play_prints_each_deal_and_the_result_by_partnership(tmp_path: Path) -> None:
    recording = script_game(5, variant="four-player")
    path = tmp_path / "four.json"
    recording.save(path)
    command = ["play", "--once", "--no-serve", "--pace", "0", "--events", "--recording", str(path)]
    done = subprocess.run(
        [sys.executable, "-m", "companion.cli", *command, "--players", *FOUR],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert done.returncode == 0, done.stderr
    first, second = recording.deal_scores[0]
    assert f"Ann & Cal +{first} = {first}, Bob & Dee +{second} = {second}" in done.stdout
    win, lose = recording.final[recording.winner], recording.final[1 - recording.winner]
    winners = ("Ann & Cal", "Bob & Dee")[recording.winner]
    assert f"{winners} win {win} to {lose}" in done.stdout


def test_a_tracks_knob_claims_for_the_partner_the_game_waits_for() -> None:
    from companion.events import DialClaim, PegClaim

    played = four(mode="claims")
    feed(played, [*cut_ann_deals(), CardLanded("2c", "starter")])
    feed(played, lay("player1 5h", "player2 10d"))  # Cal's fifteen, to be claimed
    feed(played, [DialClaim(0, 2), PegClaim(0)])  # the knob by Ann and Cal's track
    assert played.game.scores == [2, 0]
    feed(played, lay("player3 Kd", "player0 4c"))  # 29: Bob cannot lay
    played.handle(PegClaim(1))  # Bob and Dee's knob, nothing dialled, Bob to lay: Bob's go
    assert played.game.actions[-1] == Go(1)


def test_a_four_player_settings_file_still_replays_the_two_player_demo(tmp_path: Path) -> None:
    settings = tmp_path / "four.toml"
    settings.write_text('[table]\nvariant = "four-player"\nplayers = ["Ann", "Bob", "Cal", "Dee"]\n')
    command = ["play", "--config", str(settings), "--once", "--no-serve", "--pace", "0", "--events"]
    done = subprocess.run(
        [sys.executable, "-m", "companion.cli", *command],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.rstrip().endswith("Player 1 wins 121 to 81 -- a skunk")


def test_a_four_player_game_filmed_round_the_table_is_followed_to_the_recorded_scores() -> None:
    """Each card drawn before its seat (near, left, far, right) and read by the camera feed's zones and
    tracker (the recogniser reading the film's own truth): the table ends where the referee did."""
    from companion.app.frames import TableFilm, play_film, truth_sightings
    from companion.app.loop import GameLoop

    recording = script_game(8, variant="four-player")
    played = four()
    loop = GameLoop(played)
    loop.start()
    try:
        play_film(TableFilm(recording), loop, truth_sightings)
        assert loop.wait_idle()
    finally:
        loop.stop()
    assert played.correction is None and not loop.errors
    assert tuple(played.game.scores) == recording.final


def test_a_four_player_deal_filmed_and_read_by_the_card_recognition_scores_as_the_referee() -> None:
    """From pixels: the real recognition reads the cards before all four seats (those at the sides
    turned a quarter), the starter and the crib, and the table pegs what the referee did."""
    from dataclasses import replace

    from companion.app.frames import TableFilm, play_film
    from companion.app.loop import GameLoop
    from companion.events import CardLifted
    from companion.vision.recognise import Recogniser

    whole = script_game(21, variant="four-player")
    events = whole.events
    starter = next(i for i, e in enumerate(events) if isinstance(e, CardLanded) and e.zone == "starter")
    end = next(i for i, e in enumerate(events) if i > starter and isinstance(e, CardLifted))
    deal = replace(whole, events=events[:end])
    recogniser = Recogniser(filmed=True)
    played = four()
    loop = GameLoop(played)
    loop.start()
    try:
        play_film(TableFilm(deal), loop, lambda shot: recogniser.detect(shot.frame))
        assert loop.wait_idle()
    finally:
        loop.stop()
    assert played.correction is None and not loop.errors
    laid = [e for e in deal.events[starter + 1 :] if isinstance(e, CardLanded) and e.zone != "crib"]
    plays = [a for a in played.game.actions if isinstance(a, Play)]
    assert [(f"player{a.player}", str(a.card)) for a in plays] == [(e.zone, str(e.card)) for e in laid]
    assert {e.zone for e in laid} == {"player0", "player1", "player2", "player3"}
    assert tuple(played.game.scores) == whole.deal_scores[0]
