"""The explorers in every host we ship for, with the network cut to the page's own origin.

Hosts: JupyterLab 4 and Jupyter Notebook 7 (a one-cell notebook that builds an explorer, run in a kernel),
Voilà (the demo board as `make demo` serves it), the course site (`make site`, opened from file://) and
the board without Python (`make board`, opened from file://). In each, Chromium may reach the page's own
origin only: every request to another host is aborted and recorded, and the test fails if there was one
(a CDN that a classroom or a Chinese network cannot reach would leave the page without its picture).

In each host: an explorer mounts (``.attn-explorer-live``), a keypress on its first slider moves it by one
step (not two: the page handles the slider's keys itself, controls.js) and draws a new picture
(``data-attn-frame`` counts the redraws), the Chinese is drawn as glyphs (and, on the static pages,
by the bundled font they ship, loaded from file://), and axe-core finds no serious or critical violation.
One explorer per host keeps the run short; the site is built once (about 15 s).
"""

import json
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from attn_viz.fonts import CSS_FAMILY

from .accessibility import axe_problems
from .jupyterlab import HANZI, JS_TOFU
from .lab import ROOT, SETTINGS, Voila, free_port, start, stop

pytestmark = pytest.mark.browser

EXPLORER = ".attn-explorer-live"
PICTURE = ".attn-picture[data-attn-frame]"
BUNDLED_FAMILY = "Noto Sans SC"  # the @font-face the site and the board declare for attn_viz/fonts
# one cell: the explorer a learner meets in lesson 06, in the Chinese edition
HOST_NOTEBOOK = {
    "cells": [
        {
            "cell_type": "code",
            "execution_count": None,
            "id": "hosts-explorer",
            "metadata": {},
            "outputs": [],
            "source": "from attn_core import set_lang\nfrom attn_viz.explorers import pipeline_explorer\n\n"
            'set_lang("zh")\npipeline_explorer()',
        }
    ],
    "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
    "nbformat": 4,
    "nbformat_minor": 5,
}


# ---------------------------------------------------------------- the network, cut to one origin
class OwnOriginOnly:
    """``page.route`` on every request: the page's own origin (or file://, data:, blob:) goes through,
    anything else is aborted and kept in ``.foreign``."""

    def __init__(self, page, origin: str | None):
        self.origin, self.foreign = origin, []
        page.route("**/*", self._handle)

    def _handle(self, route):
        url = route.request.url
        parts = urlsplit(url)
        own = parts.scheme in ("file", "data", "blob") if self.origin is None else parts.netloc == self.origin
        if own or parts.scheme in ("data", "blob"):
            route.continue_()
        else:
            self.foreign.append(url)
            route.abort()


def new_page(browser, origin, width=1440, height=900):
    page = browser.new_page(viewport={"width": width, "height": height})
    return page, OwnOriginOnly(page, origin)


# ---------------------------------------------------------------- what every host must do
SLIDER_STATE = "s => [Number(s.value), Number(s.min), Number(s.max), Number(s.step)]"
# where a key takes a slider at value v (min lo, max hi, step st); the page's PageUp/PageDown: a tenth
MOVES = {
    "ArrowRight": lambda v, lo, hi, st: v + st,
    "ArrowUp": lambda v, lo, hi, st: v + st,
    "ArrowLeft": lambda v, lo, hi, st: v - st,
    "ArrowDown": lambda v, lo, hi, st: v - st,
    "PageUp": lambda v, lo, hi, st: v + max(round((hi - lo) / 10 / st), 1) * st,
    "PageDown": lambda v, lo, hi, st: v - max(round((hi - lo) / 10 / st), 1) * st,
    "Home": lambda v, lo, hi, st: lo,
    "End": lambda v, lo, hi, st: hi,
}


