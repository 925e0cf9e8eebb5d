"""The thirteenth student trial (576 answers over ex01–ex08): a shape one matrix product too many or by the
wrong matrix is not told that a slice stops early (a slice is guessed only where the answer is columns or
rows of the right one), 1.4 by W_V is named as 1.5 by W_Q is, and ``a / b @ c`` is read aloud; a find-the-bug
function that takes its arguments in another order (in def, or passed on) is told so, not to add a .T; a
mask of another shape that broadcasts to nothing is named by its shape, not "not used". Both languages."""

import numpy as np
import pytest

from attn_homework import diagnose_task

from . import hints_common
from .test_hints_trial12 import _grader_reads

lang = hints_common.lang
_fresh_state = hints_common.fresh_state
words = hints_common.words
shell = hints_common.shell
run_cells = hints_common.run_cells

# the codes these tests give (tests/test_hints.py checks that every code the checker gives has a test)
CODES_OF_THE_THIRTEENTH_TRIAL = {"crossed", "wrong_shape", "arguments_swapped", "mask_ignored"}

SM = (
    "sm = lambda S, ax=-1: np.exp(S - S.max(ax, keepdims=True)) / "
    "np.exp(S - S.max(ax, keepdims=True)).sum(ax, keepdims=True)\n"
)
SLICE = ("切片或范围", "slice or a range")


# ---------------------------------------------------------------- 1. a shape from a product, not a slice


def test_queries_by_the_values_weight_are_named_by_the_weight(lang, shell):
    said = run_cells(shell, "1.4", ["Q_new = X_new @ W_v_new", 'check("1.4")'])
    assert said.startswith("❌") and "W_V" in said and "W_Q" in said, said
    assert words(lang, *SLICE) not in said


def test_weights_times_queries_are_told_of_a_product_and_the_width_they_share(lang, shell):
    answer = SM + "S = Q @ K.T / np.sqrt(3)\nmask = np.tril(np.ones((4, 4), dtype=bool))\n"
    said = run_cells(shell, "7.2", [answer + "A_causal = sm(np.where(mask, S, -np.inf)) @ Q", 'check("7.2")'])
    assert said.startswith("❌") and words(lang, "正好是 Q、K 的列数", "is the width of Q, K") in said, said
    assert words(lang, "是不是多乘了一个矩阵", "Is there an extra matrix product") in said
    assert words(lang, "少了几列。是不是某个切片", "left out. Does a slice") not in said  # a slice only hedged


def test_a_division_before_the_product_is_read_aloud_not_called_a_slice(lang, shell):
    said = run_cells(shell, "4.1", ["A = np.exp(S) / np.exp(S) @ np.ones((4, 1))", 'check("4.1")'])
    assert said.startswith("❌") and "(a / b) @ c" in said, said
    assert words(lang, "softmax 不改变形状", "softmax keeps the shape") in said
    assert words(lang, *SLICE) not in said


@pytest.mark.parametrize(
    "answer, said_zh, said_en",
    [
        (
            "Q_new = X_new @ W_q_new @ np.ones((3, 1))",
            "多了或少了一次矩阵乘法",
            "A matrix product may be extra or missing",
        ),
        ("Q_new = np.ones((2, 5)) @ X_new @ W_q_new", "乘积的行数来自左边那个矩阵", "as many rows as its left-hand"),
    ],
)
def test_a_shape_that_is_no_slice_of_the_answer_is_told_a_product_or_a_slice(lang, shell, answer, said_zh, said_en):
    said = run_cells(shell, "1.4", [answer, 'check("1.4")'])
    assert said.startswith("❌") and words(lang, said_zh, said_en) in said, said
    assert words(lang, "也可能是某个切片或范围", "or a slice or a range may") in said  # hedged, not guessed


