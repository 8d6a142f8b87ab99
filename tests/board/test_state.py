"""The board state and its STATE command text (docs/protocol.md, "STATE keys")."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.board.state import (
    BoardState,
    Colour,
    Mode,
    Pegs,
    StateRangeError,
    StateSyntaxError,
    Tentative,
)

colours = st.builds(Colour, st.integers(0, 255), st.integers(0, 255), st.integers(0, 255))


@st.composite
def pegs(draw: st.DrawFn) -> Pegs:
    forward = draw(st.integers(0, 121))
    rear = draw(st.integers(0, forward)) if forward else draw(st.integers(0, 121))
    return Pegs(rear, forward, draw(colours))


states = st.builds(
    BoardState,
    st.sampled_from(Mode),
    st.integers(0, 255),
    st.tuples(pegs(), pegs()),
    st.one_of(st.none(), st.builds(Tentative, st.integers(0, 1), st.integers(1, 121))),
    st.one_of(st.none(), st.integers(0, 1)),
    st.booleans(),
)


@given(states)
def test_state_round_trips_through_its_command(state: BoardState) -> None:
    assert BoardState.from_command(state.to_command()) == state
    assert BoardState.from_command(state.to_command(full=True)) == state


@given(states)
def test_full_command_lists_every_key_in_the_fixed_order(state: BoardState) -> None:
    keys = [arg.split("=")[0] for arg in state.to_command(full=True)]
    assert keys == ["m", "b", "p0", "p1", "t", "w", "q"]


def test_keys_at_their_default_are_left_out() -> None:
    assert BoardState().to_command() == ()
    assert BoardState.playing((37, 45), (80, 88)).to_command() == (
        "m=game",
        "p0=37,45,00C0FF",
        "p1=80,88,FF6000",
    )
    assert BoardState.from_command(()) == BoardState()
    state = BoardState.playing((0, 5), (0, 0), tentative=Tentative(1, 12), brightness=200)
    assert state.to_command() == ("m=game", "b=200", "p0=0,5,00C0FF", "t=1,12")


def test_defaults_are_the_agreed_ones() -> None:
    full = dict(arg.split("=") for arg in BoardState().to_command(full=True))
    assert full == {
        "m": "idle",
        "b": "64",
        "p0": "0,0,00C0FF",
        "p1": "0,0,FF6000",
        "t": "-",
        "w": "-",
        "q": "-",
    }


def test_a_waiting_question_is_q_1_and_left_out_when_there_is_none() -> None:
    asking = BoardState.playing((37, 45), (80, 88), question=True)
    assert asking.to_command() == ("m=game", "p0=37,45,00C0FF", "p1=80,88,FF6000", "q=1")
    assert BoardState.from_command(("m=game", "q=1")).question
    assert not BoardState.from_command(("m=game", "q=-")).question
    assert not BoardState.from_command(("m=game",)).question


def test_keys_may_come_in_any_order_and_colours_in_either_case() -> None:
    state = BoardState.from_command(("p1=3,9,ff6000", "m=game", "p0=1,2,00c0ff"))
    assert state == BoardState.playing((1, 2), (3, 9))


@pytest.mark.parametrize(
    "args",
    [
        ("x=1",),
        ("m=play",),
        ("b=high",),
        ("b=-1",),
        ("b=1000",),
        ("p0=1,2",),
        ("p0=1,2,00C0F",),
        ("p0=1,2,00C0FG",),
        ("p0=a,2,00C0FF",),
        ("t=1",),
        ("t=1,2,3",),
        ("w=x",),
        ("q=0",),
        ("q=yes",),
        ("q=1,",),
        ("q=1", "q=-"),
        ("m=game", "m=win"),
        ("mgame",),
    ],
)
def test_malformed_state_is_a_syntax_error(args: tuple[str, ...]) -> None:
    with pytest.raises(StateSyntaxError):
        BoardState.from_command(args)


@pytest.mark.parametrize(
    "args",
    [
        ("b=256",),
        ("p0=0,122,00C0FF",),
        ("p1=122,0,FF6000",),
        ("p0=50,45,00C0FF",),  # the rear peg ahead of the forward peg
        ("t=2,5",),
        ("t=0,0",),
        ("t=0,122",),
        ("w=2",),
    ],
)
def test_out_of_range_state_is_a_range_error(args: tuple[str, ...]) -> None:
    with pytest.raises(StateRangeError):
        BoardState.from_command(args)


def test_a_forward_peg_at_the_start_leaves_the_rear_peg_unchecked() -> None:
    # As the protocol says: REAR <= FWD unless FWD is 0.
    assert BoardState.from_command(("p0=5,0,00C0FF",)).pegs[0] == Pegs(5, 0, Colour.parse("00C0FF"))


def test_errors_are_value_errors_with_a_sentence() -> None:
    with pytest.raises(ValueError, match="rear peg at 50 is ahead of the forward peg at 45"):
        BoardState.playing((50, 45), (0, 0))


def test_with_pegs_moves_one_track_and_keeps_its_colour() -> None:
    state = BoardState.playing((0, 0), (0, 0)).with_pegs(1, 4, 10)
    assert state.pegs[1] == Pegs(4, 10, Colour.parse("FF6000"))
    assert state.pegs[0] == Pegs(0, 0, Colour.parse("00C0FF"))


def test_colour_text_form() -> None:
    colour = Colour.parse("00c0ff")
    assert str(colour) == "00C0FF"
    assert eval(repr(colour), {"Colour": Colour}) == colour
    assert colour.scaled(64, 255) == Colour(0, 48, 64)


def test_the_docstring_examples_run() -> None:
    import doctest

    import companion.board.state

    failures, tried = doctest.testmod(companion.board.state)
    assert (failures, tried > 0) == (0, True)
