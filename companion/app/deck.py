"""Card pictures for the demo replay: a public-domain vector deck, rendered once and shipped as pixels.

``crib play --frames`` shows the companion working from camera frames.  The frames are drawn at replay
time (:mod:`companion.app.frames`) from these pictures: the public-domain saulspatz/SVGCards "jumbo
index" deck, faces and blue back, rendered here to ``data/deck.npz``.  (Its large indices are what a
camera above a pub table reads best; Byron Knoll's deck, the other public-domain deck in the data set,
was read less reliably by the recogniser in the demo's frames.)  Rendering needs ``cairosvg`` (the
``train`` extra) and the shared card data set; loading the shipped file needs only NumPy::

    python -m companion.app.deck ../shared/datasets/cards/svg     # rewrites companion/app/data/deck.npz
"""

from __future__ import annotations

import io
import sys
from functools import cache
from pathlib import Path
from typing import Final

import numpy as np
import numpy.typing as npt

from companion.cards import full_deck

__all__ = ["CARD_WIDTH", "DECK_PATH", "Deck", "load_deck"]

DECK_PATH: Final = Path(__file__).resolve().parent / "data" / "deck.npz"
#: Width of each card picture in pixels (height follows the deck's 2.5 x 3.5 inch proportion).
CARD_WIDTH: Final = 150

Image = npt.NDArray[np.uint8]


class Deck:
    """The 52 faces and a back, as BGR pictures."""

    def __init__(self, faces: dict[str, Image], back: Image) -> None:
        self.faces = faces
        self.back = back

    def face(self, card: str) -> Image:
        return self.faces[card]


@cache
def load_deck(path: Path = DECK_PATH) -> Deck:
    """The shipped deck (read once)."""
    if not path.is_file():
        raise FileNotFoundError(f"the demo's card pictures {path} are missing (python -m companion.app.deck)")
    with np.load(path) as data:
        faces = {str(card): np.asarray(data[str(card)], np.uint8) for card in full_deck()}
        back = np.asarray(data["back"], np.uint8)
    return Deck(faces, back)


def _render(svg: Path, width: int) -> Image:
    import cairosvg  # type: ignore[import-untyped,import-not-found,unused-ignore]  # train extra only
    import cv2

    png = cairosvg.svg2png(url=str(svg), output_width=width, background_color="white")
    image = cv2.imdecode(np.frombuffer(io.BytesIO(png).getvalue(), np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        raise ValueError(f"could not render {svg}")
    return np.asarray(image, np.uint8)


def build(svg_root: Path, out: Path = DECK_PATH) -> None:
    """Render the faces and the back from the vector decks and write ``out``."""
    suits = {"c": "club", "d": "diamond", "h": "heart", "s": "spade"}
    ranks = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King"}
    faces: dict[str, Image] = {}
    for card in full_deck():
        text = str(card)
        name = f"{suits[text[-1]]}{ranks.get(text[:-1], text[:-1])}.svg"
        faces[text] = _render(svg_root / "saulspatz-jumbo" / name, CARD_WIDTH)
    back = _render(svg_root / "saulspatz-jumbo" / "blueBack.svg", CARD_WIDTH)
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(out, back=back, **faces)  # type: ignore[arg-type]


if __name__ == "__main__":
    shared = Path(__file__).resolve().parents[3] / "shared" / "datasets" / "cards" / "svg"
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else shared
    build(root)
    print(f"wrote {DECK_PATH} ({DECK_PATH.stat().st_size // 1024} KiB)")
