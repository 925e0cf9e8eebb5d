"""Blocked (online-softmax) attention gives dense attention's result, in less memory."""

import tracemalloc

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from attn_core import attention, softmax
from attn_core.online_softmax import blocked_attention, blocked_score_bytes, dense_score_bytes, online_softmax_steps


@pytest.fixture(autouse=True)
def _english(english):
    """These tests read the English messages."""


def tril(n_q, n_k):
    return np.tril(np.ones((n_q, n_k), dtype=bool))


def random_qkv(seed, n_q, n_k, d, d_v, spread=1.0, dtype=np.float64):
    rng = np.random.default_rng(seed)
    return (
        (
            spread * rng.standard_normal((n_q, d)),
            spread * rng.standard_normal((n_k, d)),
            rng.standard_normal((n_k, d_v)),
        )
        if dtype == np.float64
        else tuple(a.astype(dtype) for a in random_qkv(seed, n_q, n_k, d, d_v, spread))
    )


case = dict(
    seed=st.integers(0, 2**32 - 1),
    n_q=st.integers(1, 40),
    n_k=st.integers(1, 40),
    d=st.integers(1, 8),
    d_v=st.integers(1, 5),
    block_size=st.integers(1, 50),
    q_block_size=st.none() | st.integers(1, 50),
    causal=st.booleans(),
    padding=st.booleans(),
    scaled=st.booleans(),
    spread=st.sampled_from([0.1, 1.0, 10.0]),
)


@given(**case)
@example(
    seed=0,
    n_q=10,
    n_k=10,
    d=4,
    d_v=3,
    block_size=3,
    q_block_size=None,
    causal=False,
    padding=False,
    scaled=True,
    spread=1.0,
)  # block size that does not divide n
@example(
    seed=1, n_q=7, n_k=12, d=3, d_v=2, block_size=1, q_block_size=1, causal=True, padding=True, scaled=True, spread=1.0
)  # blocks of one key and one query, n_q ≠ n_k
@example(
    seed=2,
    n_q=12,
    n_k=5,
    d=3,
    d_v=2,
    block_size=64,
    q_block_size=64,
    causal=True,
    padding=False,
    scaled=False,
    spread=10.0,
)  # one block bigger than everything
def test_blocked_equals_dense(seed, n_q, n_k, d, d_v, block_size, q_block_size, causal, padding, scaled, spread):
    Q, K, V = random_qkv(seed, n_q, n_k, d, d_v, spread)
    mask = None
    if padding:  # the last keys are padding; key 0 always stays visible
        mask = np.arange(n_k)[None, :] < np.random.default_rng(seed).integers(1, n_k + 1)
    dense_mask = mask
    if causal:
        dense_mask = tril(n_q, n_k) if mask is None else mask & tril(n_q, n_k)
    want = attention(Q, K, V, mask=dense_mask, scaled=scaled).O
    got = blocked_attention(
        Q, K, V, block_size=block_size, q_block_size=q_block_size, mask=mask, causal=causal, scaled=scaled
    )
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-10)


@given(seed=st.integers(0, 2**32 - 1), n_q=st.integers(1, 20), n_k=st.integers(1, 20), block_size=st.integers(1, 25))
def test_blocked_with_any_mask_that_leaves_every_row_a_key(seed, n_q, n_k, block_size):
    rng = np.random.default_rng(seed)
    Q, K, V = random_qkv(seed, n_q, n_k, 3, 2)
    mask = rng.random((n_q, n_k)) < 0.3
    mask[np.arange(n_q), rng.integers(0, n_k, n_q)] = True
    np.testing.assert_allclose(
        blocked_attention(Q, K, V, block_size=block_size, mask=mask),
        attention(Q, K, V, mask=mask).O,
        rtol=1e-10,
        atol=1e-10,
    )


def test_running_max_rescaling_when_every_block_raises_the_maximum():
    # Keys get steadily larger along the sequence: each new block brings a new row maximum,
    # and the old sums must be rescaled every time (scores reach ~ 2000: no overflow allowed).
    K = np.linspace(0, 40, 50)[:, None] * np.ones((1, 4))
    Q = np.ones((3, 4)) * np.array([[1.0], [5.0], [25.0]])
    V = np.random.default_rng(0).standard_normal((50, 2))
    got = blocked_attention(Q, K, V, block_size=7)
    assert np.isfinite(got).all()
    np.testing.assert_allclose(got, attention(Q, K, V).O, rtol=1e-10, atol=1e-10)


