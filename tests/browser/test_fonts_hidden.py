"""No boxes on a machine without CJK or emoji fonts: Chromium is started with a fontconfig that knows only
matplotlib's DejaVu fonts (FONTCONFIG_FILE), so every hanzi and ✅ ❌ ⏳ the pages show must come from the
fonts the course serves (attn_viz/fonts/course-fonts.css, loaded as `make lab` and `make demo` load it).

The detector (attn_viz.fonts.GLYPH_TEST_JS, the one lesson 00 uses) draws each character with the computed
font of the element that holds it on a canvas and compares the pixels with the missing-glyph box. Negative
controls first: with the same fonts hidden, a page without the course's @font-face, and JupyterLab started
without the course's CSS, must draw boxes, or a pass would prove nothing.
"""

import os
import re
import tempfile
from pathlib import Path

import matplotlib
import pytest

from attn_viz import fonts

from .jupyterlab import PANEL, Notebook
from .lab import CHROMIUM, CHROMIUM_ARGS, ROOT, Lab, Voila, makefile_flags

pytestmark = pytest.mark.browser

NB_DIR = ROOT / "notebooks"
LESSONS = [
    p.relative_to(NB_DIR).as_posix() for d in (NB_DIR, NB_DIR / "en") for p in sorted(d.glob("[0-9][0-9]_*.ipynb"))
]
PROBE = "我喜欢学习语言✅❌⏳"

FONTS_CONF = """<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <dir>{dejavu}</dir>
  <cachedir>{cache}</cachedir>
</fontconfig>
"""

# For every element under ``root`` (a selector) with text of its own (text nodes, not its children's), the
# characters its computed font draws as boxes; ``probe`` characters are tested in each font as well.
JS_BOXES = (
    fonts.GLYPH_TEST_JS
    + """
window.attnBoxesIn = async (selector, probe) => {
  const groups = new Map();
  for (const root of document.querySelectorAll(selector)) {
    for (const el of [root, ...root.querySelectorAll('*')]) {
      const own = [...el.childNodes].filter(n => n.nodeType === 3).map(n => n.textContent).join('');
      if (!own.trim() || el.closest('style, script')) continue;
      const st = getComputedStyle(el);
      // the shorthand is '' where it cannot be serialised (e.g. a font-variant or line-height set apart):
      // the canvas must then get the parts, not its default 10px sans-serif
      const font = st.font || `${st.fontStyle} ${st.fontWeight} ${st.fontSize} ${st.fontFamily}`;
      groups.set(font, (groups.get(font) || '') + own);
    }
  }
  const out = [];
  for (const [font, text] of groups) {
    const missing = await window.attnMissingGlyphs(text + probe, font);
    if (missing.length) out.push([font, missing.join(''), text.trim().slice(0, 60)]);
  }
  return {fonts: groups.size, boxes: out};
};
"""
)


def boxes(page, selector, probe=""):
    """[(font, characters drawn as boxes, sample text)] for the elements under ``selector``."""
    page.evaluate(f"() => {{ {JS_BOXES} }}")
    result = page.evaluate("([s, p]) => window.attnBoxesIn(s, p)", [selector, probe])
    assert result["fonts"], f"nothing with text under {selector!r}"
    return result["boxes"]


@pytest.fixture(scope="module")
def bare_browser(playwright_session):
    """Chromium that sees no CJK and no emoji font: only matplotlib's DejaVu fonts."""
    tmp = Path(tempfile.mkdtemp(prefix="attn-fonts-"))
    dejavu = Path(matplotlib.get_data_path()) / "fonts" / "ttf"
    (tmp / "fonts.conf").write_text(FONTS_CONF.format(dejavu=dejavu, cache=tmp / "cache"))
    env = dict(os.environ, FONTCONFIG_FILE=str(tmp / "fonts.conf"))
    b = playwright_session.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True, env=env)
    yield b
    b.close()


def open_saved(page, lab, name, workspace):
    """Open ``name`` on a server without kernels (saved outputs only); returns when it is rendered."""
    page.goto(lab.url(name, workspace))
    page.locator(".jp-Dialog").wait_for(timeout=60_000)  # which kernel? none
    page.keyboard.press("Escape")
    page.locator(f"{PANEL} .jp-MarkdownCell .jp-RenderedMarkdown").first.wait_for(timeout=60_000)
    page.evaluate("() => document.fonts.ready")


def test_negative_controls_without_the_course_fonts_draw_boxes(bare_browser):
    page = bare_browser.new_page()
    page.set_content(f'<meta charset="utf-8"><p style="font-family: sans-serif">{PROBE}</p>')
    found = boxes(page, "p")
    assert found and set(found[0][1]) == set(PROBE), f"the fonts are not hidden: {found}"
    page.close()
    with Lab("zh", kernels=False) as lab:  # JupyterLab as before the course served its fonts
        page = bare_browser.new_page(viewport={"width": 1400, "height": 1000})
        open_saved(page, lab, LESSONS[1], "bare")
        assert boxes(page, ".lm-MenuBar-content"), "JupyterLab's Chinese menus should be boxes here"
        assert boxes(page, f"{PANEL} .jp-MarkdownCell .jp-RenderedMarkdown"), "the lesson's text should be boxes"
        page.close()


