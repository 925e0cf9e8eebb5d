"""The checker on lesson 15's tasks (the previous-token score of each head, the key an induction head reads):
right answers computed other ways pass; each mistake gets its code, with its evidence (the answer is what
that mistake makes) and a near miss that must not; a wrong prediction is explained without the right
number. The find-the-bug task (15.3) is in tests/test_find_the_bug.py."""

import numpy as np
import pytest

import attn_homework as homework
from attn_core import set_lang
from attn_homework import diagnose_task

A = homework.data("15.1").A_heads
HEADS, N = A.shape[0], A.shape[-1]


def scores_by_loops(A, offset=-1, queries=None):
    """Per head, the mean of A[h, i, i + offset] over ``queries`` (1 … n-1 unless told), with loops."""
    queries = range(1, N) if queries is None else queries
    return np.array([np.mean([a[i, i + offset] for i in queries]) for a in A])


RIGHT = [
    ("15.1", scores_by_loops(A)),
    ("15.1", scores_by_loops(A).astype(np.float32)),
    ("15.1", [float(np.trace(a, offset=-1)) / (N - 1) for a in A]),  # a list, from the trace below the diagonal
    ("15.1", np.einsum("hij,ij->h", A, np.eye(N, k=-1)) / (N - 1)),
    ("15.2", 9),
    ("15.2", 9.0),
    ("15.2", np.int64(9)),
]


@pytest.mark.parametrize("task_id, answer", RIGHT, ids=[f"{r[0]}-{i}" for i, r in enumerate(RIGHT)])
def test_right_answers_pass_however_computed(task_id, answer):
    d = diagnose_task(task_id, answer)
    assert d.ok, d.message


# (task, answer, code, words the Chinese message must hold): tests/test_hints.py counts these codes as tested
CODES = [
    ("15.1", scores_by_loops(A, offset=0), "prev_on_diagonal", "对角线上的权重"),
    ("15.1", scores_by_loops(A, offset=0, queries=range(N)), "prev_on_diagonal", "对角线上的权重"),
    ("15.1", scores_by_loops(A, offset=1, queries=range(N - 1)), "prev_above_diagonal", "因果掩码"),
    ("15.1", scores_by_loops(A) * (N - 1) / N, "prev_divided_by_n", "分母"),
    ("15.1", np.array([np.mean([a[i, i - 1] for a in A]) for i in range(1, N)]), "prev_over_heads", "轴 0"),
]


def _near(answer):
    near = np.array(answer, dtype=float)
    near.flat[-1] += 0.0731
    return near


@pytest.mark.parametrize("task_id, answer, code, words", CODES, ids=[f"{r[0]}-{r[2]}-{i}" for i, r in enumerate(CODES)])
def test_each_mistake_gets_its_code_and_a_near_miss_does_not(task_id, answer, code, words):
    d = diagnose_task(task_id, answer)
    assert d.code == code and words in d.message, d.message
    assert diagnose_task(task_id, _near(answer)).code != code


def test_no_mistake_message_gives_the_scores_away():
    right = scores_by_loops(A)
    for _, answer, _, _ in CODES:
        message = diagnose_task("15.1", answer).message
        assert not any(f"{x:.2f}" in message or f"{x:.3f}" in message for x in right), message


def test_one_weight_per_query_is_told_the_score_is_one_number_per_head():
    d = diagnose_task("15.1", A[:, np.arange(1, N), np.arange(N - 1)])
    assert d.code == "wrong_shape" and "每个头一个数" in d.message, d.message


PREDICTION_MISTAKES = [
    (8, "上一次出现的位置本身", "where the current token appeared before"),
    (17, "前一个位置", "the position just before"),
    (18, "查询自己的位置", "the query's own position"),
]


@pytest.mark.parametrize("guess, zh, en", PREDICTION_MISTAKES, ids=[str(r[0]) for r in PREDICTION_MISTAKES])
def test_each_tempting_position_is_explained_without_the_right_number(guess, zh, en):
    for lang, words in (("zh", zh), ("en", en)):
        set_lang(lang)
        try:
            d = diagnose_task("15.2", guess)
        finally:
            set_lang("zh")
        assert d.code == "wrong_prediction" and words in d.message and "9" not in d.message, d.message


def test_another_wrong_position_is_explained_without_the_right_number():
    d = diagnose_task("15.2", 12)
    assert d.code == "wrong_prediction" and "9" not in d.message and "第一遍" in d.message and "？" in d.message, (
        d.message
    )


def test_the_position_must_be_a_whole_number():
    assert not diagnose_task("15.2", 9.5).ok
