"""Generating text (lesson 14): causal decoding one token at a time, the KV cache, MQA and GQA.

A decoder-only model generates token by token: the newest token's query attends to the keys and values of
every token so far (the last row of a causal mask). Two ways to get those keys and values at step t:

    recompute_step   rerun causal self-attention on the whole prefix, all t rows (t × t scores), keep the
                     last row: about t²·d_k multiply-adds for QKᵀ alone. Without a cache a model of several
                     layers must do this: the earlier rows of one layer are the inputs of the next.
    decode_step      project the new token only, append its k and v to the cache, attend with its q:
                     t·d_k multiply-adds for q·Kᵀ.

Both give the same outputs (the cache holds the same k and v rows; in float64 they agree to rounding, in
float16 / bfloat16 the rounding differences are far larger). With RoPE the new token is rotated at its
position = the number of tokens this sequence has already processed, which for this module's simple cache
(one sequence, no padding, no token dropped) is the cache length; a cached k row is rotated once, at its own
position. Left padding, sliding-window caches and schemes that re-rotate cached keys break that equality.

    grouped_query_attention   n_heads query heads share n_kv_heads K/V heads (GQA, Ainslie et al. 2023;
                              n_kv_heads = 1 is MQA, Shazeer 2019; n_kv_heads = n_heads is multi-head)
    kv_cache_bytes            2 (K and V) · layers · kv_heads · d_head · bytes per value, per token
    attention_traffic         multiply-adds (1 multiply-add = 2 FLOPs) and bytes of K and V read, for prefill
                              and decode
    decode_token_cost         one generated token, every attention layer, with or without the cache:
                              multiply-adds and bytes read
    roofline_seconds          a lower bound on the time of that work on a chip of given peak and bandwidth
"""

from dataclasses import dataclass

import numpy as np

from . import _validate as v
from .core import attention, causal_mask, project
from .messages import msg
from .multihead import MultiHeadTrace, merge_heads, split_heads
from .positions import rope

# ---------------------------------------------------------------- the KV cache


@dataclass(frozen=True)
class KVCache:
    """The keys K (..., t, d_k) and values V (..., t, d_v) of the t tokens so far; row r is position r.
    (Many implementations allocate it once for the longest context and fill it in place; this one is rebuilt.)"""

    K: np.ndarray
    V: np.ndarray

    @classmethod
    def empty(cls, d_k, d_v):
        """A cache of no tokens: K (0, d_k), V (0, d_v)."""
        return cls(np.zeros((0, v.positive_int(d_k, "d_k"))), np.zeros((0, v.positive_int(d_v, "d_v"))))

    @property
    def length(self):
        """t, the number of cached tokens: for this simple cache also the position of the next one."""
        return self.K.shape[-2]

    def append(self, k, v_new):
        """The cache with the new token's k (..., 1, d_k) and v (..., 1, d_v) as its last rows."""
        return KVCache(np.concatenate([self.K, k], axis=-2), np.concatenate([self.V, v_new], axis=-2))


def decode_step(x, W_q, W_k, W_v, cache, use_rope=False):
    """One new token x (1, d_model) at position ``cache.length`` -> (o (1, d_v), the cache with its k, v).
    Project x alone; with ``use_rope`` turn its q and k at position cache.length; append; attend with q.
    No mask is needed: the cache holds only the past and the token itself."""
    q, k, v_new = project(x, W_q, W_k, W_v)
    if use_rope:
        position = np.array([cache.length])
        q, k = rope(q, position), rope(k, position)
    cache = cache.append(k, v_new)
    return attention(q, cache.K, cache.V).O, cache


def recompute_step(X_prefix, W_q, W_k, W_v, use_rope=False):
    """The newest token's output without a cache: causal self-attention of the whole prefix
    X_prefix (t, d_model), all t rows (positions 0 … t − 1), of which the last is kept -> (1, d_v)."""
    Q, K, V = project(X_prefix, W_q, W_k, W_v)
    t = Q.shape[-2]
    if use_rope:
        Q, K = rope(Q, np.arange(t)), rope(K, np.arange(t))
    return attention(Q, K, V, mask=causal_mask(t)).O[..., -1:, :]


