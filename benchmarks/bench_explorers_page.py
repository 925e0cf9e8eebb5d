"""Keypress → new picture in the browser, per explorer: in-page explorers vs the kernel round trip, one run.

    .venv/bin/python benchmarks/bench_explorers_page.py                        # ~3 minutes
    .venv/bin/python benchmarks/bench_explorers_page.py --baseline ../main     # today's figure from a checkout
    .venv/bin/python benchmarks/bench_explorers_page.py --presses 10 --no-site # a quick run

What is timed, in headless Chromium (1440×900), per explorer, ``--presses`` (30) times: from the keydown
of an arrow key on the explorer's first slider (or, without one, its selected radio / toggle button) to
the first animation frame after the picture changed (a MutationObserver on the picture, then
requestAnimationFrame: the frame that shows it). Three columns:
  site      the course site (`make site`, built here unless ``--site DIR``), opened from file://: the
            explorer's JavaScript computes and draws in the page, no kernel.
  lab       JupyterLab 4 with this checkout on PYTHONPATH: the same in-page explorers as anywidgets
            (the kernel only hears the learner's choices afterwards).
  kernel    JupyterLab 4 with ``--baseline`` (default: none) on PYTHONPATH: an older checkout's explorers,
            where every keypress goes to the kernel, which recomputes with attn_core, draws the SVG and
            sends it back (today's design before issue #30; e.g. the main branch's worktree).
Goal (printed): median ≤ 16 ms (one frame at 60 Hz) in site and lab. Not a timed unit test: the numbers
depend on the machine and on what else runs; the table says what was measured.
"""

import argparse
import json
import os
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from tests.browser.lab import CHROMIUM, CHROMIUM_ARGS, SETTINGS, free_port, start, stop  # noqa: E402

GOAL_MS = 16.0
EXPLORERS = (  # function, lesson page of the site that shows it, its kind in the page (data-attn-kind)
    ("dk_explorer", "03_scaling", "dk"),
    ("key_explorer", "04_softmax", "keys"),
    ("pipeline_explorer", "06_full_pipeline", "pipeline"),
    ("mask_explorer", "07_masks_and_cross_attention", "masks"),
    ("head_explorer", "08_multi_head", "heads"),
    ("position_explorer", "12_positions", "positions"),
    ("kv_cache_explorer", "14_decoding", "kv"),
)

# The picture of an explorer: the in-page one (data-attn-frame), else the kernel-drawn widgets.HTML.
JS_SETUP = """([o, pictureSel]) => {
  window.__lat = []; window.__t0 = null;
  if (!window.__keydown) {
    document.addEventListener('keydown', () => { window.__t0 = performance.now(); }, true);
    window.__keydown = true;
  }
  if (window.__obs) window.__obs.disconnect();
  window.__obs = new MutationObserver(() => {
    const t0 = window.__t0; if (t0 === null) return; window.__t0 = null;
    requestAnimationFrame(() => window.__lat.push(performance.now() - t0));
  });
  o.querySelectorAll(pictureSel).forEach(h =>
    window.__obs.observe(h, {subtree: true, childList: true, characterData: true}));
}"""
NEW = {
    "picture": ".attn-picture",
    "slider": 'input[type="range"]:not(:disabled)',
    "choice": 'input[type="radio"]:checked:not(:disabled)',
}
OLD = {
    "picture": ".widget-html-content",
    "slider": ".widget-slider:not(.mod-disabled) .noUi-handle",
    "choice": ".widget-toggle-buttons button.mod-active",
}


JS_PICK = """([o, sel]) => {
  const usable = e => !e.disabled && !e.closest('[disabled], .mod-disabled');
  const sliders = [...o.querySelectorAll(sel.slider)].filter(usable);
  const pick = sliders[0] || [...o.querySelectorAll(sel.choice)].filter(usable)[0];
  if (!pick) return null;
  o.querySelectorAll('[data-bench-control]').forEach(e => delete e.dataset.benchControl);
  pick.dataset.benchControl = '1';
  return sliders.length ? 'slider' : 'choice';
}"""
JS_AT = """c => c.matches('input') ? [Number(c.value), Number(c.min), Number(c.max)]
  : ['aria-valuenow', 'aria-valuemin', 'aria-valuemax'].map(a => Number(c.getAttribute(a)))"""


