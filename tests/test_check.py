"""The homework checker: right answers pass, each classic mistake gets its own code and a hint in words
(never the expected numbers), and nothing a learner types makes it raise or touch their arrays."""

import copy
import math
import re

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import array_shapes, arrays

import attn_core as ac
from attn_core.examples import four_words
from attn_core.lang import get_lang, set_lang
from attn_homework import checker
from attn_homework.checker import Diagnosis, diagnose, report


@pytest.fixture
def english():
    before = get_lang()
    set_lang("en")
    yield
    set_lang(before)


def softmax(S, axis=-1):
    E = np.exp(S - S.max(axis=axis, keepdims=True))
    return E / E.sum(axis=axis, keepdims=True)


# ---------------------------------------------------------------- data

FW = four_words()
FT = FW.attention()  # Q, K, V are 4 × 3: n_q = n_k = 4, d_k = d_v = 3
CAUSAL = ac.causal_mask(4)
PAD = np.array([[True, True, False, True]])  # a padding mask over keys: inverting it leaves a key per row

_rng = np.random.default_rng(0)
X = _rng.normal(size=(5, 6))  # n = 5, d_model = 6
W = _rng.normal(size=(6, 4))  # d = 4
Q = _rng.normal(size=(3, 4))  # n_q = 3, d_k = 4
K = _rng.normal(size=(5, 4))  # n_k = 5
V = _rng.normal(size=(5, 2))  # d_v = 2
S = Q @ K.T / 2.0  # scaled scores (√d_k = 2)
A = softmax(S)
O = A @ V
Q_sq, K_sq = _rng.normal(size=(3, 5)), _rng.normal(size=(5, 5))  # d_k = n_k, so Q @ K can be computed
X_sq, W_sq = _rng.normal(size=(5, 4)), _rng.normal(size=(4, 4))

FW_QKT = FT.Q @ FT.K.T
FW_S = FW_QKT / math.sqrt(3)
FW_S_CAUSAL = np.where(CAUSAL, FW_S, -np.inf)
FW_A_CAUSAL = softmax(FW_S_CAUSAL)
with np.errstate(over="ignore", invalid="ignore"):
    NAIVE_BIG = np.exp(1000.0 + S) / np.exp(1000.0 + S).sum(axis=1, keepdims=True)  # inf / inf: NaN everywhere

GIVEN = {  # one valid task per step, for the placeholder / type / shape / fuzz tests
    "projection": dict(X=X, W=W, name="K"),
    "scores": dict(Q=Q, K=K),
    "scaled_scores": dict(Q=Q, K=K),
    "softmax": dict(S=S),
    "weights": dict(Q=Q, K=K),
    "masked_weights": dict(Q=FT.Q, K=FT.K, mask=CAUSAL),
    "weighted_sum": dict(A=A, V=V),
    "output": dict(Q=Q, K=K, V=V),
    "causal_mask": dict(n=5),
}


def expected_of(step, given):
    g = given
    if step == "projection":
        return g["X"] @ g["W"]
    if step == "causal_mask":
        return np.tril(np.ones((g["n"], g["n"]), dtype=bool))
    if step == "softmax":
        return softmax(g["S"])
    if step == "weighted_sum":
        return g["A"] @ g["V"]
    trace = ac.attention(
        g["Q"],
        g["K"],
        g["K"][:, :0] if step != "output" else g["V"],
        mask=g.get("mask"),
        scaled=g.get("scaled", True) and step != "scores",
    )
    return {
        "scores": trace.S,
        "scaled_scores": trace.S,
        "weights": trace.A,
        "masked_weights": trace.A,
        "output": trace.O,
    }[step]


def leaked_numbers(message, expected):
    """Numbers of the expected array, formatted a few usual ways, that appear in the message."""
    found = []
    for x in np.asarray(expected, dtype=float).ravel():
        if not np.isfinite(x) or abs(x - round(x)) < 1e-9:
            continue  # 0, 1, −∞ (masks, masked weights) are not answers a learner could copy
        for text in (f"{x:.2f}", f"{x:.3f}", f"{x:.4f}", f"{x:.6g}", repr(float(x)), f"{x:.2e}", f"{abs(x):.2f}"):
            shown = re.search(r"(?<![\d.])" + re.escape(text) + r"(?!\d)", message)  # "0.00" is not in "0.005"
            if shown and not (text in HALF_UNITS and ("四舍五入" in message or "round" in message)):
                found.append(text)
    return found


# how far rounding to k decimals moves a number, which a rounding hint states ("up to 0.05"): not an answer's digits
HALF_UNITS = {"0.5", "0.05", "0.005", "0.0005", "5.00e-02", "5.00e-03"}


