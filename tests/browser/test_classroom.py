"""The classroom: the demo board served by Voilà as `make demo` serves it, opened in Chromium at the
projector's 1920×1080, and JupyterLab opened as `make lab` / `make lab-en` open it.

On the board, tab by tab: every control is reached with Tab and changes the picture from the keyboard,
then every control is moved to its ends; no picture turns into an error; the picture keeps its place and
size whatever the setting (no jump) and ends above the bottom of the screen; the text is at least the size
the board promises; a keypress shows the new picture as fast as in JupyterLab; a screenshot is kept. The
tab bar shows every tab whole in both languages (no "Lesson 12" cut off, no d_k cut to "d k").
Then axe-core finds no serious or critical violation, the Chinese is drawn as glyphs, and the language
switch rebuilds the board in English. For JupyterLab: each edition opens with its menus in its own
language, and axe-core finds no serious or critical violation in the saved outputs of every lesson and
of the board (no kernel started: what a learner sees on opening; the live widgets are audited by
test_zh.py and test_en.py after they run).
"""

import re
import time
from types import SimpleNamespace

import pytest

from attn_viz.board import STATIONS
from attn_viz.fonts import CSS_FAMILY

from .accessibility import axe_problems, operate_by_keyboard, tab_order
from .jupyterlab import HANZI, JS_TOFU, NB_DIR, PANEL, SLIDERS, exercise_controls, measure_latency, picture
from .lab import Lab, Voila

pytestmark = pytest.mark.browser

BOARD = ".attn-board"
EXPLORER = f"{BOARD} .attn-explorer-live:visible"
SVG = ".attn-picture svg, .widget-html-content svg"
SMALLEST_TEXT_PX = 16  # the smallest text of any picture on the board, rendered at 1920×1080 (README: sizes)
MENUS = {"zh": ["文件", "编辑", "查看", "运行", "内核"], "en": ["File", "Edit", "View", "Run", "Kernel"]}
EDITION_DIR = {"zh": NB_DIR, "en": NB_DIR / "en"}

# The smallest and the largest text of the picture as drawn on the screen (px): font size × scale (the
# picture is fitted into its box, keeping its proportions).
JS_TEXT_SIZES = """o => {
  const svg = o.querySelector('.attn-picture svg, .widget-html-content svg');
  const box = svg.getBoundingClientRect(), view = svg.viewBox.baseVal;
  const scale = Math.min(box.width / view.width, box.height / view.height);
  const sizes = [...svg.querySelectorAll('text')].map(t => parseFloat(t.getAttribute('font-size')) * scale);
  return [Math.min(...sizes), Math.max(...sizes), scale];
}"""


# Where the picture's box is on the page (left, top, right, bottom in px, the page scrolled to the top).
JS_PICTURE_BOX = """o => {
  const box = o.querySelector('.attn-picture, .widget-html-content').getBoundingClientRect();
  return [box.left, box.top + scrollY, box.right, box.bottom + scrollY].map(v => Math.round(v));
}"""
# Tabs cut off: past the right end of the bar, or a label whose text does not fit its box.
JS_CUT_TABS = f"""() => {{
  const bar = document.querySelector('{BOARD} .lm-TabBar').getBoundingClientRect();
  return [...document.querySelectorAll('{BOARD} .lm-TabBar-tab')].filter(t => {{
    const r = t.getBoundingClientRect(), l = t.querySelector('.lm-TabBar-tabLabel');
    return r.right > bar.right + 1 || l.scrollWidth > l.clientWidth + 1 || l.scrollHeight > l.clientHeight + 1;
  }}).map(t => t.innerText);
}}"""


@pytest.fixture(scope="module")
def board(browser):
    with Voila("demo.ipynb") as server:
        page = browser.new_page(viewport={"width": 1920, "height": 1080})
        page.goto(server.url, timeout=120_000)  # Voilà sends the page as the notebook runs
        page.locator(f"{EXPLORER} :is({SVG})").first.wait_for(timeout=120_000)
        yield page
        page.close()


JS_RADIO_GROUPS = """() => {
  const groups = {};
  for (const r of document.querySelectorAll("input[type=radio]")) {
    const set = r.closest("fieldset");
    (groups[r.name] ??= { sets: new Set(), checked: 0, label: set?.querySelector("legend")?.textContent ?? "" });
    groups[r.name].sets.add(set);
    groups[r.name].checked += r.checked;
  }
  const ids = [...document.querySelectorAll("[id]")].map(e => e.id);
  return {
    shared: Object.entries(groups).filter(([, g]) => g.sets.size > 1).map(([name]) => name),
    unchecked: Object.values(groups).filter(g => g.checked !== 1).map(g => g.label),
    duplicateIds: [...new Set(ids.filter((id, i) => ids.indexOf(id) !== i && id.startsWith("attn-")))],
  };
}"""


def test_every_explorer_on_the_board_keeps_its_own_choice(board):
    """Each tab's explorer is a module of its own: its radio groups and ids must not collide with another
    tab's, or clicking a choice in one explorer unchecks another's (the board once loaded with no 位置编码
    selected)."""
    page = board
    page.wait_for_function("document.querySelectorAll('.attn-board input[type=radio]').length > 0", timeout=60_000)
    found = page.evaluate(JS_RADIO_GROUPS)
    assert not found["shared"], f"radio groups shared by two explorers: {found['shared']}"
    assert not found["unchecked"], f"radio groups without exactly one choice: {found['unchecked']}"
    assert not found["duplicateIds"], f"ids used twice on the board: {found['duplicateIds']}"


