"""The Chinese edition in JupyterLab (what is checked and why: jupyterlab.py). One module per edition, so
pytest-xdist (--dist loadscope) can give each edition to a worker of its own."""

import pytest

from .jupyterlab import (
    chinese_renders_as_glyphs,
    explorer_notebooks,
    explorers_answer,
    homework_round_trip,
    learners_lab_has_no_teacher_tooling,
)

pytestmark = pytest.mark.browser
EDITION = ""


@pytest.mark.parametrize("name", explorer_notebooks(EDITION))
def test_explorers_answer_in_jupyterlab(open_notebook, shots_dir, record_property, name):
    explorers_answer(open_notebook, shots_dir, record_property, name)


def test_homework_check_cell_names_a_transposed_answer_then_passes(open_notebook):
    homework_round_trip(open_notebook, EDITION)


def test_chinese_and_the_check_marks_are_glyphs_not_boxes(open_notebook):
    chinese_renders_as_glyphs(open_notebook)


def test_the_learners_jupyterlab_shows_no_teacher_tooling(open_notebook):
    learners_lab_has_no_teacher_tooling(open_notebook)
