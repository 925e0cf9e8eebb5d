"""Fixtures for the browser tests: one JupyterLab server and one headless Chromium per session.

In CI (CI=true) a missing Chromium fails the run; on a laptop without it these tests skip with a hint.
"""

import os
import tempfile
from pathlib import Path

import pytest

from .lab import CHROMIUM, CHROMIUM_ARGS, Lab


def _need_browser():
    if Path(CHROMIUM).exists():
        return
    msg = (
        f"Chromium not found at {CHROMIUM}: the browser tests need it "
        "(Debian/Ubuntu: `sudo apt-get install chromium`, or set CHROMIUM=/path/to/chromium)."
    )
    if os.environ.get("CI") == "true":
        pytest.fail(msg + " In CI they are required.", pytrace=False)
    pytest.skip(msg)


@pytest.fixture(scope="session")
def lab():
    _need_browser()
    with Lab() as server:
        yield server


@pytest.fixture(scope="session")
def playwright_session():
    """One Playwright per test process: a second ``sync_playwright()`` while one runs is refused, so every
    browser of the suite (the plain one, the one without CJK fonts) is launched from this one."""
    _need_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser(playwright_session):
    b = playwright_session.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
    yield b
    b.close()


@pytest.fixture(scope="session")
def shots_dir():
    base = os.environ.get("BROWSER_SCREENSHOTS")
    path = Path(base) if base else Path(tempfile.mkdtemp(prefix="attn-screenshots-"))
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture
def open_notebook(lab, browser):
    """``open_notebook("03_scaling.ipynb")`` opens a notebook of the served copy in a new page (closed after
    the test) and waits for its kernel; returns a ``jupyterlab.Notebook``."""
    from .jupyterlab import Notebook

    pages = []

    def _open(name):
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        pages.append(page)
        page.goto(lab.url(name, "w" + str(abs(hash(name)))))
        nb = Notebook(page, name)
        nb.idle()
        return nb

    yield _open
    for p in pages:
        p.close()
