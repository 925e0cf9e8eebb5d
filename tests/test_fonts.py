"""The Chinese font: the bundled subset covers the course's text, and figures never draw boxes.

The notebooks are scanned when the tests run, so a new lesson with a character outside the subset
fails here (fix: run tools/make_font_subset.py, which adds every character the sources use).
"""

import ast
import json
import os
import re
import subprocess
import sys
import unicodedata
from pathlib import Path

import matplotlib as mpl
import pytest
from fontTools.ttLib import TTFont

from attn_viz import fonts

ROOT = Path(__file__).resolve().parent.parent


def is_chinese(ch):
    """Hanzi, CJK punctuation, fullwidth forms and the punctuation Chinese text mixes in."""
    cp = ord(ch)
    return (
        0x3400 <= cp <= 0x4DBF
        or 0x4E00 <= cp <= 0x9FFF
        or 0xF900 <= cp <= 0xFAFF
        or 0x20000 <= cp <= 0x3FFFF
        or 0x3000 <= cp <= 0x303F
        or 0xFF00 <= cp <= 0xFFEF
        or ch in "“”‘’—…·"
    )


def notebook_cells():
    for nb in sorted((ROOT / "notebooks").rglob("*.ipynb")):
        if ".ipynb_checkpoints" in nb.parts:
            continue
        for cell in json.loads(nb.read_text(encoding="utf-8")).get("cells", []):
            src = cell.get("source", "")
            yield nb, cell.get("cell_type"), "".join(src) if isinstance(src, list) else src


def module_sources():
    for py in sorted((ROOT / "attn_core").rglob("*.py")):
        yield py, py.read_text(encoding="utf-8")


def chinese_strings(code):
    """String literals (f-string parts included) of ``code`` that contain Chinese."""
    code = "\n".join("" if line.lstrip().startswith(("%", "!")) else line for line in code.splitlines())
    try:
        tree = ast.parse(code)
    except SyntaxError:  # not plain Python: take the lines that hold Chinese
        return [line for line in code.splitlines() if any(map(is_chinese, line))]
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and any(map(is_chinese, node.value))
    ]


def course_strings():
    """What the render tests draw: every Chinese string literal of the notebooks and of plots.py in full,
    and every distinct character of all Chinese literals in attn_core/ in lines of 50 (glyph lookup is
    per character, so this covers the rest at a fraction of the drawing time)."""
    strings = {"我喜欢学习语言", "那只动物没过街，因为它太累了"}
    for _, kind, src in notebook_cells():
        if kind == "code":
            strings.update(chinese_strings(src))
    chars = set()
    for path, src in module_sources():
        literals = chinese_strings(src)
        chars.update(ch for text in literals for ch in text if not ch.isspace())
        if path.name == "plots.py":
            strings.update(literals)
    chars = sorted(chars)
    return sorted(strings) + ["".join(chars[i : i + 50]) for i in range(0, len(chars), 50)]


def course_chars():
    texts = [src for _, _, src in notebook_cells()] + [src for _, src in module_sources()]
    return {ch for text in texts for ch in text if is_chinese(ch)}


@pytest.fixture(scope="module")
def cmap():
    return TTFont(fonts.BUNDLED_PATH).getBestCmap()


def gb2312(first_row, last_row):
    out = []
    for hi in range(first_row, last_row + 1):
        for lo in range(0xA1, 0xFF):
            try:
                out.append(bytes([hi, lo]).decode("gb2312"))
            except UnicodeDecodeError:
                pass
    return out


def test_subset_covers_gb2312_punctuation_and_symbols(cmap):
    hanzi = gb2312(0xB0, 0xF7)
    assert len(hanzi) == 6763
    missing = [ch for ch in hanzi + gb2312(0xA1, 0xA3) if ord(ch) not in cmap]
    missing += [ch for ch in map(chr, range(0x20, 0x7F)) if ord(ch) not in cmap]
    missing += [ch for ch in "，。、；：？！（）《》「」【】“”‘’—…·×→−√αβγσΣ" if ord(ch) not in cmap]
    assert not missing, f"the bundled font lacks {''.join(missing)!r}"