def assert_says(d, code, words, expected):
    assert isinstance(d, Diagnosis)
    assert d.code == code, d.message
    assert d.ok is (code == "ok")
    assert str(d).startswith("✅ " if d.ok else "⏳ " if code == "not_attempted" else "❌ ")
    for word in words:
        assert word in d.message, (word, d.message)
    assert not leaked_numbers(d.message, expected), d.message
    assert "np.tril(np.ones" not in d.message and "dtype=bool)" not in d.message


# ---------------------------------------------------------------- right answers pass


def loop_scores(Q, K, d_k=1.0):
    return [[sum(q * k for q, k in zip(Q[i], K[j])) / math.sqrt(d_k) for j in range(len(K))] for i in range(len(Q))]


def loop_softmax(S):
    rows = []
    for row in S:
        top = max(row)
        e = [math.exp(s - top) for s in row]
        rows.append([x / sum(e) for x in e])
    return rows


def loop_matmul(A, B):
    return [[sum(A[i][t] * B[t][j] for t in range(len(B))) for j in range(len(B[0]))] for i in range(len(A))]


f32 = np.float32
RIGHT = [
    ("projection", dict(X=X, W=W), X @ W),
    ("projection", dict(X=X, W=W), np.einsum("nd,dk->nk", X, W)),
    ("projection", dict(X=X, W=W), loop_matmul(X.tolist(), W.tolist())),
    ("projection", dict(X=X, W=W), X.astype(f32) @ W.astype(f32)),
    ("projection", dict(X=FW.X, W=FW.W_q, name="Q"), FT.Q),
    ("scores", dict(Q=Q, K=K), Q @ K.T),
    ("scores", dict(Q=Q, K=K), np.einsum("id,jd->ij", Q, K)),
    ("scores", dict(Q=Q, K=K), loop_scores(Q, K)),
    ("scores", dict(Q=Q, K=K), Q.astype(f32) @ K.T.astype(f32)),
    ("scores", dict(Q=FT.Q, K=FT.K), FT.QKT),
    ("scores", dict(Q=FT.Q, K=FT.K, mask=CAUSAL), np.where(CAUSAL, FW_QKT, -np.inf)),
    ("scaled_scores", dict(Q=Q, K=K), Q @ K.T / np.sqrt(4)),
    ("scaled_scores", dict(Q=Q, K=K), loop_scores(Q, K, 4)),
    ("scaled_scores", dict(Q=Q, K=K), (Q.astype(f32) @ K.T.astype(f32)) / f32(2)),
    ("scaled_scores", dict(Q=FT.Q, K=FT.K, d_k=3), FT.S),
    ("scaled_scores", dict(Q=FT.Q, K=FT.K, mask=CAUSAL), FW_S_CAUSAL),
    ("softmax", dict(S=S), A),
    ("softmax", dict(S=S), np.exp(S) / np.exp(S).sum(axis=1, keepdims=True)),  # no max subtracted: fine here
    ("softmax", dict(S=S), loop_softmax(S.tolist())),
    ("softmax", dict(S=S), softmax(S.astype(f32))),
    ("softmax", dict(S=FW_S_CAUSAL), FW_A_CAUSAL),
    ("softmax", dict(S=1000.0 + S), softmax(1000.0 + S)),
    ("weights", dict(Q=Q, K=K), A),
    ("weights", dict(Q=Q, K=K), loop_softmax(loop_scores(Q, K, 4))),
    ("weights", dict(Q=Q, K=K), softmax(np.einsum("id,jd->ij", Q.astype(f32), K.astype(f32)) / f32(2))),
    ("weights", dict(Q=Q, K=K, scaled=False), softmax(Q @ K.T)),
    ("weights", dict(Q=Q, K=K, d_k=16), softmax(Q @ K.T / 4)),
    ("weights", dict(Q=FT.Q, K=FT.K, mask=CAUSAL), FW_A_CAUSAL),
    ("weights", dict(Q=FT.Q, K=FT.K, mask=CAUSAL), softmax(np.where(CAUSAL, FW_S, -1e9))),  # a big negative works
    (
        "weights",
        dict(Q=FT.Q, K=FT.K, mask=CAUSAL),  # masking after softmax is right once rows are renormalised
        (softmax(FW_S) * CAUSAL) / (softmax(FW_S) * CAUSAL).sum(axis=1, keepdims=True),
    ),
    ("masked_weights", dict(Q=FT.Q, K=FT.K, mask=CAUSAL), FW_A_CAUSAL),
    ("weighted_sum", dict(A=A, V=V), O),
    ("weighted_sum", dict(A=A, V=V), np.einsum("ij,jd->id", A, V)),
    ("weighted_sum", dict(A=A, V=V), loop_matmul(A.tolist(), V.tolist())),
    ("weighted_sum", dict(A=A, V=V), A.astype(f32) @ V.astype(f32)),
    ("output", dict(Q=Q, K=K, V=V), O),
    ("output", dict(Q=Q, K=K, V=V), loop_matmul(loop_softmax(loop_scores(Q, K, 4)), V.tolist())),
    ("output", dict(Q=Q, K=K, V=V), softmax(Q.astype(f32) @ K.T.astype(f32) / f32(2)) @ V.astype(f32)),
    ("output", dict(Q=FT.Q, K=FT.K, V=FT.V), FT.O),
    ("output", dict(Q=FT.Q, K=FT.K, V=FT.V, mask=CAUSAL), FW.attention(mask=CAUSAL).O),
    ("causal_mask", dict(n=5), np.tril(np.ones((5, 5), dtype=bool))),
    ("causal_mask", dict(n=5), [[j <= i for j in range(5)] for i in range(5)]),
    ("causal_mask", dict(n=5), ~np.triu(np.ones((5, 5), dtype=bool), k=1)),
    ("causal_mask", dict(n=5), np.arange(5)[:, None] >= np.arange(5)[None, :]),
    ("causal_mask", dict(n=1), np.ones((1, 1), dtype=bool)),
]


