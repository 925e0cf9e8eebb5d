"""Issue 26, the pattern left over: inside a composite task, the maximum subtracted before exp is taken down the
columns (``S.max(axis=0, keepdims=True)``, ``axis=-2``, ``axis=1`` on a stack of heads) instead of along each
row. Each task where a softmax makes the weights or the output gets the learner's own code, run on that task's
data, and the hint must name the mistake (both languages), say the fix right for the learner's shape and give
no number of the answer. The right answer is never taken for the mistake, also where the two agree.

The right answers here are written out in numpy in this file, never taken from the checker."""

import contextlib
import io
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import attn_homework as homework
from attn_core import rope
from attn_homework import diagnose_task
from attn_homework.checker import diagnose
from attn_homework.checker import mistakes as m
from attn_homework.checker.compare import close
from attn_homework.checker.givens import Stage, read_givens
from attn_homework.checker.steps import STEP_TABLE

from . import hints_common
from .test_check import leaked_numbers

lang = hints_common.lang
_fresh_state = hints_common.fresh_state
words = hints_common.words


CODES_OF_THE_COLUMN_MAX = {"max_axis", "max_axis_or_transposed", "max_axis_or_softmax_axis"}


def run(code, task_id, var):
    """The learner's cell, run on the task's own data (the names the notebook's data cell defines)."""
    namespace = {"np": np, "rope": rope, **homework.TASKS[task_id].inputs()}
    exec(code, namespace)
    return namespace[var]


def right(task_id, var, code):
    """The same cell with each row's maximum: what the learner meant (the right answer, in numpy here)."""
    for column in ("max(axis=0, keepdims=True)", "max(axis=1, keepdims=True)", "max(axis=-2, keepdims=True)"):
        code = code.replace(column, "max(axis=-1, keepdims=True)")
    return run(code.replace("max(axis=0)", "max(axis=-1, keepdims=True)"), task_id, var)


# ---------------------------------------------------------------- the learner's code, task by task

