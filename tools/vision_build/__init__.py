"""Build the shipped card-index networks from the public-domain vector decks and decks drawn here.

Run ``python -m tools.vision_build`` from the checkout (it is not installed with the companion).

Rerunnable and deterministic (fixed seeds). Needs the ``train`` extra (``cairosvg`` over Debian's
libcairo2 to rasterise SVG, Pillow to draw typefaces, PyTorch to train the namer) and the font packages
that :func:`tools.vision_build.typefaces.typeface_files` names; running the companion needs none of them.

What it does, and why:

1. Renders every card of the two vector decks in ../shared/datasets/cards/svg, plus extra decks drawn
   here from SVG text in several typefaces (sans, serif, mono; bold, condensed), and draws most scenes'
   decks procedurally: ranks in OpenCV's line fonts or in one of many typefaces from Debian's font
   packages (:data:`.typefaces.TYPEFACES`), each deck heavier or lighter, narrower or wider, slanted
   and bent its own way, so that the networks learn "a rank over a suit" rather than particular
   decks. Pub decks vary.
2. Finds each card's index marks on the clean render (so the labels come for free).
3. Composites labelled scenes: synthetic light and dark wood, cloth, cork, patterned tops; random
   rotation, scale (a webcam 50-100 cm up to a phone photo), perspective, overlapping pairs, fanned rows,
   face-down cards, hands and chips, shadows, glare, colour casts, blur, noise and JPEG loss.
4. Runs the very candidate finder used at run time on each scene, labels each candidate by the index
   it lies on (or "not an index") and cuts it out twice as at run time, at the finder's resolution and
   at the namer's; then trains the finder (the perceptron of :mod:`companion.vision.mlp`, on gradient
   features of its patches) and the namer (the convolutional network of :mod:`companion.vision.cnn`,
   with PyTorch) on its own.

The real deals in ../shared are never used here, so measuring on them is honest. The real crops (one
photographed deck, MIT) are composited into some scenes as one more deck
(:func:`.decks.load_real_deck`); pass ``--hold-out-crops`` to keep 13 of them out and measure on
those.

Where each step lives: :mod:`.decks` (rendered and photographed faces), :mod:`.typefaces` and
:mod:`.drawing` (decks drawn here), :mod:`.scenes` (labelled scenes, over :mod:`tools.synthesis`),
:mod:`.datasets` (samples from scenes, in worker processes), :mod:`.training` (both networks),
:mod:`.cli` (the command line); what a build is asked to vary is one frozen :class:`.options.Options`.
"""
