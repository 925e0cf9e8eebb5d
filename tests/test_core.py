"""The five steps and their composition: laws that hold for all inputs, and the learner's exact cases."""

import math

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import attn_core as ac
from attn_core import examples

finite = st.floats(-10, 10, allow_nan=False, allow_infinity=False, width=64)


@st.composite
def qkv(draw, cross=True):
    n_q = draw(st.integers(1, 6))
    n_k = draw(st.integers(1, 6)) if cross else n_q
    d_k, d_v = draw(st.integers(1, 5)), draw(st.integers(1, 5))
    Q = draw(arrays(np.float64, (n_q, d_k), elements=finite))
    K = draw(arrays(np.float64, (n_k, d_k), elements=finite))
    V = draw(arrays(np.float64, (n_k, d_v), elements=finite))
    return Q, K, V


@st.composite
def self_inputs(draw):
    n, d_model = draw(st.integers(1, 6)), draw(st.integers(1, 5))
    d_k, d_v = draw(st.integers(1, 5)), draw(st.integers(1, 5))
    X = draw(arrays(np.float64, (n, d_model), elements=finite))
    Ws = [draw(arrays(np.float64, (d_model, d), elements=st.floats(-2, 2))) for d in (d_k, d_k, d_v)]
    return X, Ws


def loop_attention(Q, K, V, mask=None, scaled=True):
    """Independent reference: explicit loops over i and j, no matrix products."""
    n_q, d_k = len(Q), len(Q[0])
    n_k, d_v = len(K), len(V[0])
    O = np.zeros((n_q, d_v))
    for i in range(n_q):
        s = []
        for j in range(n_k):
            dot = sum(float(Q[i][t]) * float(K[j][t]) for t in range(d_k))
            s.append(dot / math.sqrt(d_k) if scaled else dot)
        allowed = [j for j in range(n_k) if mask is None or mask[i][j]]
        top = max(s[j] for j in allowed)
        e = {j: math.exp(s[j] - top) for j in allowed}
        total = sum(e.values())
        for c in range(d_v):
            O[i, c] = sum(e[j] / total * float(V[j][c]) for j in allowed)
    return O


# ---------------------------------------------------------------- laws (hypothesis)


@given(qkv())
def test_weights_are_a_distribution_per_row(data):
    A = ac.attention(*data).A
    assert (A >= 0).all()
    np.testing.assert_allclose(A.sum(axis=-1), 1.0, atol=1e-12)


@given(self_inputs(), st.randoms(use_true_random=False))
def test_self_attention_is_permutation_equivariant(data, rnd):
    X, Ws = data
    perm = list(range(len(X)))
    rnd.shuffle(perm)
    O = ac.self_attention(X, *Ws).O
    O_perm = ac.self_attention(X[perm], *Ws).O
    np.testing.assert_allclose(O_perm, O[perm], rtol=1e-9, atol=1e-9)


@given(qkv(), st.integers(0, 5), st.floats(-1e3, 1e3))
def test_adding_a_constant_to_a_row_of_scores_keeps_its_weights(data, row, c):
    Q, K, _ = data
    S = ac.scale(ac.scores(Q, K), Q.shape[1])
    row %= len(S)
    shifted = S.copy()
    shifted[row] += c
    np.testing.assert_allclose(ac.softmax(shifted), ac.softmax(S), rtol=1e-9, atol=1e-12)


@given(qkv(), st.floats(0.01, 1e4))
def test_scaling_keeps_each_rows_order(data, d_k):
    Q, K, _ = data
    raw = ac.scores(Q, K)
    scaled = ac.scale(raw, d_k)
    for r, s in zip(raw, scaled):
        dr, ds = np.sign(r[:, None] - r[None, :]), np.sign(s[:, None] - s[None, :])
        assert (dr * ds >= 0).all()  # no pair swaps order (a subnormal gap may underflow to a tie)
        assert (ds[dr == 0] == 0).all()  # and no tie is broken


