"""What only a browser can prove: widgets that answer, pictures that show, glyphs that are not boxes, and
the homework round trip.

strict nbval already proves that every notebook runs top to bottom with the committed outputs, so it is not
proved again here. These tests open, in JupyterLab (headless Chromium), each notebook that holds an
explorer, restart its kernel and run all cells, then look at the page: no error output, every figure
displayed, every explorer's picture changes when its controls move (and how fast); the d_k explorer's
readouts follow its slider; a wrong and then a right homework answer get ❌ with the named mistake and ✅;
Chinese text and the check marks are glyphs; axe-core finds no serious or critical violation in the outputs
with their live widgets (accessibility.py). Both editions.
"""

import re
import statistics
import time

import pytest

from .accessibility import axe_problems, operate_by_keyboard, slider_state, tab_order
from .lab import ROOT

NB_DIR = ROOT / "notebooks"
EDITIONS = ("", "en/")  # the Chinese edition in notebooks/, the English one in notebooks/en/


def _has_explorer(path):
    return re.search(r"_explorer\(", path.read_text(encoding="utf-8")) is not None


# The notebooks with something interactive in them, both editions.
NOTEBOOKS = [
    p.relative_to(NB_DIR).as_posix()
    for edition in EDITIONS
    for folder in (edition, f"{edition}exercises")
    for p in sorted((NB_DIR / folder).glob("*.ipynb"))
    if _has_explorer(p)
]
# What the learner reads in each edition, as the tests below look for it.
TEXT = {
    "": {
        "answer_cell": "# QKᵀ，形状 (4, 4)",
        "transposed": "转置",
        "max_weight": r"最大权重\s*([0-9.]+)",
        "grad_percent": r"是均匀权重时的\s*([0-9.]+)",
    },
    "en/": {
        "answer_cell": "# QKᵀ, shape (4, 4)",
        "transposed": "transposed",
        "max_weight": r"max weight\s*([0-9.]+)",
        "grad_percent": r"([0-9.]+)%\s*of the\s*uniform",
    },
}
PANEL = ".jp-NotebookPanel:not(.lm-mod-hidden)"
HANZI = "我喜欢学习语言那只动物没过街因为它太累了"
CHECK_MARKS = "✅❌⏳"  # what the homework check cells print

JS_PROMPTS = f"""() => [...document.querySelectorAll('{PANEL} .jp-CodeCell .jp-InputArea-prompt')]
                      .map(e => e.innerText.trim())"""
JS_ERRORS = f"""() => {{
  const cells = [...document.querySelectorAll('{PANEL} .jp-Cell')];
  const sel = '{PANEL} .jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]';
  return [...document.querySelectorAll(sel)]
    .map(o => [cells.indexOf(o.closest('.jp-Cell')) + 1, o.innerText.slice(0, 400)]);
}}"""
JS_BROKEN_IMAGES = f"""() => {{
  const cells = [...document.querySelectorAll('{PANEL} .jp-Cell')];
  const imgs = [...document.querySelectorAll('{PANEL} .jp-OutputArea img')];
  return {{total: imgs.length,
          broken: imgs.filter(i => !(i.complete && i.naturalWidth > 0))
                      .map(i => cells.indexOf(i.closest('.jp-Cell')) + 1)}};
}}"""
# Characters drawn as the same glyph as an unassigned code point are tofu boxes.
JS_TOFU = """([chars, family]) => {
  const c = document.createElement('canvas'); c.width = 64; c.height = 64;
  const g = c.getContext('2d');
  const draw = ch => { g.clearRect(0, 0, 64, 64); g.font = `40px ${family}`; g.fillText(ch, 4, 48);
                       return Array.from(g.getImageData(0, 0, 64, 64).data).join(','); };
  const tofu = draw('\\u{10FFFD}'), blank = (g.clearRect(0, 0, 64, 64), draw(' '));
  return [...chars].filter(ch => { const d = draw(ch); return d === tofu || d === blank; });
}"""


