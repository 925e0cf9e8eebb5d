"""The twelfth student trial, second half (ex09–ex15): a decoding step's positions of the wrong shape are
told the shape without an example that turns the new token at position 0; a running maximum or sum of the
scores' shape is named as a reduction down the columns, not as keepdims forgotten; an answer rounded to a
few decimals is told wherever rounding moved its numbers, even within the tolerance, and accepted where it
did not (a right answer that has few decimals itself). Both languages."""

import numpy as np
import pytest

from attn_homework import TASKS, diagnose_task

from . import hints_common

lang = hints_common.lang
_fresh_state = hints_common.fresh_state
words = hints_common.words
shell = hints_common.shell
run_cells = hints_common.run_cells

# the codes these tests give (tests/test_hints.py checks that every code the checker gives has a test)
CODES_OF_THE_TWELFTH_TRIAL_B = {
    "function_raised",
    "wrong_shape",
    "almost_right",
    "wrong_type",
    "max_both_blocks",
    "softmax_axis",
    "kv_heads_tiled",
    "rope_negative_angle",
    "rope_key_one_ahead",
    "scaled_wrong_width",
    "induction_fixed_place",
    "transposed",
    "no_softmax",
}


def _rope_step(positions_of):
    def fixed_rope_step(q, k, v, K_cache, V_cache):
        from attn_core import rope

        positions = positions_of(K_cache, q)
        q, k = rope(q, positions), rope(k, positions)
        K_all, V_all = np.vstack([K_cache, k]), np.vstack([V_cache, v])
        s = q @ K_all.T / np.sqrt(q.shape[1])
        e = np.exp(s - s.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True) @ V_all

    return fixed_rope_step


@pytest.mark.parametrize(
    "positions_of",
    [lambda K_cache, q: np.arange(len(K_cache) + 1), lambda K_cache, q: len(K_cache)],
    ids=["arange_of_all", "plain_number"],
)
def test_positions_of_the_wrong_shape_get_no_example_at_position_0(lang, positions_of):
    d = diagnose_task("14.4", _rope_step(positions_of))
    assert d.code == "function_raised", d.message
    assert "np.arange(1)" not in d.message and "np.arange(t, t + 1)" in d.message, d.message
    assert words(lang, "X 的每一行需要一个位置", "every row of X needs one position") in d.message


def test_the_right_positions_are_still_accepted(lang):
    assert diagnose_task("14.4", _rope_step(lambda K_cache, q: np.arange(len(K_cache), len(K_cache) + len(q)))).ok


M1 = "m1 = S1.max(axis=1, keepdims=True)\n"
L1 = M1 + "l1 = np.exp(S1 - m1).sum(axis=1, keepdims=True)\n"


@pytest.mark.parametrize(
    ("task_id", "answer"),
    [
        (
            "9.4",
            L1 + "m2 = np.maximum(m1, S2.max(axis=0, keepdims=True))\n"
            "l2 = l1 * np.exp(m1 - m2) + np.exp(S2 - m2).sum(axis=1, keepdims=True)",
        ),
        ("9.2", M1 + "l1 = np.exp(S1 - m1)"),
    ],
    ids=["column_maximum_broadcast", "sum_left_out"],
)
def test_a_running_value_of_the_scores_shape_is_not_called_keepdims_forgotten(lang, shell, task_id, answer):
    said = run_cells(shell, task_id, [answer, f'check("{task_id}")'])
    assert said.startswith("❌") and "(3, 4)" in said, said
    assert "axis=0" in said and "axis=-1, keepdims=True" in said, said
    assert words(lang, "会去掉这个轴", "removes that axis") not in said, said


def test_a_transposed_running_maximum_is_named_transposed(lang, shell):
    said = run_cells(shell, "9.1", ["m1 = S1.max(axis=1, keepdims=True).T", 'check("9.1")'])
    assert said.startswith("❌") and words(lang, "转置后的形状", "the transposed shape") in said, said
    assert "keepdims" not in said, said


@pytest.mark.parametrize("task_id", ["9.2", "9.4", "12.5"])
def test_rounding_within_the_tolerance_is_told_where_it_moved_the_numbers(lang, task_id):
    from attn_homework.checker import STEP_TABLE

    task = TASKS[task_id]
    right = np.asarray(STEP_TABLE[task.step].givens(task.given()).expected)
    assert diagnose_task(task_id, right).ok
    d = diagnose_task(task_id, right.round(4))
    assert d.code == "almost_right" and words(lang, "别在答案里取整", "do not round the answer") in d.message
    assert words(lang, "碰巧还在检查允许的误差之内", "happens to stay within the check's tolerance") in d.message


