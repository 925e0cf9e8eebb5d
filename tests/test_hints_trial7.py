"""The seventh student trial: each wrong answer accepted, each traceback and leaked warning, and each hint that
named a cause its evidence did not show, as a test with the student's own code, in both languages where the
text differs."""

import warnings

import numpy as np
import pytest

import attn_homework as homework
from attn_homework import diagnose_task

from . import hints_common

lang = hints_common.lang
_fresh_state = hints_common.fresh_state
words = hints_common.words
softmax = hints_common.softmax


shell = hints_common.shell


run_cells = hints_common.run_cells


# ---------------------------------------------------------------- (b) a traceback and a leaked warning


def test_a_base_exception_subclass_raised_by_the_fix_is_named_not_raised(lang):
    class _X(BaseException):
        pass

    def fixed_scores(Q, K):
        raise _X()

    d = diagnose_task("2.3", fixed_scores)
    assert d.code == "function_raised" and "_X" in d.message


def test_an_interrupt_is_still_an_interrupt(lang):
    def fixed_scores(Q, K):
        raise KeyboardInterrupt

    assert diagnose_task("2.3", fixed_scores).code == "interrupted"


def test_an_async_fix_is_told_to_drop_async_and_leaks_no_warning(lang):
    namespace = {}
    exec("async def fixed_scores(Q, K):\n    return Q @ K.T", namespace)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        d = diagnose_task("2.3", namespace["fixed_scores"])
        import gc

        gc.collect()
    assert not d.ok and "async" in d.message
    assert not [w for w in caught if "never awaited" in str(w.message)]


# ---------------------------------------------------------------- (c) wrong answers that got a tick

FROM_ANOTHER_CELL = [
    ("3.1", ["import attn_core as ac\n_tmp = ac.scale(ac.scores(Q, K), 3)", "S = _tmp"], "attn_core.scale"),
    ("6.1", ["from attn_core import attention\n_o = attention(Q, K, V).O", "O = _o.copy()"], "attn_core.attention"),
    ("6.1", ["from attn_core import attention\n_o = attention(Q, K, V).O", "t = _o", "O = t"], "attn_core.attention"),
]


@pytest.mark.parametrize("task_id, cells, name", FROM_ANOTHER_CELL)
def test_the_reference_computed_in_another_cell_is_followed(lang, shell, task_id, cells, name):
    said = run_cells(shell, task_id, [*cells, f'check("{task_id}")'])
    assert said.startswith("❌") and name in said
    assert words(lang, "另一个单元格", "another cell") not in said
    assert words(lang, "打印", "print") in said


def test_a_scratch_cell_that_compares_with_the_reference_is_not_blamed(shell):
    cells = [
        "from attn_core import attention\nref = attention(Q, K, V).O\n"
        "def _sm(S):\n    E = np.exp(S - S.max(1, keepdims=True))\n    return E / E.sum(1, keepdims=True)\n"
        "mine = _sm(Q @ K.T / np.sqrt(3)) @ V\nprint(np.abs(ref - mine).max())",
        "O = mine",
        'check("6.1")',
    ]
    assert run_cells(shell, "6.1", cells).startswith("✅")


LONG_DOUBLE_CELLS = [
    "Sl = S_big.astype(np.longdouble); E = np.exp(Sl); A_big = (E / E.sum(1, keepdims=True))",
    "E = np.exp(S_big.astype(np.longdouble)); A_big = (E / E.sum(1, keepdims=True)).astype(float)",
    "E = np.exp(np.float128(S_big)); A_big = E / E.sum(axis=-1, keepdims=True)",
]


@pytest.mark.parametrize("code", LONG_DOUBLE_CELLS)
def test_a_naive_softmax_in_long_double_is_not_a_tick(lang, shell, code):
    said = run_cells(shell, "4.3", [code, 'check("4.3")'])
    assert said.startswith("❌") and words(lang, "np.longdouble", "long double") in said and "Windows" in said


def test_a_stable_softmax_in_long_double_stays_right(shell):
    code = (
        "Sl = S_big.astype(np.longdouble); E = np.exp(Sl - Sl.max(1, keepdims=True))\n"
        "A_big = E / E.sum(1, keepdims=True)"
    )
    assert run_cells(shell, "4.3", [code, 'check("4.3")']).startswith("✅")


def test_a_naive_softmax_fix_in_long_double_is_not_fixed(lang):
    def fixed_softmax(S):
        E = np.exp(np.asarray(S, np.longdouble))
        return (E / E.sum(axis=1, keepdims=True)).astype(float)

    d = diagnose_task("4.6", fixed_softmax, np.random.default_rng(0))
    assert not d.ok
    if np.finfo(np.longdouble).maxexp > 1024:  # x86: right near 1000, so the message says why it still fails
        assert words(lang, "np.longdouble", "long double") in d.message
        assert words(lang, "最大值", "maximum") in d.message