def press_on_slider(page, slider, picture, key, label):
    """Press ``key`` on the focused ``slider``: it moves where the key takes it, once (a step, not two),
    keeps the focus, and the picture is redrawn (the frame counter grows, the SVG changes, no error)."""
    value, low, high, step = slider.evaluate(SLIDER_STATE)
    want = min(max(MOVES[key](value, low, high, step), low), high)
    before_frame = int(picture.get_attribute("data-attn-frame"))
    before_svg = picture.inner_html()
    page.keyboard.press(key)
    if want != value:
        page.wait_for_function(
            "([p, n]) => Number(p.dataset.attnFrame) > n", arg=[picture.element_handle(), before_frame], timeout=10_000
        )
        assert picture.inner_html() != before_svg, f"{label}: {key} did not change the picture"
    got = slider.evaluate("s => Number(s.value)")
    assert abs(got - want) < 1e-9, f"{label}: {key} took the slider from {value} to {got}, not {want} (step {step})"
    assert slider.evaluate("s => s === document.activeElement"), f"{label}: {key} took the focus off the slider"
    assert picture.get_attribute("data-attn-error") != "1", f"{label}: {picture.inner_text()[:300]}"


def keypress_redraws(page, explorer, label, key="ArrowRight"):
    """Focus the explorer's first slider, press ``key`` (ArrowRight, or ArrowLeft at the end; End, or Home
    at the end): the slider moves once and the picture is redrawn (press_on_slider)."""
    picture = explorer.locator(PICTURE)
    slider = explorer.locator('input[type="range"]').first
    slider.focus()
    at_max = slider.evaluate("s => Number(s.value) >= Number(s.max)")
    back = {"ArrowRight": "ArrowLeft", "End": "Home"}[key]
    press_on_slider(page, slider, picture, back if at_max else key, label)


def chinese_drawn(page, explorer, label, bundled_font: bool):
    text = explorer.locator(PICTURE).inner_text()
    assert any("\u4e00" <= ch <= "\u9fff" for ch in text), f"{label}: no Chinese in the picture: {text[:200]}"
    tofu = page.evaluate(JS_TOFU, [HANZI, CSS_FAMILY])
    assert not tofu, f"{label}: these characters render as boxes: {''.join(tofu)}"
    if bundled_font:  # the page's own copy of the font loads (from file:// too), whatever the system has
        status = page.evaluate(
            """async (family) => { await document.fonts.load(`24px "${family}"`, '我喜欢学习语言');
               return [...document.fonts].filter(f => f.family.replace(/"/g, '') === family).map(f => f.status); }""",
            BUNDLED_FAMILY,
        )
        assert "loaded" in status, f"{label}: the bundled font did not load: {status}"
        tofu = page.evaluate(JS_TOFU, [HANZI, f'"{BUNDLED_FAMILY}"'])
        assert not tofu, f"{label}: the bundled font lacks {''.join(tofu)}"


def host_works(page, net, scope, label, bundled_font=False, shots_dir=None, key="ArrowRight"):
    explorer = page.locator(f"{scope} {EXPLORER}:visible").first
    explorer.wait_for(timeout=120_000)
    keypress_redraws(page, explorer, label, key)
    chinese_drawn(page, explorer, label, bundled_font)
    problems = axe_problems(page, scope)
    if shots_dir:
        page.screenshot(path=str(shots_dir / f"host_{label.replace(' ', '_')}.png"))
    assert not problems, f"{label}: axe-core:\n" + "\n".join(problems)
    assert not net.foreign, f"{label}: requests to other hosts (aborted): {net.foreign[:10]}"


# ---------------------------------------------------------------- JupyterLab 4 and Notebook 7
class NotebookServer:
    """``jupyter lab`` or ``jupyter notebook`` on a free loopback port, serving a folder with the one-cell
    notebook; its own settings, workspaces and runtime folders (nothing restored, no news fetched)."""

    def __init__(self, app: str):
        self.app = app
        self.tmp = Path(tempfile.mkdtemp(prefix=f"attn-{app}-"))
        self.root = self.tmp / "root"
        self.root.mkdir()
        (self.root / "hosts.ipynb").write_text(json.dumps(HOST_NOTEBOOK), encoding="utf-8")
        self.port, self.token = free_port(), secrets.token_hex(16)
        self.origin = f"127.0.0.1:{self.port}"

    def __enter__(self):
        settings = self.tmp / "settings"
        for name, value in SETTINGS.items():
            path = settings / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(value))
        env = dict(
            os.environ,
            JUPYTERLAB_SETTINGS_DIR=str(settings),
            JUPYTERLAB_WORKSPACES_DIR=str(self.tmp / "workspaces"),
            JUPYTER_RUNTIME_DIR=str(self.tmp / "runtime"),
            JUPYTER_CONFIG_DIR=str(self.tmp / "config"),
            PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
        )
        cmd = [sys.executable, "-m", "jupyter", self.app, "--no-browser", "--ip=127.0.0.1", f"--port={self.port}"]
        cmd += [f"--IdentityProvider.token={self.token}", f"--ServerApp.root_dir={self.root}"]
        cmd += ["--ServerApp.port_retries=0"]
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            cmd.append("--allow-root")
        self.proc = start(cmd, env, self.tmp, f"http://{self.origin}/api/status?token={self.token}")
        return self

    def url(self):
        path = "lab/tree/hosts.ipynb?reset&" if self.app == "lab" else "notebooks/hosts.ipynb?"
        return f"http://{self.origin}/{path}token={self.token}"

    def __exit__(self, *exc):
        stop(self.proc)
        shutil.rmtree(self.tmp, ignore_errors=True)