JS_OPEN = """async path => {
  await window.jupyterapp.commands.execute('application:close-all');
  await window.jupyterapp.commands.execute('docmanager:open',
                                           {path, kernelPreference: {shouldStart: false, canStart: false}});
}"""


def test_jupyterlab_menus_and_every_lessons_first_markdown_cell_are_glyphs(bare_browser):
    problems = []
    args = [*makefile_flags("LAB_FONTS"), "--LabApp.expose_app_in_browser=True"]  # to open notebooks fast
    with Lab("zh", kernels=False, extra_args=args) as lab:
        page = bare_browser.new_page(viewport={"width": 1400, "height": 1000})
        open_saved(page, lab, LESSONS[0], "fonts")
        assert "文件" in page.locator(".lm-MenuBar-content").inner_text()
        problems += [f"menu bar: {b}" for b in boxes(page, ".lm-MenuBar-content", PROBE)]
        page.locator(".lm-MenuBar-itemLabel", has_text="文件").click()
        problems += [f"menu 文件: {b}" for b in boxes(page, ".lm-Menu-content")]
        page.keyboard.press("Escape")
        for name in LESSONS:
            page.evaluate(JS_OPEN, name)
            page.locator(".lm-TabBar-tab.lm-mod-current .lm-TabBar-tabLabel", has_text=name.split("/")[-1]).wait_for()
            first = page.locator(f"{PANEL} .jp-MarkdownCell .jp-RenderedMarkdown").first
            first.wait_for(timeout=60_000)
            first.evaluate("el => el.setAttribute('data-attn-first', '')")
            problems += [f"{name}, first markdown cell: {b}" for b in boxes(page, "[data-attn-first]")]
        page.close()
    assert not problems, "\n".join(map(str, problems))


@pytest.mark.parametrize("edition", ["", "en/"])
def test_check_lines_lesson00_verdict_and_an_explorers_labels_are_glyphs(bare_browser, edition):
    problems = []
    # JupyterLab's own language here: the helpers that run all cells click its English menus
    with Lab(extra_args=makefile_flags("LAB_FONTS")) as lab:
        page = bare_browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(lab.url(f"{edition}00_setup_check.ipynb", "check"))
        nb = Notebook(page, "00")
        nb.idle()
        nb.restart_and_run_all()
        verdict = page.locator(f"{PANEL} .attn-font-verdict")
        page.wait_for_function("el => !el.innerText.startsWith('⏳')", arg=verdict.element_handle(), timeout=30_000)
        assert verdict.inner_text().startswith("✅"), verdict.inner_text()
        # the check cells' ✅ lines, and ❌ ⏳ in the same font
        problems += [f"00 outputs: {b}" for b in boxes(page, f"{PANEL} .jp-OutputArea-output pre", "✅❌⏳")]
        page.close()
        page = bare_browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(lab.url(f"{edition}03_scaling.ipynb", "explorer"))
        nb = Notebook(page, "03")
        nb.idle()
        nb.restart_and_run_all()
        explorer = nb.explorers()[0]
        assert explorer.locator("svg text").count()
        # the in-page explorer: its picture (SVG text), its readout lines and its controls' labels
        problems += [f"03 explorer: {b}" for b in boxes(page, f"{PANEL} .jp-OutputArea-output .attn-picture")]
        problems += [f"03 explorer controls: {b}" for b in boxes(page, f"{PANEL} .jp-OutputArea-output .attn-controls")]
        page.close()
    assert not problems, "\n".join(map(str, problems))


def test_lesson00_says_so_when_the_browser_draws_boxes_and_its_verdict_is_readable(bare_browser):
    """Without the course's CSS (JupyterLab started by hand) the browser check says ❌ and names the fix; its
    own line is drawn with the glyphs embedded in the output, never boxes."""
    with Lab() as lab:
        page = bare_browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(lab.url("00_setup_check.ipynb", "bare-check"))
        nb = Notebook(page, "00")
        nb.idle()
        nb.restart_and_run_all()
        verdict = page.locator(f"{PANEL} .attn-font-verdict")
        page.wait_for_function("el => !el.innerText.startsWith('⏳')", arg=verdict.element_handle(), timeout=30_000)
        assert verdict.inner_text().startswith("❌"), verdict.inner_text()
        assert "fonts-noto-cjk" in page.locator(f"{PANEL} .attn-font-fix").inner_text()
        assert not boxes(page, f"{PANEL} .attn-font-check")
        page.close()


def test_demo_board_is_glyphs_on_a_projector_without_cjk_fonts(bare_browser):
    with Voila("demo.ipynb", extra_args=makefile_flags("VOILA_FONTS")) as server:
        page = bare_browser.new_page(viewport={"width": 1920, "height": 1080})
        page.goto(server.url)
        page.locator(".attn-board .attn-explorer-live:visible .attn-picture svg").first.wait_for(timeout=120_000)
        page.evaluate("() => document.fonts.ready")
        found = boxes(page, ".attn-board")
        page.close()
    assert not found, f"boxes on the board: {found} -- its HTML must hold attn_viz.fonts.VOILA_STYLESHEET"