# Each one is the notebook's solution with the maximum taken down the columns, as the trial wrote it
# (``axis=0`` on 2-D scores, ``axis=1`` or ``axis=-2`` on a stack of heads, or ``axis=0`` without keepdims).
COLUMN_MAX = [
    ("4.1", "A", "E = np.exp(S - S.max(axis=0, keepdims=True))\nA = E / E.sum(axis=1, keepdims=True)"),
    ("4.1", "A", "E = np.exp(S - S.max(axis=0))\nA = E / E.sum(axis=1, keepdims=True)"),
    ("4.2", "A_new", "E = np.exp(S_new - S_new.max(axis=0, keepdims=True))\nA_new = E / E.sum(axis=1, keepdims=True)"),
    (
        "4.3",
        "A_big",
        "E = np.exp(S_big - S_big.max(axis=-2, keepdims=True))\nA_big = E / E.sum(axis=-1, keepdims=True)",
    ),
    (
        "4.4",
        "A_double",
        "K2 = K.copy()\nK2[3] *= 2\nS2 = Q @ K2.T / np.sqrt(3)\n"
        "E = np.exp(S2 - S2.max(axis=0, keepdims=True))\nA_double = E / E.sum(axis=1, keepdims=True)",
    ),
    (
        "6.1",
        "O",
        "S = Q @ K.T / np.sqrt(Q.shape[1])\nE = np.exp(S - S.max(axis=0, keepdims=True))\n"
        "A = E / E.sum(axis=1, keepdims=True)\nO = A @ V",
    ),
    (
        "6.2",
        "O_new",
        "S = Q_new @ K_new.T / np.sqrt(Q_new.shape[1])\nE = np.exp(S - S.max(axis=0, keepdims=True))\n"
        "O_new = (E / E.sum(axis=1, keepdims=True)) @ V_new",
    ),
    (
        "6.3",
        "A_x",
        "Q_x, K_x = X_new @ W_q_new, X_new @ W_k_new\nS_x = Q_x @ K_x.T / np.sqrt(Q_x.shape[1])\n"
        "E = np.exp(S_x - S_x.max(axis=0, keepdims=True))\nA_x = E / E.sum(axis=1, keepdims=True)",
    ),
    (
        "6.4",
        "O_x",
        "Q_x, K_x = X_new @ W_q_new, X_new @ W_k_new\nS_x = Q_x @ K_x.T / np.sqrt(Q_x.shape[1])\n"
        "E = np.exp(S_x - S_x.max(axis=0, keepdims=True))\nA_x = E / E.sum(axis=1, keepdims=True)\n"
        "V_x = X_new @ W_v_new\nO_x = A_x @ V_x",
    ),
    (  # masked first: a column's maximum is over the queries that may see that key
        "7.2",
        "A_causal",
        "S = Q @ K.T / np.sqrt(3)\nallowed = np.tril(np.ones((4, 4), dtype=bool))\nS = np.where(allowed, S, -np.inf)\n"
        "E = np.exp(S - S.max(axis=0, keepdims=True))\nA_causal = E / E.sum(axis=1, keepdims=True)",
    ),
    (  # the maximum subtracted before masking (harmless with each row's maximum, not with each column's)
        "7.2",
        "A_causal",
        "S = Q @ K.T / np.sqrt(3)\nS = S - S.max(axis=0, keepdims=True)\n"
        "S = np.where(np.tril(np.ones((4, 4), dtype=bool)), S, -np.inf)\nE = np.exp(S)\n"
        "A_causal = E / E.sum(axis=1, keepdims=True)",
    ),
    (  # −1e9 instead of −∞: the same numbers, no key column being masked in every row
        "7.2",
        "A_causal",
        "S = Q @ K.T / np.sqrt(3)\nS = np.where(np.tril(np.ones((4, 4), dtype=bool)), S, -1e9)\n"
        "E = np.exp(S - S.max(axis=0, keepdims=True))\nA_causal = E / E.sum(axis=1, keepdims=True)",
    ),
    (
        "7.3",
        "O_causal",
        "n6 = Q_new.shape[0]\nS = Q_new @ K_new.T / np.sqrt(Q_new.shape[1])\n"
        "S = np.where(np.tril(np.ones((n6, n6), dtype=bool)), S, -np.inf)\n"
        "E = np.exp(S - S.max(axis=0, keepdims=True))\nO_causal = (E / E.sum(axis=1, keepdims=True)) @ V_new",
    ),
    (
        "8.3",
        "O_heads",
        "S_h = Q_h @ np.swapaxes(K_h, -1, -2) / np.sqrt(Q_h.shape[-1])\n"
        "E = np.exp(S_h - S_h.max(axis=1, keepdims=True))\nO_heads = (E / E.sum(axis=-1, keepdims=True)) @ V_h",
    ),
    (
        "8.3",
        "O_heads",
        "S_h = Q_h @ np.swapaxes(K_h, -1, -2) / np.sqrt(Q_h.shape[-1])\n"
        "E = np.exp(S_h - S_h.max(axis=-2, keepdims=True))\nO_heads = (E / E.sum(axis=-1, keepdims=True)) @ V_h",
    ),
    (
        "8.5",
        "Y",
        "n, d_model = X.shape\nd_head = d_model // n_heads\n"
        "Q_x, K_x, V_x = ((X @ W).reshape(n, n_heads, d_head).transpose(1, 0, 2) for W in (W_q, W_k, W_v))\n"
        "S_x = Q_x @ np.swapaxes(K_x, -1, -2) / np.sqrt(d_head)\nE = np.exp(S_x - S_x.max(axis=1, keepdims=True))\n"
        "O_x = (E / E.sum(axis=-1, keepdims=True)) @ V_x\nY = O_x.transpose(1, 0, 2).reshape(n, d_model) @ W_o",
    ),
    (
        "12.1",
        "O_shuffled",
        "X_s = X_new[order]\nQ, K, V = X_s @ W_q_new, X_s @ W_k_new, X_s @ W_v_new\nS = Q @ K.T / np.sqrt(3)\n"
        "E = np.exp(S - S.max(axis=0, keepdims=True))\nO_shuffled = (E / E.sum(axis=1, keepdims=True)) @ V",
    ),
    (
        "14.3",
        "O_gqa",
        "K_rep = np.repeat(K_heads, 2, axis=0)\nV_rep = np.repeat(V_heads, 2, axis=0)\n"
        "S = Q_heads @ np.swapaxes(K_rep, -1, -2) / np.sqrt(2)\nE = np.exp(S - S.max(axis=1, keepdims=True))\n"
        "O_gqa = (E / E.sum(axis=-1, keepdims=True)) @ V_rep",
    ),
]
HEADS = {"8.3", "8.5", "14.3"}  # (h, n, n) scores: the columns run along axis 1