def run_the_cell(page):
    """Run the notebook's one cell (Run menu → Run All), as a learner would: if the app asks which kernel
    to start, the one it proposes (Python 3)."""
    page.locator(".jp-Notebook .jp-Cell").first.wait_for(timeout=60_000)
    dialog = page.locator(".jp-Dialog .jp-Dialog-button.jp-mod-accept")
    try:
        dialog.wait_for(timeout=10_000)
        dialog.click()
    except PlaywrightTimeout:
        pass  # no question: the notebook's kernelspec was enough
    page.locator(".lm-MenuBar-itemLabel", has_text="Run").click()
    page.locator('li.lm-Menu-item[data-command="runmenu:run-all"]').click()


# Notebook 7's keyboard shortcuts (lumino, on the document in the capture phase) would take the arrow keys
# before a slider sees them; controls.js handles a slider's keys on the window first. The host check
# presses End in Notebook 7 and every key of a slider in the test after it.
@pytest.mark.parametrize("app, key", [("lab", "ArrowRight"), ("notebook", "End")])
def test_an_explorer_works_in_jupyterlab_and_notebook_7_offline(browser, shots_dir, app, key):
    label = {"lab": "JupyterLab 4", "notebook": "Notebook 7"}[app]
    with NotebookServer(app) as server:
        page, net = new_page(browser, server.origin)
        try:
            page.goto(server.url())
            run_the_cell(page)
            host_works(page, net, ".jp-OutputArea-output", label, shots_dir=shots_dir, key=key)
        finally:
            page.close()


# the notebook's mode (command or edit), its active cell and how many cells it has
JS_NOTEBOOK_STATE = """() => {
  const nb = document.querySelector('.jp-Notebook'), cells = [...nb.querySelectorAll('.jp-Cell')];
  return [nb.classList.contains('jp-mod-commandMode'), cells.findIndex(c => c.classList.contains('jp-mod-active')),
          cells.length]; }"""


def test_the_arrow_keys_move_a_slider_and_a_radio_group_in_notebook_7(browser):
    """Every key of a slider moves it once in Notebook 7 (its shortcuts do not take the arrows), the
    focus stays on it; the arrows move a radio group's choice one radio on (round from the last to the
    first) with the focus; and the notebook does not move to another cell or leave its mode."""
    with NotebookServer("notebook") as server:
        page, net = new_page(browser, server.origin)
        try:
            page.goto(server.url())
            run_the_cell(page)
            explorer = page.locator(f".jp-OutputArea-output {EXPLORER}:visible").first
            explorer.wait_for(timeout=120_000)
            picture = explorer.locator(PICTURE)
            slider = explorer.locator('input[type="range"]').first
            slider.focus()
            before = page.evaluate(JS_NOTEBOOK_STATE)
            keys = ["Home", "ArrowRight", "ArrowUp", "ArrowLeft", "ArrowDown", "End", "PageDown", "PageUp"]
            for key in [*keys, "ArrowRight", "ArrowLeft", "Home", "ArrowLeft", "PageUp"]:
                press_on_slider(page, slider, picture, key, f"Notebook 7 {key}")
            radios = explorer.locator('input[type="radio"]')
            count = radios.count()
            assert count >= 2, "the pipeline explorer's query choice is a radio group"
            checked = [radios.nth(i).is_checked() for i in range(count)].index(True)
            radios.nth(checked).focus()
            for key, step in [("ArrowRight", 1), ("ArrowDown", 1), ("ArrowLeft", -1), ("ArrowUp", -1)]:
                frame = int(picture.get_attribute("data-attn-frame"))
                page.keyboard.press(key)
                checked = (checked + step) % count
                page.wait_for_function(
                    "([p, n]) => Number(p.dataset.attnFrame) > n", arg=[picture.element_handle(), frame], timeout=10_000
                )
                now = [radios.nth(i).is_checked() for i in range(count)]
                assert now.index(True) == checked and now.count(True) == 1, f"Notebook 7 radio {key}: {now}"
                assert radios.nth(checked).evaluate("r => r === document.activeElement"), f"radio {key}: focus"
            assert page.evaluate(JS_NOTEBOOK_STATE) == before, "a key pressed on a control acted on the notebook"
            assert not net.foreign, net.foreign
        finally:
            page.close()