@given(self_inputs())
def test_causal_weights_above_the_diagonal_are_exactly_zero(data):
    X, Ws = data
    n = len(X)
    A = ac.self_attention(X, *Ws, mask=ac.causal_mask(n)).A
    assert (A[np.triu_indices(n, k=1)] == 0.0).all()
    np.testing.assert_allclose(A.sum(-1), 1.0, atol=1e-12)


@given(qkv())
def test_each_output_row_lies_within_the_values_column_range(data):
    Q, K, V = data
    O = ac.attention(Q, K, V).O
    tol = 1e-9 * (1 + np.abs(V).max())
    assert (O >= V.min(axis=0) - tol).all() and (O <= V.max(axis=0) + tol).all()


@given(self_inputs())
def test_one_head_equals_single_head(data):
    X, (W_q, W_k, W_v) = data
    W_o = np.eye(W_v.shape[1])[:, ::-1] * 0.5  # any d_v × d_model' matrix
    mh = ac.multi_head_attention(X, X, W_q, W_k, W_v, W_o, n_heads=1)
    single = ac.self_attention(X, W_q, W_k, W_v)
    np.testing.assert_array_equal(mh.heads.A[..., 0, :, :], single.A)
    np.testing.assert_array_equal(mh.O, single.O @ W_o)


@given(qkv(), st.booleans())
def test_matches_loop_reference(data, scaled):
    Q, K, V = data
    np.testing.assert_allclose(
        ac.attention(Q, K, V, scaled=scaled).O, loop_attention(Q, K, V, scaled=scaled), rtol=1e-12, atol=1e-12
    )


@given(qkv(), st.data())
def test_matches_loop_reference_with_masks(data, draw):
    Q, K, V = data
    mask = draw.draw(arrays(bool, (len(Q), len(K))))
    mask[np.arange(len(Q)), draw.draw(st.lists(st.integers(0, len(K) - 1), min_size=len(Q), max_size=len(Q)))] = True
    np.testing.assert_allclose(
        ac.attention(Q, K, V, mask=mask).O, loop_attention(Q, K, V, mask=mask), rtol=1e-12, atol=1e-12
    )


@given(self_inputs())
def test_self_attention_with_causal_mask_matches_loop_reference(data):
    X, Ws = data
    t = ac.self_attention(X, *Ws, mask=ac.causal_mask(len(X)))
    np.testing.assert_allclose(t.O, loop_attention(t.Q, t.K, t.V, mask=ac.causal_mask(len(X))), rtol=1e-12, atol=1e-12)


@given(qkv(), st.integers(1, 3))
def test_leading_batch_axes_are_carried(data, b):
    Q, K, V = data
    batched = ac.attention(np.stack([Q] * b), np.stack([K] * b), np.stack([V] * b))
    assert batched.O.shape == (b, *ac.attention(Q, K, V).O.shape)
    np.testing.assert_allclose(batched.O[-1], ac.attention(Q, K, V).O, atol=1e-12)


@given(qkv())
def test_inputs_are_never_modified(data):
    copies = [a.copy() for a in data]
    ac.attention(*data, mask=np.ones((len(data[0]), len(data[1])), bool))
    for a, c in zip(data, copies):
        np.testing.assert_array_equal(a, c)


# ---------------------------------------------------------------- the learner's exact cases