def test_subset_covers_every_chinese_character_of_the_course(cmap):
    missing = sorted(ch for ch in course_chars() if ord(ch) not in cmap)
    assert not missing, (
        f"characters used in notebooks/ or attn_core/ but not in the bundled font: {''.join(missing)}"
        " -- run .venv/bin/python tools/make_font_subset.py"
    )


def test_bundled_font_is_a_small_licensed_subset():
    size = fonts.BUNDLED_PATH.stat().st_size
    assert 1_000_000 < size < 2_000_000, f"{size:,} bytes: expected a GB2312 subset of about 1.5 MB"
    assert "SIL OPEN FONT LICENSE Version 1.1" in (fonts.BUNDLED_PATH.parent / "OFL.txt").read_text(encoding="utf-8")
    assert TTFont(fonts.BUNDLED_PATH)["name"].getDebugName(1) == fonts.BUNDLED_FAMILY


# A fresh process, optionally with every system font hidden from matplotlib (as on a machine
# that has none): only matplotlib's own DejaVu fonts remain, and nothing may draw hanzi but ours.
RENDER = r"""
import json, re, sys, warnings
import matplotlib
matplotlib.use("Agg")
from matplotlib import font_manager as fm, ft2font
import matplotlib.pyplot as plt

args = json.load(sys.stdin)
if args["hide_system_fonts"]:
    fm.fontManager.ttflist = [f for f in fm.fontManager.ttflist if f.fname.startswith(matplotlib.get_data_path())]
    if hasattr(fm.fontManager, "_findfont_cached"):  # forget lookups made before the fonts were hidden
        fm.fontManager._findfont_cached.cache_clear()
out = {"cjk_fonts_visible": sorted({f.name for f in fm.fontManager.ttflist if "CJK" in f.name or "Hei" in f.name})}

def draw(fig):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fig.canvas.draw()
    plt.close(fig)
    return [str(w.message) for w in caught if "Glyph" in str(w.message)]

fig = plt.figure()
fig.text(0.1, 0.5, "我喜欢学习语言", family="DejaVu Sans")
out["control"] = draw(fig)  # without a CJK font: boxes, and warnings saying so

from attn_viz import fonts
if args["no_system_files"]:
    fonts.SYSTEM_FONT_FILES = ()
from attn_viz import plots  # noqa: F401  (registers the font)
out["family"] = fonts.family()
out["rc_family"] = list(matplotlib.rcParams["font.family"])
out["resolved"] = fm.findfont(fm.FontProperties(family=out["rc_family"][0]), fallback_to_default=False)
resolved = ft2font.FT2Font(out["resolved"])
chars = sorted({ch for s in args["strings"] for ch in s if ord(ch) > 0x7F and not ch.isspace()})
out["chars_not_in_resolved"] = [ch for ch in chars if not resolved.get_char_index(ord(ch))]
lines = [""]  # a few long Text objects draw much faster than hundreds of short ones
for s in args["strings"]:
    s = re.sub(r"[\x00-\x1f]", " ", s).replace("$", r"\$")  # literal text, no mathtext
    lines[-1] += s + "   "
    if len(lines[-1]) > 200:
        lines.append("")
fig = plt.figure(figsize=(12, 0.2 * len(lines) + 1))
for k, line in enumerate(lines):
    fig.text(0.01, k / len(lines), line, fontsize=8)
ax = fig.add_axes((0.7, 0.1, 0.25, 0.3))
ax.plot([-3, 2], [-1.5, 4])
out["warnings"] = draw(fig)
out["tick_labels"] = [t.get_text() for t in ax.get_yticklabels()]
out["unicode_minus"] = matplotlib.rcParams["axes.unicode_minus"]
print(json.dumps(out))
"""


