"""More of the eighth trial's unhelpful hints, as tests in both languages: an answer off by one common
factor says so (with the factor), a prediction changed afterwards to no possible answer is told that too,
and a check after a failed cell names the error and says its hint is about the value from before."""

import contextlib
import io

import numpy as np
import pytest

import attn_homework as homework
from attn_homework import diagnose_task

from . import hints_common

lang = hints_common.lang
_fresh_state = hints_common.fresh_state
words = hints_common.words
shell = hints_common.shell


def run_cells(shell, task_id, cells):
    shell.user_ns.update(homework.TASKS[task_id].inputs())
    out = io.StringIO()
    for source in cells[:-1]:
        shell.run_cell(source, store_history=True)
    with contextlib.redirect_stdout(out):
        shell.run_cell(cells[-1], store_history=True)
    return out.getvalue().strip()


@pytest.mark.parametrize(
    "task_id, answer, factor",
    [
        ("2.1", lambda d: 2 * d["Q"] @ d["K"].T, "2"),
        ("2.1", lambda d: -(d["Q"] @ d["K"].T), "−1"),
        ("2.1", lambda d: d["Q"] @ d["K"].T / np.sqrt(2), "0.7071"),
    ],
)
def test_an_answer_off_by_one_common_factor_names_the_factor(lang, task_id, answer, factor):
    d = diagnose_task(task_id, answer(homework.TASKS[task_id].inputs()))
    assert d.code == "a_multiple" and factor in d.message
    assert words(lang, "共同的因子", "one common factor") in d.message


def test_the_factor_is_named_as_a_root_where_it_is_one():
    from attn_homework.checker import _factor_text

    assert "1/√2" in _factor_text(1 / np.sqrt(2)) and "√3" in _factor_text(np.sqrt(3))
    assert "1/4" in _factor_text(0.25) and _factor_text(3.0) == "3"


def test_a_multiple_of_a_constant_answer_is_no_evidence():
    """Every constant is a multiple of any other: lesson 12's shifted scores are one number repeated."""
    from attn_homework.checker import evidence
    from attn_homework.checker.givens import Givens

    g = Givens(expected=np.full(6, 1.2651169))
    assert evidence.multiple(np.full(6, 1.97), g) is None


def test_a_prediction_changed_to_an_impossible_one_is_told_both(lang, shell):
    said = run_cells(shell, "4.5", ["top_key = 2", 'check("4.5")', "top_key = 7", 'check("4.5")'])
    assert words(lang, "改后的值本身也不行", "the new value would not do either") in said
    assert words(lang, "0 到 3", "from 0 to 3") in said


def test_a_check_after_a_failed_cell_names_the_error_and_the_old_value(lang, shell):
    cells = ["QKT = 2 * Q @ K.T", 'check("2.1")', "QKT = Q @ K.T / np.sqrt(not_defined)", 'check("2.1")']
    said = run_cells(shell, "2.1", cells)
    assert "NameError" in said and words(lang, "更早一次运行留下的值", "a value from an earlier run") in said
