"""Documentation that runs: the examples in the game engine's and the notation's docstrings are executed."""

from __future__ import annotations

import doctest

import pytest

import companion.rules.game
import companion.rules.items
import companion.rules.notation


@pytest.mark.parametrize("module", [companion.rules.game, companion.rules.notation, companion.rules.items])
def test_docstring_examples_run(module: object) -> None:
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)  # type: ignore[arg-type]
    assert result.failed == 0


def test_the_game_docstring_has_examples() -> None:
    finder = doctest.DocTestFinder()
    examples = sum(len(t.examples) for t in finder.find(companion.rules.game))
    assert examples >= 10
