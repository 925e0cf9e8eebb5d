"""Word order (lesson 12): the closed forms of the sinusoidal encodings and of RoPE, the laws they are
taught for (q_i·k_j depends only on i − j under RoPE; PE_i·PE_j only on |i − j|; the two RoPE layouts
are one rotation on permuted features), and clear errors for odd widths and bad positions."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import attn_core as ac
from attn_core import positions
from attn_core.examples import coreference, four_words
from attn_core.positions import (
    attention_with_positions,
    interleaved_to_half,
    position_frequencies,
    positioned_qkv,
    rope,
    sinusoidal_positions,
    with_even_width,
)

finite = st.floats(-10, 10, allow_nan=False, allow_infinity=False, width=64)
even_width = st.integers(1, 8).map(lambda k: 2 * k)
position = st.integers(-50, 200)
layouts = st.sampled_from(positions.LAYOUTS)


def close(a, b, scale=1.0):
    """Equal up to float64 rounding of numbers of size ``scale``."""
    return np.allclose(a, b, rtol=1e-9, atol=1e-9 * max(scale, 1.0))


# ---------------------------------------------------------------- the closed forms


@pytest.mark.parametrize("n, d, base", [(1, 2, 10000), (7, 6, 10000), (50, 16, 10000), (5, 4, 100), (3, 8, 2.5)])
def test_sinusoidal_positions_is_the_formula_of_the_paper(n, d, base):
    PE = sinusoidal_positions(n, d, base)
    assert PE.shape == (n, d) and PE.dtype == np.float64
    for p in range(n):
        for k in range(d // 2):
            angle = p / base ** (2 * k / d)
            assert PE[p, 2 * k] == pytest.approx(math.sin(angle), abs=1e-12)
            assert PE[p, 2 * k + 1] == pytest.approx(math.cos(angle), abs=1e-12)


def test_position_zero_is_sin_0_cos_0_and_float32_when_asked():
    PE = sinusoidal_positions(3, 8, dtype=np.float32)
    assert PE.dtype == np.float32
    np.testing.assert_array_equal(PE[0], [0, 1] * 4)
    np.testing.assert_allclose(position_frequencies(8), [1, 10000**-0.25, 10000**-0.5, 10000**-0.75])


@given(x=arrays(np.float64, 2, elements=finite), p=position)
def test_rope_on_one_pair_is_the_rotation_matrix(x, p):
    c, s = math.cos(p), math.sin(p)  # d = 2: one pair, ω_0 = 1
    expected = np.array([[c, -s], [s, c]]) @ x
    for layout in positions.LAYOUTS:
        assert close(rope(x, p, layout=layout), expected, np.abs(x).max())


@given(x=st.integers(1, 4).flatmap(lambda k: arrays(np.float64, (3, 2 * k), elements=finite)), layout=layouts)
def test_rope_at_position_zero_changes_nothing_and_keeps_each_pair_s_length(x, layout):
    np.testing.assert_array_equal(rope(x, np.zeros(3), layout=layout), x)
    turned = rope(x, np.array([1, 5, 40]), layout=layout)
    d = x.shape[1]  # the pairs side by side: (0, 1), (2, 3), …
    side_by_side = np.argsort(interleaved_to_half(d)) if layout == "half" else np.arange(d)
    pairs = lambda m: np.hypot(m[..., side_by_side][..., 0::2], m[..., side_by_side][..., 1::2])  # noqa: E731
    assert close(pairs(turned), pairs(x), np.abs(x).max())


@given(x=even_width.flatmap(lambda d: arrays(np.float64, d, elements=finite)), a=position, b=position, layout=layouts)
def test_two_rotations_add_their_positions(x, a, b, layout):
    assert close(rope(rope(x, a, layout=layout), b, layout=layout), rope(x, a + b, layout=layout), np.abs(x).max())


def test_float32_stays_float32_and_the_input_is_not_touched():
    X = np.arange(12, dtype=np.float32).reshape(3, 4)
    before = X.copy()
    out = rope(X, [0, 1, 2])
    assert out.dtype == np.float32 and out.shape == (3, 4)
    np.testing.assert_array_equal(X, before)


# ---------------------------------------------------------------- the laws the lesson teaches


@st.composite
def query_key(draw):
    d = draw(even_width)
    return tuple(draw(arrays(np.float64, d, elements=finite)) for _ in range(2))


@given(qk=query_key(), i=position, j=position, shift=position, layout=layouts)
def test_rope_scores_depend_only_on_the_offset(qk, i, j, shift, layout):
    """q_i·k_j after RoPE = qᵀ R((j − i)ω) k: shifting both positions leaves the score as it is."""
    q, k = qk
    before = rope(q, i, layout=layout) @ rope(k, j, layout=layout)
    after = rope(q, i + shift, layout=layout) @ rope(k, j + shift, layout=layout)
    assert close(after, before, np.abs(q).max() * np.abs(k).max() * len(q))


def test_rope_scores_are_not_symmetric_in_the_offset():
    """Unlike PE_i·PE_j, the RoPE score tells j − i = +3 from j − i = −3."""
    q, k = np.array([1.0, 0.0]), np.array([0.0, 1.0])
    assert rope(q, 0) @ rope(k, 3) == pytest.approx(-(rope(q, 3) @ rope(k, 0)))
    assert abs(rope(q, 0) @ rope(k, 3)) > 0.1


@given(
    X=st.tuples(st.integers(1, 5), even_width).flatmap(lambda s: arrays(np.float64, s, elements=finite)),
    offset=position,
)
def test_the_two_layouts_are_one_rotation_on_permuted_features(X, offset):
    order = interleaved_to_half(X.shape[1])
    p = offset + np.arange(X.shape[0])
    assert close(rope(X[:, order], p, layout="half"), rope(X, p)[:, order], np.abs(X).max())
    assert sorted(order) == list(range(X.shape[1]))


@pytest.mark.parametrize("n, d", [(50, 16), (30, 6), (12, 2)])
def test_sinusoidal_dot_products_are_exactly_a_function_of_the_distance(n, d):
    """PE_i·PE_j = Σ_k cos(ω_k (i − j)): the same along every diagonal, symmetric, largest at i = j."""
    PE = sinusoidal_positions(n, d)
    G = PE @ PE.T
    omega = position_frequencies(d)
    for i in range(n):
        for j in range(n):
            assert G[i, j] == pytest.approx(np.cos(omega * (i - j)).sum(), abs=1e-12)
    np.testing.assert_allclose(G, G.T, atol=1e-12)
    assert np.allclose(np.diag(G), d / 2) and (G <= d / 2 + 1e-12).all()


def test_sinusoidal_similarity_does_not_fall_steadily_with_distance():
    """What the lesson says instead of "nearer = more similar": at d = 16, position 0 is closer to
    position 19 than to position 3."""
    G = sinusoidal_positions(50, 16) @ sinusoidal_positions(50, 16).T
    assert G[0, 19] > G[0, 3]
    assert (np.diff(G[0]) > 0).any()


@given(p=st.integers(0, 40), shift=st.integers(0, 40), d=even_width)
def test_a_shift_of_the_sinusoidal_encoding_is_one_linear_map_for_every_position(p, shift, d):
    """Vaswani et al.: PE[p + shift] is a fixed linear function (a rotation per pair) of PE[p]."""
    PE = sinusoidal_positions(p + shift + 1, d)
    M = np.zeros((d, d))
    for k, w in enumerate(position_frequencies(d)):
        c, s = math.cos(shift * w), math.sin(shift * w)
        M[2 * k : 2 * k + 2, 2 * k : 2 * k + 2] = [[c, -s], [s, c]]  # acts on (sin, cos) as a row vector
    assert close(PE[p] @ M, PE[p + shift])


# ---------------------------------------------------------------- attention with positions


@given(order=st.permutations(range(4)))
def test_without_positions_a_reordered_sentence_gives_each_word_the_same_output(order):
    ex = four_words()
    order = list(order)
    shuffled = ac.self_attention(ex.X[order], ex.W_q, ex.W_k, ex.W_v)
    np.testing.assert_allclose(shuffled.O, ex.attention().O[order], rtol=0, atol=1e-14)


@pytest.mark.parametrize("encoding", ["sinusoidal", "rope"])
def test_with_positions_a_reordered_sentence_changes_the_outputs(encoding):
    ex = with_even_width(four_words())
    order = [3, 2, 1, 0]
    plain = attention_with_positions(ex.X, ex.W_q, ex.W_k, ex.W_v, encoding)
    shuffled = attention_with_positions(ex.X[order], ex.W_q, ex.W_k, ex.W_v, encoding)
    assert np.abs(shuffled.O - plain.O[order]).max() > 0.01


def test_the_widened_example_has_the_same_attention_without_positions():
    for example in (four_words(), coreference()):
        wide = with_even_width(example)
        assert wide.X.shape[1] % 2 == 0 and not wide.X.flags.writeable
        t = attention_with_positions(wide.X, wide.W_q, wide.W_k, wide.W_v, "none")
        np.testing.assert_allclose(t.O, example.attention().O, rtol=0, atol=1e-15)


def test_rope_in_attention_rotates_q_and_k_not_v_and_leaves_an_odd_last_feature():
    ex = four_words()  # d_k = 3: features 0, 1 turn, feature 2 stays
    p = np.array([2, 0, 1, 3])
    Q, K, V = positioned_qkv(ex.X, ex.W_q, ex.W_k, ex.W_v, p, "rope")
    plain = ex.attention()
    np.testing.assert_array_equal(V, plain.V)
    np.testing.assert_array_equal(Q[:, 2], plain.Q[:, 2])
    np.testing.assert_allclose(Q[:, :2], rope(plain.Q[:, :2], p), atol=1e-15)
    assert positions.rotated_width(3) == 2 and positions.rotated_width(4) == 4


def test_sinusoidal_in_attention_adds_pe_before_the_projections():
    ex = with_even_width(four_words())
    t = attention_with_positions(ex.X, ex.W_q, ex.W_k, ex.W_v, "sinusoidal")
    np.testing.assert_allclose(t.Q, (ex.X + sinusoidal_positions(4, 4)) @ ex.W_q, atol=1e-15)
    np.testing.assert_array_equal(t.X, ex.X)


# ---------------------------------------------------------------- errors a learner can read


@pytest.mark.parametrize(
    "call, error, words",
    [
        (lambda: sinusoidal_positions(4, 3), ValueError, ["d = 3", "odd", "even, e.g. 4", "with_even_width"]),
        (lambda: rope(np.ones((4, 5)), np.arange(4)), ValueError, ["d = 5", "odd"]),
        (lambda: rope(np.ones((4, 6)), np.arange(3)), ValueError, ["shape (3,)", "(4, 6)", "np.arange(t, t + 4)"]),
        (lambda: rope(np.ones((4, 6)), 2), ValueError, ["shape ()", "every row of X needs one position"]),
        (lambda: rope(np.ones(6), [1, 2]), ValueError, ["shape (6,)", "one vector", "a single number", "(2,)"]),
        (lambda: rope(np.ones((2, 6)), [0.0, np.nan]), ValueError, ["positions", "NaN"]),
        (lambda: rope(np.ones((2, 6)), [True, False]), TypeError, ["positions must be real numbers", "bool"]),
        (lambda: rope(np.ones((2, 6)), ["0", "1"]), TypeError, ["positions must be real numbers"]),
        (lambda: rope(np.ones((2, 6)), [0, 1], layout="halves"), ValueError, ["'halves'", "interleaved", "GPT-J"]),
        (lambda: sinusoidal_positions(0, 4), ValueError, ["n must be a positive integer", "number of positions"]),
        (lambda: sinusoidal_positions(4, 4, base=0), ValueError, ["base must be a positive number", "10000"]),
        (lambda: positioned_qkv(np.ones((2, 3)), *[np.ones((3, 2))] * 3, [0, 1], "alibi"), ValueError, ["'alibi'"]),
    ],
)
def test_bad_input_says_what_and_how_to_fix_it(english, call, error, words):
    with pytest.raises(error) as info:
        call()
    for word in words:
        assert word in str(info.value), (word, str(info.value))


def test_the_odd_width_error_is_in_chinese_too():
    with pytest.raises(ValueError, match="奇数.*偶数"):
        sinusoidal_positions(4, 3)
    with pytest.raises(ValueError, match="X 的每一行需要一个位置"):
        rope(np.ones((4, 6)), np.arange(3))


def test_batches_share_positions_or_bring_their_own():
    X = np.random.default_rng(0).normal(size=(2, 3, 4))
    shared = rope(X, np.arange(3))
    np.testing.assert_allclose(shared[1], rope(X[1], np.arange(3)))
    own = rope(X, np.array([[0, 1, 2], [5, 6, 7]]))
    np.testing.assert_allclose(own[1], rope(X[1], np.array([5, 6, 7])))
