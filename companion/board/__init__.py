"""The LED peg board: its layout, the wire protocol, the link over USB serial and a virtual board.

The game hands a :class:`BoardState` to :meth:`BoardLink.show`; everything else (framing, retries,
reconnecting after a pulled cable, restoring what the board lost) happens behind that one call.  With no
board attached the link opens ``virtual://``, a board in pure Python speaking the same protocol.
"""

from companion.board.layout import Layout
from companion.board.link import VIRTUAL_URL, BoardError, BoardInfo, BoardLink
from companion.board.state import BoardState, Colour, Mode, Pegs, Tentative

__all__ = [
    "VIRTUAL_URL",
    "BoardError",
    "BoardInfo",
    "BoardLink",
    "BoardState",
    "Colour",
    "Layout",
    "Mode",
    "Pegs",
    "Tentative",
]