@pytest.mark.parametrize("task_id, var, code", COLUMN_MAX, ids=[f"{row[0]}-{i}" for i, row in enumerate(COLUMN_MAX)])
def test_the_column_max_is_named_in_every_composite_task(lang, task_id, var, code):
    answer = run(code, task_id, var)
    expected = right(task_id, var, code)
    assert diagnose_task(task_id, expected).ok  # the same cell with each row's maximum is right
    d = diagnose_task(task_id, answer)
    assert not d.ok and d.code == "max_axis", d.message
    assert words(lang, "那一列的最大值", "the maximum of its column") in d.message
    axis = "axis=1" if task_id in HEADS else "axis=0"
    assert words(lang, f"{axis} 或 axis=-2", f"{axis} or axis=-2") in d.message
    assert ".max(axis=-1, keepdims=True)" in d.message  # the fix, right for 2-D scores and for heads alike
    assert words(lang, "这一行的 softmax 不变", "leaves that row's softmax unchanged") in d.message
    assert not leaked_numbers(d.message, expected), d.message
    assert not any(f"{other}" in d.message for other in homework.TASKS if other != task_id and "." in other)


def test_the_notebooks_check_prints_it_for_7_2(lang):
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    try:
        shell.run_cell("import numpy as np\nfrom attn_homework import check")
        shell.user_ns.update(homework.TASKS["7.2"].inputs())
        shell.run_cell(next(code for task_id, _, code in COLUMN_MAX if task_id == "7.2"), store_history=True)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            shell.run_cell('check("7.2")', store_history=True)
    finally:
        InteractiveShell.clear_instance()
    text = out.getvalue()
    assert text.startswith("❌") and words(lang, "那一列的最大值", "the maximum of its column") in text, text


# ---------------------------------------------------------------- one query row: the hint hedges

CACHED = (
    "K_all = np.vstack([K_cache, k_new])\nV_all = np.vstack([V_cache, v_new])\ns = q_new @ K_all.T / np.sqrt(4)\n"
    "e = np.exp(s - s.max(axis=0, keepdims=True))\no_new = (e / e.sum(axis=1, keepdims=True)) @ V_all"
)


def test_14_1_with_the_column_max_gets_equal_weights_and_the_hint_says_what_else_gives_them(lang):
    answer = run(CACHED, "14.1", "o_new")
    d = diagnose_task("14.1", answer)
    assert d.code == "max_axis", d.message
    assert words(lang, "每个键分到的权重都一样", "every key got the same weight") in d.message
    assert words(lang, "如果你是这样写的", "If that is what you wrote") in d.message  # equal weights have other causes
    assert ".max(axis=-1, keepdims=True)" in d.message
    assert not leaked_numbers(d.message, right("14.1", "o_new", CACHED))
    data = homework.TASKS["14.1"].inputs()
    mean = np.vstack([data["V_cache"], data["v_new"]]).mean(axis=0, keepdims=True)
    assert diagnose_task("14.1", mean).code == "max_axis"  # the same numbers: the same hedged words