@pytest.mark.parametrize("step, given, answer", RIGHT)
def test_right_answers_pass_however_computed(step, given, answer):
    d = diagnose(step, answer, **given)
    assert_says(d, "ok", [], expected_of(step, given))
    assert str(d).startswith("✅")


def test_the_four_word_example_rows_are_checked_against_attn_core():
    for step, kw, answer in [
        ("weights", dict(Q=FT.Q, K=FT.K), FT.A),
        ("softmax", dict(S=FT.S), FT.A),
        ("weighted_sum", dict(A=FT.A, V=FT.V), FT.O),
    ]:
        assert diagnose(step, answer, **kw).ok
        assert not diagnose(step, answer + 1e-3, **kw).ok


# ---------------------------------------------------------------- each mistake has its own code

MISTAKES = [
    # step, given, wrong answer, code, words the message must contain
    ("projection", dict(X=X, W=W, name="K"), (X @ W).T, "transposed", ["转置", "W_K"]),
    ("projection", dict(X=X, W=W, name="K"), W.T @ X.T, "transposed", ["转置"]),
    ("projection", dict(X=X, W=W), X.T, "wrong_shape", ["(5, 4)", "(6, 5)", "X 不需要转置"]),
    ("projection", dict(X=X, W=W, name="V"), X, "wrong_shape", ["(5, 6)", "W_V"]),
    ("projection", dict(X=X_sq, W=W_sq, name="Q"), X_sq @ W_sq.T, "weight_transposed", ["W_Q"]),
    ("scores", dict(Q=Q, K=K), K @ Q.T, "transposed", ["Q 乘以 K 的转置", "行对应查询"]),
    ("scores", dict(Q=FT.Q, K=FT.K), FT.K @ FT.Q.T, "transposed", ["Q 乘以 K 的转置"]),
    ("scores", dict(Q=Q_sq, K=K_sq), Q_sq @ K_sq, "missing_transpose", ["没有转置"]),
    ("scores", dict(Q=FT.Q, K=FT.K[:, :3]), FT.Q * FT.K, "wrong_shape", ["(4, 4)", "(4, 3)", "逐元素"]),
    ("scores", dict(Q=FT.Q, K=FT.K), FT.Q.T @ FT.K, "wrong_shape", ["特征"]),
    ("scores", dict(Q=Q, K=K), Q @ K.T / 2, "scaled_not_asked", ["不缩放"]),
    ("scores", dict(Q=FT.Q, K=FT.K, mask=CAUSAL), np.where(CAUSAL, FW_QKT, 0.0), "mask_zero", ["−∞"]),
    ("scores", dict(Q=FT.Q, K=FT.K, mask=CAUSAL), FW_QKT, "mask_ignored", ["−∞"]),
    ("scores", dict(Q=FT.Q, K=FT.K, mask=PAD), np.where(~PAD, FW_QKT, -np.inf), "mask_inverted", ["True"]),
    ("scores", dict(Q=FT.Q, K=FT.K, mask=CAUSAL), np.where(CAUSAL, FW_QKT, -1e9), "wrong_mask", ["−∞", "[0, 1]"]),
    ("scaled_scores", dict(Q=Q, K=K), Q @ K.T, "unscaled", ["√d_k"]),
    ("scaled_scores", dict(Q=Q, K=K), Q @ K.T / 4, "scaled_by_dk", ["√d_k", "平方根"]),
    ("scaled_scores", dict(Q=Q, K=K), Q @ K.T * 2, "scale_multiplied", ["除以 √d_k"]),
    ("scaled_scores", dict(Q=Q, K=K), K @ Q.T / 2, "transposed", ["QKᵀ"]),
    ("scaled_scores", dict(Q=FT.Q, K=FT.K, d_k=3), FW_QKT / 3, "scaled_by_dk", ["√d_k"]),
    ("softmax", dict(S=S), softmax(S, axis=0), "softmax_axis", ["每一行", "列"]),
    ("softmax", dict(S=S), np.exp(S), "not_normalized", ["exp", "每一行的和"]),
    ("softmax", dict(S=S), np.exp(S) / np.exp(S).sum(), "not_normalized", ["整个矩阵"]),
    ("softmax", dict(S=S), A.T, "transposed", ["转置"]),
    ("softmax", dict(S=S), S, "no_softmax", ["softmax"]),
    ("softmax", dict(S=1000.0 + S), NAIVE_BIG, "overflow", ["溢出", "最大值"]),
    ("softmax", dict(S=1000.0 + S), np.nan_to_num(NAIVE_BIG), "overflow", ["np.nan_to_num"]),
    ("weights", dict(Q=Q, K=K), softmax(Q @ K.T), "unscaled", ["√d_k"]),
    ("weights", dict(Q=Q, K=K), softmax(Q @ K.T / 4), "scaled_by_dk", ["√d_k"]),
    ("weights", dict(Q=Q, K=K), softmax(S, axis=0), "softmax_axis", ["每一行"]),
    ("weights", dict(Q=Q, K=K), softmax(K @ Q.T / 2), "transposed", ["QKᵀ"]),
    ("weights", dict(Q=Q, K=K), A.T, "transposed", ["转置"]),
    ("weights", dict(Q=Q, K=K), S, "no_softmax", ["softmax"]),
    ("weights", dict(Q=Q, K=K), Q @ K.T, "no_softmax", ["softmax"]),
    ("weights", dict(Q=Q, K=K), np.exp(S), "not_normalized", ["exp"]),
    ("weights", dict(Q=Q, K=K, scaled=False), A, "scaled_not_asked", ["不缩放"]),
    ("weights", dict(Q=FT.Q, K=FT.K, mask=CAUSAL), softmax(FW_S) * CAUSAL, "mask_after_softmax", ["softmax 之前"]),
    ("weights", dict(Q=FT.Q, K=FT.K, mask=CAUSAL), FT.A, "mask_ignored", ["−∞"]),
    ("weights", dict(Q=FT.Q, K=FT.K, mask=PAD), softmax(np.where(~PAD, FW_S, -np.inf)), "mask_inverted", ["True"]),
    ("weights", dict(Q=FT.Q, K=FT.K, mask=CAUSAL), softmax(np.where(CAUSAL, FW_S, 0.0)), "mask_zero", ["−∞"]),
    ("weights", dict(Q=FT.Q, K=FT.K, mask=CAUSAL), FW_S_CAUSAL, "no_softmax", ["softmax"]),
    ("masked_weights", dict(Q=FT.Q, K=FT.K, mask=CAUSAL), softmax(FW_S) * CAUSAL, "mask_after_softmax", ["−∞"]),
    ("weighted_sum", dict(A=A, V=V, K=K), A @ K, "used_keys_not_values", ["K", "V"]),
    ("weighted_sum", dict(A=FT.A, V=FT.V, K=FT.K), FT.A @ FT.K, "used_keys_not_values", ["值 V"]),
    ("weighted_sum", dict(A=A, V=V, S=S), S @ V, "used_scores_not_weights", ["softmax"]),
    ("weighted_sum", dict(A=A, V=V), O.T, "transposed", ["查询"]),
    ("weighted_sum", dict(A=FT.A, V=FT.V), FT.A.T @ FT.V, "transposed", ["A 的转置"]),
    ("weighted_sum", dict(A=A, V=V), A, "wrong_shape", ["(3, 2)", "(3, 5)", "乘以 V"]),
    ("weighted_sum", dict(A=A, V=V, K=K), A @ K + 1, "wrong_shape", ["(3, 2)", "(3, 4)"]),
    ("output", dict(Q=Q, K=K, V=V), softmax(Q @ K.T) @ V, "unscaled", ["√d_k", "权重"]),
    ("output", dict(Q=Q, K=K, V=V), softmax(Q @ K.T / 4) @ V, "scaled_by_dk", ["√d_k"]),
    ("output", dict(Q=Q, K=K, V=V), softmax(S, axis=0) @ V, "softmax_axis", ["每一行"]),
    ("output", dict(Q=Q, K=K, V=V), S @ V, "used_scores_not_weights", ["softmax"]),
    ("output", dict(Q=Q, K=K, V=V), A @ K, "used_keys_not_values", ["值 V"]),
    ("output", dict(Q=Q, K=K, V=V), np.exp(S) @ V, "not_normalized", ["每一行的和"]),
    ("output", dict(Q=FT.Q, K=FT.K, V=FT.V), softmax(FT.K @ FT.Q.T / math.sqrt(3)) @ FT.V, "transposed", ["QKᵀ"]),
    (
        "output",
        dict(Q=FT.Q, K=FT.K, V=FT.V, mask=CAUSAL),
        (softmax(FW_S) * CAUSAL) @ FT.V,
        "mask_after_softmax",
        ["softmax 之前"],
    ),
    ("output", dict(Q=FT.Q, K=FT.K, V=FT.V, mask=CAUSAL), FT.O, "mask_ignored", ["−∞"]),
    ("output", dict(Q=Q, K=K, V=V), A, "wrong_shape", ["(3, 2)", "权重 A"]),
    ("causal_mask", dict(n=5), np.triu(np.ones((5, 5), dtype=bool), k=1), "mask_inverted", ["True", "未来"]),
    ("causal_mask", dict(n=5), ~np.tril(np.ones((5, 5), dtype=bool)), "mask_inverted", ["True"]),
    ("causal_mask", dict(n=5), np.triu(np.ones((5, 5), dtype=bool)), "mask_upper", ["下三角"]),
    ("causal_mask", dict(n=5), np.tril(np.ones((5, 5), dtype=bool), k=-1), "mask_no_diagonal", ["对角线"]),
    ("causal_mask", dict(n=5), np.ones((5, 5), dtype=bool), "mask_all_true", ["True"]),
    ("causal_mask", dict(n=5), np.tril(np.ones((5, 5))), "wrong_type", ["dtype=bool", "float64"]),
    ("causal_mask", dict(n=5), np.tril(np.ones((5, 5), dtype=int)).tolist(), "wrong_type", ["布尔"]),
    ("causal_mask", dict(n=5), np.tril(np.ones((4, 4), dtype=bool)), "wrong_shape", ["(5, 5)", "(4, 4)"]),
]


