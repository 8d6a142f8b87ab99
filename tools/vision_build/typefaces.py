"""The typefaces drawn decks print their ranks in, found on this machine from Debian's font packages."""

from __future__ import annotations

from pathlib import Path

#: Typefaces that procedurally drawn decks print their ranks in, with the Debian packages that hold them.
#: Pub decks print indices in faces of every kind -- condensed sans, bold slab, old-style serif, narrow
#: grotesque -- and a network that has seen a few faces learns those faces' glyphs, not "a 3" (a deck it
#: never saw: a thin condensed 3 read as a 5). So the build draws decks from many faces, each thickened,
#: thinned, narrowed, widened and slanted at random. Upright cuts only: card indices are not italic.
TYPEFACES: dict[str, tuple[str, ...]] = {
    "fonts-dejavu-core": (
        "truetype/dejavu/DejaVuSans.ttf",
        "truetype/dejavu/DejaVuSans-Bold.ttf",
        "truetype/dejavu/DejaVuSerif.ttf",
        "truetype/dejavu/DejaVuSerif-Bold.ttf",
        "truetype/dejavu/DejaVuSansMono-Bold.ttf",
    ),
    "fonts-dejavu-extra": (
        "truetype/dejavu/DejaVuSansCondensed-Bold.ttf",
        "truetype/dejavu/DejaVuSerifCondensed.ttf",
        "truetype/dejavu/DejaVuSans-ExtraLight.ttf",
    ),
    "fonts-urw-base35": (
        "opentype/urw-base35/NimbusSans-Regular.otf",
        "opentype/urw-base35/NimbusSans-Bold.otf",
        "opentype/urw-base35/NimbusSansNarrow-Regular.otf",
        "opentype/urw-base35/NimbusSansNarrow-Bold.otf",
        "opentype/urw-base35/NimbusRoman-Regular.otf",
        "opentype/urw-base35/NimbusRoman-Bold.otf",
        "opentype/urw-base35/C059-Roman.otf",
        "opentype/urw-base35/C059-Bold.otf",
        "opentype/urw-base35/P052-Roman.otf",
        "opentype/urw-base35/P052-Bold.otf",
        "opentype/urw-base35/URWBookman-Light.otf",
        "opentype/urw-base35/URWBookman-Demi.otf",
        "opentype/urw-base35/URWGothic-Book.otf",
        "opentype/urw-base35/URWGothic-Demi.otf",
        "opentype/urw-base35/NimbusMonoPS-Bold.otf",
    ),
    "fonts-liberation": (
        "truetype/liberation/LiberationSans-Regular.ttf",
        "truetype/liberation/LiberationSans-Bold.ttf",
        "truetype/liberation/LiberationSansNarrow-Regular.ttf",
        "truetype/liberation/LiberationSansNarrow-Bold.ttf",
        "truetype/liberation/LiberationSerif-Regular.ttf",
        "truetype/liberation/LiberationSerif-Bold.ttf",
    ),
    "fonts-freefont-ttf": (
        "truetype/freefont/FreeSans.ttf",
        "truetype/freefont/FreeSansBold.ttf",
        "truetype/freefont/FreeSerif.ttf",
        "truetype/freefont/FreeSerifBold.ttf",
    ),
    "fonts-roboto-unhinted": (
        "truetype/roboto/unhinted/RobotoTTF/Roboto-Thin.ttf",
        "truetype/roboto/unhinted/RobotoTTF/Roboto-Light.ttf",
        "truetype/roboto/unhinted/RobotoTTF/Roboto-Regular.ttf",
        "truetype/roboto/unhinted/RobotoTTF/Roboto-Medium.ttf",
        "truetype/roboto/unhinted/RobotoTTF/Roboto-Bold.ttf",
        "truetype/roboto/unhinted/RobotoTTF/Roboto-Black.ttf",
    ),
    "fonts-open-sans": (
        "truetype/open-sans/OpenSans-Regular.ttf",
        "truetype/open-sans/OpenSans-Bold.ttf",
        "truetype/open-sans/OpenSans-ExtraBold.ttf",
    ),
    "fonts-lato": (
        "truetype/lato/Lato-Light.ttf",
        "truetype/lato/Lato-Regular.ttf",
        "truetype/lato/Lato-Bold.ttf",
        "truetype/lato/Lato-Black.ttf",
    ),
    "fonts-noto-core": (
        "truetype/noto/NotoSans-Regular.ttf",
        "truetype/noto/NotoSans-Bold.ttf",
        "truetype/noto/NotoSerif-Regular.ttf",
        "truetype/noto/NotoSerif-Bold.ttf",
        "truetype/noto/NotoSerifDisplay-Regular.ttf",
        "truetype/noto/NotoSansDisplay-Bold.ttf",
    ),
    "fonts-crosextra-caladea": (
        "truetype/crosextra/Caladea-Regular.ttf",
        "truetype/crosextra/Caladea-Bold.ttf",
    ),
    "fonts-crosextra-carlito": (
        "truetype/crosextra/Carlito-Regular.ttf",
        "truetype/crosextra/Carlito-Bold.ttf",
    ),
    "fonts-linuxlibertine": (
        "opentype/linux-libertine/LinLibertine_R.otf",
        "opentype/linux-libertine/LinLibertine_RB.otf",
        "opentype/linux-libertine/LinBiolinum_R.otf",
        "opentype/linux-libertine/LinBiolinum_RB.otf",
    ),
    "fonts-ebgaramond": ("opentype/ebgaramond/EBGaramond12-Regular.otf",),
    "fonts-bebas-neue": (
        "opentype/bebas-neue/BebasNeue-Light.otf",
        "opentype/bebas-neue/BebasNeue-Regular.otf",
        "opentype/bebas-neue/BebasNeue-Bold.otf",
    ),
    "fonts-cantarell": ("opentype/cantarell/Cantarell-Regular.otf", "opentype/cantarell/Cantarell-Bold.otf"),
}
_FONT_ROOTS = (Path("/usr/share/fonts"), Path("/usr/share/texmf/fonts"))


def typeface_files() -> list[Path]:
    """Every file of :data:`TYPEFACES`, in a fixed order; exits with the install line if any is missing.

    All or nothing, so two builds on two machines draw the same decks (a missing face would silently
    change every seeded choice after it).
    """
    found: list[Path] = []
    missing: set[str] = set()
    for package, files in TYPEFACES.items():
        for rel in files:
            path = next((root / rel for root in _FONT_ROOTS if (root / rel).is_file()), None)
            if path is None:
                missing.add(package)
            else:
                found.append(path)
    if missing:
        raise SystemExit(
            "build: the typefaces the decks are drawn in are missing; install them with:\n"
            f"  sudo apt-get install -y {' '.join(sorted(missing))}"
        )
    return found