class Notebook:
    """One notebook open in JupyterLab."""

    def __init__(self, page, name):
        self.page, self.name = page, name

    def idle(self, timeout=120_000):
        self.page.get_by_text("| Idle").wait_for(timeout=timeout)

    def menu(self, top, command):
        self.page.locator(".lm-MenuBar-itemLabel", has_text=top).click()
        self.page.click(f'li.lm-Menu-item[data-command="{command}"]')

    def restart_and_run_all(self, timeout=180):
        """Clear outputs, restart the kernel, run every cell; wait until each code cell has a number."""
        self.menu("Edit", "editmenu:clear-all")
        self.menu("Run", "runmenu:restart-and-run-all")
        self.page.click(".jp-Dialog-button.jp-mod-accept")
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            prompts = self.page.evaluate(JS_PROMPTS)
            if prompts and all(p[1:-2].strip().isdigit() for p in prompts):
                break
            time.sleep(0.25)
        else:
            pytest.fail(f"{self.name}: cells still not run after {timeout} s: {prompts}", pytrace=False)
        self.idle()
        # widgets render asynchronously after the kernel goes idle
        self.page.wait_for_function(
            f"""() => ![...document.querySelectorAll('{PANEL} .jp-OutputArea-output')]
                       .some(o => o.innerText.includes('Loading widget'))""",
            timeout=30_000,
        )
        self.page.wait_for_timeout(500)

    def errors(self):
        return self.page.evaluate(JS_ERRORS)

    def images(self):
        return self.page.evaluate(JS_BROKEN_IMAGES)

    def screenshot(self, path):
        height = self.page.evaluate(f"""() => {{
            const s = document.querySelector('{PANEL} .jp-WindowedPanel-outer');
            return s ? s.scrollHeight : 1000; }}""")
        self.page.set_viewport_size({"width": 1400, "height": min(height + 200, 30_000)})
        self.page.evaluate(f"() => document.querySelector('{PANEL} .jp-WindowedPanel-outer').scrollTo(0, 0)")
        self.page.wait_for_timeout(300)
        self.page.screenshot(path=str(path))
        self.page.set_viewport_size({"width": 1400, "height": 1000})

    def explorers(self):
        """Output areas that hold controls next to a picture (an explorer: live, or ipywidgets)."""
        outs = self.page.locator(f"{PANEL} .jp-OutputArea-output")
        return [
            outs.nth(i)
            for i in range(outs.count())
            if outs.nth(i).locator(".attn-explorer-live .attn-picture svg").count()
            or (
                outs.nth(i).locator(WIDGET_CONTROLS).count()
                and outs.nth(i).locator(".widget-html-content svg, .widget-html-content table").count()
            )
        ]


def picture(explorer):
    return explorer.evaluate("""o => [...o.querySelectorAll('.widget-html-content, .attn-picture')]
                                      .map(h => h.innerHTML).join('\\n')""")