@pytest.mark.parametrize("step, given, answer, code, words", MISTAKES)
def test_each_classic_mistake_gets_its_own_code(step, given, answer, code, words):
    assert_says(diagnose(step, answer, **given), code, words, expected_of(step, given))


@pytest.mark.parametrize("step, given, answer, code, words", MISTAKES)
def test_mistakes_have_english_messages_too(english, step, given, answer, code, words):
    d = diagnose(step, answer, **given)
    assert d.code == code
    assert not any("\u4e00" <= ch <= "\u9fff" for ch in d.message), d.message  # no hanzi left
    assert not leaked_numbers(d.message, expected_of(step, given))


def test_the_test_data_are_not_degenerate():
    """The mistakes above must differ from the right answer, or the tests would prove nothing."""
    assert not np.allclose(FW_QKT, FW_QKT.T) and K.shape[1] != V.shape[1] and Q.shape[0] != K.shape[0]
    assert not np.allclose(softmax(FW_S) * CAUSAL, FW_A_CAUSAL)


# ---------------------------------------------------------------- wrong values: where, not what


@pytest.mark.parametrize("step", ["scores", "weights", "weighted_sum", "output", "projection"])
def test_wrong_values_names_the_place_of_the_largest_difference(step):
    given = {**GIVEN[step]}
    right = expected_of(step, given)
    answer = right.copy()
    # no known mistake does this; rows of weights still sum to 1 and stay non-negative
    step_size = min(0.2, answer[1, 0] / 2, answer[1, 2] / 2) if step == "weights" else 0.2
    answer[1, 1] += 2 * step_size
    answer[1, 0] -= step_size
    if answer.shape[1] > 2:
        answer[1, 2] -= step_size
    d = diagnose(step, answer, **given)
    assert_says(d, "wrong_values", ["[1, 1]", "第 1 行", "第 1 列"], right)