def test_the_lab_css_and_fonts_are_served_where_the_css_points():
    import urllib.request

    with Lab("zh", kernels=False, extra_args=makefile_flags("LAB_FONTS")) as lab:
        base = f"http://127.0.0.1:{lab.port}"
        for path in (fonts.LAB_CSS_URL, "/custom/" + fonts.CSS_PATH.name):
            css = urllib.request.urlopen(base + path, timeout=10).read().decode("utf-8")
            for url in re.findall(r'url\("([^"]+)"\)', css):
                if url.endswith((".otf", ".ttf")):
                    body = urllib.request.urlopen(f"{base}/custom/{url}", timeout=10).read()
                    assert body == (fonts.FONT_DIR / url).read_bytes(), url


JS_REFERENCES = """el => {
  // two copies of el's text in el's computed font, laid out now: one in that font (its glyphs, the fonts
  // loaded), one in DejaVu Sans alone (no hanzi: boxes). Fixed far from the menus, over a white backdrop.
  const s = getComputedStyle(el);
  return ['attn-ref-glyphs', 'attn-ref-boxes'].map((id, k) => {
    const d = document.createElement('div');
    d.id = id;
    d.textContent = el.textContent;
    Object.assign(d.style, {position: 'fixed', left: (700 + 200 * k) + 'px', top: '500px', zIndex: 99999,
      fontFamily: k ? '"DejaVu Sans"' : s.fontFamily, fontSize: s.fontSize, fontWeight: s.fontWeight,
      color: s.color, background: s.backgroundColor === 'rgba(0, 0, 0, 0)' ? 'white' : s.backgroundColor,
      lineHeight: s.lineHeight, letterSpacing: s.letterSpacing, padding: 0, margin: 0, whiteSpace: 'pre'});
    document.body.appendChild(d);
    return id;
  });
}"""


def _ink(png):
    """The dark pixels of a screenshot, as a boolean array trimmed to their bounding box."""
    import io

    import numpy as np
    from PIL import Image

    grey = np.asarray(Image.open(io.BytesIO(png)).convert("L"), dtype=float)
    ink = grey < grey.max() - 60
    rows, cols = np.flatnonzero(ink.any(axis=1)), np.flatnonzero(ink.any(axis=0))
    return ink[rows[0] : rows[-1] + 1, cols[0] : cols[-1] + 1] if rows.size else ink[:0, :0]


def _distance(a, b):
    """How unlike two trimmed ink masks are: the share of differing pixels over their common box."""
    import numpy as np

    h, w = max(a.shape[0], b.shape[0]), max(a.shape[1], b.shape[1])
    pa, pb = np.zeros((h, w), bool), np.zeros((h, w), bool)
    pa[: a.shape[0], : a.shape[1]], pb[: b.shape[0], : b.shape[1]] = a, b
    return float((pa ^ pb).mean())


def painted_as_boxes(page, locator):
    """Whether ``locator``'s text is PAINTED as boxes: its screenshot is compared with the same text laid out
    afresh in the same (loaded) font and in a font without hanzi. The canvas test above asks which font the
    element names; this sees what the page really drew (Chromium keeps text laid out before a web font
    loaded as boxes until something re-lays it out)."""
    shot = _ink(locator.screenshot())
    ids = locator.evaluate(JS_REFERENCES)
    glyphs, no_glyphs = (_ink(page.locator(f"#{i}").screenshot()) for i in ids)
    page.evaluate("ids => ids.forEach(i => document.getElementById(i).remove())", ids)
    return _distance(shot, no_glyphs) < _distance(shot, glyphs)


def test_jupyterlab_menu_bar_and_file_browser_header_are_painted_as_glyphs(bare_browser):
    """Painted pixels, not the computed font: JupyterLab lays out its menu bar (文件) and the file browser's
    header (名称, 已修改) before the course's font has arrived; course-fonts.css must make the page draw them
    again once it has (font-display: block), or they stay boxes on a machine without CJK fonts."""
    with Lab("zh", kernels=False, extra_args=makefile_flags("LAB_FONTS")) as lab:
        page = bare_browser.new_page(viewport={"width": 1280, "height": 720})
        open_saved(page, lab, LESSONS[0], "painted")
        page.wait_for_timeout(2000)
        problems = []
        targets = {
            "menu bar 文件": page.locator(".lm-MenuBar-itemLabel", has_text="文件").first,
            "file browser header 名称": page.locator(".jp-DirListing-headerItem", has_text="名称").first,
            "file browser header 已修改": page.locator(".jp-DirListing-headerItem", has_text="已修改").first,
        }
        for what, locator in targets.items():
            if painted_as_boxes(
                page, locator.locator("span, div").first if locator.locator("span").count() else locator
            ):
                problems.append(what)
        page.close()
    assert not problems, f"painted as boxes although the course's font has loaded: {problems}"