@pytest.mark.parametrize(
    ("task_id", "answer"),
    [
        ("11.3", "F_out = (np.maximum(0, H_in @ W1 + b1) @ W2 + b2).round(4)"),
        ("15.1", "i = np.arange(1, 6)\nprev_scores = A_heads[:, i, i - 1].mean(axis=-1).round(4)"),
        ("9.1", "m1 = np.round(S1.max(axis=1, keepdims=True), 1)"),
    ],
)
def test_rounding_that_moves_no_number_is_accepted(lang, shell, task_id, answer):
    """These right answers have few decimals themselves: rounding them changes nothing."""
    said = run_cells(shell, task_id, [answer, f'check("{task_id}")'])
    assert said.startswith("✅"), said


@pytest.mark.parametrize(
    ("task_id", "answer", "zh", "en"),
    [
        (
            "11.1",
            "X_norm = (X - X.mean(axis=1, keepdims=True)) / np.sqrt(X.var(axis=1, keepdims=True) + 1e-5)\n"
            "X_norm = X_norm[:3]",
            "少了几行",
            "some rows are left out",
        ),
        (
            "13.2",
            "S = Q @ K.T / np.sqrt(3)\nE = np.exp(np.where(key_padding_mask, -np.inf, S))\n"
            "A_padded = (E / E.sum(axis=1, keepdims=True))[:3]",
            "少了几行",
            "some rows are left out",
        ),
        (
            "14.3",
            "def sm(S):\n    E = np.exp(S - S.max(axis=-1, keepdims=True))\n"
            "    return E / E.sum(axis=-1, keepdims=True)\n"
            "Kr = np.repeat(K_heads, 2, axis=0); Vr = np.repeat(V_heads, 2, axis=0)\n"
            "O_gqa = (sm(Q_heads @ Kr.transpose(0, 2, 1) / np.sqrt(2)) @ Vr).transpose(1, 0, 2)",
            "换了顺序",
            "in another order",
        ),
    ],
    ids=["layer_norm_rows", "padding_rows", "heads_axes"],
)
def test_a_wrong_shape_without_a_product_is_told_what_is_wrong_with_it(lang, shell, task_id, answer, zh, en):
    said = run_cells(shell, task_id, [answer, f'check("{task_id}")'])
    assert said.startswith("❌") and words(lang, zh, en) in said, said
    assert words(lang, "矩阵乘法的形状", "shape of each matrix product") not in said, said


def test_a_shift_left_out_is_told_numbers_are_missing(lang):
    from attn_homework.checker import STEP_TABLE

    task = TASKS["12.6"]
    right = np.asarray(STEP_TABLE[task.step].givens(task.given()).expected)
    d = diagnose_task("12.6", right[:-1])
    assert d.code == "wrong_shape" and words(lang, "少了几个", "some are left out") in d.message, d.message
    assert words(lang, "矩阵乘法的形状", "shape of each matrix product") not in d.message


def test_complex_numbers_are_told_to_be_real(lang, shell):
    answer = "from attn_core import rope\nq_rot = rope(q_new[None], np.array([p]))[0].astype(complex)"
    said = run_cells(shell, "12.3", [answer, 'check("12.3")'])
    assert said.startswith("❌") and words(lang, "实数数组", "an array of real numbers") in said, said
    assert words(lang, "数字数组", "an array of numbers") not in said, said


def test_the_maximum_over_both_blocks_is_named_in_the_first_sum(lang, shell):
    answer = "S = np.hstack([S1, S2])\nl1 = np.exp(S1 - S.max(axis=1, keepdims=True)).sum(axis=1, keepdims=True)"
    said = run_cells(shell, "9.2", [answer, 'check("9.2")'])
    assert said.startswith("❌") and words(lang, "两块合起来的最大值", "the maximum over both blocks") in said, said


def test_the_online_output_names_softmax_down_the_columns(lang, shell):
    answer = (
        "S = np.hstack([S1, S2]); V = np.vstack([V1, V2])\n"
        "e = np.exp(S - S.max(0, keepdims=True))\nO = e / e.sum(0, keepdims=True) @ V"
    )
    said = run_cells(shell, "9.6", [answer, 'check("9.6")'])
    assert said.startswith("❌") and words(lang, "softmax 的方向错了", "softmax along the wrong axis") in said, said


SM = "def sm(S):\n    E = np.exp(S - S.max(axis=-1, keepdims=True))\n    return E / E.sum(axis=-1, keepdims=True)\n"


@pytest.mark.parametrize(
    ("k_heads", "v_heads", "zh", "en"),
    [
        ("np.repeat(K_heads, 2, axis=0)", "np.tile(V_heads, (2, 1, 1))", "V 头却分错了", "the V heads are not"),
        ("np.tile(K_heads, (2, 1, 1))", "np.repeat(V_heads, 2, axis=0)", "K 头却分错了", "the K heads are not"),
    ],
)
def test_one_of_k_and_v_heads_tiled_is_named(lang, shell, k_heads, v_heads, zh, en):
    answer = SM + f"O_gqa = sm(Q_heads @ {k_heads}.transpose(0, 2, 1) / np.sqrt(2)) @ {v_heads}"
    said = run_cells(shell, "14.3", [answer, 'check("14.3")'])
    assert said.startswith("❌") and words(lang, zh, en) in said, said