def test_wrong_values_names_the_tokens_when_given():
    answer = FT.A.copy()
    answer[2, 1] += 0.2
    answer[2, 3] -= 0.2
    d = diagnose("weights", answer, Q=FT.Q, K=FT.K, tokens=FW.tokens)
    assert_says(d, "wrong_values", ["[2, 1]", "学习", "喜欢", "查询 2"], FT.A)
    d = diagnose("weights", answer + 0.01, Q=FT.Q, K=FT.K, tokens=FW.tokens)
    assert_says(d, "not_normalized", ["第 0 行“我”"], FT.A)


def test_masked_weights_must_be_zero():
    answer = FW_A_CAUSAL.copy()
    answer[0, 1], answer[0, 0] = 0.1, 0.9  # row still sums to 1, but a future key got weight
    assert_says(diagnose("weights", answer, Q=FT.Q, K=FT.K, mask=CAUSAL), "wrong_mask", ["[0, 1]", "0"], FW_A_CAUSAL)


# ---------------------------------------------------------------- placeholders, types, shapes


@pytest.mark.parametrize("step", list(GIVEN))
def test_the_placeholder_is_not_attempted(step):
    d = diagnose(step, ..., **GIVEN[step])
    assert_says(d, "not_attempted", ["还没作答"], expected_of(step, GIVEN[step]))
    assert str(d).startswith("⏳ 还没作答")


