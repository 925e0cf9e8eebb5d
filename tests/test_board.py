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
    assert board.tabs.titles[0] == "第 3 课 · 为什么除以 √d_k"
    for station, tab in zip(STATIONS, board.tabs.children):
        question, explorer = tab.children
        assert "问全班：" in question.value and explorer is board.explorers[station.key]
        assert explorer.text.lang == "zh" and explorer.error is None


def test_the_language_switch_rebuilds_the_board_and_keeps_the_tab(board):
    board.tabs.selected_index = 3
    old = board.explorers["mask"]
    board.language.value = "en"
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
    other = DemoBoard("zh")
    try:
        assert other._repr_mimebundle_()["text/html"] == bundle["text/html"]
    finally:
        other.close()


def test_a_language_the_board_does_not_speak_is_refused():
    with pytest.raises(ValueError, match="'fr'.*zh, en"):
        DemoBoard("fr")


def test_the_board_leaves_the_pipelines_shape_table_out_to_draw_the_rest_larger():
    full, board = pipeline_explorer(), pipeline_explorer(shape_table=False)
    try:
        assert "每一步的形状" in full.svg and "每一步的形状" not in board.svg
        assert "下面的表" in full.description and "下面的表" not in board.description
        assert 'height="' in board.svg and board.svg.count("<text") < full.svg.count("<text")
        assert board.readouts == full.readouts
    finally:
        full.close()
        board.close()
