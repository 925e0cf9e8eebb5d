"""More of the eighth trial's unhelpful hints, as tests in both languages: an answer off by one common
factor says so (with the factor), a prediction changed afterwards to no possible answer is told that too,
and a check after a failed cell names the error and says its hint is about the value from before."""

import numpy as np
import pytest

import attn_homework as homework
from attn_homework import diagnose_task

from . import hints_common

lang = hints_common.lang
_fresh_state = hints_common.fresh_state
words = hints_common.words
shell = hints_common.shell


run_cells = hints_common.run_cells


@pytest.mark.parametrize(
    "task_id, answer, factor",
    [
        ("2.1", lambda d: 2 * d["Q"] @ d["K"].T, "2"),
        ("2.1", lambda d: -(d["Q"] @ d["K"].T), "−1"),
        ("2.1", lambda d: d["Q"] @ d["K"].T / np.sqrt(2), "1/√2"),
    ],
)
def test_an_answer_off_by_one_common_factor_names_the_factor(lang, task_id, answer, factor):
    d = diagnose_task(task_id, answer(homework.TASKS[task_id].inputs()))
    assert d.code == "a_multiple" and factor in d.message
    assert words(lang, "共同的因子", "one common factor") in d.message


def test_the_factor_is_named_as_a_root_where_it_is_one():
    from attn_homework.checker import _factor_text

    assert _factor_text(1 / np.sqrt(2)) == "1/√2" and _factor_text(np.sqrt(3)) == "√3"
    assert _factor_text(0.25) == "1/4" and _factor_text(3.0) == "3" and _factor_text(-1.0) == "−1"
    assert _factor_text(1.7836) is None  # any other number would hand over the answer (yours ÷ it)


def test_a_multiple_of_a_constant_answer_is_no_evidence():
    """Every constant is a multiple of any other: lesson 12's shifted scores are one number repeated."""
    from attn_homework.checker import evidence
    from attn_homework.checker.givens import Givens

    g = Givens(expected=np.full(6, 1.2651169))
    assert evidence.multiple(np.full(6, 1.97), g) is None


def test_a_prediction_changed_to_an_impossible_one_is_told_both(lang, shell):
    said = run_cells(shell, "4.5", ["top_key = 2", 'check("4.5")', "top_key = 7", 'check("4.5")'])
    assert words(lang, "改后的值本身也不符合要求", "the new value would not do either") in said
    assert words(lang, "0 到 3", "from 0 to 3") in said


def test_a_check_after_a_failed_cell_names_the_error_and_the_old_value(lang, shell):
    cells = ["QKT = 2 * Q @ K.T", 'check("2.1")', "QKT = Q @ K.T / np.sqrt(not_defined)", 'check("2.1")']
    said = run_cells(shell, "2.1", cells)
    assert "NameError" in said and words(lang, "更早一次运行留下的值", "a value from an earlier run") in said


def _rope_by_hand(X, positions, read, write):
    """RoPE with ω_k = 1/10000^(2k/d), the pairs read in layout ``read`` and written back in ``write``."""
    X = np.atleast_2d(X)
    d = X.shape[-1]
    t = np.asarray(positions, dtype=float)[:, None] / 10000 ** (2 * np.arange(d // 2) / d)
    x, y = (X[:, 0::2], X[:, 1::2]) if read == "interleaved" else (X[:, : d // 2], X[:, d // 2 :])
    x2, y2 = x * np.cos(t) - y * np.sin(t), x * np.sin(t) + y * np.cos(t)
    out = np.empty_like(X)
    if write == "interleaved":
        out[:, 0::2], out[:, 1::2] = x2, y2
    else:
        out = np.concatenate([x2, y2], axis=1)
    return out


@pytest.mark.parametrize("read, write", [("interleaved", "half"), ("half", "interleaved")])
def test_pairs_written_back_in_the_other_layout_are_named_in_12_3(lang, read, write):
    d = homework.TASKS["12.3"].inputs()
    d = diagnose_task("12.3", _rope_by_hand(d["q_new"], [d["p"]], read, write)[0])
    assert d.code == "rope_layouts_mixed" and words(lang, "相邻配对", "neighbouring pairs") in d.message


@pytest.mark.parametrize("read, write", [("interleaved", "half"), ("half", "interleaved")])
def test_pairs_written_back_in_the_other_layout_are_named_in_12_4(lang, read, write):
    K = homework.TASKS["12.4"].inputs()["K_new"]
    d = diagnose_task("12.4", _rope_by_hand(K, np.arange(len(K)), read, write))
    assert d.code == "rope_layouts_mixed" and words(lang, "前后两半配对", "the two halves paired") in d.message


def test_the_right_rope_by_hand_passes_both_tasks():
    d = homework.TASKS["12.3"].inputs()
    assert diagnose_task("12.3", _rope_by_hand(d["q_new"], [d["p"]], "interleaved", "interleaved")[0]).ok
    K = homework.TASKS["12.4"].inputs()["K_new"]
    assert diagnose_task("12.4", _rope_by_hand(K, np.arange(len(K)), "half", "half")).ok


@pytest.mark.parametrize("decimals", [1, 2])
def test_rounded_shifted_scores_are_told_rounded_though_they_are_one_number_repeated(lang, decimals):
    d = homework.TASKS["12.6"].inputs()
    q, k, i, j, shifts = d["q"], d["k"], d["i"], d["j"], d["shifts"]

    def turned(x, p):
        return _rope_by_hand(x, [p], "interleaved", "interleaved")[0]

    scores = np.array([turned(q, i + s) @ turned(k, j + s) for s in shifts])
    assert diagnose_task("12.6", scores).ok
    said = diagnose_task("12.6", np.round(scores, decimals))
    assert said.code == "almost_right" and f"{decimals}" in said.message and "np.round" in said.message


# the codes these tests give (tests/test_hints.py checks that every code the checker gives has a test)
CODES_OF_THE_EIGHTH_TRIAL_MORE = {"rope_layouts_mixed", "a_multiple", "almost_right"}


def _heads_output():
    d = homework.TASKS["8.3"].inputs()
    S = d["Q_h"] @ np.swapaxes(d["K_h"], -1, -2) / np.sqrt(d["Q_h"].shape[-1])
    E = np.exp(S - S.max(axis=-1, keepdims=True))
    return E / E.sum(axis=-1, keepdims=True) @ d["V_h"]


def test_dot_T_on_three_axes_is_told_it_reverses_every_axis(lang):
    d = diagnose_task("8.3", _heads_output().T)
    assert d.code == "wrong_shape" and "np.swapaxes(x, -1, -2)" in d.message
    assert words(lang, "前面多一个轴", "one more axis in front") in d.message  # not a matrix's words alone


def test_too_few_axes_says_how_many_not_a_matrix(lang):
    d = diagnose_task("8.3", _heads_output()[0])
    assert d.code == "wrong_shape" and words(lang, "要的是 3 个轴", "an array with 3 axes") in d.message
    assert words(lang, "完整的矩阵", "a whole matrix") not in d.message
