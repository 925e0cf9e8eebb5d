"""The live explorers on a static page, no kernel and no widget manager: what `make site` and `make board`
build on. The page holds each explorer's ``text/html`` fallback (its static picture and its state) and the
script ``attn_viz.explorers.bundle()``; opened from ``file://`` with every other request refused, each
explorer becomes live: its controls answer the keyboard, the picture is redrawn on the keypress itself
(``data-attn-frame`` counts the redraws), the whole explorer fits a 1440 × 900 laptop screen with its
controls beside the picture (above it for a wide one: lesson 08's two maps), axe-core finds nothing serious
or critical, and the Chinese is drawn.
"""

import pytest

from attn_core import lang
from attn_viz.explorers import Explorer, bundle

from ..test_explorers_js import LIVE
from .accessibility import axe_problems, operate_by_keyboard, tab_order
from .jupyterlab import HANZI, JS_TOFU

pytestmark = pytest.mark.browser
SCREEN = {"width": 1440, "height": 900}


def frame_count(explorer):
    return int(explorer.locator(".attn-picture").get_attribute("data-attn-frame"))


def picture(explorer):
    return explorer.locator(".attn-picture").inner_html()


@pytest.fixture(scope="module", params=["zh", "en"])
def page(request, browser, tmp_path_factory):
    edition = request.param
    before = lang.get_lang()
    lang.set_lang(edition)
    try:
        explorers = [factory() for factory in LIVE]
    finally:
        lang.set_lang(before)
    assert all(isinstance(ex, Explorer) for ex in explorers)
    folder = tmp_path_factory.mktemp(f"page-{edition}")
    (folder / "explorers.js").write_text(bundle(), encoding="utf-8")
    body = "".join(f"<section>{ex.static_html()}</section>" for ex in explorers)
    (folder / "index.html").write_text(
        f'<!doctype html><html lang="{edition}"><head><meta charset="utf-8"><title>explorers</title></head>'
        f'<body><main>{body}</main><script src="explorers.js"></script></body></html>',
        encoding="utf-8",
    )
    for ex in explorers:
        ex.close()
    context = browser.new_context(viewport=SCREEN)
    requests = []

    def only_the_folder(route):
        requests.append(route.request.url)
        if route.request.url.startswith(folder.as_uri()):
            route.continue_()
        else:
            route.abort()

    context.route("**/*", only_the_folder)
    p = context.new_page()
    errors = []
    p.on("pageerror", lambda e: errors.append(str(e)))
    p.goto((folder / "index.html").as_uri())
    p.wait_for_selector(".attn-explorer-live")
    yield p, len(explorers), requests, errors, folder
    context.close()


def test_every_explorer_is_mounted_live_from_its_static_fallback(page):
    p, count, requests, errors, folder = page
    assert not errors
    assert p.locator(".attn-explorer-live").count() == count
    assert p.locator("[data-attn-explorer][data-attn-mounted]").count() == count
    assert all(p.locator(".attn-explorer img").nth(i).is_hidden() for i in range(count))  # the static picture
    assert all(url.startswith(folder.as_uri()) for url in requests), requests  # nothing from another host


def test_a_keypress_redraws_the_picture_at_once(page):
    p, count, *_ = page
    for i in range(count):
        explorer = p.locator(".attn-explorer-live").nth(i)
        control = explorer.locator("input[type=range]").first
        control.focus()
        before, frames = picture(explorer), frame_count(explorer)
        p.keyboard.press("End")  # the picture is redrawn in the input event itself: no waiting
        assert frame_count(explorer) == frames + 1 and picture(explorer) != before
        p.keyboard.press("Home")
        assert frame_count(explorer) == frames + 2


def test_the_position_explorers_highlighted_row_follows_the_i_slider(page):
    # newcomer trial 2: with i at 6 the heatmaps still labelled the outlined row 学习（2）
    p, *_ = page
    explorer = p.locator('[data-attn-explorer="positions"] .attn-explorer-live')
    english = p.evaluate("document.documentElement.lang") == "en"
    at = (lambda k: f"学习 “study” ({k})") if english else (lambda k: f"学习（{k}）")

    def row_labels():
        return explorer.locator(".attn-picture svg text").all_text_contents()

    slider = explorer.locator("input[type=range]").first  # i, where 学习 asks
    start = int(float(slider.input_value()))  # an earlier test on this page may have left it elsewhere
    slider.focus()

    def move_to(k):
        p.keyboard.press("Home")
        for _ in range(k - int(float(slider.input_value()))):
            p.keyboard.press("ArrowRight")

    move_to(2)
    assert at(2) in row_labels() and at(6) not in row_labels(), row_labels()
    move_to(6)
    labels = row_labels()
    assert at(6) in labels and at(2) not in labels, labels  # the outlined row is 学习 at i = 6 in the picture
    assert any("i = 6" in t for t in labels)
    move_to(start)  # the page's later tests start from where this one began


def test_keyboard_reaches_and_operates_every_control(page):
    p, count, *_ = page
    for i in range(count):
        explorer = p.locator(".attn-explorer-live").nth(i)
        reached, total = tab_order(p, explorer, explorer)
        assert len(reached) == total, f"explorer {i + 1}: Tab reaches {len(reached)} of {total} controls"
        assert not operate_by_keyboard(p, explorer, picture, f"explorer {i + 1}")


def test_each_explorer_fits_a_laptop_screen_with_its_controls_beside_the_picture(page):
    p, count, *_ = page
    for i in range(count):
        explorer = p.locator(".attn-explorer-live").nth(i)
        box = explorer.bounding_box()
        controls = explorer.locator(".attn-controls").bounding_box()
        figure = explorer.locator(".attn-picture svg").bounding_box()
        assert box["height"] <= SCREEN["height"], (i, box)
        if "attn-wide" in (explorer.get_attribute("class") or ""):  # lesson 08's two 10 × 10 maps: a row of
            assert controls["y"] + controls["height"] <= figure["y"], (i, controls, figure)  # their own
        else:
            assert controls["x"] + controls["width"] <= figure["x"], (i, controls, figure)  # side by side
        assert figure["x"] + figure["width"] <= SCREEN["width"]


def test_no_serious_accessibility_problem_and_the_chinese_is_drawn(page):
    p, *_ = page
    assert not axe_problems(p, "main")
    assert not p.evaluate(JS_TOFU, [HANZI, "sans-serif"])
