"""Fixtures for the browser tests: one JupyterLab server and one headless Chromium per session.

In CI (CI=true) a missing Chromium fails the run; on a laptop without it these tests skip with a hint.
"""

import os
import tempfile
from pathlib import Path

import pytest

from .lab import CHROMIUM, CHROMIUM_ARGS, Lab

# Filled on the controller from each test report's user_properties, so it works under pytest-xdist too.
REPORT = {"latency": {}, "timings": {}, "shots": set()}


def _need_browser():
    if Path(CHROMIUM).exists():
        return
    msg = (f"Chromium not found at {CHROMIUM}: the browser tests need it "
           "(Debian/Ubuntu: `sudo apt-get install chromium`, or set CHROMIUM=/path/to/chromium).")
    if os.environ.get("CI") == "true":
        pytest.fail(msg + " In CI they are required.", pytrace=False)
    pytest.skip(msg)


@pytest.fixture(scope="session")
def lab():
    _need_browser()
    with Lab() as server:
        yield server


@pytest.fixture(scope="session")
def browser(lab):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture(scope="session")
def shots_dir():
    base = os.environ.get("BROWSER_SCREENSHOTS")
    path = Path(base) if base else Path(tempfile.mkdtemp(prefix="attn-screenshots-"))
    path.mkdir(parents=True, exist_ok=True)
    return path


def pytest_runtest_logreport(report):
    if report.when != "call":
        return
    name = report.nodeid.rsplit("[", 1)[-1].rstrip("]")
    for key, value in report.user_properties:
        if key == "run_all_seconds":
            REPORT["timings"][name] = value
        elif key.startswith("latency "):
            REPORT["latency"][f"{name} {key.removeprefix('latency ')}"] = value
        elif key == "screenshot":
            REPORT["shots"].add(str(Path(value).parent))


def pytest_terminal_summary(terminalreporter):
    tr = terminalreporter
    missing = [r for r in tr.stats.get("skipped", []) if "Chromium not found" in str(r.longrepr)]
    if missing:
        tr.write_line(f"browser tests skipped — {str(missing[0].longrepr[-1]).removeprefix('Skipped: ')}")
    if not (REPORT["latency"] or REPORT["timings"] or REPORT["shots"]):
        return
    tr.section("browser: what the learner sees")
    for nb, seconds in REPORT["timings"].items():
        tr.write_line(f"run-all  {nb:<48} {seconds:6.1f} s")
    if REPORT["latency"]:
        tr.write_line("slider keypress -> new picture shown (median / p90 over presses, ms; goal <= 100 ms median)")
        for name, (median, p90, n) in REPORT["latency"].items():
            tr.write_line(f"  {name:<56} {median:7.1f} {p90:7.1f}   n={n}")
    for folder in sorted(REPORT["shots"]):
        tr.write_line(f"screenshots: {folder}")
