"""The eighth student trial's generic find-the-bug hints (6.5, 7.5, 14.4, 15.3): classic mistakes inside a
fixed function are named as they are in the data tasks, in both languages, on the checker's own calls."""

import numpy as np
import pytest

from attn_core import rope
from attn_homework import diagnose_task
from attn_homework.checker import functions
from attn_homework.checker.functions import CallFailed

from . import hints_common

lang = hints_common.lang
_fresh_state = hints_common.fresh_state
words = hints_common.words

# the codes these tests give (tests/test_hints.py checks that every code the checker gives has a test)
CODES_OF_THE_EIGHTH_TRIAL = {
    "softmax_axis",
    "scaled_wrong_width",
    "mask_added",
    "function_raised",
    "rope_fixed_position",
    "induction_wrong_queries",
    "induction_max",
    "induction_every_pair",
}


def _weights(S, max_axis=-1, sum_axis=-1):
    E = np.exp(S - S.max(axis=max_axis, keepdims=True))
    return E / E.sum(axis=sum_axis, keepdims=True)


def _causal(S, fill=-np.inf):
    return np.where(np.tril(np.ones(S.shape, dtype=bool)), S, fill)


def test_rows_shifted_but_normalised_down_the_columns_is_the_softmax_axis(lang):
    d = diagnose_task("6.5", lambda Q, K, V: _weights(Q @ K.T / np.sqrt(Q.shape[-1]), sum_axis=0) @ V)
    assert d.code == "softmax_axis" and words(lang, "每一列加起来为 1", "columns sum to 1") in d.message


def test_the_same_in_causal_attention(lang):
    d = diagnose_task("7.5", lambda Q, K, V: _weights(_causal(Q @ K.T / np.sqrt(Q.shape[-1])), sum_axis=0) @ V)
    assert d.code == "softmax_axis"


@pytest.mark.parametrize("seed", range(12))
def test_root_d_v_is_named_also_where_one_call_has_d_v_equal_to_d_k_squared(seed):
    """Where d_v = d_k², QKᵀ/√d_v is also QKᵀ/d_k on that call: the mistake every call shares is named."""
    from attn_homework.checker import _codes_made, _diagnose
    from attn_homework.task_data import probe_attention

    def by_root_d_v(Q, K, V):
        return _weights(Q @ K.T / np.sqrt(V.shape[-1])) @ V

    step = functions.FUNCTION_STEPS["fix_attention"]
    arguments = tuple(probe_attention(np.random.default_rng(seed)))
    calls = functions.FunctionCalls(arguments, tuple(by_root_d_v(*a) for a in arguments))
    code, _, fields = functions.judge(step, calls, lambda s, v, g: _diagnose(s, v, g), _codes_made)
    assert code == "scaled_wrong_width", (code, fields)


def test_seed_2_has_the_coincidence_the_test_above_needs():
    """The case that made the hint generic: one call with d_k = 2 and d_v = 4."""
    from attn_homework.task_data import probe_attention

    shapes = [(Q.shape[-1], V.shape[-1]) for Q, K, V in probe_attention(np.random.default_rng(2))]
    assert (2, 4) in shapes


@pytest.mark.parametrize("added", ["mask", "~mask"])
def test_a_boolean_mask_added_as_0_1_numbers_is_named(lang, added):
    def causal_added(Q, K, V):
        S = Q @ K.T / np.sqrt(Q.shape[-1])
        keep = np.tril(np.ones(S.shape))
        S = S + (keep if added == "mask" else 1 - keep)
        return _weights(S) @ V

    d = diagnose_task("7.5", causal_added)
    assert d.code == "mask_added" and f"S + {added}" in d.message and "np.where(mask, S, -np.inf)" in d.message


def test_a_matmul_whose_sides_do_not_fit_says_which_sizes_not_numpy_internals(lang):
    d = diagnose_task("6.5", lambda Q, K, V: _weights(Q @ K.T / np.sqrt(Q.shape[-1])) @ V.T)
    assert d.code == "function_raised" and "gufunc" not in d.message
    assert words(lang, "左边矩阵的最后一个轴长", "the last axis of the left matrix is") in d.message


def test_the_matmul_hint_reads_numpy_s_sizes_the_right_way_round():
    try:
        np.ones((4, 3)) @ np.ones((5, 2))
    except ValueError as e:
        hint = functions._matmul_sizes(CallFailed("ValueError", str(e)))
    assert "3" in hint and "5" in hint and hint.index("3") < hint.index("5")


def test_a_typed_in_rope_position_is_named_with_the_cache_lengths(lang):
    def fixed_at_3(q, k, v, K_cache, V_cache):
        p = np.array([3.0])
        q, k = rope(q, p), rope(k, p)
        K_all, V_all = np.vstack([K_cache, k]), np.vstack([V_cache, v])
        return _weights(q @ K_all.T / np.sqrt(q.shape[1])) @ V_all

    d = diagnose_task("14.4", fixed_at_3)
    assert d.code == "rope_fixed_position" and words(lang, "位置 3", "position 3") in d.message
    for t in ("1", "2", "4", "6"):
        assert t in d.message


def _induction(first, end, reduce="mean", block=False):
    def score(A, start, length):
        queries = np.arange(start + length + first, start + 2 * length - 1 + end)
        columns = queries - length + 1
        if block:
            return A[:, queries][:, :, columns].mean(axis=(-2, -1))
        picked = A[:, queries, columns]
        return picked.max(axis=-1) if reduce == "max" else picked.mean(axis=-1)

    return score


@pytest.mark.parametrize("first, end", [(0, 1), (0, -1), (1, 0)])
def test_a_query_range_off_at_one_end_is_named(lang, first, end):
    d = diagnose_task("15.3", _induction(first, end))
    assert d.code == "induction_wrong_queries"


def test_the_largest_weight_instead_of_the_mean_is_named(lang):
    assert diagnose_task("15.3", _induction(0, 0, reduce="max")).code == "induction_max"


def test_the_block_of_every_query_with_every_column_is_named(lang):
    d = diagnose_task("15.3", _induction(0, 0, block=True))
    assert d.code == "induction_every_pair" and "A[:, queries, columns]" in d.message


def test_the_right_induction_score_is_still_right(lang):
    assert diagnose_task("15.3", _induction(0, 0)).ok
