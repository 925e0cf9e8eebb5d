"""The course font inside an SVG: an ``@font-face`` holding only the glyphs the picture draws.

A diagram shown as an ``<img>`` (what JupyterLab's sanitizer keeps in a notebook it has not trusted) cannot
use a font the page loads: an SVG drawn as an image sees only the system's fonts, so on a machine without
a CJK font its hanzi would be boxes. Embedding a subset of the bundled Noto Sans SC subset (a few dozen
glyphs: about 10–30 KB) makes the picture self-contained. The subset is made with fontTools, the same
library that made the bundled font; for the same fontTools version its bytes are the same on every
machine (no timestamps: the ``head`` table's dates are fixed), and tests/nbval_sanitize.cfg masks the
base64 so a different fontTools version does not count as a changed output.
"""

import base64
import io
from functools import lru_cache

from fontTools import subset
from fontTools.ttLib import TTFont

from .fonts import BUNDLED_PATH

FAMILY = "AttnCourseSVG"  # the embedded face's name, put first in the picture's font-family


@lru_cache(maxsize=1)
def _font_bytes():
    return BUNDLED_PATH.read_bytes()


@lru_cache(maxsize=64)
def subset_font(chars: str) -> bytes:
    """An OpenType (CFF) font with the glyphs of ``chars`` that the bundled font has, and nothing else."""
    font = TTFont(io.BytesIO(_font_bytes()))
    options = subset.Options()
    options.layout_features = []
    options.hinting = False
    options.name_IDs = [1, 2]  # family and style: enough for a face referenced by @font-face only
    options.notdef_outline = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=[ord(c) for c in chars])
    subsetter.subset(font)
    font["head"].created = font["head"].modified = 0  # deterministic bytes
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


def font_face(chars) -> str:
    """A ``<style>`` element defining ``FAMILY`` from a subset covering ``chars`` (any iterable of
    characters; whitespace and duplicates are ignored)."""
    wanted = "".join(sorted({c for c in chars if not c.isspace()}))
    data = base64.b64encode(subset_font(wanted)).decode("ascii")
    return (
        f"<style>@font-face{{font-family:'{FAMILY}';src:url(data:font/otf;base64,{data}) format('opentype')}}</style>"
    )
