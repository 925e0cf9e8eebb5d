"""ex04: softmax along rows.

The notebook and its tasks, in the order the notebook checks them (the fields: ``model.py``)."""

import numpy as np

from ..task_data import (
    XUEXI,
    YUYAN,
    big_scores,
    doubled,
    four_word_inputs,
    fresh,
    fresh_scores,
    probe_softmax,
    with_tokens,
)
from .model import Exercise, Task, _no_givens


def probe_softmax_rows_apart(rng):
    """``probe_softmax``'s calls, and two where only each row's own maximum keeps exp finite: rows about 1000
    apart (with the whole matrix's maximum subtracted, exp of the lower row underflows to 0 and it is 0/0)
    and a row spread over ±1000 (with its mean subtracted, exp overflows: ∞/∞); and scores near 12000, beyond
    what x86's long double holds (e^11357 overflows it), so that a softmax without the maximum subtracted,
    computed in np.longdouble, fails here as it does on Windows (where long double is float64)."""
    apart = np.round(rng.normal(0.0, 1.0, size=(2, 3)), 2) + np.array([[0.0], [1000.0]])
    spread = np.round(rng.normal(0.0, 1.0, size=(2, 4)), 2) + np.array([-1000.0, -1.0, 1.0, 1000.0])
    beyond = np.round(rng.normal(0.0, 1.0, size=(2, 3)), 2) + 12000.0
    return probe_softmax(rng) + [(apart,), (spread,), (beyond,)]


EXERCISE = Exercise("ex04_softmax", "04_softmax.ipynb", "逐行 softmax", "Row-wise softmax")

TASKS = (
    Task(
        "4.1",
        "ex04_softmax",
        var="A",
        step="softmax",
        title_zh="四个词的注意力权重 A",
        title_en="Attention weights of the four words",
        inputs=four_word_inputs("S"),
        given_from=with_tokens(lambda d: {"S": d["S"]}),
    ),
    Task(
        "4.2",
        "ex04_softmax",
        var="A_new",
        step="softmax",
        title_zh="新数据：3 × 5 的分数逐行 softmax",
        title_en="Fresh data: softmax of 3 × 5 scores",
        inputs=fresh_scores,
        given_from=lambda d: {"S": d["S_new"]},
    ),
    Task(
        "4.3",
        "ex04_softmax",
        var="A_big",
        step="softmax",
        title_zh="很大的分数：数值稳定的 softmax",
        title_en="Huge scores: a numerically stable softmax",
        inputs=big_scores,
        given_from=lambda d: {"S": d["S_big"]},
    ),
    Task(
        "4.4",
        "ex04_softmax",
        var="A_double",
        step="weights",
        title_zh="把“语言”的键放大到 2 倍后的权重",
        title_en="Weights after doubling the key of 语言",
        inputs=four_word_inputs("Q", "K"),
        given_from=with_tokens(
            lambda d: {"Q": d["Q"], "K": doubled(d["K"], YUYAN), "d_k": 3, "scaled": True, "key": YUYAN, "factor": 2.0}
        ),
    ),
    Task(
        "4.5",
        "ex04_softmax",
        var="top_key",
        step="predict_top_key",
        title_zh="先预测：“语言”的键减半后，“学习”最关注谁？",
        title_en="Predict: halve the key of 语言; which key gets most from 学习?",
        inputs=four_word_inputs("Q", "K"),
        given_from=with_tokens(
            lambda d: {"Q": d["Q"], "K": d["K"], "row": XUEXI, "key": YUYAN, "factor": 0.5, "d_k": 3}
        ),
        answer_kind="number",
    ),
    Task(
        "4.6",
        "ex04_softmax",
        var="fixed_softmax",
        step="fix_softmax",
        title_zh="找错：修好 buggy_softmax",
        title_en="Find the bug: fix buggy_softmax",
        inputs=fresh(406, S_demo=(3, 3)),
        given_from=_no_givens,
        answer_kind="function",
        probe_arguments=probe_softmax_rows_apart,
    ),
)