def measure(page, explorer, kind, presses):
    """Median and p90 (ms) over ``presses`` keypresses on the explorer's first usable slider (or, without
    one, its selected choice: the arrow moves the selection, and the focus with it)."""
    sel = NEW if kind == "new" else OLD
    what = page.evaluate(JS_PICK, [explorer.element_handle(), sel])
    if what is None:
        return None
    control = explorer.locator("[data-bench-control]")
    control.focus()
    page.evaluate(JS_SETUP, [explorer.element_handle(), sel["picture"]])
    direction = "ArrowRight"
    for k in range(presses):
        if what == "slider":
            value, lo, hi = control.evaluate(JS_AT)
            direction = "ArrowLeft" if value >= hi else "ArrowRight" if value <= lo else direction
        page.keyboard.press(direction)
        page.wait_for_function(f"window.__lat.length > {k}", timeout=15_000)
        page.wait_for_timeout(20)
    lat = sorted(page.evaluate("window.__lat"))
    return statistics.median(lat), lat[int(0.9 * (len(lat) - 1))], len(lat)


# ---------------------------------------------------------------- the static site
def site_rows(browser, site: Path, presses):
    rows = {}
    for name, lesson, kind in EXPLORERS:
        page_path = site / "zh" / f"{lesson}.html"
        if not page_path.exists():
            continue
        page = browser.new_page(viewport={"width": 1440, "height": 900})
        page.goto(page_path.as_uri())
        explorer = page.locator(f'.attn-explorer-live[data-attn-kind="{kind}"]').first
        try:
            explorer.wait_for(timeout=10_000)
            explorer.scroll_into_view_if_needed()
            rows[name] = measure(page, explorer, "new", presses)
        except Exception as e:  # an explorer the site does not show live (yet): say so in the table
            rows[name] = f"not live ({type(e).__name__})"
        page.close()
    return rows


