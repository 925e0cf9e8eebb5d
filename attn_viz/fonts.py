"""Chinese text in matplotlib figures: pick a CJK font and register it.

Without a CJK font matplotlib draws every hanzi as a box (with a "Glyph ... missing" warning).
``setup()`` (called when ``attn_viz.plots`` is imported) uses an installed Simplified-Chinese
font when there is one, otherwise the subset of Noto Sans SC shipped in ``attn_viz/fonts/``
(GB2312 + punctuation, SIL OFL 1.1). It sets ``font.family`` to [that family, "DejaVu Sans"]:
DejaVu Sans supplies the few symbols the CJK font lacks (ᵀ, ⁰, ...). The minus sign stays U+2212.

Set the environment variable ``ATTN_CORE_BUNDLED_FONT=1`` to always use the bundled font
(e.g. when an installed font renders badly).

The browser gets the same font, and an emoji subset for ✅ ❌ ⏳, from ``fonts/course-fonts.css``
(``@font-face`` rules with URLs relative to that file), imported by ``fonts/custom.css``, which puts the
families at the end of JupyterLab's font variables: ``make lab`` serves the folder at /custom/ as JupyterLab's
custom CSS; ``make demo`` lets Voilà serve it, and the board links ``VOILA_STYLESHEET``. ``CSS_FAMILY`` is
the stack for HTML and SVG the course draws: installed CJK fonts first, then the bundled ones.
``inline_font_face(text)`` embeds just the glyphs of ``text`` in a data URL, for a line that must be
readable in any browser.
"""

import base64
import io
import os
from pathlib import Path

import matplotlib as mpl
from matplotlib import font_manager, ft2font

FONT_DIR = Path(__file__).with_name("fonts")
BUNDLED_PATH = FONT_DIR / "NotoSansSC-Subset.otf"
BUNDLED_FAMILY = "Noto Sans SC Subset"
EMOJI_PATH = FONT_DIR / "NotoColorEmoji-Subset.ttf"  # browsers only: ✅ ❌ ⏳ 📌 (CBDT colour bitmaps)
EMOJI_FAMILY = "Noto Color Emoji Subset"
CSS_PATH = FONT_DIR / "course-fonts.css"  # @font-face for both families, URLs relative to the file
PAGE_CSS_PATH = FONT_DIR / "custom.css"  # imports it; the families at the end of JupyterLab's font variables
# Where the servers the course starts serve custom.css (absolute paths: the default base URL "/").
LAB_CSS_URL = "/custom/custom.css"  # make lab / lab-en: JupyterLab's custom CSS, this folder served at /custom/
VOILA_CSS_URL = "/voila/files/attn_viz/fonts/custom.css"  # make demo / demo-en (Voilà's files root is the project)
VOILA_STYLESHEET = f'<link rel="stylesheet" href="{VOILA_CSS_URL}">'  # for the board's HTML (Voilà has no custom CSS)
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

# For HTML/SVG drawn by the browser (explorers, tables): common CJK system fonts, then sans-serif, then
# the bundled font (only characters the fonts before it lack reach it), then emoji fonts, the bundled last.
CSS_CJK_SYSTEM = (
    '"Noto Sans CJK SC", "Source Han Sans SC", "Noto Sans SC", "PingFang SC", "Hiragino Sans GB", '
    '"Microsoft YaHei", "WenQuanYi Micro Hei", "WenQuanYi Zen Hei", "SimHei"'
)
CSS_EMOJI = f'"Apple Color Emoji", "Segoe UI Emoji", "Noto Color Emoji", "{EMOJI_FAMILY}"'
CSS_FAMILY = f'{CSS_CJK_SYSTEM}, sans-serif, "{BUNDLED_FAMILY}", {CSS_EMOJI}'

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