def _fixed_rope_step_column_max(q, k, v, K_cache, V_cache):
    positions = np.array([len(K_cache)])
    q, k = rope(q, positions), rope(k, positions)
    K_all, V_all = np.vstack([K_cache, k]), np.vstack([V_cache, v])
    s = q @ K_all.T / np.sqrt(q.shape[1])
    e = np.exp(s - s.max(axis=0, keepdims=True))
    return (e / e.sum(axis=1, keepdims=True)) @ V_all


def test_14_4_with_the_column_max_is_named(lang):
    d = diagnose_task("14.4", _fixed_rope_step_column_max, rng=np.random.default_rng(0))
    assert d.code == "max_axis", d.message
    assert words(lang, "q 和 k 转对了", "q and k are turned right") in d.message
    assert words(lang, "如果你是这样写的", "If that is what you wrote") in d.message


# ---------------------------------------------------------------- the find-the-bug functions of lessons 4, 6 and 7


def _fixed_softmax(S):
    E = np.exp(S - S.max(axis=0, keepdims=True))
    return E / E.sum(axis=1, keepdims=True)


def _fixed_attention(Q, K, V):
    S = Q @ K.T / np.sqrt(Q.shape[1])
    E = np.exp(S - S.max(axis=0, keepdims=True))
    return (E / E.sum(axis=1, keepdims=True)) @ V


def _fixed_causal_attention(Q, K, V):
    n, d_k = Q.shape
    S = np.where(np.tril(np.ones((n, n), dtype=bool)), Q @ K.T / np.sqrt(d_k), -np.inf)
    E = np.exp(S - S.max(axis=0, keepdims=True))
    return (E / E.sum(axis=1, keepdims=True)) @ V


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize(
    "task_id, function", [("4.6", _fixed_softmax), ("6.5", _fixed_attention), ("7.5", _fixed_causal_attention)]
)
def test_a_fixed_function_with_the_column_max_is_named(lang, task_id, function, seed):
    d = diagnose_task(task_id, function, rng=np.random.default_rng(seed))
    assert d.code == "max_axis", d.message
    assert words(lang, "沿列取", "down the columns") in d.message or words(lang, "那一列", "its column") in d.message


def test_a_probe_whose_rows_underflow_is_named_with_the_nan_explained(lang):
    """6.5's large probe: a row far below its columns' maxima underflows to 0/0 (NaN) with the column max;
    that NaN is part of the evidence and the message says where it comes from (not an overflow)."""
    S = np.array([[1000.0, 999.0], [0.0, 1.0]])
    E = np.exp(S - S.max(axis=0, keepdims=True))
    with np.errstate(all="ignore"):
        A = E / E.sum(axis=1, keepdims=True)
    assert np.isnan(A[1]).all()
    d = diagnose("softmax", A, S=S)
    assert d.code == "max_axis", d.message
    assert words(lang, "下溢成 0", "underflows to 0") in d.message
    assert words(lang, "溢出", "overflow") not in d.message.replace(words(lang, "防止 exp 溢出", "overflowing"), "")


# ---------------------------------------------------------------- masks: honest about −∞ down a column


def test_a_key_masked_in_every_row_keeps_its_own_nan_explanation(lang):
    """A padding key masked for every query: its column's "maximum" is −∞ and −∞ − (−∞) fills every row with
    NaN. The evidence module names that (the mask lets those rows see keys); the column max mistake stays out."""
    rng = np.random.default_rng(3)
    Q, K = rng.normal(size=(4, 3)), rng.normal(size=(4, 3))
    mask = np.ones((4, 4), dtype=bool)
    mask[:, 3] = False
    S = np.where(mask, Q @ K.T / np.sqrt(3), -np.inf)
    with np.errstate(all="ignore"):
        E = np.exp(S - S.max(axis=0, keepdims=True))
        A = E / E.sum(axis=1, keepdims=True)
    d = diagnose("masked_weights", A, Q=Q, K=K, mask=mask)
    assert d.code == "empty_row", d.message
    assert words(lang, "沿列取的", "taken down the columns") in d.message