@pytest.mark.parametrize("step", list(GIVEN))
def test_none_is_said_to_be_none_not_unanswered(step):
    """A helper without return, or ``x = print(...)``: the learner did answer, and "replace ..." would be wrong."""
    d = diagnose(step, None, **GIVEN[step])
    assert_says(d, "is_none", ["None", "return"], expected_of(step, GIVEN[step]))


@pytest.mark.parametrize("step", [s for s in GIVEN if s != "causal_mask"])
@pytest.mark.parametrize(
    "answer",
    [
        "[[1, 2], [3, 4]]",
        {"Q": 1},
        [[1.0, 2.0], [3.0]],
        object(),
        True,
        np.ones((3, 5), dtype=complex),
        np.ones((3, 5), dtype=bool),
        [[None, 1.0]],
        [["a", "b"]],
        {1, 2},
    ],
)
def test_what_is_not_an_array_of_numbers_is_wrong_type(step, answer):
    complex_numbers = isinstance(answer, np.ndarray) and answer.dtype.kind == "c"  # numbers, but not real ones
    said = ["实数数组" if complex_numbers else "数字数组"]
    assert_says(diagnose(step, answer, **GIVEN[step]), "wrong_type", said, expected_of(step, GIVEN[step]))


@pytest.mark.parametrize("step", list(GIVEN))
@pytest.mark.parametrize("ndim", [0, 1, 3])
def test_scalars_vectors_and_stacks_are_wrong_shape(step, ndim):
    right = np.asarray(expected_of(step, GIVEN[step]))
    answer = {0: right[0, 0], 1: right[0], 3: right[None]}[ndim]
    d = diagnose(step, answer, **GIVEN[step])
    assert_says(d, "wrong_shape", [str(right.shape), "轴"], right)


def test_a_batched_task_takes_a_batched_answer():
    Qb, Kb = np.stack([Q, Q[::-1]]), np.stack([K, K[::-1]])
    right = ac.scale(ac.scores(Qb, Kb), 4)
    assert diagnose("scaled_scores", right, Q=Qb, K=Kb).ok
    assert diagnose("scaled_scores", np.swapaxes(right, -1, -2), Q=Qb, K=Kb).code == "transposed"
    assert diagnose("scaled_scores", right[0], Q=Qb, K=Kb).code == "wrong_shape"


def test_huge_values_give_a_verdict_without_warnings(recwarn):
    for step in GIVEN:
        for value in (1e300, -1e300, 1e308):
            d = diagnose(step, np.full(np.shape(expected_of(step, GIVEN[step])), value), **GIVEN[step])
            assert d.code in (
                "wrong_values",
                "wrong_type",
                "not_normalized",
                "wrong_mask",
                "mask_all_true",
                "negative_weight",
            ), d
    assert not [w for w in recwarn.list if issubclass(w.category, RuntimeWarning)]


def test_nan_and_infinity_are_not_finite():
    for bad in (np.nan, np.inf, -np.inf):
        answer = A.copy()
        answer[1, 2] = bad
        assert_says(diagnose("weights", answer, **GIVEN["weights"]), "not_finite", ["[1, 2]"], A)
    answer = np.where(CAUSAL, FW_QKT, -np.inf)
    answer[0, 0] = np.inf
    assert diagnose("scores", answer, Q=FT.Q, K=FT.K, mask=CAUSAL).code == "not_finite"