# ---------------------------------------------------------------- Voilà (`make demo`)
def test_the_board_works_in_voila_offline(browser, shots_dir):
    with Voila("demo.ipynb") as server:
        page, net = new_page(browser, urlsplit(server.url).netloc, 1920, 1080)
        try:
            page.goto(server.url, timeout=120_000)  # Voilà sends the page as the notebook runs
            page.locator(".attn-board").wait_for(timeout=120_000)
            text = page.locator("body").inner_text()
            assert "make demo" not in text and "voila" not in text.lower(), "the notebook's how-to shows"
            host_works(page, net, ".attn-board", "Voila board", shots_dir=shots_dir)
        finally:
            page.close()


# ---------------------------------------------------------------- the static site and the board (file://)
def _build(tmp_path_factory, tool, *args):
    out = tmp_path_factory.mktemp(tool) / "out"
    if tool == "build_site":
        try:
            import myst_nb  # noqa: F401
        except ImportError:
            msg = "the course site needs requirements-site.txt (`make site` installs it)"
            if os.environ.get("CI") == "true":
                pytest.fail(msg, pytrace=False)
            pytest.skip(msg)
        args = (*args, "--work", str(out.parent / "work"))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    subprocess.run([sys.executable, str(ROOT / "tools" / f"{tool}.py"), "--out", str(out), *args], check=True, env=env)
    return out


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    return _build(tmp_path_factory, "build_site")


@pytest.fixture(scope="module")
def board_dir(tmp_path_factory):
    return _build(tmp_path_factory, "build_board")


def live_lesson(site) -> str:
    """The first lesson page of the site with a live explorer (its notebook saved with the page state)."""
    pages = sorted(
        p.name for p in (site / "zh").glob("[0-9][0-9]_*.html") if "data-attn-bundle" in p.read_text("utf-8")
    )
    assert pages, "no lesson page of the site has a live explorer: re-execute the lessons (tools/run_notebooks.py)"
    return pages[0]


def test_the_course_site_works_from_file_offline(browser, site, shots_dir):
    name = live_lesson(site)
    page, net = new_page(browser, None)
    try:
        page.goto((site / "zh" / name).as_uri())
        host_works(page, net, "article", "static site", bundled_font=True, shots_dir=shots_dir)
        twin = page.locator(".attn-edition a")
        assert twin.inner_text() == "English edition"
        twin.click()
        page.wait_for_url(f"**/en/{name}")
        assert page.evaluate("document.documentElement.lang") == "en"
        assert page.locator(".attn-edition a").inner_text() == "中文版"
        page.locator(f"article {EXPLORER}").first.wait_for()
        assert not net.foreign, net.foreign
    finally:
        page.close()


def test_the_board_works_from_file_offline_in_both_languages(browser, board_dir, shots_dir):
    page, net = new_page(browser, None, 1920, 1080)
    try:
        page.goto((board_dir / "index.html").as_uri())
        host_works(page, net, ".attn-board", "file board", bundled_font=True, shots_dir=shots_dir)
        page.locator('.attn-board [data-attn-lang="en"]').click()
        explorer = page.locator(f".attn-board {EXPLORER}:visible").first
        explorer.wait_for()
        assert page.evaluate("document.documentElement.lang") == "en"
        keypress_redraws(page, explorer, "file board (English)")
        assert not axe_problems(page, ".attn-board")
        assert not net.foreign, net.foreign
    finally:
        page.close()