def test_symmetric_scores_name_both_ways_to_these_numbers(lang):
    """On symmetric scores column j's maximum is row j's: a row maximum without keepdims gives these numbers
    too, and the message says so rather than pick one."""
    rng = np.random.default_rng(1)
    X = rng.normal(size=(4, 3))
    S = X @ X.T
    column = np.exp(S - S.max(axis=0, keepdims=True))
    no_keepdims = np.exp(S - S.max(axis=1))
    for E in (column, no_keepdims):
        d = diagnose("softmax", E / E.sum(axis=1, keepdims=True), S=S)
        assert d.code == "max_axis", d.message
        assert words(lang, "分数矩阵是对称的", "These scores are symmetric") in d.message
    asymmetric = S + np.triu(np.ones((4, 4)), 1)
    E = np.exp(asymmetric - asymmetric.max(axis=0, keepdims=True))
    d = diagnose("softmax", E / E.sum(axis=1, keepdims=True), S=asymmetric)
    assert d.code == "max_axis" and words(lang, "对称", "symmetric") not in d.message


# ---------------------------------------------------------------- the right answer always wins


WEIGHTS_CODES = {mistake.code for mistake in STEP_TABLE["weights"].mistakes}


def _softmax_rows(S):
    E = np.exp(S - S.max(axis=-1, keepdims=True))
    return E / E.sum(axis=-1, keepdims=True)


def _column_maxima_all_equal(rng, shape):
    """Scores whose every column has the same maximum (one entry per column set to it): the column max then
    subtracts one number from every row, which leaves the softmax as it is."""
    S = rng.normal(size=shape)
    top = S.max() + 1.0
    rows = rng.integers(0, shape[-2], size=shape[:-2] + (shape[-1],))
    np.put_along_axis(S, rows[..., None, :], top, axis=-2)
    return S


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n_q=st.integers(1, 5), n_k=st.integers(1, 5), heads=st.sampled_from([(), (3,)]))
def test_where_the_column_max_gives_the_right_numbers_the_answer_is_right(seed, n_q, n_k, heads):
    rng = np.random.default_rng(seed)
    S = _column_maxima_all_equal(rng, heads + (n_q, n_k))
    E = np.exp(S - S.max(axis=-2, keepdims=True))
    column = E / E.sum(axis=-1, keepdims=True)
    assert np.allclose(column, _softmax_rows(S))  # the data set is such a one
    assert diagnose("softmax", column, S=S).ok
    assert diagnose("softmax", _softmax_rows(S), S=S).ok
    g = replace(read_givens({"S": S}), stage=Stage.WEIGHTS, expected=_softmax_rows(S))
    assert not m.max_down_the_columns(g)  # no mistake is made of the right numbers


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n_q=st.integers(1, 5),
    n_k=st.integers(1, 5),
    d=st.integers(1, 4),
    causal=st.booleans(),
    scale=st.sampled_from([0.1, 1.0, 10.0, 300.0]),
)
def test_the_right_answer_is_never_taken_for_the_column_max(seed, n_q, n_k, d, causal, scale):
    rng = np.random.default_rng(seed)
    Q, K, V = scale * rng.normal(size=(n_q, d)), rng.normal(size=(n_k, d)), rng.normal(size=(n_k, 2))
    given = {"Q": Q, "K": K, "V": V}
    S = Q @ K.T / np.sqrt(d)
    if causal and n_q == n_k:
        given["mask"] = np.tril(np.ones((n_q, n_q), dtype=bool))
        S = np.where(given["mask"], S, -np.inf)
    A = _softmax_rows(S)
    for answer in (A @ V, (A @ V).astype(np.float32)):
        assert diagnose("output", answer, **given).ok
    weights = {k: v for k, v in given.items() if k != "V"}
    assert diagnose("weights", A, **weights).ok
    with np.errstate(all="ignore"):
        E = np.exp(S - S.max(axis=0, keepdims=True))
        column = E / E.sum(axis=1, keepdims=True)
    d_column = diagnose("weights", column, **weights)
    if close(column, A):
        assert d_column.ok  # equal to the right numbers within the checker's tolerance: right
    elif n_q > 1 and np.isfinite(column).all():
        # named; on degenerate data (d = 1, two keys) another mistake can make the same numbers, and the first
        # in the table is named, as for any two mistakes that agree
        assert not d_column.ok and d_column.code in WEIGHTS_CODES, d_column.message