def decode_recompute(X, W_q, W_k, W_v, use_rope=False):
    """Every step from scratch: row t of the result (n, d_v) is ``recompute_step(X[: t + 1])``."""
    X = v.as_matrix(X, "X")
    return np.concatenate([recompute_step(X[: t + 1], W_q, W_k, W_v, use_rope) for t in range(X.shape[-2])])


def decode_cached(X, W_q, W_k, W_v, use_rope=False):
    """Every step with the cache: the tokens of X (n, d_model) one at a time -> (O (n, d_v), the full cache)."""
    X = v.as_matrix(X, "X")
    cache = KVCache.empty(v.as_matrix(W_k, "W_K").shape[-1], v.as_matrix(W_v, "W_V").shape[-1])
    rows = []
    for t in range(X.shape[-2]):
        o, cache = decode_step(X[t : t + 1], W_q, W_k, W_v, cache, use_rope)
        rows.append(o)
    return np.concatenate(rows), cache


# ---------------------------------------------------------------- heads sharing K and V: MQA and GQA


def group_size(n_heads, n_kv_heads):
    """How many query heads share one K/V head: n_heads / n_kv_heads, which must be a whole number."""
    n_heads, n_kv_heads = v.positive_int(n_heads, "n_heads"), v.positive_int(n_kv_heads, "n_kv_heads")
    if n_heads % n_kv_heads:
        divisors = ", ".join(str(d) for d in range(1, n_heads + 1) if n_heads % d == 0)
        raise ValueError(msg("kv_heads", n_heads=n_heads, n_kv_heads=n_kv_heads, divisors=divisors))
    return n_heads // n_kv_heads


def repeat_kv_heads(M, n_heads):
    """(..., n_kv_heads, n, d) -> (..., n_heads, n, d): K/V head g serves query heads g·r … g·r + r − 1,
    r = n_heads / n_kv_heads (the order of PyTorch's ``repeat_interleave`` and ``enable_gqa``)."""
    return np.repeat(M, group_size(n_heads, M.shape[-3]), axis=-3)


def grouped_query_attention(X_q, X_kv, W_q, W_k, W_v, W_o, n_heads, n_kv_heads, mask=None):
    """Multi-head attention whose n_heads query heads share n_kv_heads K/V heads.
    X_q (..., n_q, d_model), X_kv (..., n_k, d_model); W_q (d_model, n_heads·d_head);
    W_k, W_v (d_model, n_kv_heads·d_head): K and V are n_heads / n_kv_heads times narrower than Q;
    W_o (n_heads·d_v, d_model). n_kv_heads = n_heads is ``multi_head_attention``, 1 is MQA."""
    group_size(n_heads, n_kv_heads)
    X_q, X_kv = v.as_matrix(X_q, "X_q"), v.as_matrix(X_kv, "X_kv")
    Q = split_heads(v.linear(X_q, W_q, "X_q", "W_Q"), n_heads)
    K = split_heads(v.linear(X_kv, W_k, "X_kv", "W_K"), n_kv_heads)
    V = split_heads(v.linear(X_kv, W_v, "X_kv", "W_V"), n_kv_heads)
    if K.shape[-1] != Q.shape[-1]:
        raise ValueError(msg("kv_head_width", d_q=Q.shape[-1], d_k=K.shape[-1], n_heads=n_heads, n_kv=n_kv_heads))
    W_o = v.as_matrix(W_o, "W_O")
    if W_o.ndim != 2 or W_o.shape[0] != n_heads * V.shape[-1]:
        raise ValueError(msg("W_O_rows", shape=W_o.shape, width=n_heads * V.shape[-1]))
    if mask is not None and np.ndim(mask) > 2:
        mask = np.expand_dims(mask, -3)  # the same mask for every head
    heads = attention(Q, repeat_kv_heads(K, n_heads), repeat_kv_heads(V, n_heads), mask=mask)
    concat = merge_heads(heads.O)
    return MultiHeadTrace(heads=heads, concat=concat, O=concat @ W_o, n_heads=n_heads)


