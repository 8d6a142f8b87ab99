"""The measured thresholds of card recognition, as frozen values: one per idea, gathered in
:class:`RecognitionSettings`.

Why: each number below was chosen on evidence (photos of real tables, the filmed demo game, cards
measured alone on the table), and that evidence is written beside it. Kept as values rather than
module constants, a recogniser is built with the shipped ones (``Recogniser()``) or with others to
measure what one changes (``Recogniser(settings=replace(SHIPPED, reading=ReadingSettings(accept=0.8)))``),
and every function that decides anything is told by its caller what to decide by. ``docs/decisions.md``
tells the story of each; the figures here are the ones the code relies on.

The pip counter's own geometry (:mod:`companion.vision.pips`: how large a pip may be, how pale the
paper, where a card's corners lie) is kept apart, in :class:`PipGeometry`: it describes the printed
card rather than a decision between readings, but is measured and may be varied as they are.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = [
    "SHIPPED",
    "BackSettings",
    "MotionSettings",
    "PipGeometry",
    "PipSettings",
    "ReadingSettings",
    "RecognitionSettings",
    "ScaleSettings",
    "SuitSettings",
    "TrackingSettings",
]


@dataclass(frozen=True, slots=True)
class ReadingSettings:
    """How sure the networks must be to name an index, or to throw a candidate out."""

    accept: float = 0.7
    """A card is named when rank and suit together are at least this likely."""
    freed_accept: float = 0.9
    """The bar for an index whose rank or suit mark had to be split from a line it ran into (a court
    frame, the card's own edge): such a glyph may have lost a stroke to the line, and a king cut by a
    card's edge was read as a ten at 0.74. Glyphs freed whole are read at 0.95 and over."""
    unknown_below: float = 0.15
    """Below ``accept``, a candidate still counts as an unreadable index when "not an index" is this
    unlikely; a network more than 1 - this sure of "not an index" throws the candidate out."""
    finder_reject: float = 0.99
    """The finder passes a candidate on to the namer unless it is at least this sure it is no index.
    Why so strict: the finder (a perceptron) is the weaker reader of decks never seen in training, and
    at 0.85, the namer's own bar, it threw out indices the namer reads right (the unseen deck's ten of
    clubs, on the table photos and as a crop). At 0.99 a sixth more candidates reach the namer (the
    filmed demo game's frames); at 0.999 two fifths more, about 5 ms a frame, and no card more was
    read."""
    smear_strokes: float = 1.0
    """In a still photo (not on the camera's path: decisions, 37), an index smeared one way by more
    than this many of its rank glyph's strokes (:func:`companion.vision.index.smear`) must be read at
    ``smeared_accept`` to name its card. Why
    one stroke: a printed numeral's gaps are about a stroke wide, and a smear longer than a gap leaves
    no part of it white, so strokes start to merge (a 3 read as a 5 or a 2)."""
    smeared_accept: float = 0.99
    """The bar for an index smeared past ``smear_strokes``. Why: on the tuning tables (seeds 0-11)
    smeared 5-9 pixels at 30 degrees every name read wrong there was read below 0.99 (0.73-0.985),
    and a right one at 0.99 or over in two cases of three at a 5-pixel smear."""

    ink_share: float = 0.25
    """Where an index's surroundings are dim, its print counts as ink when darker than them by this
    share of their grey, not by the fixed 18 levels a lit table is read at (see
    :func:`companion.vision.index.ink`). Why: under the hard shadow of a player leaning over the
    table the print is dimmed with the card, and at 0.15 of the light a fixed contrast lost the
    strokes of three cards in four under it. On the tuning tables (seeds 0-29) with camera noise,
    found under a shadow leaving 0.1 / 0.15 / 0.25 / 0.5 of the light went from 59 / 77 / 97 / 98 %
    to 97 / 97 / 97 / 98 %, none more wrong. A share of 0.08 (the same mask only where the mean is
    over 225) found 1-2 % fewer under a light shadow: card white is often under 225, and the print
    ran into what lies near it. At 0.25 nothing changes where the mean is 72 or more."""

    same_index_reach: float = 0.9
    """Two readings (of two scales, or two pairings of one glyph) are of one index, and only the surer
    is kept, when their centres lie within this many index lengths of each other along the index."""
    same_index_across: float = 0.5
    """... and within this many index lengths across it, where the two are turned alike (see
    ``same_index_turn``). Why not as far across as along: in a fanned hand the indices stand side by
    side, three quarters of an index length apart (the tuning deal's five and queen of spades, 21
    pixels apart at 28 pixels long), and a circle of 0.9 lengths took the queen for an echo of the
    five and dropped her. An index's glyphs are about half an index length wide, so two indices
    nearer than that across would overlap. On the tuning deal photos (1-3) read as taken and levelled
    at 15/30/45 degrees, 133/384/374/355 of 138/414/414/414 cards were found and became
    134/386/375/356, none more wrong, none twice; blurred, smeared 6-12 pixels and shaded, a card more
    at most levels, none more wrong; fans of the real crops on the rendered table (40, 280 cards) 218
    -> 230 found, none wrong. The tuning tables (seeds 40-63), whose cards lie apart, read the same."""
    same_index_turn: float = 15.0
    """Two readings turned more than this many degrees apart (and not half round, which lies as
    alike) are weighed as one index as far across as along (``same_index_reach``). Why: the cards
    of a fan lie turned alike, so their indices do; a reading that pairs one index's rank with the
    next one's suit mark lies between the two and turned aslant of both (a tuning deal out of focus:
    the glyphs of a 5 and a K run into one mark, paired with the K's spade and read as a ten of
    spades at 0.88, 25 degrees off the five beside it). On the tuning deals' indices, plain, out of
    focus at 1, 2 and 3 pixels and shaded, 738 of 780 were found with 2 misread; side by side at
    half a length whatever their turn, 743 with 3; with this, 743 with 2 (10 degrees: the same)."""

    def needed(self, freed: bool) -> float:
        """The confidence an index must be read at to name its card (``freed``: see
        ``freed_accept``)."""
        return self.freed_accept if freed else self.accept


@dataclass(frozen=True, slots=True)
class ScaleSettings:
    """At which scales a frame is read besides its working scale."""

    coarse: float = 0.5
    """Every frame is read twice, as it is and scaled by this, unless the scaled frame's shorter side
    would be under ``coarse_from`` pixels. Why: the networks learnt indices of cards 52 to 230 pixels
    wide; a card filling a close webcam frame or a photo of one card is wider, and there the finder
    threw out indices the namer would have read (the unseen deck's nines and tens, at 228 pixels). At
    half scale such cards fall in the range learnt, and the two ranges overlap. (A third reading, at a
    quarter, found no more cards on the table photos and made one more wrong report.)"""
    coarse_from: int = 100
    """See ``coarse``."""
    coarse_unless_under: float = 30.0
    """... except, in filmed frames, when every index named at the working scale is at most this many
    pixels from rank to suit. Why: the second reading cost about 9 of a 1280x720 frame's 32 ms, and it
    is mostly for cards too large for the networks. An index's rank-to-suit distance is 0.14-0.25 of
    its card's width (the real deck and the demo deck, 60-160 pixels wide), so at 30 pixels the
    largest card read is at most 210 pixels wide, inside the learnt range, and a camera over a table
    sees every card at about one size. Not for still photos: on the real deals (indices 20-30 pixels)
    the second look still read 3 more of 212 indices, which a camera gets from the next frames
    instead."""
    fine: float = 2.0
    """A still photo whose working image is at most ``fine_under`` pixels on its longer side (a
    webcam's 1280x720 or 640x480) is read a third time, enlarged by this. Why: a webcam high over a
    card sees it 70-110 pixels wide, its index glyphs under ten pixels tall, and a soft lens on a dark
    cloth runs the glyph into the card's dark edge, so no glyph-sized blob is left to pair; enlarged,
    the same softness spans whole pixels and the glyph stands clear (see benchmarks/bench_webcam.py).
    Not for whole filmed frames, where it would cost twice a frame's time (but see
    ``fine_regions``)."""
    fine_under: int = 1280
    """See ``fine``."""
    fine_regions: bool = True
    """Whether a filmed frame's regions of change (where a card was just laid or taken) are read
    enlarged by ``fine`` as well. Why: a cheap camera's soft focus blurs an index of a card 96 pixels
    wide past what the networks read at the working scale; the demo film under a blur of sigma 1.6
    left a fifth of its cards unread and asked about (27 questions a game), where read enlarged as
    well its first three deals had 1 question in 42 cards, none wrong. Only regions of change:
    there a card arrives and is decided, and a region is a small part of a frame, so the cost is paid
    only while something moves, and only round the change itself (``fine_reach``); a card so read is
    kept when the whole frame is read again unenlarged (see ``Recogniser._detect_changed``)."""
    fine_unless_named: bool = True
    """Whether a part of a filmed region is left unenlarged when the working scale named every index
    it found there all but certainly (``PipSettings.sure_index``), one of them a card not named in
    the frame before (see ``Recogniser._named_whole``). Why: the enlarged read is for an index the
    working scale cannot read (soft, small, run into a line), and a card laid sharp is read at once,
    while enlarging cost a landing frame half its time (decisions, 75). No new card named there, or
    anything less sure (a soft corner, a court's picture taken for an index), and the part is
    enlarged as before."""
    fine_reach: float = 0.25
    """How far round the change itself (the cells that differ: a card laid, taken, or uncovered) a
    region is read enlarged, in card lengths. Why not the whole region: the region reaches
    MotionSettings.margin (0.6) card lengths round the change so that a card touched by it lies whole
    in what is read at the working scale, and enlarged by two that cost four times the region's
    pixels, about half a landing frame's time. What enlarging is for, the index of the card that came
    or went, lies in the change; its patch reaches 1.35 rank-to-suit distances from the index's middle
    (see :mod:`companion.vision.index`), at most 0.24 card lengths (an index is 0.1-0.18 of one), so
    an index whose middle lies on the change's very edge is still cut whole."""
    soft_over: float = 0.095
    """A frame whose surest indices are blurred by more than this share of their rank-to-suit
    distance (the median of :func:`companion.vision.index.suit_blur` over ``soft_sample`` of them) is
    read again at the working scale with the lens's blur taken out (:func:`companion.vision.soft.
    deblurred`), and that reading replaces the first (the coarse and enlarged readings are of the
    frame as it was). Why: out of focus, a rank glyph runs into its suit mark or washes under the ink
    threshold, no pair of marks is left to read, and a club's notches fill in so that it reads as a
    spade. A sharp table measures 0.04, a defocus of 1.5 pixels 0.087 (nothing lost there), 2 pixels
    0.107, 2.5 pixels 0.123, 3 pixels 0.135 (tuning tables, cards 110 pixels wide)."""
    soft_spread: float = 1.5
    """A frame's lens blur is taken out only where its suit marks' edges spread alike every way
    (:func:`companion.vision.index.spread_ratio` at most this): out of focus. Past it the frame is
    smeared one way, and its smear is searched for instead (``smear_sample``). Why: a smear blurs
    one way only and a lens's disc is the same every way; a frame smeared 7-9 pixels read sharpened
    every way named more cards wrong (tuning tables, camera's path: 8 to 11 at 7 pixels). Measured
    there, evenly out of focus 1.1-1.4, smeared 5-9 pixels 1.54 and over."""
    soft_sample: int = 5
    """See ``soft_over``."""
    smear_sample: int = 8
    """A frame smeared one way (past ``soft_spread``) is measured for its smear, and the smears tried
    are judged, over this many of its surest indices (:func:`companion.vision.soft.sharpened`)."""
    smear_doubt: float = 1.3
    """A soft frame whose suit marks' edges spread one way more than this times another, though not
    past ``soft_spread``, may be smeared rather than out of focus: the lens's disc and the smears
    measured are each tried, and the namer's judgement takes one. Why: the spread of a smeared
    frame's few surest marks can fall just under ``soft_spread``; with the Pi's OpenCV some of the
    six test tables smeared 7 pixels did, were deblurred as out of focus, and lost most of their
    cards (photos smeared at 30 degrees: 68 % found; with this, 92 %). The tuning tables defocused 2-3
    pixels read exactly as before (the disc wins there)."""
    smear_tries: int = 6
    """How many smears are tried: the one measured likeliest, the same a pixel shorter, and the
    directions next to it, 7.5 and 15 degrees either side (:func:`companion.vision.soft.smear_lines`).
    Why not one: the print's own edges sway the measured direction by a step or two, and a smear taken
    out 15 degrees off its own direction found 56 % of the tuning tables' cards at 7 pixels, against
    98 % at its own. The length measures a pixel long as often as right: on a tuning deal smeared
    7.3 pixels at 172 degrees it measured 10 pixels along the smear's own direction, and only 9 read
    (39 of 45 indices, against 2). The shorter try took the tuning deals smeared 8 and 12 pixels (4
    turns each) from 452 to 495 and from 459 to 479 of 552 indices found."""
    sharp_share: float = 0.04
    """What a sharp index's suit mark measures (:func:`companion.vision.index.suit_blur`): its print's
    own edge and the camera's pixels. The lens's share is what is measured beyond it, as blurs add in
    squares."""
    disc_per_spread: float = 1.15
    """The radius of the lens's disc, in pixels, per pixel of edge spread measured beyond
    ``sharp_share``. Why 1.15: the measure takes a disc's edge to be narrower than its radius (tuning
    tables defocused by discs of 1.5, 2, 2.5 and 3 pixels measured 1.44, 1.75, 2.19 and 2.5), and a
    disc taken too small leaves clubs' notches filled while one taken too large rings: at 2.5 pixels
    (tuning tables, camera's path) 1.0 found 380 of 390 cards with 2 wrong, 1.15 found 382 with none,
    1.3 found 369 with 3 wrong; at 3 pixels 1.0 found 316 with 34 wrong, 1.15 356 with 17."""
    deblur_noise: float = 0.01
    """How much the deblurring holds back where the lens passes little of a detail (the Wiener
    filter's ratio of noise to picture): less brings back more, and amplifies a sensor's noise more.
    Tuning tables, camera's path, at 3 pixels: 0.003 found 366 of 390 cards with 7 wrong, 0.01 356
    with 17, 0.03 324 with 37; at 2.5 pixels 0.003 named one wrong and one twice, 0.01 and 0.03 none.
    The middle is kept: a real camera's noise is more than a drawn table's."""


@dataclass(frozen=True, slots=True)
class SuitSettings:
    """How the suit mark's outline (its notch depth, :func:`companion.vision.index.suit_notches`)
    is weighed against the network's reading of the suit."""

    notch_split: float = 0.058
    """Notch depth (share of the mark's height) that divides spades from clubs and diamonds from
    hearts."""
    notch_scale: float = 0.004
    """How sharply ``notch_split`` divides: a notch this much deeper moves the log-odds by one."""
    joined_notch_split: float = 0.1
    """The same for a suit mark cut from its rank glyph by an opening, which rounds a spade's point and
    shoulders into shallow hollows (up to 0.06 measured) while a club keeps its deep ones (0.2 and
    over) and a heart its cleft (0.14)."""
    joined_notch_scale: float = 0.01
    """See ``joined_notch_split``."""
    spade_blur: float = 0.11
    """A spade read where its suit mark is blurred by more than this share of the rank-to-suit
    distance (:func:`companion.vision.index.suit_blur`) is reported unread: its black suit is split
    evenly between spade and club. Why: a spade is told from a club by lacking a club's notches, and
    blur fills those in. Measured on the tuning tables (seeds 0-11, cards 110 pixels wide, defocused
    0-3.5 pixels), a club's notch depth falls with blur from 0.17 of the mark's height (sharp) to
    0.06 at a blur of 0.10-0.11 and 0.035 past 0.11: a spade's own (0.023-0.043). Past that, the
    outline says "spade" of every club and the network alone mixes them: every name read wrong there
    was a club read as a spade (from a blur of 0.117 up). A club is still named, its notches showing
    through the blur being evidence; blur never makes a spade look notched."""
    black_sway: float = 5.0
    """Most the notch evidence may move the log-odds of one black suit (spade or club) against the
    other. Strong, since the network's black-suit split is its weakest part and the outlines differ
    plainly."""
    red_sway: float = 2.5
    """The same for red suits, weaker: the network rarely mixes hearts and diamonds, and a small
    heart's notch can fill in, so the shape only settles a red suit the network is unsure of."""
    court_across: tuple[float, float] = (0.1, 3.1)
    """Where beside a court's index its picture frame's large suit mark is looked for (see
    :func:`companion.vision.index.court_pip_notches`): across the card from the index's middle line,
    inward, in index lengths (rank to suit). On the real deck's courts the mark lies 0.6-2.2 lengths
    in; the region reaches past it both ways so that blur does not let the region's edge cut it. A
    number card's nearest pip, which lies where that mark would, is looked for alike (see
    :func:`companion.vision.soft.by_marks_beside`)."""
    court_down: tuple[float, float] = (-1.2, 1.8)
    """... and down the card from the index's rank glyph (the mark's middle lies about level with the
    index's suit mark)."""
    court_inward: float = 0.6
    """The mark's middle lies at least this many index lengths in: the index's own glyphs lie nearer."""
    court_size: tuple[float, float] = (1.0, 1.8)
    """The mark is this many index lengths across: the real deck's 1.2-1.5 sharp to a 3 pixel disc,
    about twice its index's suit mark. Not smaller: a deck that prints the frame's mark no larger than
    its index's own (the demo deck's jumbo index, 0.66-0.75) gains nothing by it, as blur takes the
    notches of both alike (one such spade measured 0.064 at a 3 pixel disc, as notched as a club)."""
    court_fill: float = 0.4
    """... and solid: at least this share of its box is ink (a suit mark 0.55-0.6; the picture's
    strokes less)."""
    court_symmetry: float = 0.7
    """... and mirror-symmetric about its upright middle line: its mirror image covers at least this
    share of it, overlap over union (the real deck's marks 0.77-0.97 sharp to a 3 pixel disc; pieces
    of the demo deck's court pictures as large, 0.49-0.66)."""


@dataclass(frozen=True, slots=True)
class PipGeometry:
    """The printed card as the pip counter (:mod:`companion.vision.pips`) measures it: how large a pip
    may be, how pale card white is, where a card's corners lie. Lengths are in the counter's window,
    where the card's two index middles lie ``diagonal`` pixels apart, or shares of that distance."""

    diagonal: int = 100
    """The two index corners' distance in the window. Why: a ten's pips are then ten pixels across,
    clear of the 3x3 opening that takes thin lines away; at 160 a count cost twice as much, no better."""
    pip_spread: float = 1.6
    """Marks within this factor of the pips' median area are pips: two pips run together (a small card,
    blur) make twice the area, something else, which spoils the count."""
    speck: float = 0.2
    """A mark under this share of the pips' median area is dust and passed over; one larger, outside
    the spread, is something else printed in the middle: no plain count."""
    min_pip: float = 0.03
    """The smallest pip counted, a share of ``diagonal`` (a real ten's pips are about 0.1)."""
    max_pip: float = 0.25
    """The largest pip across, a share of ``diagonal`` (the real two of clubs: 0.16): larger is a court's
    picture (its halves would pass for a pair of pips), an ace's great pip, a chip."""
    hollow: float = 0.3
    """Marks longer than ``line`` that fill less of their box than this (every pip fills half) are
    lines: a frame round the pips, a card's edge, a shadow."""
    line: float = 0.12
    """See ``hollow`` (a share of ``diagonal``); marks over four times as long as wide are lines too."""
    glyph_reach: float = 0.6
    """Marks within this many rank-to-suit distances of an index glyph's middle are that glyph (a "10"
    is two marks, each a third of that from the rank's middle)."""
    corner: tuple[float, float] = (0.2, 0.22)
    """Where a card prints its indices, shares of its width and height from each corner: marks there in
    a corner read are its index, in another an index not read (a four-index deck): no count. Pips stand
    farther in (the real ten 0.27 across, the demo deck's 0.3)."""
    wide_corner: tuple[float, float] = (0.25, 0.32)
    """Corners as large as the largest index printed (the demo deck's, 0.22 by 0.3): a card found by
    its outline is counted with both sizes and the count stands only if they agree (a deck's large index
    suit marks counted as pips, or outer pips lost, both in pairs)."""
    faint: float = 0.7
    """Card white darker than this share of its brightness, away from print, is a pale mark (a pip
    under glare, 0.6-0.67 of the white); at 0.8 the real deck's own shading spoilt a third of counts."""
    pale_mark: int = 25
    """A pale mark this many pixels large spoils the count (a ten's pip is about 80)."""
    dimmer: float = 0.72
    """A mark darker than this share of the brightest white within ``around`` pixels is pale however
    bright glare made it (a three's middle pip lifted to 0.63-0.78 was counted a two; the card's own
    shading never dims by a quarter over a pip's width; at 0.78 a small card's blur and noise did)."""
    around: int = 15
    """See ``dimmer`` (a pip is 9-12 pixels wide in the window)."""
    solid_red: float = 0.75
    """Red ink is solid above this share of the saturation of the card's deepest red (the real deck's
    pips about 170, a webcam's JPEG much less)."""
    pale_red: int = 55
    """A mark redder than this (card white is under 40) but not solid is a red pip washed pink by
    glare (60-107 seen; a five counted four)."""
    window: float = 1.5
    """The window looked in, a share of ``diagonal``: a whole card fits, however turned."""
    index_diagonal: float = 1.24
    """The two index middles' distance as a share of the card's width (the real deck 1.2, the demo
    deck 1.25): a card found by its outline is scaled as one found by its indices."""
    index_to_middle: tuple[float, float] = (2.15, 2.7)
    """Where a card's middle lies from an index's (the middle of its rank and suit), in rank-to-suit
    distances across the card and down it: the real deck 2.44 and 3.11, the demo deck 1.88 and 2.34
    (medians over cards read at both corners). A card read at one corner is placed so within about a
    tenth of its width; a deck printing four indices puts the middle of half its corners' cards a
    card's width wrong."""
    red_ink: int = 90
    """Ink more saturated than this (0-255) is coloured: a red suit's."""
    ink: float = 0.6
    """Print darker than this share of card white's brightness is ink."""
    cores: tuple[float, ...] = (0.45, 0.35, 0.25)
    """Deeper darkness levels (shares of card white's brightness, red ink's saturation raised alike)
    at which a card whose pips ran together is counted again, a count standing where two levels in a
    row agree (see :meth:`pips.Middle.cores`). Why: a soft lens spreads each pip's edge into the next
    where pips lie close (the demo deck's ten, 75 pixels wide under blur, was one mark at 0.6), but
    the paler halo between them parts at the pips' dark cores (that ten counted ten at 0.35, and ten
    at two pixels' erosion)."""
    pip_to_length: float = 2.2
    """A pip is cut out for its outline as an index suit mark is, the rank-to-suit distance this many
    times the square root of its area (a suit mark is about 0.6 of that distance tall)."""
    symmetry: float = 0.05
    """How far a pip turned half round about the middle may land from the pip opposite, and an odd pip
    (a seven's) from the middle line, a share of ``diagonal``."""
    tinted: int = 40
    """Whitest pixels tipped past this saturation by a lamp's or camera's colour are balanced back to
    grey; below it card white passes for white and a court's pale yellows must stay darker than it (a
    deck photographed at 26 lost three courts' pictures when evened out)."""
    cast: int = 100
    """... at most this: a webcam's drifting balance tips card white up to about 85, and whitest pixels
    more coloured are a tinted print (a back), not a light."""
    pale: int = 60
    """Card white's saturation is under this (0-255), whatever its brightness."""
    edge: float = 0.08
    """The weaker Canny edge strength (a share of card white's brightness) that parts a card from one it
    lies on: on the phone photo that showed the need, 0.06 to 0.1 all parted the two."""


@dataclass(frozen=True, slots=True)
class PipSettings:
    """How a card's middle (its pips counted, a court's picture) arbitrates what its corners read
    (see :mod:`companion.vision.arbitration`)."""

    pip_confidence: float = 0.9
    """The confidence of a card named by its pips over its index's reading."""
    sure_index: float = 0.99
    """An index at least this sure keeps its suit whatever its pips' outline looks like. Why: in dim
    light with a noisy sensor every pip's outline is ragged, notched as a club's or a heart's are (a
    spade's pips measured 0.14, a diamond's 0.25, where clean they measure under 0.045 and 0.06), while
    the networks read those cards' indices all but certainly (0.9999-1.0), and right."""
    picture: float = 0.065
    """A card shows a picture when one mark in its middle covers more than this share of it. Measured
    on the real deck and the demo deck alone on the table, 110-220 pixels wide: a number card's largest
    mark covers at most 0.054 (the demo deck's nines, pips run together), a court's picture 0.078-0.36
    but for the demo deck's king of hearts (0.044: its picture breaks into small pieces, and is
    missed), an ace's pip 0.002-0.08."""
    cores_from: int = 6
    """A count at the pips' dark cores (``PipGeometry.cores``) confirms a number of at least this many
    pips, never fewer. Why: only two columns of three or more pips lie close enough for a soft lens to
    run them together (the demo deck at 96 pixels, blurred at sigma 1.6-2.5: every 2 to 5 counted
    plainly, 6 to 10 not always), while a court's picture, double-headed, breaks at its cores into two
    or four like marks (the demo deck's courts 2 and 4; the real deck's, 540 views at 110-200 pixels
    and sigma 0-3: 2 or none), each at one level only (see ``PipGeometry.cores``)."""
    overruling_picture: float = 0.1
    """A card read as a number at both corners (or whose two corners read two numbers) and not counted
    is taken for a court whose rank glyph was misread when one mark covers more than this share of its
    middle; a card with a corner read as a court needs only ``picture``. Why higher: nothing read says
    "court" then, and a number card whose pips run together makes a large mark too. Measured on cards
    alone on the table, 70-200 pixels wide, at three turns each: the demo deck's nines up to 0.071 (a
    9 of spades at 90 pixels and a 9 of clubs at 140 were otherwise reported unread); the real deck's
    courts printed with a number's index, kings 0.22-0.26, jacks 0.09-0.35, queens (a picture in small
    pieces) 0.05-0.13."""
    middle: float = 0.75
    """How far across a card from its centre its middle reaches, as a share of the way to its index
    middles: nothing read there is an index. The real deck's pips lie at most 0.57 of the way across (a
    four's), and up to 0.98 of the way along (a nine's outer pips), so the middle reaches along to the
    indices."""
    pips_alone_confidence: float = 0.85
    """The confidence of a card named by its pips alone: its rank is counted, but its suit is read from
    the pips' outline, which a soft lens blunts."""
    unread_face_confidence: float = 0.5
    """The confidence of a face-up card reported as unread: how sure it is a face, not what it is."""
    club_notch: float = 0.06
    """Pips notched at least this deep (see :func:`companion.vision.index.suit_notches`) are a club's.
    The pips' notch depths and how far down their ink's centre lies (see :class:`pips.Pips`) that name
    each suit were measured on both decks alone on the table, 70-180 pixels wide, sharp and soft (blur
    1.2): clubs' notches 0.069-0.28 and spades' 0.023-0.043; diamonds' 0.026-0.060 with their centre
    0.476-0.526 down, hearts' 0.048-0.164 with theirs 0.40-0.52, and every heart either notched 0.097
    or more or centred 0.438 down or higher."""
    spade_notch: float = 0.045
    """Pips notched at most this deep are a spade's (see ``club_notch``)."""
    heart_notch: float = 0.08
    """Red pips notched at least this deep are a heart's (see ``club_notch``)."""
    heart_centre: float = 0.455
    """... and so are red pips whose ink's centre lies at most this far down (see ``club_notch``)."""
    diamond_notch: float = 0.06
    """Red pips notched at most this deep, and centred ``diamond_centre`` down or lower, are a
    diamond's (see ``club_notch``)."""
    diamond_centre: float = 0.47
    """See ``diamond_notch``."""
    geometry: PipGeometry = field(default_factory=PipGeometry)
    """The printed card as the counter measures it (see :class:`PipGeometry`)."""


@dataclass(frozen=True, slots=True)
class BackSettings:
    """How a face-down card is told from a face whose index is hidden (see
    :mod:`companion.vision.backs`)."""

    open_paper: float = 0.04
    """A card-shaped outline that is mostly white is a face (its index hidden or unreadable) unless its
    white is only the gaps of a fine pattern: less than this share of its middle is white
    ``open_reach`` of the card's width from any ink. Why: a face's white lies in open fields between
    its pips and around its picture, while a back printed as a fine lattice or dots on white has no
    such field, and was taken for a face. Faces of two decks, 110-220 pixels wide, keep at least 0.062
    (the real ten of clubs); such backs at most 0.019."""
    open_reach: float = 0.07
    """See ``open_paper``."""


@dataclass(frozen=True, slots=True)
class MotionSettings:
    """How change is found and how much of a frame is read again.

    ``cell``: the side, in frame pixels, of one compared cell; at 8 a 1280x720 frame is 160x90 cells,
    and a card 100 pixels wide covers some 150 of them, so a card laid or taken shows plainly, while a
    sensor's noise (a few grey levels a pixel) averages to under one over 64 pixels.
    ``threshold``: grey levels a cell must differ by, once the frame's median difference is taken off.
    A card's index on the table is dark ink on white (a difference of a hundred and more); JPEG and a
    webcam's noise move a cell's average by two or three.
    ``whole``: a change over more than this share of the frame is read whole (the camera moved, the
    light changed): regions would cost more than the frame.
    ``reread``: every this many frames the whole frame is read again even if nothing seemed to change,
    so a slow drift (a card nudged a pixel a frame, a shadow creeping) is caught within a second at 30
    frames a second.
    ``margin``: how far round a region of change is read, in card lengths. Why: a card is read by its
    two index corners and counted by its middle, so a card touched by the change must lie whole inside
    what is read for it to be named as surely as in a whole frame.
    """

    cell: int = 8
    threshold: float = 14.0
    whole: float = 0.5
    reread: int = 30
    margin: float = 0.6
    smear_nearer: float = 0.5
    """A change whose cells lie nearer than this share (median distance) to the settled picture
    blurred across three cells than to the settled picture is a smear of it: a frame shaken or out of
    focus, not read (see :meth:`companion.vision.motion.Motion.change`)."""
    smear_shares: tuple[float, ...] = (0.25, 0.5)
    """How much of the settled picture blurred across three cells a smear is tried as: a shake of a
    few pixels spreads a cell into its neighbours by a quarter or a half."""
    smear_cells: int = 20
    """Fewer changed cells than this are never taken for a smear: a card's corner nudged, a speck."""


@dataclass(frozen=True, slots=True)
class TrackingSettings:
    """What a filmed recogniser keeps from one frame to the next."""

    still: int = 4
    """A filmed card counted is taken to lie still while its corners' places, in frame pixels divided
    by this, stay the same: its pips are then not counted again (a look costs about a millisecond a
    card)."""


@dataclass(frozen=True, slots=True)
class RecognitionSettings:
    """Every threshold a :class:`~companion.vision.recognise.Recogniser` decides by."""

    reading: ReadingSettings = field(default_factory=ReadingSettings)
    scales: ScaleSettings = field(default_factory=ScaleSettings)
    suits: SuitSettings = field(default_factory=SuitSettings)
    pips: PipSettings = field(default_factory=PipSettings)
    backs: BackSettings = field(default_factory=BackSettings)
    tracking: TrackingSettings = field(default_factory=TrackingSettings)
    motion: MotionSettings = field(default_factory=MotionSettings)


#: The settings the product ships with.
SHIPPED = RecognitionSettings()