def test_four_word_example_shapes_and_the_row_for_xuexi():
    ex = examples.four_words()
    t = ex.attention()
    assert ex.tokens == ("我", "喜欢", "学习", "语言")
    assert t.X.shape == (4, 3) and t.Q.shape == t.K.shape == t.V.shape == (4, 3)
    assert t.QKT.shape == t.S.shape == t.A.shape == (4, 4) and t.O.shape == (4, 3)
    i = ex.index("学习")
    q = ex.X[i] @ ex.W_q
    by_hand = [sum(q[c] * k[c] for c in range(3)) for k in ex.X @ ex.W_k]
    np.testing.assert_allclose(t.QKT[i], by_hand, atol=1e-15)
    np.testing.assert_allclose(t.S, t.QKT / np.sqrt(3), atol=1e-15)
    # 学习 leans on 喜欢 and 语言, less on itself, least on 我; some raw scores are negative
    order = np.argsort(t.A[i])[::-1]
    assert {ex.tokens[j] for j in order[:2]} == {"喜欢", "语言"} and ex.tokens[order[-1]] == "我"
    assert (t.QKT < 0).any()


def test_coreference_example_it_draws_on_animal_and_tired():
    ex = examples.coreference()
    assert "".join(ex.tokens) == "那只动物没过街，因为它太累了"
    a = ex.attention().A[ex.index("它")]
    top2 = {ex.tokens[j] for j in np.argsort(a)[-2:]}
    assert top2 == {"动物", "累了"}
    assert a[ex.index("动物")] + a[ex.index("累了")] > 0.5
    assert a[ex.index("街")] < 0.1


def test_the_wide_sentence_shares_everything_but_its_last_word():
    tired, wide = examples.coreference(), examples.coreference_wide()
    assert "".join(wide.tokens) == "那只动物没过街，因为它太宽了"
    assert wide.tokens[:-1] == tired.tokens[:-1] and wide.features == tired.features
    for W in ("W_q", "W_k", "W_v"):  # the projections are fixed at inference time
        np.testing.assert_array_equal(getattr(wide, W), getattr(tired, W))
    np.testing.assert_array_equal(wide.X[:-1], tired.X[:-1])
    # 宽了 is 累了 with "animate" and "place" swapped
    np.testing.assert_array_equal(wide.X[-1], tired.X[-1][[1, 0, 2, 3]])


def test_one_layer_does_not_resolve_it_in_the_wide_sentence():
    """Same 它, same query: 它 still leans on 动物; what changes is what arrives in its output."""
    tired, wide = examples.coreference(), examples.coreference_wide()
    it = wide.index("它")
    a_tired, a_wide = tired.attention().A[it], wide.attention().A[it]
    assert a_wide.argmax() == wide.index("动物") and a_wide[wide.index("街")] < 0.1
    o_tired, o_wide = tired.attention().O[it], wide.attention().O[it]
    place = tired.features.index("place")
    assert o_wide[place] > 2 * o_tired[place]  # the place-ness of 宽了 has reached 它's output
    assert a_tired[tired.index("累了")] > a_wide[wide.index("宽了")]


def test_examples_cannot_be_changed_by_accident():
    ex = examples.four_words()
    with pytest.raises(ValueError):
        ex.X[0, 0] = 99.0
    assert examples.four_words().X[0, 0] == 1.0


def test_trace_keeps_every_intermediate_and_its_table_names_them():
    t = examples.four_words().attention()
    table = repr(t)
    for sym in ("X", "Q", "K", "V", "QKᵀ", "S", "A", "O"):
        assert sym in table
    assert "4 × 4" in table and "4 × 3" in table
    assert t.QKᵀ is t.QKT  # Python folds ᵀ to T in identifiers (NFKC)


def test_trace_table_in_english():
    ac.set_lang("en")
    try:
        assert "attention weights, each row sums to 1" in repr(examples.four_words().attention())
    finally:
        ac.set_lang("zh")


def test_unscaled_skips_step_three():
    t = examples.four_words().attention(scaled=False)
    np.testing.assert_array_equal(t.S, t.QKT)
    assert not t.scaled


def test_softmax_is_stable_for_huge_scores():
    A = ac.softmax(np.array([[1e4, -1e4, 0.0], [-1e4, -1e4, -1e4]]))
    assert np.isfinite(A).all()
    np.testing.assert_allclose(A.sum(-1), 1.0)
    np.testing.assert_allclose(A[0], [1.0, 0.0, 0.0])