# ---------------------------------------------------------------- what the cache costs


def kv_cache_bytes(layers, kv_heads, d_head, bytes_per_value=2, tokens=1):
    """Bytes of the KV cache of ``tokens`` tokens: 2 (K and V) · layers · kv_heads · d_head · bytes_per_value
    each (2 bytes: float16 / bfloat16). An exact int."""
    sizes = [v.positive_int(x, name) for x, name in ((layers, "layers"), (kv_heads, "kv_heads"), (d_head, "d_head"))]
    per_value, tokens = v.positive_int(bytes_per_value, "bytes_per_value"), v.positive_int(tokens, "tokens")
    return 2 * sizes[0] * sizes[1] * sizes[2] * per_value * tokens


def attention_traffic(n_new, n_context, n_heads, n_kv_heads, d_head, bytes_per_value=2):
    """One layer's attention when n_new new tokens attend to n_context positions (n_new = n_context: prefill
    of a prompt; n_new = 1: one decode step): (multiply-adds of QKᵀ and A·V, bytes of K and V read).
    Counted: every score of the n_new × n_context block (a kernel that skips masked scores does about half
    in prefill), K and V read from memory once (an ideal lower bound: a kernel whose outer loop runs over
    query tiles reads them once per tile); not counted: Q, O, the softmax, other activations and writes.
    Multiply-adds, not FLOPs: the Roofline convention (FLOPs per byte) is twice the ratio."""
    n_new, n_context = v.positive_int(n_new, "n_new"), v.positive_int(n_context, "n_context")
    group_size(n_heads, n_kv_heads)
    multiply_adds = 2 * n_heads * n_new * n_context * d_head
    return multiply_adds, kv_cache_bytes(1, n_kv_heads, d_head, bytes_per_value, n_context)


def decode_token_cost(context, layers, n_heads, n_kv_heads, d_head, d_model, bytes_per_value=2, cached=True):
    """One generated token whose query sees ``context`` positions (itself included), summed over ``layers``
    attention layers -> (multiply-adds, bytes read), exact ints.

    Counted per layer: the four projections W_Q (d_model × n_heads·d_head), W_K and W_V (d_model ×
    n_kv_heads·d_head) and W_O (n_heads·d_head × d_model), and QKᵀ and A·V as ``attention_traffic`` counts
    them. ``cached=True``: one row is projected and attends to the cache (``attention_traffic(1, context)``).
    ``cached=False``: without a cache every layer recomputes all ``context`` rows (the next layer needs them)
    and attends with all of them (``attention_traffic(context, context)``, every score of the block).
    Bytes: each layer's four weight matrices and its K and V of ``context`` tokens, each read once (an
    ideal lower bound, as ``attention_traffic``). Not counted: the feed-forward network, norms, embeddings,
    the softmax, activations and writes."""
    context, layers = v.positive_int(context, "context"), v.positive_int(layers, "layers")
    d_model = v.positive_int(d_model, "d_model")
    group_size(n_heads, n_kv_heads)
    rows = 1 if cached else context
    weights = d_model * (2 * n_heads + 2 * n_kv_heads) * v.positive_int(d_head, "d_head")
    attention_mads, kv_bytes = attention_traffic(rows, context, n_heads, n_kv_heads, d_head, bytes_per_value)
    return layers * (rows * weights + attention_mads), layers * (weights * bytes_per_value + kv_bytes)


def roofline_seconds(multiply_adds, bytes_read, peak_flops, bandwidth):
    """The Roofline model's time for a piece of work (Williams et al. 2009): the longer of computing
    2·multiply_adds FLOPs at ``peak_flops`` (FLOP/s) and reading ``bytes_read`` at ``bandwidth`` (bytes/s),
    in seconds. A lower bound that assumes the two overlap perfectly and run at their peaks; a real kernel
    is slower. Both rates are assumptions the caller states (e.g. a datasheet's numbers)."""
    peak = v.positive_number(peak_flops, "peak_flops")
    band = v.positive_number(bandwidth, "bandwidth")
    return max(2 * multiply_adds / peak, bytes_read / band)
