"""Chinese text in matplotlib figures: pick a CJK font and register it.

Without a CJK font matplotlib draws every hanzi as a box (with a "Glyph ... missing" warning).
``setup()`` (called when ``attn_viz.plots`` is imported) uses an installed Simplified-Chinese
font when there is one, otherwise the subset of Noto Sans SC shipped in ``attn_viz/fonts/``
(GB2312 + punctuation, SIL OFL 1.1). It sets ``font.family`` to [that family, "DejaVu Sans"]:
DejaVu Sans supplies the few symbols the CJK font lacks (ᵀ, ⁰, ...). The minus sign stays U+2212.

Set the environment variable ``ATTN_CORE_BUNDLED_FONT=1`` to always use the bundled font
(e.g. when an installed font renders badly).
"""

import os
from pathlib import Path

import matplotlib as mpl
from matplotlib import font_manager, ft2font

BUNDLED_PATH = Path(__file__).with_name("fonts") / "NotoSansSC-Subset.otf"
BUNDLED_FAMILY = "Noto Sans SC Subset"
ENV_VAR = "ATTN_CORE_BUNDLED_FONT"

# Installed fonts, best first: Simplified-Chinese forms, then common system fonts per OS.
PREFERRED_FAMILIES = (
    "Noto Sans CJK SC",
    "Source Han Sans SC",
    "Source Han Sans CN",
    "Noto Sans SC",
    "Microsoft YaHei",
    "PingFang SC",
    "Hiragino Sans GB",
    "Heiti SC",
    "STHeiti",
    "WenQuanYi Zen Hei",
    "WenQuanYi Micro Hei",
    "SimHei",
    "Droid Sans Fallback",
)

# Where those fonts usually live. matplotlib's font cache misses fonts installed after it was
# built, so files found here are registered explicitly (a stat per path, no directory walk).
SYSTEM_FONT_FILES = (
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",  # Debian, Ubuntu
    "/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc",  # Arch
    "/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc",  # Fedora
    "/usr/share/fonts/opentype/noto/NotoSansCJKsc-Regular.otf",
    "/usr/share/fonts/adobe-source-han-sans/SourceHanSansSC-Regular.otf",
    "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
    "/usr/share/fonts/wenquanyi/wqy-zenhei/wqy-zenhei.ttc",
    "/System/Library/Fonts/PingFang.ttc",  # macOS
    "/System/Library/Fonts/Hiragino Sans GB.ttc",
    "/System/Library/Fonts/STHeiti Light.ttc",
    "C:/Windows/Fonts/msyh.ttc",  # Windows
    "C:/Windows/Fonts/simhei.ttf",
)

# For HTML/SVG drawn by the browser (explorers, tables): common CJK system fonts, then sans-serif.
CSS_FAMILY = (
    '"Noto Sans CJK SC", "Source Han Sans SC", "Noto Sans SC", "PingFang SC", "Hiragino Sans GB", '
    '"Microsoft YaHei", "WenQuanYi Micro Hei", "WenQuanYi Zen Hei", "SimHei", sans-serif'
)

_PROBE = "我喜欢学习语言，注意力"  # a font must have all of these to be chosen
_family = None


def bundled_forced():
    """True when ``ATTN_CORE_BUNDLED_FONT`` asks for the bundled font."""
    return os.environ.get(ENV_VAR, "").strip().lower() in ("1", "true", "yes", "on")


def _register(path):
    """Add a font file to matplotlib's font list unless it is already there."""
    path = os.fsdecode(path)
    if not any(entry.fname == path for entry in font_manager.fontManager.ttflist):
        font_manager.fontManager.addfont(path)


def _has_probe_glyphs(entry):
    try:
        index = getattr(entry, "index", 0)  # faces of a .ttc collection (matplotlib >= 3.10)
        font = ft2font.FT2Font(entry.fname, face_index=index) if index else ft2font.FT2Font(entry.fname)
        return all(font.get_char_index(ord(ch)) for ch in _PROBE)
    except Exception:  # unreadable file, or a matplotlib without face_index
        return False


def _system_family():
    """The best installed Simplified-Chinese family matplotlib can use, or None."""
    for path in SYSTEM_FONT_FILES:
        if os.path.isfile(path):
            try:
                _register(path)
            except Exception:  # a broken file must not stop the lesson
                continue
    regular = {}
    for entry in font_manager.fontManager.ttflist:
        if entry.name in PREFERRED_FAMILIES and (entry.name not in regular or entry.weight in (400, "normal")):
            regular[entry.name] = entry
    for name in PREFERRED_FAMILIES:
        if name in regular and _has_probe_glyphs(regular[name]):
            return name
    return None


def setup():
    """Make matplotlib draw Chinese; returns the CJK family in use. Cheap and idempotent:
    the font is looked for once per process, the rcParams are (re)applied on every call."""
    global _family
    if _family is None:
        family = None if bundled_forced() else _system_family()
        if family is None:
            _register(BUNDLED_PATH)
            family = BUNDLED_FAMILY
        _family = family
    mpl.rcParams["font.family"] = [_family, "DejaVu Sans"]
    sans = [name for name in mpl.rcParams["font.sans-serif"] if name != _family]
    mpl.rcParams["font.sans-serif"] = [_family, *sans]
    mpl.rcParams["axes.unicode_minus"] = True  # the CJK fonts (and DejaVu Sans) have U+2212
    return _family


def family():
    """The CJK font family matplotlib uses for Chinese text (runs ``setup()`` if needed)."""
    return _family if _family is not None else setup()