def test_cross_attention_with_different_lengths():
    rng = np.random.default_rng(0)
    Q, K, V = rng.normal(size=(2, 4)), rng.normal(size=(5, 4)), rng.normal(size=(5, 3))
    t = ac.attention(Q, K, V)
    assert t.A.shape == (2, 5) and t.O.shape == (2, 3)


def test_dtypes_float32_kept_integers_promoted():
    Q = np.ones((2, 3), np.float32)
    assert ac.attention(Q, Q, Q).O.dtype == np.float32
    assert ac.softmax(np.ones((2, 2), np.float32)).dtype == np.float32
    assert ac.attention([[1, 2]], [[3, 4]], [[5, 6]]).O.dtype == np.float64


def test_masked_scores_become_minus_infinity():
    Q = np.eye(3)
    t = ac.attention(Q, Q, Q, mask=ac.causal_mask(3))
    assert np.isneginf(t.S[0, 1]) and np.isneginf(t.S[0, 2]) and np.isfinite(t.S[2]).all()


def test_multi_head_splits_and_exposes_per_head_weights():
    rng = np.random.default_rng(1)
    X_q, X_kv = rng.normal(size=(3, 8)), rng.normal(size=(5, 8))
    W = [rng.normal(size=(8, 8)) for _ in range(4)]
    mh = ac.multi_head_attention(X_q, X_kv, *W, n_heads=4)
    assert mh.A.shape == (4, 3, 5) and mh.concat.shape == (3, 8) and mh.O.shape == (3, 8)
    # head h is plain attention on the h-th slice of the projections
    Q, K, V = X_q @ W[0], X_kv @ W[1], X_kv @ W[2]
    h = 2
    sl = slice(2 * h, 2 * h + 2)
    np.testing.assert_allclose(mh.A[h], ac.attention(Q[:, sl], K[:, sl], V[:, sl]).A, atol=1e-12)
    assert "4" in repr(mh)


def test_multi_head_with_a_batched_mask():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(2, 4, 6))
    W = [rng.normal(size=(6, 6)) for _ in range(4)]
    mask = np.stack([ac.causal_mask(4), np.ones((4, 4), bool)])
    mh = ac.multi_head_attention(X, X, *W, n_heads=3, mask=mask)
    assert mh.A.shape == (2, 3, 4, 4)
    assert (mh.A[0][:, np.triu_indices(4, 1)[0], np.triu_indices(4, 1)[1]] == 0).all()
    assert (mh.A[1] > 0).all()


# ---------------------------------------------------------------- bad input: clear errors


def _raises(exc, fn, *words):
    """``fn`` raises ``exc`` in both languages; the English message holds every word, the Chinese one
    (the default) every shape; returns the English message."""
    messages = {}
    for lang in ("zh", "en"):
        ac.set_lang(lang)
        try:
            with pytest.raises(exc) as info:
                fn()
        finally:
            ac.set_lang("zh")
        messages[lang] = str(info.value)
    for w in words:
        assert w in messages["en"], f"{w!r} not in: {messages['en']}"
        if w.startswith("("):
            assert w in messages["zh"], f"{w!r} not in: {messages['zh']}"
    assert any("\u4e00" <= ch <= "\u9fff" for ch in messages["zh"]), messages["zh"]
    return messages["en"]


def test_q_and_k_with_different_dk():
    _raises(ValueError, lambda: ac.scores(np.ones((4, 3)), np.ones((4, 2))), "(4, 3)", "(4, 2)", "d_k")


def test_a_columns_must_match_v_rows():
    _raises(ValueError, lambda: ac.weighted_sum(np.ones((4, 4)) / 4, np.ones((3, 2))), "(4, 4)", "(3, 2)")