def wait_for_new_picture(explorer, before, what, timeout=10):
    """The explorer's picture must change, and must not turn into its error line (⚠ …)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        now = picture(explorer)
        if now != before:
            error = explorer.locator(".widget-html-content", has_text="⚠")
            live_error = explorer.locator('.attn-picture[data-attn-error="1"]')
            if live_error.count():
                pytest.fail(f"{what}: the explorer shows an error: {live_error.first.inner_text()}", pytrace=False)
            if error.count():
                pytest.fail(f"{what}: the explorer shows an error: {error.first.inner_text()}", pytrace=False)
            return
        time.sleep(0.05)
    pytest.fail(f"{what}: the picture did not change", pytrace=False)


def exercise_controls(nb, explorer, label):
    """Move every slider (End/Home), toggle every toggle and checkbox once; the picture must change."""
    handles = explorer.locator(".widget-slider:not(.mod-disabled) .noUi-handle, .attn-explorer-live input[type=range]")
    for i in range(handles.count()):
        h = handles.nth(i)
        if h.evaluate("h => !!h.closest('[disabled]')"):
            continue  # a greyed-out slider (e.g. padding length while the mask mode is not padding)
        h.focus()
        before = picture(explorer)
        value, _, high = slider_state(h)
        at_max = value == high
        key = "Home" if at_max else "End"
        h.press(key)
        wait_for_new_picture(explorer, before, f"{nb.name} {label}: slider {i + 1} moved to {key}")
        before = picture(explorer)
        h.press("End" if at_max else "Home")
        wait_for_new_picture(explorer, before, f"{nb.name} {label}: slider {i + 1} moved back")
    buttons = explorer.locator(".widget-toggle-buttons button:not(.mod-active)")
    for i in range(buttons.count()):
        before = picture(explorer)
        buttons.nth(i).click()
        wait_for_new_picture(explorer, before, f"{nb.name} {label}: toggle button {i + 1}")
    radios = explorer.locator(".attn-explorer-live input[type=radio]")
    for i in range(radios.count()):
        if radios.nth(i).is_checked() or radios.nth(i).is_disabled():
            continue
        before = picture(explorer)
        radios.nth(i).click()
        wait_for_new_picture(explorer, before, f"{nb.name} {label}: radio button {i + 1}")
    boxes = explorer.locator(".widget-checkbox input, .attn-explorer-live input[type=checkbox]")
    for i in range(boxes.count()):
        before = picture(explorer)
        boxes.nth(i).click()
        wait_for_new_picture(explorer, before, f"{nb.name} {label}: checkbox {i + 1}")
        boxes.nth(i).click()
    selects = explorer.locator(".widget-dropdown select")
    for i in range(selects.count()):
        options = selects.nth(i).locator("option")
        if options.count() > 1:
            before = picture(explorer)
            current = selects.nth(i).evaluate("s => s.selectedIndex")
            selects.nth(i).select_option(index=(current + 1) % options.count())
            wait_for_new_picture(explorer, before, f"{nb.name} {label}: dropdown {i + 1}")


JS_LATENCY_SETUP = """o => {
  window.__lat = []; window.__t0 = null;
  if (!window.__keydown) {
    document.addEventListener('keydown', () => { window.__t0 = performance.now(); }, true);
    window.__keydown = true;
  }
  if (window.__obs) window.__obs.disconnect();
  window.__obs = new MutationObserver(() => {
    const t0 = window.__t0; if (t0 === null) return; window.__t0 = null;
    requestAnimationFrame(() => window.__lat.push(performance.now() - t0));   // the frame that shows it
  });
  o.querySelectorAll('.widget-html-content, .attn-picture').forEach(h =>
    window.__obs.observe(h, {subtree: true, childList: true, characterData: true}));
}"""


WIDGET_CONTROLS = ".widget-slider, .widget-toggle-buttons, .widget-checkbox, .widget-dropdown"
SLIDERS = ".widget-slider .noUi-handle, .attn-explorer-live input[type=range]"


def measure_latency(explorer, presses=30):
    """Median and p90 ms from a slider keypress to the frame showing the new picture."""
    handle = explorer.locator(SLIDERS).first
    handle.focus()
    handle.press("Home")
    explorer.page.wait_for_timeout(300)
    explorer.evaluate(JS_LATENCY_SETUP)
    direction = "ArrowRight"
    for k in range(1, presses + 1):
        value, lo, hi = slider_state(handle)
        if value >= hi:
            direction = "ArrowLeft"
        elif value <= lo:
            direction = "ArrowRight"
        handle.press(direction)
        explorer.page.wait_for_function(f"window.__lat.length >= {k}", timeout=10_000)
    lat = sorted(explorer.page.evaluate("window.__lat"))
    return statistics.median(lat), lat[int(0.9 * (len(lat) - 1))], len(lat)


def explorer_notebooks(edition):
    """The notebooks of one edition that hold an explorer."""
    return [name for name in NOTEBOOKS if name.startswith(edition) and (edition or not name.startswith("en/"))]


def explorers_answer(open_notebook, shots_dir, record_property, name):
    """Run all cells; no error output, no broken figure; every control of every explorer changes its picture
    (and how fast it does); in lesson 03 the d_k explorer's readouts follow its slider."""
    t0 = time.monotonic()
    nb = open_notebook(name)
    nb.restart_and_run_all()
    record_property("run_all_seconds", time.monotonic() - t0)
    shot = shots_dir / (name.removesuffix(".ipynb").replace("/", "_") + ".png")
    nb.screenshot(shot)
    record_property("screenshot", str(shot))
    problems = [f"cell {c}: error output: {text}" for c, text in nb.errors()]
    imgs = nb.images()
    problems += [f"cell {c}: figure not displayed (broken image)" for c in imgs["broken"]]
    explorers = nb.explorers()
    for i, explorer in enumerate(explorers, 1):
        problems += keyboard_problems(nb, explorer, f"{name} explorer {i}")
        try:
            exercise_controls(nb, explorer, f"explorer {i}")
        except pytest.fail.Exception as e:
            problems.append(str(e))
        if explorer.locator(SLIDERS).count():
            record_property(f"latency explorer {i}", measure_latency(explorer))
    problems += [f"axe-core, outputs with live widgets: {p}" for p in axe_problems(nb.page, f"{PANEL} .jp-OutputArea")]
    assert not problems, f"{name}:\n" + "\n".join(problems)
    if name.endswith("03_scaling.ipynb"):  # the d_k explorer's readouts follow its slider
        check_dk_readouts(explorers[0], name.removesuffix("03_scaling.ipynb"))


