"""Decoding (lesson 14): the KV cache gives the outputs of recomputing every step, with and without RoPE,
for every length; grouped-query attention is multi-head attention when every query head has its own K/V
head and multi-head attention on repeated K/V heads otherwise; PyTorch's scaled_dot_product_attention
agrees; the cache-size formula; clear errors for head counts that cannot be grouped."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from attn_core import attention, causal_mask, multi_head_attention, rope, self_attention, set_lang
from attn_core.decoding import (
    KVCache,
    attention_traffic,
    decode_cached,
    decode_recompute,
    decode_step,
    group_size,
    grouped_query_attention,
    kv_cache_bytes,
    recompute_step,
    repeat_kv_heads,
)
from attn_core.multihead import split_heads

seeds = st.integers(0, 2**32 - 1)


def weights(rng, d_model, d_k, d_v):
    return rng.normal(size=(d_model, d_k)), rng.normal(size=(d_model, d_k)), rng.normal(size=(d_model, d_v))


def close(a, b):
    return np.allclose(a, b, rtol=1e-9, atol=1e-9)


# ---------------------------------------------------------------- cache == recompute


@given(seed=seeds, n=st.integers(1, 24), d_model=st.integers(1, 6), half_d_k=st.integers(1, 4), use_rope=st.booleans())
def test_decoding_with_the_cache_gives_the_outputs_of_recomputing_every_step(seed, n, d_model, half_d_k, use_rope):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d_model))
    W = weights(rng, d_model, 2 * half_d_k, 3)
    O_cached, cache = decode_cached(X, *W, use_rope=use_rope)
    O_recomputed = decode_recompute(X, *W, use_rope=use_rope)
    assert O_cached.shape == O_recomputed.shape == (n, 3)
    assert close(O_cached, O_recomputed)
    assert cache.length == n and cache.K.shape == (n, 2 * half_d_k) and cache.V.shape == (n, 3)


@given(seed=seeds, n=st.integers(1, 16), use_rope=st.booleans())
def test_both_are_the_rows_of_one_causal_self_attention(seed, n, use_rope):
    """Row t of either is row t of causal self-attention over all n tokens (the future never leaks in)."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 4))
    W_q, W_k, W_v = weights(rng, 4, 4, 2)
    if use_rope:
        p = np.arange(n)
        Q, K = rope(X @ W_q, p), rope(X @ W_k, p)
        full = attention(Q, K, X @ W_v, mask=causal_mask(n)).O
    else:
        full = self_attention(X, W_q, W_k, W_v, mask=causal_mask(n)).O
    assert close(decode_cached(X, W_q, W_k, W_v, use_rope)[0], full)
    assert close(recompute_step(X, W_q, W_k, W_v, use_rope), full[-1:])