def _step_with(q_position, k_position, width):
    def fixed_rope_step(q, k, v, K_cache, V_cache):
        from attn_core import rope

        t = len(K_cache)
        q, k = rope(q, np.array([q_position(t)])), rope(k, np.array([k_position(t)]))
        s = q @ np.vstack([K_cache, k]).T / np.sqrt(width(q, v))
        e = np.exp(s - s.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True) @ np.vstack([V_cache, v])

    return fixed_rope_step


@pytest.mark.parametrize(
    ("fixed", "code", "zh", "en"),
    [
        (
            _step_with(lambda t: -t, lambda t: -t, lambda q, v: q.shape[1]),
            "rope_negative_angle",
            "转反了方向",
            "wrong way",
        ),
        (
            _step_with(lambda t: t, lambda t: t + 1, lambda q, v: q.shape[1]),
            "rope_key_one_ahead",
            "不同的位置",
            "different positions",
        ),
        (_step_with(lambda t: t, lambda t: t, lambda q, v: v.shape[1]), "scaled_wrong_width", "d_v", "d_v"),
    ],
    ids=["turned_backwards", "key_one_ahead", "root_d_v"],
)
def test_a_cached_rope_step_names_the_mistake(lang, fixed, code, zh, en):
    d = diagnose_task("14.4", fixed, np.random.default_rng(5))
    assert d.code == code and words(lang, zh, en) in d.message, d.message


def test_a_helper_named_like_a_reference_is_no_delegation(lang, shell):
    """One's own softmax, called by a function that imports rope (which the task hands out) inside."""
    answer = (
        "def softmax(S):\n    e = np.exp(S - S.max(axis=1, keepdims=True))\n"
        "    return e / e.sum(axis=1, keepdims=True)\n"
        "def fixed_rope_step(q, k, v, K_cache, V_cache):\n    from attn_core import rope\n    t = len(K_cache)\n"
        "    q, k = rope(q, np.arange(t, t + 1)), rope(k, np.arange(t, t + 1))\n"
        "    return softmax(q @ np.vstack([K_cache, k]).T / np.sqrt(q.shape[1])) @ np.vstack([V_cache, v])"
    )
    assert run_cells(shell, "14.4", [answer, 'check("14.4")']).startswith("✅")


def test_the_reference_softmax_imported_in_the_function_is_still_a_delegation(lang):
    def fixed_rope_step(q, k, v, K_cache, V_cache):
        from attn_core import rope, softmax

        t = len(K_cache)
        q, k = rope(q, np.arange(t, t + 1)), rope(k, np.arange(t, t + 1))
        return softmax(q @ np.vstack([K_cache, k]).T / np.sqrt(q.shape[1])) @ np.vstack([V_cache, v])

    d = diagnose_task("14.4", fixed_rope_step)
    assert d.code == "delegates" and "attn_core.softmax" in d.message, d.message


def test_an_induction_score_of_the_notebooks_copy_is_named(lang, shell):
    answer = (
        "def fixed_induction_score(A, start, length):\n"
        "    queries = np.arange(start_demo + length_demo, start_demo + 2 * length_demo - 1)\n"
        "    return A[:, queries, queries - length_demo + 1].mean(axis=-1)"
    )
    shell.user_ns.update({"start_demo": 2, "length_demo": 4})
    said = run_cells(shell, "15.3", [answer, 'check("15.3")'])
    assert said.startswith("❌") and "(start, length) = (2, 4)" in said, said


A_SHUFFLED = "Xs = X_new[order]\nQ, K, V = Xs @ W_q_new, Xs @ W_k_new, Xs @ W_v_new\n"
ROWS = "E = np.exp(S - S.max(axis=1, keepdims=True))\nO_shuffled = E / E.sum(axis=1, keepdims=True) @ V"


@pytest.mark.parametrize(
    ("task_id", "answer", "zh", "en"),
    [
        ("12.1", A_SHUFFLED + "S = K @ Q.T / np.sqrt(3)\n" + ROWS, "行列颠倒了", "Rows and columns are swapped"),
        ("12.1", A_SHUFFLED + "S = Q @ K.T / np.sqrt(2)\n" + ROWS, "值的宽度", "the width of the values"),
        ("12.1", A_SHUFFLED + "O_shuffled = Q @ K.T / np.sqrt(3) @ V", "这还是分数", "still scores"),
        (
            "14.1",
            "K_all = np.vstack([K_cache, k_new]); V_all = np.vstack([V_cache, v_new])\n"
            "o_new = (q_new @ K_all.T / 2) @ V_all",
            "这还是分数",
            "still scores",
        ),
    ],
    ids=["keys_times_queries", "root_d_v", "no_softmax", "cached_no_softmax"],
)
def test_the_shuffled_and_the_cached_output_name_the_mistake(lang, shell, task_id, answer, zh, en):
    said = run_cells(shell, task_id, [answer, f'check("{task_id}")'])
    assert said.startswith("❌") and words(lang, zh, en) in said, said
