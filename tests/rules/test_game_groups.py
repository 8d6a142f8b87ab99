"""Groups of actions: done all or none, taken back whole, in a time that does not grow with the game;
and the automatic show, an engine setting, done by the engine itself.

Rules texts: a play and the goes said before it are one moment at the table, so the companion takes
them back together; "the hands are shown and counted as soon as the play ends" (the show follows the
play with nothing in between).
"""

from __future__ import annotations

import random

import pytest

from companion.rules.core import CHECKPOINT
from companion.rules.errors import IllegalAction, RulesError
from companion.rules.game import Count, Counting, Game, Go, Phase, Settings
from companion.rules.notation import load_game, write_game
from companion.rules.simulate import Table, random_game

GAME = Settings(match_games=1)


def played(seed: int, settings: Settings = GAME, *, hidden: bool = False) -> Game:
    return random_game(random.Random(seed), settings, hidden=hidden, match=settings.match_games > 1)


def test_a_group_with_a_refused_action_leaves_the_game_exactly_as_before() -> None:
    actions = played(3).actions
    for at in range(0, len(actions) - 3, 7):
        game = Game.replay(actions[:at], GAME)
        before = (game.snapshot(), game.log)
        group = [*actions[at : at + 3], Go(9)]
        after_three = Game.replay(actions[: at + 3], GAME)
        with pytest.raises(RulesError) as expected:
            after_three.verify(Go(9))
        with pytest.raises(RulesError) as refused:
            game.apply_group(group)
        assert str(refused.value) == str(expected.value)  # the refused action's own sentence
        assert (game.snapshot(), game.log) == before
        # Nothing hidden was left behind either: the rest of the game plays out exactly as it did.
        for action in actions[at:]:
            game.apply(action)
        assert game.log == played(3).log


def test_a_group_is_taken_back_whole_by_one_undo() -> None:
    actions = played(5).actions
    game = Game.replay(actions[:20], GAME)
    before = game.snapshot()
    done = game.apply_group(actions[20:26])
    assert [op.action for op in done] == list(actions[20:26])
    assert game.undo_group() == done
    assert game.snapshot() == before
    assert game.log == Game.replay(actions[:20], GAME).log


def test_undoing_group_after_group_retraces_the_game_back_to_the_cut() -> None:
    settings = Settings(match_games=3)
    actions = played(11, settings).actions
    game = Game(settings)
    seen = [game.snapshot()]
    for action in actions:
        game.apply(action)
        seen.append(game.snapshot())
    while game.can_undo():
        seen.pop()
        game.undo()
        assert game.snapshot() == seen[-1]
    assert not game.log
    with pytest.raises(IllegalAction, match="nothing to undo"):
        game.undo()


def test_an_undo_late_in_a_match_redoes_no_more_than_an_undo_early_in_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    settings = Settings(match_games=3)
    actions = played(2, settings).actions
    assert len(actions) > 20 * CHECKPOINT
    redone: list[int] = []
    original = Game._do

    def counting_do(self: Game, action: object, *, automatic: bool) -> None:
        redone.append(1)
        original(self, action, automatic=automatic)  # type: ignore[arg-type]

    for length in (CHECKPOINT + 3, len(actions) // 2, len(actions)):
        game = Game.replay(actions[:length], settings)
        monkeypatch.setattr(Game, "_do", counting_do)
        for _ in range(CHECKPOINT):
            game.undo()
        monkeypatch.undo()
        assert len(redone) <= CHECKPOINT * CHECKPOINT  # never a replay from the start
        redone.clear()


def test_the_automatic_show_counts_the_hands_and_a_known_crib_as_the_play_ends() -> None:
    settings = Settings(match_games=1, auto_show=True)
    game = played(7, settings)
    automatic = [op for op in game.log if op.automatic]
    assert automatic and all(isinstance(op.action, Count) for op in automatic)
    assert not any(isinstance(action, Count) for action in game.actions)
    # Every show followed the last card or go at once, in the same group.
    for index, op in enumerate(game.log):
        if op.automatic:
            assert game.log[index - 1].phase is Phase.SHOW or game.log[index - 1].automatic
    again = Game.replay(game.actions, settings)
    assert again.log == game.log


def test_a_crib_thrown_face_down_waits_for_its_cards_under_the_automatic_show() -> None:
    settings = Settings(match_games=1, auto_show=True)
    game = Game(settings)
    table = Table(random.Random(4), hidden=True)
    while game.phase is not Phase.SHOW:
        action = table.next_action(game)
        assert action is not None
        game.apply(action)
    assert game.snapshot().show_next == (game.dealer, "crib")
    assert [op.action.what for op in game.log if op.automatic] == ["hand", "hand"]  # type: ignore[union-attr]
    crib = table.next_action(game)
    assert isinstance(crib, Count) and crib.what == "crib" and crib.cards is not None
    game.apply(crib)
    assert game.phase in (Phase.DEAL, Phase.GAME_OVER)


def test_claims_are_never_shown_automatically() -> None:
    settings = Settings(match_games=1, auto_show=True, counting=Counting.CLAIMS)
    game = played(9, settings)
    assert not any(op.automatic for op in game.log)


def test_a_game_with_the_automatic_show_round_trips_through_its_file() -> None:
    import io

    settings = Settings(match_games=3, auto_show=True)
    game = played(13, settings)
    text = io.StringIO()
    write_game(game, text)
    assert "show auto" in text.getvalue()
    again = load_game(io.StringIO(text.getvalue()).readlines())
    assert again.log == game.log


def test_an_empty_group_is_refused() -> None:
    with pytest.raises(RulesError, match="at least one action"):
        Game().apply_group([])
