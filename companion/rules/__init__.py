"""The rules of cribbage: the show, the play and the game.

No I/O here: this package imports only the standard library and :mod:`companion.cards`, so the same
engine serves the camera-driven table, the tests and any simulator.  Reading and writing game files,
drawing the board and talking to hardware live elsewhere.
"""

from companion.rules.errors import IllegalAction, IllegalHand, IllegalPlay, RulesError
from companion.rules.game import Counting, Game, Operation, Phase, Settings, Snapshot
from companion.rules.items import Kind, ScoreItem, spoken_count
from companion.rules.play import Peg, Pegging, pegging_items
from companion.rules.show import ShowScore, score_hand

__all__ = [
    "Counting",
    "Game",
    "IllegalAction",
    "IllegalHand",
    "IllegalPlay",
    "Kind",
    "Operation",
    "Peg",
    "Pegging",
    "Phase",
    "RulesError",
    "ScoreItem",
    "Settings",
    "ShowScore",
    "Snapshot",
    "pegging_items",
    "score_hand",
    "spoken_count",
]
