"""The classroom board: one tab per station, in the chosen language, deterministic without a kernel."""

import pytest

from attn_viz.board import STATIONS, DemoBoard
from attn_viz.explorers import pipeline_explorer

WIDGET_MIME = "application/vnd.jupyter.widget-view+json"


@pytest.fixture
def board():
    b = DemoBoard("zh")
    yield b
    b.close()


def test_one_tab_per_station_with_its_lesson_explorer_and_question(board):
    assert len(board.tabs.children) == len(STATIONS) == len(board.explorers)
    assert board.tabs.titles[0] == "第 3 课 · 除以 √d\u2096"
    for station, tab in zip(STATIONS, board.tabs.children):
        question, explorer = tab.children
        assert "问全班：" in question.value and explorer is board.explorers[station.key]
        assert explorer.text.lang == "zh" and explorer.error is None


def test_the_language_switch_rebuilds_the_board_and_keeps_the_tab(board):
    board.tabs.selected_index = 3
    old, boxes = board.explorers["mask"], list(board.tabs.children)
    board.language.value = "en"
    # the Tab's children stay the same boxes (new children made the page show the first tab again)
    assert all(a is b for a, b in zip(board.tabs.children, boxes)) and len(boxes) == len(STATIONS)
    assert board.tabs.selected_index == 3 and board.tabs.titles[3] == "Lesson 7 · masks"
    assert board.explorers["mask"] is not old and old.comm is None  # the old widgets are closed
    assert "Ask the room: " in board.tabs.children[0].children[0].value
    assert all(ex.text.lang == "en" for ex in board.explorers.values())
    assert "queries (who asks)" in board.explorers["pipeline"].svg


def test_saved_board_shows_every_station_the_same_way_every_time(board):
    bundle = board._repr_mimebundle_()
    assert WIDGET_MIME in bundle and "make demo" in bundle["text/plain"]
    for station in STATIONS:
        assert board.explorers[station.key].static_html() in bundle["text/html"]
    assert "<h3>第 3 课 · 除以 √d<sub>k</sub></h3>" in bundle["text/html"]  # as the tabs: a real subscript
    other = DemoBoard("zh")
    try:
        assert other._repr_mimebundle_()["text/html"] == bundle["text/html"]
    finally:
        other.close()


def test_a_language_the_board_does_not_speak_is_refused():
    with pytest.raises(ValueError, match="'fr'.*zh, en"):
        DemoBoard("fr")


def test_the_board_leaves_the_pipelines_shape_table_out_to_draw_the_rest_larger():
    from attn_core import get_lang, set_lang

    before = get_lang()
    set_lang("zh")  # the words below are the Chinese edition's (another test may have left "en" behind)
    try:
        full, board = pipeline_explorer(), pipeline_explorer(shape_table=False)
    finally:
        set_lang(before)
    try:
        assert "每一步的形状" in full.svg and "每一步的形状" not in board.svg
        assert "下面的表" in full.description and "下面的表" not in board.description
        assert 'height="' in board.svg and board.svg.count("<text") < full.svg.count("<text")
        assert board.readouts == full.readouts
    finally:
        full.close()
        board.close()


def test_tab_titles_keep_the_subscript_of_d_k():
    from attn_viz.board import tab_title_html
    from attn_viz.explorers.base import Text

    dk = STATIONS[0]
    assert dk.key == "dk"
    assert tab_title_html(dk, Text("en")) == "Lesson 3 · ÷ √d<sub>k</sub>"
    assert tab_title_html(dk, Text("zh")) == "第 3 课 · 除以 √d<sub>k</sub>"


def test_the_widget_tab_titles_are_plain_text_with_a_subscript_k_and_no_underscore(board):
    """ipywidgets draws titles as text: d_k must be d + U+2096 there, in both languages, on every tab."""
    for lang in ("zh", "en"):
        board.language.value = lang
        titles = list(board.tabs.titles)
        assert len(titles) == len(STATIONS)
        assert not any("_" in t or "<" in t for t in titles), titles
        assert titles[0] == {"zh": "第 3 课 · 除以 √d\u2096", "en": "Lesson 3 · ÷ √d\u2096"}[lang]


@pytest.fixture(scope="module")
def standalone():
    from attn_viz.board import standalone_html

    return standalone_html("zh")


def _states(page: str) -> list[dict]:
    import json
    import re

    return [json.loads(s) for s in re.findall(r'<script type="application/json">(.*?)</script>', page)]


def test_the_board_without_python_has_every_station_in_both_languages(standalone):
    import re

    states = _states(standalone)
    assert len(states) == 2 * len(STATIONS)
    assert [s["lang"] for s in states] == ["zh"] * len(STATIONS) + ["en"] * len(STATIONS)
    for lang in ("zh", "en"):
        for station in STATIONS:
            tab, panel = f"attn-tab-{lang}-{station.key}", f"attn-panel-{lang}-{station.key}"
            assert f'id="{tab}" aria-controls="{panel}"' in standalone
            assert f'id="{panel}" aria-labelledby="{tab}"' in standalone
    assert "问全班：" in standalone and "Ask the room: " in standalone
    assert '<html lang="zh-CN">' in standalone and 'data-attn-lang="en"' in standalone
    # one inline classic script with every explorer (file:// cannot import modules)
    assert standalone.count("data-attn-bundle") == 1 and "globalThis.attnExplorers" in standalone
    assert not re.search(r'<script[^>]+type="module"', standalone)


def test_the_board_without_python_asks_no_other_host_for_anything(standalone):
    import re

    assert not re.search(r'(src|href)\s*=\s*"(https?:)?//', standalone)
    assert not re.search(r"url\(\s*['\"]?(https?:)?//", standalone) and "@import" not in standalone
    assert 'url("fonts/NotoSansSC-Subset.otf")' in standalone  # the font beside the page


def test_build_board_writes_a_folder_with_the_page_and_its_font(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    out = tmp_path / "usb"
    subprocess.run(
        [sys.executable, str(root / "tools" / "build_board.py"), "--out", str(out), "--lang", "en"],
        check=True,
        capture_output=True,
        cwd=root,
    )
    page = (out / "index.html").read_text(encoding="utf-8")
    assert '<html lang="en">' in page and "Self-attention · classroom board" in page
    font = out / "fonts" / "NotoSansSC-Subset.otf"
    assert font.read_bytes() == (root / "attn_viz" / "fonts" / "NotoSansSC-Subset.otf").read_bytes()
    assert (out / "fonts" / "OFL.txt").exists()  # the font's licence travels with it


def test_the_tab_titles_are_short_and_the_chosen_language_is_filled():
    """At 1280 px the seven tabs wrapped to two rows, and the chosen language was only a slightly darker grey."""
    from attn_viz.board import STYLE, TAB_SHARE, tab_title
    from attn_viz.explorers.base import Text
    from attn_viz.svg import text_width

    size = TAB_SHARE * 28 * 1280 / 1920  # px: the tab titles at 1280 px (the text follows the width)
    for lang in ("zh", "en"):
        titles = [tab_title(station, Text(lang)) for station in STATIONS]
        # text_width's 0.6 em per Latin letter is generous: Chromium drew the English titles 1180 px wide
        # with their paddings, the Chinese 980 px; the board has 1240 px at 1280
        assert sum(text_width(t, size) for t in titles) <= 1280, titles
    assert TAB_SHARE < 1 and "padding: 3px 0.4em !important" in STYLE
    assert ".widget-toggle-button.mod-active { background: #31688e; color: #fff;" in STYLE