def test_the_right_softmax_fix_is_right_on_scores_near_12000(lang):
    def fixed_softmax(S):
        return softmax(np.asarray(S, float), axis=1)

    assert diagnose_task("4.6", fixed_softmax, np.random.default_rng(0)).ok


def test_rounding_to_2_decimals_is_told_the_tolerance_and_4_decimals_passes(lang):
    data = homework.TASKS["3.2"].inputs()
    right = data["Q_new"] @ data["K_new"].T / 4
    d = diagnose_task("3.2", np.round(right, 2))
    assert d.code == "almost_right"
    assert words(lang, "全部精度", "full precision") not in d.message
    assert "0.005" in d.message and words(lang, "允许", "allows") in d.message
    assert diagnose_task("3.2", np.round(right, 4)).ok


# ---------------------------------------------------------------- (d) hints that named a cause without its evidence


def _ln(Z, eps=1e-5):
    return (Z - Z.mean(-1, keepdims=True)) / np.sqrt(Z.var(-1, keepdims=True) + eps)


def _block_inputs(task_id):
    d = homework.TASKS[task_id].inputs()
    return d["X"] if task_id == "11.1" else d["X"] + d["F"]


@pytest.mark.parametrize("task_id", ["11.1", "11.2"])
@pytest.mark.parametrize("eps", [1e-10, 1e-12])
def test_a_tiny_eps_is_told_its_size_may_be_wrong(lang, task_id, eps):
    d = diagnose_task(task_id, _ln(_block_inputs(task_id), eps))
    assert d.code == "eps_forgotten"
    assert words(lang, "ε 的大小不对", "ε has the wrong size") in d.message


@pytest.mark.parametrize("task_id", ["11.1", "11.2"])
def test_layer_norm_twice_is_among_the_causes_named(lang, task_id):
    d = diagnose_task(task_id, _ln(_ln(_block_inputs(task_id))))
    assert d.code == "eps_forgotten"
    assert words(lang, "两次层归一化", "normalised twice") in d.message
    assert words(lang, "根号里没有 ε：", "There is no ε under") not in d.message


SM = (
    "def _sm(S, ax=-1):\n    E = np.exp(S - S.max(axis=ax, keepdims=True))\n"
    "    return E / E.sum(axis=ax, keepdims=True)\n"
)
PM = (
    "def _pm(S, allowed):\n    S = np.where(allowed, S, -np.inf)\n"
    "    E = np.exp(S - S.max(axis=-1, keepdims=True)); return E / E.sum(axis=-1, keepdims=True)\n"
)

MASK_NAN = [  # (task, the student's answer cell, words in zh and en, words that must not be said)
    (
        "13.2",
        SM + "A_padded = _sm(Q @ K.T / np.sqrt(3) + np.where(key_padding_mask, np.inf, 0))",
        ("+∞", "+∞"),
    ),
    ("13.2", PM + "A_padded = _pm(Q @ K.T / np.sqrt(3), not key_padding_mask.any())", ("所有的键", "blocks every key")),
    ("13.2", PM + "A_padded = _pm(Q @ K.T / np.sqrt(3), np.zeros((4, 4), bool))", ("所有的键", "blocks every key")),
    (
        "7.2",
        "m = np.tril(np.ones((4, 4), bool)); S_ = np.where(m, Q @ K.T / np.sqrt(3), np.nan)\n"
        "E = np.exp(S_ - S_.max(1, keepdims=True)); A_causal = E / E.sum(1, keepdims=True)",
        ("填成了 NaN", "filled with NaN"),
    ),
    (
        "7.2",
        SM + "m = np.tril(np.ones((4, 4))); A_causal = _sm(Q @ K.T / np.sqrt(3) + (1 - m) * -np.inf)",
        ("0·(−∞) = NaN", "0·(−∞) = NaN"),
    ),
    (
        "7.2",
        "m = np.tril(np.ones((4, 4))); S_ = Q @ K.T / np.sqrt(3) + (1 - m) * -np.inf\n"
        "E = np.exp(S_ - S_.max(1, keepdims=True)); A_causal = E / E.sum(1, keepdims=True)",
        ("0·(−∞) = NaN", "0·(−∞) = NaN"),
    ),
]


@pytest.mark.parametrize("task_id, code, said", MASK_NAN)
def test_nan_from_the_mask_is_named_by_its_cause(lang, shell, task_id, code, said):
    message = run_cells(shell, task_id, [code, f'check("{task_id}")'])
    assert message.startswith("❌") and words(lang, *said) in message
    assert words(lang, "能看到键：减去的最大值", "the maximum you subtracted was taken down the columns") not in message
    assert words(lang, "因果掩码要保留对角线", "a causal mask keeps the diagonal") not in message


def test_a_max_down_the_columns_with_a_padding_key_is_still_named(lang, shell):
    code = PM + "A_padded = _pm(Q @ K.T / np.sqrt(3), ~key_padding_mask)"
    code = code.replace("S.max(axis=-1", "S.max(axis=0")
    message = run_cells(shell, "13.2", [code, 'check("13.2")'])
    assert message.startswith("❌")
    assert words(lang, "沿列取的", "taken down the columns") in message


