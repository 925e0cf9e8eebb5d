"""The fast dense path used by the benchmark gives core attention's result and raises core's errors."""

import numpy as np
import pytest
from fast_attention import dense_attention  # benchmarks/ is this test's folder
from hypothesis import given
from hypothesis import strategies as st

from attn_core import attention


@pytest.fixture(autouse=True)
def _english(english):
    """These tests read the English messages."""


def tril(n_q, n_k):
    return np.tril(np.ones((n_q, n_k), dtype=bool))


def random_qkv(seed, n_q, n_k, d, d_v, spread=1.0, dtype=np.float64):
    rng = np.random.default_rng(seed)
    qkv = (
        spread * rng.standard_normal((n_q, d)),
        spread * rng.standard_normal((n_k, d)),
        rng.standard_normal((n_k, d_v)),
    )
    return tuple(a.astype(dtype) for a in qkv)


def error_of(f, *args, **kwargs):
    with pytest.raises(Exception) as info:
        f(*args, **kwargs)
    return info.type, str(info.value)


@pytest.mark.parametrize(
    "bad",
    [
        dict(Q=np.ones((3, 4)), K=np.ones((5, 3)), V=np.ones((5, 2))),  # d_k differs
        dict(Q=np.ones((3, 4)), K=np.ones((5, 4)), V=np.ones((6, 2))),  # n_k differs
        dict(Q=np.array([[1.0, np.nan]]), K=np.ones((2, 2)), V=np.ones((2, 2))),  # NaN
        dict(Q=[["a"]], K=np.ones((1, 1)), V=np.ones((1, 1))),  # not numbers
        dict(Q=np.ones((2, 2)), K=np.ones((3, 2)), V=np.ones((3, 2)), mask=np.ones((2, 3))),  # 0/1 mask
        dict(Q=np.ones((2, 2)), K=np.ones((3, 2)), V=np.ones((3, 2)), mask=np.ones((3, 2), bool)),  # wrong shape
    ],
)
def test_bad_input_raises_like_core(bad):
    assert error_of(dense_attention, **bad) == error_of(attention, **bad)


def test_inputs_are_not_modified():
    Q, K, V = random_qkv(5, 6, 8, 3, 2)
    mask = np.ones((6, 8), dtype=bool)
    copies = [a.copy() for a in (Q, K, V, mask)]
    dense_attention(Q, K, V, mask=mask, causal=True)
    for a, b in zip((Q, K, V, mask), copies):
        np.testing.assert_array_equal(a, b)


@given(
    seed=st.integers(0, 2**32 - 1),
    n_q=st.integers(1, 40),
    n_k=st.integers(1, 40),
    d=st.integers(1, 8),
    causal=st.booleans(),
    padding=st.booleans(),
    scaled=st.booleans(),
    spread=st.sampled_from([0.1, 1.0, 10.0]),
    threads=st.integers(1, 3),
)
def test_fast_dense_equals_core(seed, n_q, n_k, d, causal, padding, scaled, spread, threads):
    Q, K, V = random_qkv(seed, n_q, n_k, d, 3, spread)
    mask = (np.arange(n_k)[None, :] < np.random.default_rng(seed).integers(1, n_k + 1)) if padding else None
    dense_mask = mask
    if causal:
        dense_mask = tril(n_q, n_k) if mask is None else mask & tril(n_q, n_k)
    want = attention(Q, K, V, mask=dense_mask, scaled=scaled).O
    got = dense_attention(Q, K, V, mask=mask, causal=causal, scaled=scaled, threads=threads)
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-10)


def test_fast_dense_redoes_rows_whose_bound_overshoots():
    # q is orthogonal to the long key: the bound |q|·max|k| = 2000 but the true row maximum is 20,
    # so exp(score − bound) underflows to 0 for every key; those rows must be recomputed exactly.
    Q = np.array([[20.0, 0.0], [0.0, 1.0]])
    K = np.array([[0.0, 100.0], [1.0, 0.0], [0.5, 0.0]])
    V = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    for dtype in (np.float64, np.float32):
        got = dense_attention(*(a.astype(dtype) for a in (Q, K, V)), scaled=False)
        assert got.dtype == dtype and np.isfinite(got).all()
        np.testing.assert_allclose(got, attention(Q, K, V, scaled=False).O, rtol=1e-6, atol=1e-6)


def test_fast_dense_float32_stays_float32():
    Q, K, V = random_qkv(7, 300, 257, 64, 64, dtype=np.float32)
    got = dense_attention(Q, K, V, causal=True)
    assert got.dtype == np.float32
    want = attention(*(a.astype(np.float64) for a in (Q, K, V)), mask=tril(300, 257)).O
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_fast_dense_takes_matrices_only():
    with pytest.raises(ValueError, match="2-D"):
        dense_attention(np.ones((2, 3, 4)), np.ones((2, 5, 4)), np.ones((2, 5, 4)))
    with pytest.raises(ValueError, match="threads"):
        dense_attention(np.ones((2, 2)), np.ones((2, 2)), np.ones((2, 2)), threads=0)