def test_demo_board_every_control_moves_the_picture_from_the_keyboard_and_reads_from_the_back(
    board, shots_dir, record_property
):
    page, problems = board, []
    tabs = page.locator(f"{BOARD} .lm-TabBar-tab")
    assert tabs.count() == len(STATIONS)
    for k, station in enumerate(STATIONS):
        label = f"board tab {k + 1} ({station.key})"
        tabs.nth(k).click()
        explorer = page.locator(EXPLORER)
        explorer.locator(SVG).first.wait_for()
        place = explorer.evaluate(JS_PICTURE_BOX)
        if place[3] > 1080:
            problems.append(f"{label}: the picture runs off the bottom of the screen (ends at {place[3]:.0f} px)")
        smallest, largest, scale = explorer.evaluate(JS_TEXT_SIZES)
        record_property(f"board text {station.key}", (smallest, largest, scale))
        if smallest < SMALLEST_TEXT_PX:
            problems.append(f"{label}: smallest picture text {smallest:.1f} px < {SMALLEST_TEXT_PX} px")
        question = page.locator(f"{BOARD} .attn-board-question:visible")
        reached, count = tab_order(page, explorer, question)
        if len(reached) != count:
            problems.append(f"{label}: Tab reaches {len(reached)} of {count} controls")
        problems += operate_by_keyboard(page, explorer, picture, label)
        try:
            exercise_controls(SimpleNamespace(name="demo board"), explorer, label)
        except pytest.fail.Exception as e:
            problems.append(str(e))
        moved = explorer.evaluate(JS_PICTURE_BOX)
        if moved != place:
            problems.append(f"{label}: the picture moved or changed size with a setting: {place} -> {moved}")
        if explorer.locator(SLIDERS).count():
            record_property(f"latency board {station.key}", measure_latency(explorer, presses=10))
        shot = shots_dir / f"demo_board_{k + 1}_{station.key}.png"
        page.screenshot(path=str(shot))
        record_property("screenshot", str(shot))
    t0 = time.monotonic()
    problems += [f"axe on the board: {p}" for p in axe_problems(page, BOARD)]
    record_property("axe board seconds", time.monotonic() - t0)
    assert not problems, "\n".join(problems)


def test_demo_board_draws_chinese_and_switches_to_english(board):
    page = board
    tofu = page.evaluate(JS_TOFU, [HANZI, CSS_FAMILY])
    assert not tofu, f"these characters render as boxes on the board: {''.join(tofu)}"
    assert "第 3 课" in page.locator(f"{BOARD} .lm-TabBar").inner_text()
    assert not page.evaluate(JS_CUT_TABS)
    page.locator(f"{BOARD} .widget-toggle-buttons button", has_text="English").click()
    page.locator(f"{BOARD} .lm-TabBar-tab", has_text="Lesson 3").wait_for(timeout=30_000)
    assert not page.evaluate(JS_CUT_TABS), "tabs cut off in English"
    page.locator(f"{BOARD} .lm-TabBar-tab").first.click()
    explorer = page.locator(EXPLORER)
    explorer.locator(SVG).first.wait_for()
    assert "divide by √dk" in explorer.inner_text()  # d_k with a real subscript: d<sub>k</sub>
    assert "Ask the room" in page.locator(f"{BOARD} .attn-board-question:visible").inner_text()
    assert not axe_problems(page, BOARD)


@pytest.mark.parametrize("edition", ["zh", "en"])
def test_jupyterlab_speaks_the_editions_language_and_saved_outputs_pass_axe(browser, record_property, edition):
    """Opened as `make lab` (zh) / `make lab-en` (en) open it: menus in the edition's language; every
    lesson's and the board's saved outputs, as a learner first sees them, pass axe-core."""
    names = sorted(p.name for p in EDITION_DIR[edition].glob("[0-9][0-9]_*.ipynb")) + ["demo.ipynb"]
    prefix = "" if edition == "zh" else "en/"
    problems = []
    t0 = time.monotonic()
    with Lab(edition, kernels=False) as lab:
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(lab.url(prefix + names[0], f"axe-{edition}"))
        page.locator(".lm-TabBar-tab.lm-mod-current .lm-TabBar-tabLabel", has_text=names[0]).wait_for(timeout=60_000)
        menus = page.locator(".lm-MenuBar-itemLabel").all_inner_texts()
        assert menus[: len(MENUS[edition])] == MENUS[edition], menus
        for k, name in enumerate(names):
            if k:  # open the next one from the file browser (no page load), closing the last (and its kernel)
                page.keyboard.press("Alt+w")
                page.locator(".jp-DirListing-itemText", has_text=re.compile(f"^{re.escape(name)}$")).dblclick()
            page.locator(".lm-TabBar-tab.lm-mod-current .lm-TabBar-tabLabel", has_text=name).wait_for()
            page.locator(".jp-Dialog").wait_for(timeout=30_000)  # which kernel? none: saved outputs only
            page.keyboard.press("Escape")
            page.locator(".jp-Dialog").wait_for(state="detached")
            page.locator(f"{PANEL} .jp-OutputArea-output").first.wait_for(timeout=60_000)
            page.wait_for_function(
                f"""() => [...document.querySelectorAll('{PANEL} .jp-OutputArea img')].every(i => i.complete)""",
                timeout=30_000,
            )
            problems += [f"{prefix}{name}: {p}" for p in axe_problems(page, f"{PANEL} .jp-OutputArea")]
        page.close()
    record_property("axe saved outputs seconds", time.monotonic() - t0)
    assert not problems, "\n".join(problems)