SWAPPED_W = [
    SM + "Q_ = X_new @ W_k_new; K_ = X_new @ W_q_new; A_x = _sm(Q_ @ K_.T / np.sqrt(3))",
    SM + "A_x = _sm((X_new @ W_k_new) @ (X_new @ W_q_new).T / np.sqrt(3))",
]


@pytest.mark.parametrize("code", SWAPPED_W)
def test_swapped_projections_are_named_as_a_cause_of_transposed_scores(lang, shell, code):
    message = run_cells(shell, "6.3", [code, 'check("6.3")'])
    assert message.startswith("❌") and "W_Q" in message and "W_K" in message and "(QKᵀ)ᵀ" in message


def test_scores_transposed_without_projections_say_nothing_of_w(lang, shell):
    message = run_cells(shell, "3.1", ["S = K @ Q.T / np.sqrt(3)", 'check("3.1")'])
    assert message.startswith("❌") and "W_Q" not in message


def test_the_new_tokens_own_score_masked_leads_with_its_weight_0(lang, shell):
    code = (
        SM + "K_all = np.vstack([K_cache, k_new]); V_all = np.vstack([V_cache, v_new])\n"
        "S_ = q_new @ K_all.T / 2; S_[:, -1] = -np.inf; o_new = _sm(S_) @ V_all"
    )
    message = run_cells(shell, "14.1", [code, 'check("14.1")'])
    assert message.startswith("❌")
    lead = message.split("·", 1)[1].strip()
    assert lead.startswith(words(lang, "新词元自己的位置得到的权重是 0", "The new token's own position got weight 0"))
    assert "S[:, -1] = -np.inf" in message


def test_numpys_comparisons_rebound_in_the_kernel_do_not_make_zeros_right(lang, shell):
    cells = [
        "_old = (np.allclose, np.isclose, np.array_equal)\nnp.allclose = lambda *a, **k: True\n"
        "np.isclose = lambda a, b, *x, **k: np.ones(np.shape(a), bool)\nnp.array_equal = lambda *a, **k: True\n"
        "QKT = np.zeros((4, 4))",
        'check("2.1")',
    ]
    try:
        said = run_cells(shell, "2.1", cells)
        assert said.startswith("❌")
        assert shell.user_ns["np"].allclose(1, 2)  # the notebook's own rebinding is left as it was
    finally:
        shell.run_cell("np.allclose, np.isclose, np.array_equal = _old")
    assert not np.allclose(1, 2)


# ---------------------------------------------------------------- hints that existed elsewhere, now given here


@pytest.mark.parametrize("seed", range(3))
def test_a_fix_that_normalises_down_the_columns_gets_4_1s_hint(lang, seed):
    def fixed_softmax(S):
        E = np.exp(S - S.max(axis=1, keepdims=True))
        return E / E.sum(axis=0, keepdims=True)

    d = diagnose_task("4.6", fixed_softmax, np.random.default_rng(seed))
    assert d.code == "softmax_axis"
    assert words(lang, "每一列加起来为 1", "your columns sum to 1") in d.message


@pytest.mark.parametrize("task_id, value", [("4.5", 4), ("4.5", -1), ("15.2", -1)])
def test_an_index_outside_the_range_says_the_range(lang, task_id, value):
    d = diagnose_task(task_id, value)
    assert not d.ok and words(lang, "从 0 数起", "counts from 0") in d.message


def test_an_induction_key_beyond_the_query_says_the_causal_range(lang):
    d = diagnose_task("15.2", 99)  # the range's reason is the causal mask, not the counting (trial 11)
    assert not d.ok and words(lang, "因果掩码", "causal") in d.message and "0" in d.message


def test_an_induction_key_counted_from_1_is_told_to_count_from_0(lang):
    g = homework.TASKS["15.2"].given()
    d = diagnose_task("15.2", g["query"] - g["length"] + 2)
    assert not d.ok and words(lang, "从 0 数起", "count from 0") in d.message
    assert str(g["query"] - g["length"] + 1) not in d.message  # the right position is not said


def test_rmsnorm_gets_the_missing_mean_hint(lang):
    X = homework.TASKS["11.1"].inputs()["X"]
    d = diagnose_task("11.1", X / np.sqrt((X**2).mean(1, keepdims=True) + 1e-5))
    assert d.code == "not_centred" and "RMSNorm" in d.message


@pytest.mark.parametrize("value", [np.sqrt(2), 1.4142])
def test_the_root_itself_is_told_the_number_under_it_is_asked(lang, value):
    d = diagnose_task("8.2", value)
    assert not d.ok and d.code == "wrong_prediction"
    assert words(lang, "根号下面的那个数", "the number under the root") in d.message
    assert "2" not in d.message.replace("under_the_root", "")