def test_k_and_v_need_the_same_number_of_rows():
    _raises(ValueError, lambda: ac.attention(np.ones((2, 3)), np.ones((4, 3)), np.ones((5, 2))), "(4, 3)", "(5, 2)")


def test_mask_that_does_not_broadcast():
    Q = np.ones((4, 3))
    _raises(ValueError, lambda: ac.attention(Q, Q, Q, mask=np.ones((3, 3), bool)), "(3, 3)", "(4, 4)")


def test_weights_that_do_not_fit_x():
    ex = examples.four_words()
    msg = _raises(ValueError, lambda: ac.project(ex.X, ex.W_q.T[:2], ex.W_k, ex.W_v), "(4, 3)", "(2, 3)", "W_Q")
    assert "transposed" in msg


def test_w_q_and_w_k_must_share_dk():
    X = np.ones((4, 3))
    _raises(ValueError, lambda: ac.project(X, np.ones((3, 2)), np.ones((3, 5)), np.ones((3, 3))), "(4, 2)", "(4, 5)")


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_nan_or_inf_in_inputs(bad):
    Q = np.ones((3, 2))
    Q[1, 0] = bad
    _raises(ValueError, lambda: ac.attention(Q, np.ones((3, 2)), np.ones((3, 2))), "Q", "(3, 2)", "(1, 0)")


def test_nan_in_softmax_scores():
    _raises(ValueError, lambda: ac.softmax(np.array([[0.0, np.nan]])), "NaN")


@pytest.mark.parametrize("bad", [[["a", "b"]], np.array([[1 + 2j]]), [[True, False]], [[1, 2], [3]]])
def test_non_numeric_input(bad):
    with pytest.raises(TypeError):
        ac.attention(bad, bad, bad)


def test_mask_row_with_nothing_to_attend_to():
    Q = np.ones((3, 2))
    mask = ac.causal_mask(3)
    mask[1] = False
    msg = _raises(ValueError, lambda: ac.attention(Q, Q, Q, mask=mask), "row 1")
    assert "NaN" in msg


def test_non_boolean_mask():
    Q = np.ones((2, 2))
    _raises(TypeError, lambda: ac.attention(Q, Q, Q, mask=np.ones((2, 2))), "boolean", "True = may attend")


def test_heads_must_divide_d_model():
    X = np.ones((3, 6))
    W = np.ones((6, 6))
    _raises(ValueError, lambda: ac.multi_head_attention(X, X, W, W, W, W, n_heads=4), "6", "4", "divisible")


def test_w_o_must_fit_the_concatenated_heads():
    X, W = np.ones((3, 6)), np.ones((6, 6))
    _raises(ValueError, lambda: ac.multi_head_attention(X, X, W, W, W, np.ones((4, 6)), n_heads=2), "(4, 6)", "6")


@pytest.mark.parametrize("d_k", [0, -3, "3", None])
def test_scale_needs_a_positive_dk(d_k):
    _raises(ValueError, lambda: ac.scale(np.ones((2, 2)), d_k), "d_k")


def test_a_vector_instead_of_a_matrix():
    _raises(ValueError, lambda: ac.scores(np.ones(3), np.ones((4, 3))), "(3,)", "v[None, :]")


def test_errors_leave_the_learners_arrays_alone():
    Q = np.ones((3, 2))
    Q[0, 0] = np.nan
    before = Q.copy()
    with pytest.raises(ValueError):
        ac.attention(Q, Q, Q)
    np.testing.assert_array_equal(Q, before)


@given(arrays(np.float64, st.tuples(st.integers(1, 4), st.integers(1, 4)), elements=st.floats(-1e4, 1e4)))
def test_softmax_rows_sum_to_one_even_for_large_scores(S):
    assume(np.isfinite(S).all())
    A = ac.softmax(S)
    assert np.isfinite(A).all() and (A >= 0).all()
    np.testing.assert_allclose(A.sum(-1), 1.0, atol=1e-12)
