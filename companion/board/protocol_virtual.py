"""pyserial's URL handler for ``virtual://``: pyserial imports ``<package>.protocol_<scheme>``."""

from companion.board.virtual import VirtualSerial as Serial

__all__ = ["Serial"]