# ---------------------------------------------------------------- degenerate givens stay honest


def test_d_k_of_one_makes_unscaled_right():
    Q1, K1 = Q[:, :1], K[:, :1]
    assert diagnose("scaled_scores", Q1 @ K1.T, Q=Q1, K=K1).code == "ok"
    assert diagnose("weights", softmax(Q1 @ K1.T), Q=Q1, K=K1).code == "ok"


def test_symmetric_scores_make_kqt_right():
    assert diagnose("scores", FT.Q @ FT.Q.T, Q=FT.Q, K=FT.Q).code == "ok"


def test_a_mask_that_hides_nothing_makes_ignoring_it_right():
    full = np.ones((4, 4), dtype=bool)
    assert diagnose("weights", FT.A, Q=FT.Q, K=FT.K, mask=full).code == "ok"


# ---------------------------------------------------------------- a wrong task is the author's bug


@pytest.mark.parametrize(
    "step, given",
    [
        ("attention", dict(Q=Q, K=K)),
        (None, dict(Q=Q, K=K)),
        (["scores"], dict(Q=Q, K=K)),
        ("scores", dict(Q=Q)),
        ("scores", dict(Q=Q, K=K, V=V)),
        ("scores", dict(Q=Q, K=K[:, :3])),
        ("scores", dict(Q=Q[0], K=K)),
        ("scores", dict(Q="Q", K=K)),
        ("scores", dict(Q=np.where(Q > 0, np.nan, Q), K=K)),
        ("weights", dict(Q=FT.Q, K=FT.K, mask=CAUSAL.astype(int))),
        ("weights", dict(Q=FT.Q, K=FT.K, mask=np.ones((3, 3), dtype=bool))),
        ("weights", dict(Q=FT.Q, K=FT.K, mask=~CAUSAL)),  # the last row attends to nothing
        ("weights", dict(Q=Q, K=K, d_k=0)),
        ("weights", dict(Q=Q, K=K, d_k="4")),
        ("weights", dict(Q=Q, K=K, scaled="yes")),
        ("masked_weights", dict(Q=Q, K=K)),
        ("causal_mask", dict(n=0)),
        ("causal_mask", dict(n=True)),
        ("causal_mask", dict(n=4.0)),
        ("projection", dict(X=X, W=W.T)),
        ("projection", dict(X=X, W=W, name=["Q"])),
        ("weighted_sum", dict(A=A, V=V[:4])),
    ],
)
def test_a_wrong_task_is_bad_task_not_an_exception(step, given):
    d = diagnose(step, Q @ K.T, **given)
    assert d.code == "bad_task" and not d.ok
    assert "老师" in d.message


@pytest.mark.parametrize(
    "step, given, detail",
    [
        ("attention", dict(Q=Q, K=K), "unknown step 'attention' (steps: projection, scores, scaled_scores, "),
        ("scores", dict(Q=Q), "step 'scores' needs ['Q', 'K'], may take ['mask']; missing ['K'], unexpected []"),
        ("scores", dict(Q="Q", K=K), "TypeError: Q must be an array of real numbers, got str of dtype <U1"),
        ("scores", dict(Q=Q[0], K=K), "ValueError: Q must have at least 2 axes, got shape (4,)"),
        ("weights", dict(Q=Q, K=K, d_k=0), "ValueError: d_k must be a positive number, got 0"),
        ("weights", dict(Q=Q, K=K, scaled="yes"), "TypeError: scaled must be True or False, got 'yes'"),
        ("causal_mask", dict(n=4.0), "ValueError: n must be a positive integer, got 4.0"),
    ],
)
def test_a_wrong_task_says_what_is_wrong_in_both_languages(step, given, detail):
    chinese = diagnose(step, Q @ K.T, **given).message
    set_lang("en")
    try:
        assert detail in diagnose(step, Q @ K.T, **given).message
    finally:
        set_lang("zh")
    assert chinese.startswith("这道题的设置出了问题") and detail not in chinese  # the detail is in Chinese too


# ---------------------------------------------------------------- report and the Diagnosis itself


def test_report_prints_one_line_and_returns_none(capsys):
    assert report("scores", K @ Q.T, Q=Q, K=K) is None
    out = capsys.readouterr().out
    assert out.startswith("❌ ") and out.count("\n") == 1
    report("scores", Q @ K.T, Q=Q, K=K)
    assert capsys.readouterr().out.startswith("✅ ")


def test_a_diagnosis_is_frozen():
    d = diagnose("scores", Q @ K.T, Q=Q, K=K)
    with pytest.raises(AttributeError):
        d.ok = False
    assert (d.ok, d.code, d.step) == (True, "ok", "scores")