@pytest.mark.parametrize(
    "task_id, answer, said_zh, said_en",
    [
        ("1.5", "V_new = X_new @ W_v_new[:, :1]", "少了几列。是不是某个切片", "left out. Does a slice"),
        ("4.1", "A = (np.exp(S) / np.exp(S).sum(1, keepdims=True))[:, :3]", "少了几列。", "columns are left out"),
        ("4.1", "A = (np.exp(S) / np.exp(S).sum(1, keepdims=True))[:3]", "[:3]", "[:3]"),
    ],
)
def test_a_slice_of_the_right_answer_is_still_told_a_slice(lang, shell, task_id, answer, said_zh, said_en):
    said = run_cells(shell, task_id, [answer, f'check("{task_id}")'])
    assert said.startswith("❌") and words(lang, said_zh, said_en) in said, said
    assert "(a / b) @ c" not in said


@pytest.mark.parametrize(
    "task_id, answer",
    [
        ("4.1", "A = np.exp(S) / (np.exp(S) @ np.ones((4, 1)))"),
        ("4.1", "E = np.exp(S - S.max(1, keepdims=True))\nA = E / E.sum(1, keepdims=True) @ np.eye(4)"),
        ("1.4", "Q_new = X_new @ W_q_new"),
    ],
)
def test_their_right_answers_stay_right(lang, shell, task_id, answer):
    assert run_cells(shell, task_id, [answer, f'check("{task_id}")']).startswith("✅")


# ---------------------------------------------------------------- 2. arguments in another order

RIGHT_BODY = (
    "    S = Q @ K.T / np.sqrt(Q.shape[1])\n{mask}"
    "    E = np.exp(S - S.max(axis=1, keepdims=True))\n"
    "    A = E / E.sum(axis=1, keepdims=True)\n"
    "    return A @ V\n"
)
CAUSAL = "    S = np.where(np.tril(np.ones((len(Q), len(Q)), dtype=bool)), S, -np.inf)\n"
BUGGY = (
    "def buggy_attention(Q, K, V):\n    S = Q @ K.T / np.sqrt(Q.shape[1])\n"
    "    E = np.exp(S - S.max(axis=1, keepdims=True))\n    return E / E.sum(axis=1, keepdims=True) @ K\n"
)


@pytest.mark.parametrize(
    "task_id, answer, also",
    [
        ("6.5", "def fixed_attention(Q, V, K):\n" + RIGHT_BODY.format(mask=""), False),
        ("6.5", BUGGY + "def fixed_attention(Q, K, V):\n    return buggy_attention(Q, V, K)", True),
        ("7.5", "def fixed_causal_attention(Q, V, K):\n" + RIGHT_BODY.format(mask=CAUSAL), False),
    ],
)
def test_arguments_in_another_order_are_told_so_not_a_transpose(lang, shell, task_id, answer, also):
    said = run_cells(shell, task_id, [answer, f'check("{task_id}")'])
    assert said.startswith("❌") and "def" in said and words(lang, "（Q、K、V）", "(Q, K, V)") in said, said
    assert ".T" not in said
    if task_id == "6.5":  # its probes always have d_k = d_v somewhere (7.5's may not: then no pair is named)
        assert words(lang, "K 和 V 对调", "K and V exchanged") in said
    assert (words(lang, "对调回来之后还有一处错", "with them in order one more thing") in said) == also


def test_arguments_in_another_order_failing_on_every_call_are_asked_about_the_order(lang):
    from attn_homework import TASKS

    def fixed_causal_attention(Q, V, K):
        S = Q @ K.T / np.sqrt(Q.shape[1])
        S = np.where(np.tril(np.ones((len(Q), len(Q)), dtype=bool)), S, -np.inf)
        E = np.exp(S - S.max(axis=1, keepdims=True))
        return E / E.sum(axis=1, keepdims=True) @ V

    seed = next(  # probes where d_k ≠ d_v on every call: the function never runs through
        s
        for s in range(100)
        if all(a[1].shape[1] != a[2].shape[1] for a in TASKS["7.5"].probe_arguments(np.random.default_rng(s)))
    )
    d = diagnose_task("7.5", fixed_causal_attention, np.random.default_rng(seed))
    assert d.code == "arguments_swapped" and "def" in d.message, d.message
    assert words(lang, "（Q、K、V）", "(Q, K, V)") in d.message
    assert ".T" not in d.message