def test_a_near_miss_of_the_column_max_is_not_called_that():
    S = homework.TASKS["4.1"].given()["S"]
    E = np.exp(S - S.max(axis=0, keepdims=True))
    A = E / E.sum(axis=1, keepdims=True)
    assert diagnose_task("4.1", A).code == "max_axis"
    near = A.copy()
    near[2, 1] += 0.01
    assert diagnose_task("4.1", near).code != "max_axis"


# ---------------------------------------------------------------- where another mistake makes the same numbers


def _column_max(S):
    with np.errstate(all="ignore"):
        E = np.exp(S - S.max(axis=-2, keepdims=True))
        return E / E.sum(axis=-1, keepdims=True)


def test_on_2_by_2_scores_the_column_max_and_k_q_transposed_are_both_named(lang):
    """Column maxima off the diagonal of 2 × 2 scores: row i gets the differences of column i, which is what
    K·Qᵀ gives. Same evidence, so both are said, for either answer; with three keys each has its own words."""
    S = np.array([[-0.96, -0.26], [1.49, -3.2]])
    Q, K = np.eye(2), np.sqrt(2) * S.T  # Q·Kᵀ/√2 = S
    for answer in (_column_max(S), _softmax_rows(K @ Q.T / np.sqrt(2))):
        d = diagnose("weights", answer, Q=Q, K=K)
        assert d.code == "max_axis_or_transposed", d.message
        assert words(lang, "有两种写法会得到", "Two mistakes") in d.message
        assert words(lang, "K 乘以 Q 的转置", "K times Q transposed") in d.message
        assert ".max(axis=-1, keepdims=True)" in d.message
        assert not leaked_numbers(d.message, _softmax_rows(S))
    rng = np.random.default_rng(0)
    Q, K = rng.normal(size=(3, 2)), rng.normal(size=(3, 2))
    assert diagnose("weights", _softmax_rows(K @ Q.T / np.sqrt(2)), Q=Q, K=K).code == "transposed"
    assert diagnose("weights", _column_max(Q @ K.T / np.sqrt(2)), Q=Q, K=K).code == "max_axis"


def test_where_exp_leaves_one_entry_per_column_both_axes_are_named(lang):
    """Masked scores far apart: the column max leaves one entry per row and column, so the rows' sums are the
    columns' and softmax down the columns gives the same numbers. Both are said."""
    S = np.array([[100.0, -np.inf, -np.inf], [0.0, 0.2, -np.inf], [-50.0, -50.0, 30.0]])
    with np.errstate(all="ignore"):
        down = np.exp(S - S.max(axis=0, keepdims=True))
        down = down / down.sum(axis=0, keepdims=True)
    assert np.allclose(_column_max(S), down)
    for answer in (_column_max(S), down):
        d = diagnose("softmax", answer, S=S)
        assert d.code == "max_axis_or_softmax_axis", d.message
        assert words(lang, "有两种写法会得到", "Two mistakes") in d.message
        assert ".sum(axis=-1, keepdims=True)" in d.message and ".max(axis=-1, keepdims=True)" in d.message
    assert diagnose("softmax", _softmax_rows(S), S=S).ok


@pytest.mark.parametrize("seed", range(20))
def test_7_5_and_6_5_are_named_on_every_probe_set(seed):
    """The probes include 2 × 2 scores and scores of 30 or so, where the column max makes another mistake's
    numbers: those calls show neither and the other calls decide."""
    for task_id, function in (("6.5", _fixed_attention), ("7.5", _fixed_causal_attention)):
        assert diagnose_task(task_id, function, rng=np.random.default_rng(seed)).code == "max_axis"