JS_ACTIVE_CELL = f"""() => [...document.querySelectorAll('{PANEL} .jp-Cell')]
                         .findIndex(c => c.classList.contains('jp-mod-active'))"""


def keyboard_problems(nb, explorer, label):
    """Tab reaches every control; the arrows (space for a check box) change the picture; the notebook
    keeps its active cell (JupyterLab's own arrow-key shortcuts must not fire from inside a control)."""
    start = explorer.locator(".attn-explorer-live, .widget-box, .widget-inline-hbox").first
    reached, count = tab_order(nb.page, explorer, start)
    problems = [f"{label}: Tab reaches {len(reached)} of {count} controls"] if len(reached) != count else []
    cell = nb.page.evaluate(JS_ACTIVE_CELL)
    problems += operate_by_keyboard(nb.page, explorer, picture, label)
    if nb.page.evaluate(JS_ACTIVE_CELL) != cell:
        problems.append(f"{label}: a key pressed on a control moved the notebook to another cell")
    return problems


def chinese_renders_as_glyphs(open_notebook):
    from attn_viz.fonts import CSS_FAMILY

    nb = open_notebook(NOTEBOOKS[0])
    for family in (CSS_FAMILY, "sans-serif"):
        tofu = nb.page.evaluate(JS_TOFU, [HANZI, family])
        assert not tofu, (
            f"these characters render as boxes with font-family {family}: {''.join(tofu)} — "
            "install a CJK font (Debian: fonts-noto-cjk)"
        )
    tofu = nb.page.evaluate(JS_TOFU, [CHECK_MARKS, "monospace"])  # the check cells' output font
    assert not tofu, f"{''.join(tofu)} render as boxes — install an emoji font (Debian: fonts-noto-color-emoji)"


def find_cell(nb, prefix):
    cells = nb.page.locator(f"{PANEL} .jp-Cell")
    return next(
        i
        for i in range(cells.count())
        if cells.nth(i).locator(".cm-content").count()
        and cells.nth(i).locator(".cm-content").inner_text().startswith(prefix)
    )


def answer_and_check(nb, index, code, previous=""):
    """Type ``code`` into answer cell ``index``, run it and the check cell below it (Shift+Enter
    twice), and return the check cell's new output text."""
    cells = nb.page.locator(f"{PANEL} .jp-Cell")
    cells.nth(index).locator(".cm-content").click()
    nb.page.keyboard.press("Control+A")
    nb.page.keyboard.type(code)
    nb.page.keyboard.press("Shift+Enter")
    nb.page.keyboard.press("Shift+Enter")
    out = cells.nth(index + 1).locator(".jp-OutputArea")
    nb.page.wait_for_function(
        "([el, prev]) => /[✅❌]/.test(el.innerText) && el.innerText !== prev",
        arg=[out.element_handle(), previous],
        timeout=30_000,
    )
    return out.inner_text()