def test_a_product_missing_its_transpose_is_still_told_of_the_transpose(lang):
    def fixed_attention(Q, K, V):
        S = Q @ K / np.sqrt(Q.shape[1])
        E = np.exp(S - S.max(axis=1, keepdims=True))
        return E / E.sum(axis=1, keepdims=True) @ V

    d = diagnose_task("6.5", fixed_attention, np.random.default_rng(0))
    assert d.code == "function_raised" and ".T" in d.message, d.message


def test_the_grader_reads_arguments_in_another_order_too(lang):
    notebook = {"np": np}
    exec("def fixed_attention(Q, V, K):\n" + RIGHT_BODY.format(mask=""), notebook)
    d = _grader_reads("6.5", notebook["fixed_attention"], notebook)
    assert d.code == "arguments_swapped" and "K" in d.message and ".T" not in d.message, d.message


def test_a_number_taken_for_an_array_names_the_parameters_order(lang, shell):
    answer = "def fixed_split_heads(n_heads, M):\n    return M.reshape(len(M), n_heads, -1).transpose(1, 0, 2)"
    said = run_cells(shell, "8.6", [answer, 'check("8.6")'])
    assert said.startswith("❌") and "def" in said and words(lang, "（M、n_heads）", "(M, n_heads)") in said, said


@pytest.mark.parametrize(
    "task_id, answer",
    [
        ("6.5", "def fixed_attention(Q, K, V):\n" + RIGHT_BODY.format(mask="")),
        ("7.5", "def fixed_causal_attention(Q, K, V):\n" + RIGHT_BODY.format(mask=CAUSAL)),
        ("8.6", "def fixed_split_heads(M, n_heads):\n    return np.stack(np.split(M, n_heads, axis=1))"),
    ],
)
def test_the_functions_in_order_stay_right(lang, shell, task_id, answer):
    assert run_cells(shell, task_id, [answer, f'check("{task_id}")']).startswith("✅")


# ---------------------------------------------------------------- 3. a mask of another shape


@pytest.mark.parametrize(
    "cell",
    [
        "A_causal = sm(np.where(np.tril(np.ones((4, 4), dtype=bool))[:, :1], S, -np.inf))",
        "mask = np.tril(np.ones((4, 4)))[:, 0:1]\nA_causal = sm(np.where(mask, S, -np.inf))",
    ],
)
def test_a_mask_of_another_shape_is_named_by_its_shape(lang, shell, cell):
    said = run_cells(shell, "7.2", [SM + "S = Q @ K.T / np.sqrt(3)\n" + cell, 'check("7.2")'])
    assert said.startswith("❌") and "(4, 1)" in said and words(lang, "广播", "broadcasts") in said, said
    assert words(lang, "没有用上掩码", "The mask is not used") not in said


def test_a_mask_left_out_is_asked_about_both_causes(lang, shell):
    said = run_cells(shell, "7.2", [SM + "S = Q @ K.T / np.sqrt(3)\nA_causal = sm(S)", 'check("7.2")'])
    assert said.startswith("❌") and "−∞" in said and words(lang, "没有用上掩码", "the mask not used") in said, said
    assert words(lang, "形状不对", "shape") in said


def test_a_function_whose_mask_blocks_nothing_is_asked_about_its_shape_too(lang):
    def fixed_causal_attention(Q, K, V):
        S = np.where(np.ones((len(Q), 1), bool), Q @ K.T / np.sqrt(Q.shape[1]), -np.inf)
        E = np.exp(S - S.max(axis=1, keepdims=True))
        return E / E.sum(axis=1, keepdims=True) @ V

    d = diagnose_task("7.5", fixed_causal_attention, np.random.default_rng(0))
    assert d.code == "mask_ignored" and "(n, 1)" in d.message and "−∞" in d.message, d.message