def test_rope_without_the_offset_loses_word_order():
    """The bug: each new token rotated at position 0 instead of cache.length. Every rotation is then the
    identity, so the cached outputs are those of attention without positions, not those with RoPE."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(6, 4))
    W = weights(rng, 4, 4, 3)
    cache, rows = KVCache.empty(4, 3), []
    for t in range(6):
        q, k, v = X[t : t + 1] @ W[0], X[t : t + 1] @ W[1], X[t : t + 1] @ W[2]
        q, k = rope(q, np.array([0])), rope(k, np.array([0]))  # position 0 every time
        cache = cache.append(k, v)
        rows.append(attention(q, cache.K, cache.V).O)
    buggy = np.concatenate(rows)
    assert close(buggy, decode_cached(X, *W, use_rope=False)[0])
    assert not close(buggy, decode_cached(X, *W, use_rope=True)[0])


def test_a_decode_step_appends_one_row_at_the_end_and_keeps_the_rest():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(3, 4))
    W = weights(rng, 4, 2, 2)
    _, cache = decode_cached(X[:2], *W)
    _, longer = decode_step(X[2:3], *W, cache)
    assert longer.length == 3
    np.testing.assert_array_equal(longer.K[:2], cache.K)
    np.testing.assert_array_equal(longer.K[2:], X[2:3] @ W[1])
    assert KVCache.empty(2, 5).length == 0


# ---------------------------------------------------------------- grouped-query attention


def gqa_weights(rng, d_model, n_heads, n_kv_heads, d_head):
    return (
        rng.normal(size=(d_model, n_heads * d_head)),
        rng.normal(size=(d_model, n_kv_heads * d_head)),
        rng.normal(size=(d_model, n_kv_heads * d_head)),
        rng.normal(size=(n_heads * d_head, d_model)),
    )


heads_and_groups = st.sampled_from([(1, 1), (2, 1), (2, 2), (4, 1), (4, 2), (6, 3), (6, 2), (8, 4)])


@given(seed=seeds, hg=heads_and_groups, n=st.integers(1, 7), causal=st.booleans())
def test_gqa_with_one_kv_head_per_query_head_is_multi_head_attention(seed, hg, n, causal):
    n_heads = hg[0]
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 5))
    W_q, W_k, W_v, W_o = gqa_weights(rng, 5, n_heads, n_heads, 2)
    mask = causal_mask(n) if causal else None
    gqa = grouped_query_attention(X, X, W_q, W_k, W_v, W_o, n_heads, n_heads, mask=mask)
    mha = multi_head_attention(X, X, W_q, W_k, W_v, W_o, n_heads, mask=mask)
    assert close(gqa.O, mha.O) and close(gqa.A, mha.A)


@given(seed=seeds, hg=heads_and_groups, n=st.integers(1, 7))
def test_gqa_is_multi_head_attention_on_repeated_kv_heads(seed, hg, n):
    """Repeating each K/V head's columns of W_K, W_V for its group gives a multi-head layer with the same O."""
    n_heads, n_kv_heads = hg
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 5))
    W_q, W_k, W_v, W_o = gqa_weights(rng, 5, n_heads, n_kv_heads, 3)
    r = n_heads // n_kv_heads
    widen = lambda W: np.repeat(W.reshape(5, n_kv_heads, 3), r, axis=1).reshape(5, n_heads * 3)  # noqa: E731
    gqa = grouped_query_attention(X, X, W_q, W_k, W_v, W_o, n_heads, n_kv_heads, mask=causal_mask(n))
    mha = multi_head_attention(X, X, W_q, widen(W_k), widen(W_v), W_o, n_heads, mask=causal_mask(n))
    assert close(gqa.O, mha.O)
    # query heads of one group read the same keys; heads of different groups do not
    K_rep = gqa.heads.K
    assert all(np.array_equal(K_rep[h], K_rep[(h // r) * r]) for h in range(n_heads))


def test_mqa_keys_are_one_head_wide():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(4, 8))
    W_q, W_k, W_v, W_o = gqa_weights(rng, 8, 4, 1, 2)
    out = grouped_query_attention(X, X, W_q, W_k, W_v, W_o, 4, 1)
    assert W_k.shape == (8, 2) and out.O.shape == (4, 8) and out.A.shape == (4, 4, 4)
    assert all(np.array_equal(out.heads.K[0], out.heads.K[h]) for h in range(4))


@pytest.mark.parametrize("n_heads, n_kv_heads", [(12, 5), (4, 8), (6, 4)])
def test_head_counts_that_cannot_be_grouped_are_refused_with_the_divisors(english, n_heads, n_kv_heads):
    with pytest.raises(ValueError, match="must divide n_heads") as err:
        group_size(n_heads, n_kv_heads)
    divisors = ", ".join(str(d) for d in range(1, n_heads + 1) if n_heads % d == 0)
    assert divisors in str(err.value)
    with pytest.raises(ValueError, match="n_kv_heads"):
        group_size(n_heads, 0)


def test_kv_heads_of_another_width_are_refused(english):
    rng = np.random.default_rng(3)
    X = rng.normal(size=(3, 4))
    W_q, _, _, W_o = gqa_weights(rng, 4, 4, 2, 2)
    W_k = W_v = rng.normal(size=(4, 6))  # 2 K/V heads of width 3, queries of width 2
    with pytest.raises(ValueError, match="query heads are 2 wide but key heads 3"):
        grouped_query_attention(X, X, W_q, W_k, W_v, W_o, 4, 2)


def test_repeat_kv_heads_is_in_repeat_interleave_order():
    K = np.arange(2 * 1 * 1).reshape(2, 1, 1).astype(float)  # kv heads 0 and 1
    assert repeat_kv_heads(K, 6)[:, 0, 0].tolist() == [0, 0, 0, 1, 1, 1]


# ---------------------------------------------------------------- the cache's size and traffic


def test_cache_bytes_of_published_configurations():
    assert kv_cache_bytes(12, 12, 64) == 36_864  # GPT-2 small, float16: 36 KiB per token
    assert kv_cache_bytes(32, 32, 128, tokens=4096) == 2 * 2**30  # Llama 2 7B: 2 GiB at 4,096 tokens
    assert kv_cache_bytes(32, 8, 128, tokens=4096) == 2**29  # Llama 3 8B: 8 K/V heads, a quarter
    assert kv_cache_bytes(1, 1, 1, bytes_per_value=4, tokens=3) == 24
    with pytest.raises(ValueError):
        kv_cache_bytes(12, 0, 64)


def test_decode_reads_every_cached_byte_for_few_multiply_adds():
    mads, reads = attention_traffic(1, 4096, 32, 32, 128)
    assert mads / reads == 0.5  # multi-head, float16: half a multiply-add per byte, whatever the context
    mads, reads = attention_traffic(1, 4096, 32, 8, 128)
    assert mads / reads == 2.0  # four query heads per K/V head read each byte four times
    mads, reads = attention_traffic(4096, 4096, 32, 32, 128)
    assert mads / reads == 2048.0  # prefill: every byte read serves 4,096 queries


# ---------------------------------------------------------------- against PyTorch


def test_gqa_matches_pytorch_scaled_dot_product_attention():
    torch = pytest.importorskip("torch")
    F = torch.nn.functional
    rng = np.random.default_rng(4)
    n_heads, n_kv_heads, n, d_head = 8, 2, 5, 4
    X = rng.normal(size=(n, 6))
    W_q, W_k, W_v, W_o = gqa_weights(rng, 6, n_heads, n_kv_heads, d_head)
    ours = grouped_query_attention(X, X, W_q, W_k, W_v, W_o, n_heads, n_kv_heads, mask=causal_mask(n))
    q, k, v = (
        torch.from_numpy(split_heads(X @ W, h)) for W, h in ((W_q, n_heads), (W_k, n_kv_heads), (W_v, n_kv_heads))
    )
    repeated = F.scaled_dot_product_attention(
        q,
        k.repeat_interleave(n_heads // n_kv_heads, -3),
        v.repeat_interleave(n_heads // n_kv_heads, -3),
        is_causal=True,
    )
    np.testing.assert_allclose(repeated.numpy(), ours.heads.O, rtol=1e-10, atol=1e-12)
    try:
        grouped = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
    except TypeError:  # a PyTorch without enable_gqa (before 2.5)
        return
    np.testing.assert_allclose(grouped.numpy(), ours.heads.O, rtol=1e-10, atol=1e-12)


def test_one_cached_step_matches_pytorch_on_the_cache():
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(5)
    X = rng.normal(size=(7, 4))
    W = weights(rng, 4, 4, 3)
    O, cache = decode_cached(X, *W, use_rope=True)
    q = torch.from_numpy(rope(X[-1:] @ W[0], np.array([6])))
    theirs = torch.nn.functional.scaled_dot_product_attention(q, torch.from_numpy(cache.K), torch.from_numpy(cache.V))
    np.testing.assert_allclose(theirs.numpy(), O[-1:], rtol=1e-10, atol=1e-12)


def test_the_head_count_error_is_in_chinese_by_default():
    set_lang("zh")
    with pytest.raises(ValueError, match="必须整除 n_heads"):
        group_size(3, 2)