# ---------------------------------------------------------------- JupyterLab, one cell per explorer
def notebook():
    cells = [
        {
            "cell_type": "code",
            "execution_count": None,
            "id": f"c{i}",
            "metadata": {"tags": ["raises-exception"]},  # Run All goes on past a checkout without it
            "outputs": [],
            "source": f"from attn_viz import explorers\n"
            f"{name!r} if not hasattr(explorers, {name!r}) else explorers.{name}()",
        }
        for i, (name, _, _) in enumerate(EXPLORERS)
    ]
    cells.insert(0, {"cell_type": "code", "execution_count": None, "id": "lang", "metadata": {}, "outputs": []})
    cells[0]["source"] = 'from attn_core import set_lang\nset_lang("zh")'
    return {
        "cells": cells,
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def lab_rows(browser, pythonpath: Path, presses):
    tmp = Path(tempfile.mkdtemp(prefix="attn-bench-"))
    (tmp / "root").mkdir()
    (tmp / "root" / "bench.ipynb").write_text(json.dumps(notebook()))
    for name, value in SETTINGS.items():
        path = tmp / "settings" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(value))
    port, token = free_port(), secrets.token_hex(16)
    env = dict(
        os.environ,
        PYTHONPATH=str(pythonpath),
        JUPYTERLAB_SETTINGS_DIR=str(tmp / "settings"),
        JUPYTERLAB_WORKSPACES_DIR=str(tmp / "workspaces"),
        JUPYTER_RUNTIME_DIR=str(tmp / "runtime"),
        JUPYTER_CONFIG_DIR=str(tmp / "config"),
    )
    cmd = [sys.executable, "-m", "jupyter", "lab", "--no-browser", "--ip=127.0.0.1", f"--port={port}"]
    cmd += [f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={tmp / 'root'}", "--ServerApp.port_retries=0"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        cmd.append("--allow-root")
    proc = start(cmd, env, tmp, f"http://127.0.0.1:{port}/api/status?token={token}")
    rows = {}
    try:
        page = browser.new_page(viewport={"width": 1440, "height": 900})
        page.goto(f"http://127.0.0.1:{port}/lab/tree/bench.ipynb?reset&token={token}")
        page.get_by_text("| Idle").wait_for(timeout=120_000)
        page.locator(".lm-MenuBar-itemLabel", has_text="Run").click()
        page.locator('li.lm-Menu-item[data-command="runmenu:run-all"]').click()
        outputs = page.locator(".jp-CodeCell .jp-OutputArea-output")
        page.wait_for_function(
            f"""() => document.querySelectorAll('.jp-CodeCell').length === {len(EXPLORERS) + 1} &&
                [...document.querySelectorAll('.jp-CodeCell')].slice(1).every(c =>
                  c.querySelector('.jp-OutputArea-output')) &&
                !document.body.innerText.includes('Loading widget')""",
            timeout=180_000,
        )
        page.wait_for_timeout(2000)  # widget views render after their output appears
        cells = page.locator(".jp-CodeCell")
        for i, (name, _, _) in enumerate(EXPLORERS, 1):
            out = cells.nth(i).locator(".jp-OutputArea-output").first
            if not out.count() or out.locator(".attn-picture, .widget-html-content").count() == 0:
                rows[name] = "not in this checkout"
                continue
            out.scroll_into_view_if_needed()
            kind = "new" if out.locator(".attn-picture").count() else "old"
            try:
                result = measure(page, out, kind, presses)
            except Exception as e:  # say it in the table, measure the others
                rows[name] = f"failed ({type(e).__name__})"
                print(f"{name}: {e}", file=sys.stderr)
                continue
            rows[name] = result if kind == "new" or result is None else ("kernel", *result)
        del outputs
        page.close()
    finally:
        stop(proc)
        shutil.rmtree(tmp, ignore_errors=True)
    return rows


def cell(value):
    if value is None:
        return f"{'—':>15}"
    if isinstance(value, str):
        return f"{value[:15]:>15}"
    if value[0] == "kernel":
        value = value[1:]
    med, p90, _ = value
    return f"{med:>7.1f} {p90:>7.1f}"


def in_page(value):
    if isinstance(value, tuple) and value and value[0] == "kernel":
        return None  # this column was meant to be in-page: a kernel-drawn explorer does not count
    return value


def report(site, lab, kernel, presses, baseline):
    print(f"Keypress → new picture (ms, median and p90 of {presses} keypresses), headless Chromium 1440×900")
    head = f"{'explorer':<18} {'site (file://)':>15} {'JupyterLab':>15} {'kernel (before)':>15}"
    head += f"  goal ≤ {GOAL_MS:.0f} ms"
    print(head)
    print(f"{'':<18} {'median     p90':>15} {'median     p90':>15} {'median     p90':>15}")
    print("-" * len(head))
    for name, _, _ in EXPLORERS:
        s, lab_v, k = site.get(name), lab.get(name), kernel.get(name)
        ok = [v[0] <= GOAL_MS for v in (in_page(s), in_page(lab_v)) if isinstance(v, tuple)]
        verdict = ("ok" if all(ok) else "MISSED") if ok else ""
        print(f"{name:<18} {cell(s)} {cell(lab_v)} {cell(k)}  {verdict}")
    print(f"kernel column: JupyterLab with PYTHONPATH={baseline}" if baseline else "kernel column: not measured")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--presses", type=int, default=30)
    p.add_argument("--site", type=Path, help="a built site (default: build one in a temporary folder)")
    p.add_argument("--no-site", action="store_true", help="leave the site column out")
    p.add_argument("--no-lab", action="store_true", help="leave the JupyterLab column out")
    p.add_argument("--baseline", type=Path, help="a checkout with the kernel-drawn explorers (e.g. main)")
    args = p.parse_args(argv)
    from playwright.sync_api import sync_playwright

    site_dir, tmp = args.site, None
    if not args.no_site and site_dir is None:
        tmp = Path(tempfile.mkdtemp(prefix="attn-bench-site-"))
        site_dir = tmp / "site"
        subprocess.run(
            [sys.executable, str(ROOT / "tools" / "build_site.py"), "--out", str(site_dir), "--work", str(tmp)],
            check=True,
        )
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
            site = {} if args.no_site else site_rows(browser, site_dir, args.presses)
            lab = {} if args.no_lab else lab_rows(browser, ROOT, args.presses)
            kernel = lab_rows(browser, args.baseline.resolve(), args.presses) if args.baseline else {}
            browser.close()
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
    report(site, lab, kernel, args.presses, args.baseline)
    return 0


if __name__ == "__main__":
    sys.exit(main())