def test_batch_and_head_axes_broadcast_like_core():
    rng = np.random.default_rng(3)
    Q, K, V = rng.standard_normal((2, 3, 6, 4)), rng.standard_normal((3, 9, 4)), rng.standard_normal((3, 9, 5))
    mask = rng.random((2, 1, 6, 9)) < 0.6
    mask[..., 0] = True
    want = attention(Q, K, V, mask=mask & tril(6, 9)).O
    got = blocked_attention(Q, K, V, block_size=4, q_block_size=4, mask=mask, causal=True)
    assert got.shape == want.shape == (2, 3, 6, 5)
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-10)


def test_float32_stays_float32_and_close_to_float64():
    Q, K, V = random_qkv(4, 50, 70, 16, 8, dtype=np.float32)
    got = blocked_attention(Q, K, V, block_size=16, q_block_size=8, causal=True)
    assert got.dtype == np.float32
    want = attention(*(a.astype(np.float64) for a in (Q, K, V)), mask=tril(50, 70)).O
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_inputs_are_not_modified():
    Q, K, V = random_qkv(5, 6, 8, 3, 2)
    mask = np.ones((6, 8), dtype=bool)
    copies = [a.copy() for a in (Q, K, V, mask)]
    blocked_attention(Q, K, V, block_size=3, q_block_size=2, mask=mask, causal=True)
    for a, b in zip((Q, K, V, mask), copies):
        np.testing.assert_array_equal(a, b)


def test_memory_grows_with_blocks_not_with_n_squared():
    n, d = 2048, 16
    Q, K, V = random_qkv(6, n, n, d, d)
    tracemalloc.start()
    blocked_attention(Q, K, V, block_size=128, q_block_size=128)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < dense_score_bytes(n, dtype=np.float64) / 25  # dense S alone: 32 MiB; blocked: under 1 MiB
    assert peak < 2 * n * d * 8 + 10 * blocked_score_bytes(128, 128, np.float64)


def test_memory_helpers():
    assert dense_score_bytes(100_000) == 4 * 10**10
    assert dense_score_bytes(3, 5, np.float64) == 120
    assert blocked_score_bytes(1024, 2048) == 8 * 2**20


# ---------------------------------------------------------------- errors, as in core


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
        dict(Q=np.ones(4), K=np.ones((2, 4)), V=np.ones((2, 2))),  # a vector
        dict(Q=[["a"]], K=np.ones((1, 1)), V=np.ones((1, 1))),  # not numbers
        dict(Q=np.ones((2, 2)), K=np.ones((3, 2)), V=np.ones((3, 2)), mask=np.ones((2, 3))),  # 0/1 mask
        dict(Q=np.ones((2, 2)), K=np.ones((3, 2)), V=np.ones((3, 2)), mask=np.ones((3, 2), bool)),  # wrong shape
        dict(Q=np.ones((2, 2)), K=np.ones((3, 2)), V=np.ones((3, 2)), mask=np.array([[1, 1, 1], [0, 0, 0]], bool)),
    ],
)
def test_bad_input_raises_like_core(bad):
    want = error_of(attention, **bad)
    assert error_of(blocked_attention, **bad) == want


def test_causal_with_a_mask_that_hides_a_rows_past():
    mask = np.array([[False, True, True]])  # key 0 hidden: query 0 (sees only key 0) has nothing
    kind, msg = error_of(blocked_attention, np.ones((3, 2)), np.ones((3, 2)), np.ones((3, 2)), mask=mask, causal=True)
    assert kind is ValueError and "query row 0" in msg and "causal" in msg


@pytest.mark.parametrize("name", ["block_size", "q_block_size"])
@pytest.mark.parametrize("value", [0, -3, 2.5, True, "8"])
def test_block_sizes_must_be_positive_integers(name, value):
    with pytest.raises(ValueError, match=name):
        blocked_attention(np.ones((2, 2)), np.ones((2, 2)), np.ones((2, 2)), **{name: value})


@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 30), block_size=st.integers(1, 35))
def test_online_softmax_steps_end_at_the_softmax(seed, n, block_size):
    s = 5 * np.random.default_rng(seed).standard_normal(n)
    steps = online_softmax_steps(s, block_size)
    assert len(steps) == -(-n // block_size) and steps[-1]["keys"][1] == n
    assert steps[-1]["m"] == s.max() and all(0 < st_["rescale"] <= 1 for st_ in steps[1:])
    np.testing.assert_allclose(np.exp(s - steps[-1]["m"]) / steps[-1]["l"], softmax(s), rtol=1e-12)
    with pytest.raises(ValueError, match="1-D"):
        online_softmax_steps(s[None, :], block_size)