def test_a_static_page_without_the_bundle_still_shows_the_saved_picture(site):
    """Where no JavaScript runs (GitHub's viewer, nbviewer, a reader with scripts off) the page keeps the
    saved SVG: the live explorer only replaces it."""
    page = (site / "zh" / live_lesson(site)).read_text(encoding="utf-8")
    start = page.index("data-attn-explorer")
    assert "<svg" in page[start : page.index("</div>", start) + 200_000].split("data-attn-bundle")[0]
    assert page.count("data-attn-bundle") == 1  # one inline script, after the pictures


# what of the shown tab of the file board is not on the screen: its tab row wraps or scrolls sideways (or a label
# sits higher than the others), a box of its panel scrolls inside itself (the readouts once did: their last
# lines cut off), a readout line or the page runs below the screen
JS_BOARD_OFF_SCREEN = """() => {
  const edition = [...document.querySelectorAll('.attn-board-edition')].find((e) => !e.hidden);
  const bar = edition.querySelector('.attn-board-tabs');
  const tabs = [...bar.querySelectorAll('[role=tab]')];
  const panel = [...edition.querySelectorAll('.attn-board-panel')].find((e) => !e.hidden);
  const off = [];
  const rows = new Set(tabs.map((t) => Math.round(t.getBoundingClientRect().top))).size;
  if (rows !== 1) off.push(`the tabs take ${rows} rows`);
  if (bar.scrollWidth > bar.clientWidth) off.push(`the tab row scrolls: ${bar.scrollWidth} > ${bar.clientWidth} px`);
  const labels = tabs.map((t) => {  // where each label's text starts: d<sub>k</sub> once raised lesson 3's
    const range = document.createRange();
    range.selectNodeContents(t.firstChild);
    return range.getBoundingClientRect().top;
  });
  if (Math.max(...labels) - Math.min(...labels) > 0.5) off.push(`the tab labels sit at ${labels.join(', ')} px`);
  for (const box of [panel, ...panel.querySelectorAll('*')]) {
    if (box.scrollHeight > box.clientHeight + 1 && getComputedStyle(box).overflowY !== 'visible')
      off.push(`${box.className || box.tagName} scrolls: ${box.scrollHeight} > ${box.clientHeight} px`);
  }
  const lines = panel.querySelector('.attn-lines');
  if (lines.scrollHeight > lines.clientHeight + 1) off.push(`the readouts overflow their box`);
  for (const line of lines.children) {
    const bottom = line.getBoundingClientRect().bottom;
    if (bottom > innerHeight) off.push(`"${line.textContent.slice(0, 40)}" ends at ${Math.round(bottom)} px`);
  }
  if (document.documentElement.scrollHeight > innerHeight) off.push('the page scrolls');
  return off;
}"""


@pytest.mark.parametrize("width, height", [(1280, 720), (1920, 1080)])
def test_the_file_board_shows_every_readout_and_one_row_of_tabs(browser, board_dir, width, height):
    """`make board` at a projector's 1920×1080 and a small 1280×720, in both languages, on every tab, with its
    sliders where they start, at their ends and at their starts: the tabs are one row and every readout line
    is on the screen, none in a box that scrolls (the README: nothing runs off the bottom)."""
    page, net = new_page(browser, None, width, height)
    try:
        page.goto((board_dir / "index.html").as_uri())
        page.locator(f".attn-board {EXPLORER}").first.wait_for()
        page.evaluate("document.fonts.ready")
        problems = []
        for lang in ("zh", "en"):
            page.locator(f'.attn-board [data-attn-lang="{lang}"]').click()
            tabs = page.locator(".attn-board-tabs:visible [role=tab]")
            for t in range(tabs.count()):
                tabs.nth(t).click()
                sliders = page.locator(f".attn-board-panel:visible {EXPLORER} input[type=range]")
                for state in ("as it opens", "End", "Home"):
                    if state != "as it opens":
                        for i in range(sliders.count()):
                            sliders.nth(i).focus()
                            page.keyboard.press(state)
                    label = f"{width}×{height} {lang} tab {t + 1} ({tabs.nth(t).inner_text()}), sliders {state}"
                    problems += [f"{label}: {p}" for p in page.evaluate(JS_BOARD_OFF_SCREEN)]
        assert not problems, "\n".join(problems)
        assert not net.foreign, net.foreign
    finally:
        page.close()