def test_every_step_of_lessons_1_to_7_is_here():
    """The steps of lessons 8–11, the predictions and the find-the-bug steps have tests of their own."""
    assert set(GIVEN) <= set(checker.STEPS)


# ---------------------------------------------------------------- fuzz: never raises, never writes

weird = st.one_of(
    st.none(),
    st.just(...),
    st.text(max_size=5),
    st.booleans(),
    st.integers(),
    st.floats(),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
    st.lists(st.floats(), max_size=6),
    st.lists(st.lists(st.floats(), max_size=6), max_size=6),  # nested, often ragged
    st.lists(st.one_of(st.integers(), st.text(max_size=2), st.none()), max_size=4),
    arrays(
        st.sampled_from([np.float64, np.float32, np.int64, bool]),
        array_shapes(min_dims=0, max_dims=3, max_side=6),
        elements=None,
    ),
    arrays(
        np.float64,
        st.sampled_from([(3, 5), (5, 3), (3, 2), (5, 5), (5, 4), (4, 4)]),
        elements=st.sampled_from([0.0, 1.0, -1.0, np.nan, np.inf, -np.inf, 1e300, -1e300, 5e-324]),
    ),
)


def snapshot(x):
    return repr(x), (x.copy() if isinstance(x, np.ndarray) else copy.deepcopy(x))


def unchanged(x, snap):
    if isinstance(x, np.ndarray):
        return np.array_equal(x, snap[1], equal_nan=x.dtype.kind in "fc")
    return repr(x) == snap[0]


@pytest.mark.parametrize("step", list(GIVEN))
@given(answer=weird)
def test_diagnose_never_raises_and_never_writes(step, answer):
    given = GIVEN[step]
    before = snapshot(answer), {k: snapshot(v) for k, v in given.items()}
    d = diagnose(step, answer, **given)
    assert isinstance(d, Diagnosis) and d.code != "checker_error" and d.message and str(d)
    assert d.ok == (d.code == "ok")
    assert unchanged(answer, before[0])
    assert all(unchanged(v, before[1][k]) for k, v in given.items())


@given(
    key=st.sampled_from(["Q", "K", "V", "mask", "d_k", "scaled", "S", "A", "X", "W", "n", "tokens", "name"]),
    value=weird,
    step=st.sampled_from(list(GIVEN)),
)
def test_garbage_givens_never_raise(key, value, step):
    d = diagnose(step, expected_of(step, GIVEN[step]), **{**GIVEN[step], key: value})
    assert isinstance(d, Diagnosis) and d.code != "checker_error"


# ---------------------------------------------------------------- laws over random givens

finite = st.floats(-5, 5, allow_nan=False, width=64)


@st.composite
def qkv(draw):
    n_q, n_k, d_k, d_v = (draw(st.integers(1, 5)) for _ in range(4))
    return tuple(draw(arrays(np.float64, shape, elements=finite)) for shape in ((n_q, d_k), (n_k, d_k), (n_k, d_v)))


@given(qkv())
def test_the_right_answer_always_passes(data):
    Q, K, V = data
    trace = ac.attention(Q, K, V)
    for step, kw, right in [
        ("scores", dict(Q=Q, K=K), np.einsum("id,jd->ij", Q, K)),
        ("scaled_scores", dict(Q=Q, K=K), trace.S),
        ("softmax", dict(S=trace.S), trace.A),
        ("weights", dict(Q=Q, K=K), trace.A),
        ("weighted_sum", dict(A=trace.A, V=V), trace.O),
        ("output", dict(Q=Q, K=K, V=V), trace.O),
    ]:
        assert diagnose(step, right, **kw).ok, step


@given(qkv())
def test_a_mistake_is_named_or_is_in_fact_right(data):
    """Whatever the givens, an unscaled or transposed answer is called that — or ok when, for these givens,
    it equals the right answer (d_k = 1, symmetric or zero scores)."""
    Q, K, _ = data
    right = ac.scale(ac.scores(Q, K), Q.shape[1])
    tol = 1e-8 + 1e-5 * np.abs(right).max()
    for answer, code in [(Q @ K.T, "unscaled"), ((K @ Q.T) / math.sqrt(Q.shape[1]), "transposed")]:
        d = diagnose("scaled_scores", answer, Q=Q, K=K)
        same = answer.shape == right.shape and np.allclose(answer, right, rtol=1e-5, atol=tol)
        assert d.code == ("ok" if same else code) or (d.code == "transposed" and code == "unscaled"), d