def render(strings, *, bundled, hide_system_fonts, no_system_files=False):
    env = {k: v for k, v in os.environ.items() if k != fonts.ENV_VAR}
    if bundled:
        env[fonts.ENV_VAR] = "1"
    args = {"strings": strings, "hide_system_fonts": hide_system_fonts, "no_system_files": no_system_files}
    proc = subprocess.run(
        [sys.executable, "-c", RENDER],
        input=json.dumps(args),
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def font_problems(messages):
    """Missing-glyph warnings, except for emoji-like symbols (category So, e.g. ✅) that no text font
    is expected to have: those only show up in printed messages, not in figures."""
    problems = []
    for message in messages:
        m = re.search(r"Glyph (\d+)", message)
        if not m or unicodedata.category(chr(int(m.group(1)))) != "So":
            problems.append(message)
    return problems


@pytest.mark.kernel
def test_without_system_cjk_font_the_bundled_font_draws_every_course_string():
    strings = course_strings()
    out = render(strings, bundled=True, hide_system_fonts=True)
    assert out["cjk_fonts_visible"] == []
    assert any("25105" in w for w in out["control"]), "the control figure should have drawn 我 as a box"
    assert out["family"] == fonts.BUNDLED_FAMILY
    assert out["rc_family"] == [fonts.BUNDLED_FAMILY, "DejaVu Sans"]
    assert Path(out["resolved"]) == fonts.BUNDLED_PATH
    assert not [ch for ch in out["chars_not_in_resolved"] if is_chinese(ch)]
    assert font_problems(out["warnings"]) == []
    assert out["unicode_minus"] is True
    assert any(label.startswith("\u2212") for label in out["tick_labels"]), out["tick_labels"]


@pytest.mark.kernel
def test_without_any_cjk_font_setup_falls_back_to_the_bundled_font():
    out = render(["我喜欢学习语言"], bundled=False, hide_system_fonts=True, no_system_files=True)
    assert out["family"] == fonts.BUNDLED_FAMILY
    assert Path(out["resolved"]) == fonts.BUNDLED_PATH
    assert out["warnings"] == []


@pytest.mark.kernel
def test_an_installed_cjk_font_is_preferred():
    if not any(os.path.isfile(p) for p in fonts.SYSTEM_FONT_FILES):
        pytest.skip("no known system CJK font file on this machine")
    out = render(course_strings(), bundled=False, hide_system_fonts=True)
    assert out["family"] in fonts.PREFERRED_FAMILIES
    assert Path(out["resolved"]) != fonts.BUNDLED_PATH
    assert font_problems(out["warnings"]) == []


def test_setup_is_idempotent_and_reapplies_the_family():
    from attn_viz import plots  # noqa: F401  (runs setup once)

    n_fonts = len(mpl.font_manager.fontManager.ttflist)
    with mpl.rc_context():
        mpl.rcdefaults()
        assert fonts.setup() == fonts.family()
        assert fonts.setup() == fonts.family()
        assert mpl.rcParams["font.family"] == [fonts.family(), "DejaVu Sans"]
        assert mpl.rcParams["font.sans-serif"][0] == fonts.family()
        assert mpl.rcParams["axes.unicode_minus"] is True
    assert len(mpl.font_manager.fontManager.ttflist) == n_fonts


@pytest.mark.parametrize("value, forced", [("1", True), ("true", True), ("0", False), ("", False)])
def test_environment_variable_forces_the_bundled_font(monkeypatch, value, forced):
    monkeypatch.setenv(fonts.ENV_VAR, value)
    assert fonts.bundled_forced() is forced


def test_css_family_lists_system_fonts_before_the_bundled_ones():
    names = [name.strip().strip('"') for name in fonts.CSS_FAMILY.split(",")]
    assert names[0] == "Noto Sans CJK SC"
    assert {"Microsoft YaHei", "PingFang SC", "Source Han Sans SC"} <= set(names)
    # an installed CJK font wins; sans-serif draws Latin; the bundled font only what the system lacks
    assert names.index("Microsoft YaHei") < names.index("sans-serif") < names.index(fonts.BUNDLED_FAMILY)
    assert names.index("Noto Color Emoji") < names.index(fonts.EMOJI_FAMILY) == len(names) - 1


def families_in(css):
    return re.findall(r'font-family:\s*"([^"]+)"', css)


def test_the_css_the_servers_load_names_the_shipped_font_files():
    css = fonts.CSS_PATH.read_text(encoding="utf-8")
    assert families_in(css) == [fonts.BUNDLED_FAMILY, fonts.EMOJI_FAMILY]
    for url in re.findall(r'url\("([^"]+)"\)', css):  # relative: served beside the CSS
        assert (fonts.CSS_PATH.parent / url).is_file(), url
    lab = fonts.PAGE_CSS_PATH.read_text(encoding="utf-8")
    assert '@import url("course-fonts.css")' in lab
    for var in ("--jp-ui-font-family", "--jp-content-font-family", "--jp-code-font-family-default"):
        stack = re.search(var + r":([^;]+);", lab).group(1)
        assert stack.index("Noto Sans CJK SC") < stack.index(fonts.BUNDLED_FAMILY) < stack.index(fonts.EMOJI_FAMILY)


def test_make_lab_and_make_demo_serve_the_fonts_where_the_css_says():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    lab_fonts = re.search(r"^LAB_FONTS := (.*)$", makefile, re.M).group(1)
    assert "--LabApp.custom_css=True" in lab_fonts
    assert "static_custom_path=attn_viz/fonts" in lab_fonts  # custom.css and the fonts, at /custom/
    assert fonts.LAB_CSS_URL == "/custom/" + fonts.PAGE_CSS_PATH.name
    for target in ("lab", "lab-en"):
        assert re.search(rf"^{target}: .*\n\t.*\$\(LAB_FONTS\)", makefile, re.M), target
    voila = re.search(r"^VOILA_FONTS := (.*)$", makefile, re.M).group(1)
    assert "--Voila.root_dir=." in voila and "attn_viz/fonts/" in voila
    assert fonts.VOILA_CSS_URL == "/voila/files/" + fonts.PAGE_CSS_PATH.relative_to(ROOT).as_posix()
    # make demo / demo-en run $(VOILA), the board's Voilà command, which carries the fonts' flags
    assert re.search(r"^VOILA := .*\$\(VOILA_FONTS\)", makefile, re.M)
    for target in ("demo", "demo-en"):
        assert re.search(rf"^{target}: .*\n\t\$\(VOILA\) ", makefile, re.M), target


def test_emoji_subset_has_the_check_marks_as_colour_bitmaps_and_its_licence():
    font = TTFont(fonts.EMOJI_PATH)
    assert {0x2705, 0x274C, 0x23F3} <= set(font.getBestCmap())
    assert {"CBDT", "CBLC"} <= set(font.keys())
    assert font["name"].getDebugName(1) == fonts.EMOJI_FAMILY
    assert fonts.EMOJI_PATH.stat().st_size < 50_000
    assert "SIL OPEN FONT LICENSE Version 1.1" in (fonts.FONT_DIR / "OFL-NotoColorEmoji.txt").read_text(
        encoding="utf-8"
    )


def test_inline_font_face_embeds_only_the_glyphs_asked_for():
    import base64
    import io

    css = fonts.inline_font_face("学习 ✅", family="X")
    assert families_in(css) == ["X", "X Emoji"]
    data = re.search(r"data:font/otf;base64,([A-Za-z0-9+/=]+)", css).group(1)
    cmap = TTFont(io.BytesIO(base64.b64decode(data))).getBestCmap()
    assert {ord("学"), ord("习")} <= set(cmap) and ord("语") not in cmap
    assert len(data) < 20_000
