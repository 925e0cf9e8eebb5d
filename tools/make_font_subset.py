"""Regenerate the fonts shipped in attn_viz/fonts/: the Chinese subset and the emoji subset.

NotoSansSC-Subset.otf is what matplotlib draws Chinese with when no CJK font is installed, and (served
by `make lab` / `make demo`, see attn_viz/fonts/course-fonts.css) what the browser falls back to.
NotoColorEmoji-Subset.ttf holds the few emoji the course prints (✅ ❌ ⏳ ...), for browsers without an
emoji font; it is a subset of Noto Color Emoji (SIL OFL 1.1, Debian package fonts-noto-color-emoji).

Source: Noto Sans CJK SC Regular (SIL OFL 1.1), face 2 of Debian's fonts-noto-cjk
``NotoSansCJK-Regular.ttc`` (or any NotoSansCJKsc-Regular.otf passed with --source).

Kept: GB2312 (symbol rows 1-9, hanzi levels 1 and 2), ASCII and Latin-1, CJK symbols and
punctuation (U+3000-303F), fullwidth forms, Greek, the math signs the course uses (− × · → √ ∞ ≈ ...)
and every character that appears in notebooks/ and attn_core/*.py. Dropped: layout features
(matplotlib does no shaping), hinting, vertical metrics. The family is renamed "Noto Sans SC Subset"
so matplotlib never confuses it with an installed Noto Sans CJK SC.

    .venv/bin/python tools/make_font_subset.py            # writes both fonts and the README
    .venv/bin/python tools/make_font_subset.py --only emoji   # only the emoji subset
    .venv/bin/python tools/make_font_subset.py --check    # only lists source characters it lacks
"""

import argparse
import hashlib
import json
import sys
import unicodedata
from pathlib import Path

import matplotlib
from fontTools import subset
from fontTools.ttLib import TTFont

ROOT = Path(__file__).resolve().parent.parent
OUT_DIR = ROOT / "attn_viz" / "fonts"
OUT = OUT_DIR / "NotoSansSC-Subset.otf"
DEFAULT_SOURCE = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
SOURCE_FAMILY = "Noto Sans CJK SC"
FAMILY = "Noto Sans SC Subset"
PS_NAME = "NotoSansSCSubset-Regular"
EMOJI_SOURCE = "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"
EMOJI_OUT = OUT_DIR / "NotoColorEmoji-Subset.ttf"
EMOJI_FAMILY = "Noto Color Emoji Subset"
EMOJI_PS_NAME = "NotoColorEmojiSubset"
EMOJI_ALWAYS = "✅❌⏳"  # what the check cells print, whether or not the scan finds them
PACKAGES = ("attn_core", "attn_viz", "attn_homework")

EXTRA_RANGES = [
    (0x0020, 0x007E),  # ASCII
    (0x00A0, 0x00FF),  # Latin-1 (× · ° ± ² ³ ...)
    (0x0391, 0x03A9),
    (0x03B1, 0x03C9),  # Greek
    (0x2010, 0x2027),
    (0x2030, 0x203B),  # dashes, quotes, …, ‰
    (0x2070, 0x209C),  # superscripts and subscripts (whatever the source has)
    (0x2190, 0x2199),
    (0x21D0, 0x21D4),  # arrows
    (0x2200, 0x22FF),  # mathematical operators (− √ ∞ ≈ ≤ ∑ ...), as far as the source has them
    (0x2460, 0x2473),  # ① ... ⑳
    (0x3000, 0x303F),  # CJK symbols and punctuation
    (0xFF00, 0xFFEF),  # fullwidth forms
]
EXTRA_CHARS = "ᵀ√−×·→"


def gb2312_chars(first_row, last_row):
    """Characters of GB2312 rows ``first_row..last_row`` (EUC-CN lead bytes), columns 0xA1-0xFE."""
    chars = []
    for hi in range(first_row, last_row + 1):
        for lo in range(0xA1, 0xFF):
            try:
                chars.append(bytes([hi, lo]).decode("gb2312"))
            except UnicodeDecodeError:
                pass  # unassigned cell (e.g. the end of level 1)
    return chars


def source_texts(packages=("attn_core",)):
    """Text of every notebook (all cells) under notebooks/ and of the packages' *.py."""
    for nb in sorted((ROOT / "notebooks").rglob("*.ipynb")):
        if ".ipynb_checkpoints" in nb.parts:
            continue
        for cell in json.loads(nb.read_text(encoding="utf-8")).get("cells", []):
            src = cell.get("source", "")
            yield "".join(src) if isinstance(src, list) else src
    for package in packages:
        for py in sorted((ROOT / package).rglob("*.py")):
            yield py.read_text(encoding="utf-8")


def wanted_chars():
    chars = set(gb2312_chars(0xA1, 0xA9)) | set(gb2312_chars(0xB0, 0xF7)) | set(EXTRA_CHARS)
    for lo, hi in EXTRA_RANGES:
        chars.update(map(chr, range(lo, hi + 1)))
    used = {ch for text in source_texts() for ch in text if ord(ch) > 0x7E and not ch.isspace()}
    return chars | used, used


