"""Accessibility checks shared by the browser tests: the axe-core audit and the keyboard.

axe-core (Deque's engine, version 4.12 through axe-playwright-python) audits only our outputs: the
notebooks' output areas, or the demo board; JupyterLab's own chrome is out of scope. A test fails on any
violation axe rates serious or critical, and names each one with an example element.

The keyboard: from the element before a control group, Tab must reach every control of an explorer
(slider handles, toggle buttons, check boxes, drop-downs, and in a live explorer its native inputs, a
radio group being one tab stop at its checked button; a disabled control is skipped), and on each the
keys a keyboard user would press must change the picture: arrows on sliders, toggle buttons, radio
groups and drop-downs, the space bar on a check box.
"""

import time

from axe_playwright_python.base import AXE_SCRIPT

BLOCKING = ("serious", "critical")
CONTROLS = (
    ".noUi-handle, .widget-toggle-buttons button, .widget-checkbox input, .widget-dropdown select, "
    ".attn-explorer-live input"
)
SLIDER_STATE = """e => e.matches('input') ? [+e.value, +e.min, +e.max]
  : [+e.getAttribute('aria-valuenow'), +e.getAttribute('aria-valuemin'), +e.getAttribute('aria-valuemax')]"""


def slider_state(control) -> tuple[float, float, float]:
    """(value, min, max) of an ipywidgets slider handle or a native range input."""
    return tuple(control.evaluate(SLIDER_STATE))


def axe_problems(page, include: str) -> list[str]:
    """axe-core's serious and critical violations inside the elements ``include`` selects (axe is
    injected into the page once and then reused)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE_SCRIPT)
    results = page.evaluate(
        "([context, options]) => axe.run(context, options)",
        [{"include": [[include]]}, {"resultTypes": ["violations"]}],
    )
    return [
        f"{v['id']} ({v['impact']}, {len(v['nodes'])}×): {v['help']} — e.g. {v['nodes'][0]['html'][:200]}"
        for v in results["violations"]
        if v["impact"] in BLOCKING
    ]


def _mark_controls(explorer) -> int:
    """Number the explorer's enabled controls (data-attn-control) and return how many there are."""
    return explorer.evaluate(
        f"""o => {{
        const all = [...o.querySelectorAll('{CONTROLS}')]
          .filter(e => !e.disabled && !e.closest('[disabled]') && !e.closest('.mod-disabled'))
          .filter(e => e.type !== 'radio' || e.checked);  // a radio group is one tab stop
        all.forEach((e, i) => e.dataset.attnControl = String(i));
        return all.length; }}"""
    )


def tab_order(page, explorer, start) -> tuple[set[int], int]:
    """The explorer's controls that Tab reaches, pressing it from ``start`` (an element before them, focused
    first), and how many controls there are."""
    count = _mark_controls(explorer)
    start.evaluate("e => { e.tabIndex = -1; e.focus(); }")
    reached = set()
    for _ in range(4 * count + 12):
        page.keyboard.press("Tab")
        index = page.evaluate("() => document.activeElement && document.activeElement.dataset.attnControl")
        if index is not None:
            reached.add(int(index))
        if len(reached) == count:
            break
    return reached, count


def operate_by_keyboard(page, explorer, picture, label) -> list[str]:
    """Focus each control in turn and press the key a keyboard user would; the picture must change."""
    problems = []
    count = _mark_controls(explorer)
    for index in range(count):
        control = explorer.locator(f'[data-attn-control="{index}"]')
        kind = control.evaluate(
            """e => e.matches('.noUi-handle, input[type=range]') ? 'slider' : e.matches('select') ? 'select'
                  : e.type === 'checkbox' ? 'checkbox' : e.type === 'radio' ? 'radio' : 'toggle'"""
        )
        if kind == "toggle":
            if not control.evaluate("e => e.classList.contains('mod-active')"):
                continue  # the arrows work from the pressed button of a group
            key = "ArrowRight"
        elif kind == "radio":
            key = "ArrowRight"  # from the checked button to the next (the group's one tab stop)
        elif kind == "slider":
            value, _, high = slider_state(control)
            key = "ArrowLeft" if value == high else "ArrowRight"
        elif kind == "select":
            at_end = control.evaluate("s => s.selectedIndex === s.options.length - 1")
            key = "ArrowUp" if at_end else "ArrowDown"
        else:
            key = "Space"
        before = picture(explorer)
        control.focus()
        page.keyboard.press(key)
        deadline = time.monotonic() + 10
        while picture(explorer) == before and time.monotonic() < deadline:
            time.sleep(0.05)
        if picture(explorer) == before:
            problems.append(f"{label}: {kind} control {index + 1}: pressing {key} did not change the picture")
    return problems