def inline_font_face(text, family="Attn Inline"):
    """A CSS ``@font-face`` rule for ``family`` with the glyphs of ``text`` from the bundled font, as a data
    URL (a few kB), and one for ``family + " Emoji"`` with the bundled emoji: text styled
    ``font-family: "<family>", "<family> Emoji"`` is drawn the same in any browser, fonts installed or not."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    font = TTFont(BUNDLED_PATH)
    options = subset.Options()
    options.layout_features, options.hinting, options.recalc_timestamp = [], False, False
    options.name_IDs, options.drop_tables = [1, 2], [*options.drop_tables, "vhea", "vmtx", "VORG"]
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=text)
    subsetter.subset(font)
    buf = io.BytesIO()
    font.save(buf)
    cjk = base64.b64encode(buf.getvalue()).decode("ascii")
    emoji = base64.b64encode(EMOJI_PATH.read_bytes()).decode("ascii")
    return (
        f'@font-face{{font-family:"{family}";src:url(data:font/otf;base64,{cjk}) format("opentype")}}'
        f'@font-face{{font-family:"{family} Emoji";src:url(data:font/ttf;base64,{emoji}) format("truetype")}}'
    )


# Which characters of ``text`` the page draws as missing-glyph boxes with CSS ``font``: each character is
# drawn on a canvas (which uses the page's fonts, @font-face included, and the same per-character fallback
# as the page) and compared, pixel for pixel, with an unassigned code point (U+10FFFD: the box) and with a
# space (a font whose missing glyph is empty). Defines window.attnMissingGlyphs(text, font) -> Promise<[chars]>.
GLYPH_TEST_JS = r"""
window.attnMissingGlyphs = async (text, font) => {
  // visible characters only: no spaces, no format characters (zero-width space ...), no combining marks
  const chars = [...new Set([...text].filter(ch => ch.codePointAt(0) > 0x7e && !/[\p{Z}\p{C}\p{M}]/u.test(ch)))];
  try { await document.fonts.load(font, chars.join('')); } catch (e) { /* an unparsable font: test as is */ }
  const size = 48, c = document.createElement('canvas');
  c.width = c.height = 2 * size;
  const g = c.getContext('2d', {willReadFrequently: true});
  const draw = ch => {
    g.clearRect(0, 0, c.width, c.height);
    g.font = font.replace(/^(.*?)\d+(\.\d+)?px/, `$1${size}px`);
    g.fillText(ch, 4, 1.5 * size);
    return g.getImageData(0, 0, c.width, c.height).data.join(',');
  };
  const box = draw('\u{10FFFD}'), blank = draw(' ');
  return chars.filter(ch => { const d = draw(ch); return d === box || d === blank; });
};
"""


def browser_glyph_check(messages, probe="我喜欢学习语言✅❌⏳"):
    """A display bundle: HTML whose script tests, in the page that shows it, whether the page's own text,
    output and menu fonts draw ``probe`` (not boxes), and writes the verdict in its place. ``messages``:
    ``pending`` (what shows before the script ran), ``ok``, ``bad`` (with ``{chars}`` for the boxes and
    ``{where}``), ``where`` (names for "text", "output", "menu") and ``fix`` (lines shown after ``bad``).
    The verdict itself is drawn with glyphs embedded in the output (``inline_font_face``): readable even
    in a browser that has no CJK or emoji font at all."""
    import html
    import json

    texts = [messages["pending"], messages["ok"], messages["bad"], *messages["where"].values(), *messages["fix"]]
    style = inline_font_face("".join(texts) + probe + "0123456789")
    fix = "\n".join(html.escape(line) for line in messages["fix"])
    script = GLYPH_TEST_JS + (
        "(async (root, msg, probe) => {\n"
        "  const targets = {text: '.jp-RenderedMarkdown p, .jp-RenderedMarkdown', output: '.jp-OutputArea-output pre',"
        " menu: '.lm-MenuBar-itemLabel'};\n"
        "  const bad = [];\n"
        "  for (const [key, selector] of Object.entries(targets)) {\n"
        "    const el = document.querySelector(selector);\n"
        "    if (!el) continue;  // e.g. no menu bar in Voila\n"
        "    const missing = await window.attnMissingGlyphs(probe, getComputedStyle(el).font);\n"
        "    if (missing.length) bad.push([msg.where[key], missing.join('')]);\n"
        "  }\n"
        "  const verdict = root.querySelector('.attn-font-verdict');\n"
        "  if (!bad.length) { verdict.textContent = msg.ok; return; }\n"
        "  verdict.textContent = msg.bad.replace('{where}', bad.map(b => b[0]).join(', '))"
        ".replace('{chars}', [...new Set(bad.map(b => b[1]).join(''))].join(''));\n"
        "  root.querySelector('.attn-font-fix').style.display = 'block';\n"
        f"}})(document.currentScript.parentElement, {json.dumps(messages, ensure_ascii=False)}, {json.dumps(probe)});"
    )
    body = (
        f"<div class=\"attn-font-check\" style=\"font-family:'Attn Inline','Attn Inline Emoji';font-size:15px;"
        f'line-height:1.6"><style>{style}</style>'
        f'<div class="attn-font-verdict">{html.escape(messages["pending"])}</div>'
        f'<pre class="attn-font-fix" style="display:none;font-family:inherit;margin:0.3em 0 0 1.5em">{fix}</pre>'
        f"<script>{script}</script></div>"
    )
    return {"text/html": body, "text/plain": messages["pending"]}