def open_source(path):
    """The Noto Sans CJK SC face of ``path`` (a .ttc collection or a single .otf)."""
    if path.lower().endswith((".ttc", ".otc")):
        for index in range(16):
            try:
                font = TTFont(path, fontNumber=index)
            except Exception:  # past the last face
                break
            if font["name"].getDebugName(1) == SOURCE_FAMILY:
                return font
        sys.exit(f"{path} has no face named {SOURCE_FAMILY!r}.")
    return TTFont(path)


def rename(font, family=FAMILY, ps_name=PS_NAME, source_family=SOURCE_FAMILY):
    name = font["name"]
    version = name.getDebugName(5)
    for rec in list(name.names):
        if rec.nameID in (1, 3, 4, 6, 16, 17, 21, 22):
            name.removeNames(nameID=rec.nameID)
    name.setName(family, 1, 3, 1, 0x409)
    name.setName("Regular", 2, 3, 1, 0x409)
    name.setName(f"{family}; {ps_name}; subset of {source_family} {version}", 3, 3, 1, 0x409)
    name.setName(family, 4, 3, 1, 0x409)
    name.setName(ps_name, 6, 3, 1, 0x409)
    if "CFF " in font:
        cff = font["CFF "].cff
        cff.fontNames = [ps_name]
        top = cff.topDictIndex[0]
        top.FullName, top.FamilyName = family, family


def emoji_chars(text_cmaps):
    """The emoji the course uses that no text font has: characters of the sources found in no cmap of
    ``text_cmaps`` (the Chinese subset, DejaVu Sans), plus EMOJI_ALWAYS."""
    used = {ch for text in source_texts(PACKAGES) for ch in text if ord(ch) > 0x2000}
    return sorted(set(EMOJI_ALWAYS) | {ch for ch in used if not any(ord(ch) in cmap for cmap in text_cmaps)})


def make_emoji(source=EMOJI_SOURCE):
    """Subset Noto Color Emoji (its CBDT colour bitmaps) to the emoji the course prints."""
    font = TTFont(source)
    cmap = font.getBestCmap()
    dejavu = TTFont(Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf").getBestCmap()
    chars = [ch for ch in emoji_chars([TTFont(OUT).getBestCmap(), dejavu]) if ord(ch) in cmap]
    options = subset.Options()
    options.layout_features = []  # no ZWJ sequences or flags: single code points only
    options.hinting = False
    options.drop_tables += ["vhea", "vmtx", "GSUB"]
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]
    options.name_languages = [0x409]
    options.recalc_timestamp = False
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=[ord(ch) for ch in chars])
    subsetter.subset(font)
    rename(font, EMOJI_FAMILY, EMOJI_PS_NAME, "Noto Color Emoji")
    font.recalcTimestamp = False
    font.save(EMOJI_OUT)
    print(f"{EMOJI_OUT.relative_to(ROOT)}: {EMOJI_OUT.stat().st_size:,} bytes, {''.join(chars)}")
    return font["name"].getDebugName(5), chars


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--source",
        default=DEFAULT_SOURCE,
        help="NotoSansCJK-Regular.ttc or NotoSansCJKsc-Regular.otf (apt-get install fonts-noto-cjk)",
    )
    parser.add_argument("--emoji-source", default=EMOJI_SOURCE, help="NotoColorEmoji.ttf (fonts-noto-color-emoji)")
    parser.add_argument("--only", choices=("cjk", "emoji"), help="regenerate one of the two fonts (default: both)")
    parser.add_argument("--check", action="store_true", help="list characters the source lacks, write nothing")
    args = parser.parse_args(argv)
    if args.only == "emoji" and not args.check:
        readme = OUT_DIR / "README.md"
        kept = readme.read_text(encoding="utf-8").split(EMOJI_HEADING)[0].rstrip("\n")
        readme.write_text(kept + "\n\n" + emoji_section(*make_emoji(args.emoji_source)), encoding="utf-8")
        return

    font = open_source(args.source)
    version = font["name"].getDebugName(5)
    cmap = font.getBestCmap()
    wanted, used = wanted_chars()
    unavailable = sorted(ch for ch in used if ord(ch) not in cmap and unicodedata.category(ch)[0] not in "MC")
    if unavailable:
        print(
            "used in the sources but not in the source font:", " ".join(f"{ch}(U+{ord(ch):04X})" for ch in unavailable)
        )
    if args.check:
        return
    unicodes = sorted(ord(ch) for ch in wanted if ord(ch) in cmap)

    options = subset.Options()
    options.layout_features = []  # matplotlib does no shaping
    options.hinting = False
    options.drop_tables += ["vhea", "vmtx", "VORG", "BASE", "GDEF", "GPOS", "GSUB"]
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]
    options.name_languages = [0x409]
    options.recalc_timestamp = False
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=unicodes)
    subsetter.subset(font)
    rename(font)
    font.recalcTimestamp = False  # same input, same bytes
    OUT_DIR.mkdir(exist_ok=True)
    font.save(OUT)

    out = TTFont(OUT)
    out_cmap = out.getBestCmap()
    hanzi = sum(1 for cp in out_cmap if 0x4E00 <= cp <= 0x9FFF)
    size = OUT.stat().st_size
    digest = hashlib.sha256(OUT.read_bytes()).hexdigest()
    print(
        f"{OUT.relative_to(ROOT)}: {size:,} bytes, {out['maxp'].numGlyphs:,} glyphs, "
        f"{len(out_cmap):,} code points ({hanzi:,} hanzi), sha256 {digest[:16]}"
    )
    readme = OUT_DIR / "README.md"
    old_emoji = readme.read_text(encoding="utf-8").partition(EMOJI_HEADING)[2] if readme.exists() else ""
    write_readme(
        version,
        size,
        out["maxp"].numGlyphs,
        len(out_cmap),
        hanzi,
        used & set(map(chr, out_cmap)),
        unavailable,
        args.source,
    )
    emoji = None if args.only == "cjk" else emoji_section(*make_emoji(args.emoji_source))
    if emoji is None and old_emoji:
        emoji = EMOJI_HEADING + old_emoji
    if emoji:
        with readme.open("a", encoding="utf-8") as f:
            f.write("\n" + emoji)


