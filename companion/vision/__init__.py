"""Card vision: what the table camera sees, as values the rest of the companion can use.

Importing this package pulls in only the value types; OpenCV-based recognition, frame sources and the
tracker live in their own modules and are imported where needed (never picamera2 at import time).
"""

from companion.vision.types import BACK, UNKNOWN, Frame, Sighting

__all__ = ["BACK", "UNKNOWN", "Frame", "Sighting"]