def homework_round_trip(open_notebook, edition):
    """A transposed answer gets ❌ naming the transpose; the right one then gets ✅."""
    text = TEXT[edition]
    nb = open_notebook(f"{edition}exercises/ex02_scores.ipynb")
    nb.restart_and_run_all()
    index = find_cell(nb, text["answer_cell"])
    wrong = answer_and_check(nb, index, "QKT = K @ Q.T")
    assert "❌" in wrong and text["transposed"] in wrong, wrong
    right = answer_and_check(nb, index, "QKT = Q @ K.T", previous=wrong)
    assert "✅" in right, right
    assert not nb.errors()


def readout(explorer, pattern):
    """The number ``pattern`` captures in the explorer's readout lines, e.g. 最大权重 0.27 -> 0.27."""
    text = explorer.evaluate("o => o.innerText")
    match = re.search(pattern, text)
    assert match, f"no readout {pattern!r} in: {text[:300]}"
    return float(match.group(1))


def check_dk_readouts(explorer, edition):
    """Unscaled, d_k = 1 → 512: the max weight rises to 1 and the softmax gradient vanishes;
    ticking 'divide by √d_k' at 512 brings the weights back into the working range."""
    text = TEXT[edition]
    box = explorer.locator(".widget-checkbox input, .attn-explorer-live input[type=checkbox]")
    if box.is_checked():
        box.click()
    handle = explorer.locator(SLIDERS).first
    handle.focus()
    value, low, _ = slider_state(handle)
    if value != low:
        before = picture(explorer)
        handle.press("Home")
        wait_for_new_picture(explorer, before, "d_k slider to 1")
    assert readout(explorer, text["max_weight"]) < 0.35
    low_grad = readout(explorer, text["grad_percent"])
    before = picture(explorer)
    handle.press("End")
    wait_for_new_picture(explorer, before, "d_k slider to 512")
    assert readout(explorer, text["max_weight"]) >= 0.99
    assert readout(explorer, text["grad_percent"]) < 1 < low_grad  # percent of the uniform-weights gradient
    before = picture(explorer)
    box.click()
    wait_for_new_picture(explorer, before, "scaled checkbox")
    assert readout(explorer, text["max_weight"]) < 0.95


# What a teacher's tools would add to JupyterLab (nbgrader's menu, toolbar button and sidebars). They are
# installed beside the learner's environment (Makefile: .venv/teacher-tools), never in it.
TEACHER_TOOLING = ("Nbgrader", "Validate", "Create Assignment", "Formgrader", "Assignment List", "Course List")


def learners_lab_has_no_teacher_tooling(open_notebook):
    nb = open_notebook(NOTEBOOKS[0])
    menus = nb.page.locator(".lm-MenuBar-itemLabel").all_inner_texts()
    assert len(menus) >= 5, f"JupyterLab's menu bar did not load: {menus}"
    for name in ("View", "Help"):  # JupyterLab's own menus, to show the page is the one we think
        if name in menus:
            break
    else:
        assert any(m in menus for m in ("查看", "帮助")), menus
    text = nb.page.evaluate("() => document.body.innerText")
    labels = nb.page.evaluate(
        "() => [...document.querySelectorAll('[title], [aria-label], [data-command]')]"
        ".map(e => [e.getAttribute('title'), e.getAttribute('aria-label'), e.getAttribute('data-command')].join(' '))"
    )
    found = [t for t in TEACHER_TOOLING if t in text or any(t in label for label in labels)]
    found += [label for label in labels if "nbgrader" in label.lower()]
    assert not found, f"teacher tooling in the learner's JupyterLab: {found[:5]}"