EMOJI_HEADING = "## Emoji subset"


def emoji_section(version, chars):
    size = EMOJI_OUT.stat().st_size
    version = version.split(";")[0].removeprefix("Version ")
    listing = ", ".join(f"{ch} (U+{ord(ch):04X})" for ch in chars)
    return f"""{EMOJI_HEADING}

`NotoColorEmoji-Subset.ttf` (family "{EMOJI_FAMILY}") is a subset of **Noto Color Emoji**, version {version},
by Google, taken from `NotoColorEmoji.ttf` (Debian package `fonts-noto-color-emoji`). Licence: SIL Open Font
License 1.1, see `OFL-NotoColorEmoji.txt`; a Modified Version under the OFL, renamed like the Chinese subset.
It keeps the colour bitmaps (CBDT/CBLC) of the emoji the course prints that neither the Chinese subset nor
DejaVu Sans has: {listing}. No layout features (no ZWJ sequences). Size: {size:,} bytes.
Only browsers use it (matplotlib figures hold no emoji), as the last family of the course's font stacks,
after the system's emoji fonts (Apple Color Emoji, Segoe UI Emoji, Noto Color Emoji).

    apt-get install fonts-noto-color-emoji
    .venv/bin/python tools/make_font_subset.py --only emoji
"""


def write_readme(version, size, glyphs, codepoints, hanzi, used, unavailable, source):
    gb2312 = set(gb2312_chars(0xB0, 0xF7))
    beyond = sorted(ch for ch in used if "\u4e00" <= ch <= "\u9fff" and ch not in gb2312)
    version = version.split(";")[0].removeprefix("Version ")
    dejavu = TTFont(Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf").getBestCmap()

    def listing(chars):
        return ", ".join(f"{ch} (U+{ord(ch):04X})" for ch in chars) or "none"

    fallback = listing([ch for ch in unavailable if ord(ch) in dejavu])
    neither = listing([ch for ch in unavailable if ord(ch) not in dejavu])
    (OUT_DIR / "README.md").write_text(
        f"""# Bundled Chinese font

`NotoSansSC-Subset.otf` (family "{FAMILY}") is a subset of **{SOURCE_FAMILY} Regular**,
version {version}, by Adobe and Google, taken from `{Path(source).name}` (on Debian: package
`fonts-noto-cjk`; the SC face of the collection). Licence: SIL Open Font License 1.1, see `OFL.txt`.
It is a Modified Version under the OFL, renamed so it never shadows an installed Noto Sans CJK SC.

Coverage: GB2312 symbol rows 1–9 and hanzi levels 1 and 2, ASCII and Latin-1, Greek, CJK symbols and
punctuation (U+3000–303F), fullwidth forms, the math signs the course uses (− × · → √ ∞ ≈ ≤ ≥) and every
character found in `notebooks/` and `attn_core/*.py` that the source font has
(hanzi beyond GB2312 added that way: {"".join(beyond) or "none"}).
Used in the sources but not in Noto Sans CJK SC, so matplotlib draws them from DejaVu Sans (the second family in
`font.family`): {fallback}.
In neither font (emoji: never in a figure; browsers draw them from the emoji subset below): {neither}.
No layout features, no hinting, no vertical metrics.

Size: {size:,} bytes; {glyphs:,} glyphs; {codepoints:,} code points, of which {hanzi:,} hanzi.

Regenerate (after adding text with characters outside GB2312, or to update the source):

    apt-get install fonts-noto-cjk
    .venv/bin/python tools/make_font_subset.py
""",
        encoding="utf-8",
    )


if __name__ == "__main__":
    main()
