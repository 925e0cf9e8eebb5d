"""Exact attention in blocks of keys, with a running ("online") softmax.

Dense attention builds the whole n_q × n_k score matrix before softmax can normalise a row.
At n = 100,000 positions that matrix alone holds 10¹⁰ numbers (40 GB in float32).

The trick: a row of weights can be normalised *after* the fact. Walk over the keys one block at
a time and keep, for every query row, three running quantities:

    m    the largest score seen so far                     (for stability, as in softmax)
    l    the sum of exp(score − m) over the keys seen so far  (the softmax denominator)
    acc  the sum of exp(score − m) · value over those keys    (the numerator of O)

When a new block brings a larger maximum m_new, everything summed so far was measured against
the old m; multiplying by exp(m − m_new) re-expresses it against m_new (e^(s−m)·e^(m−m_new) = e^(s−m_new)).
After the last block, O = acc / l is exactly softmax(S)·V — the same numbers, up to rounding —
while only one block of scores (q_block_size × block_size) ever exists at a time.
"""

import numpy as np

from . import _validate as v
from .messages import msg


def blocked_attention(Q, K, V, block_size=256, q_block_size=None, mask=None, causal=False, scaled=True):
    """Exact attention output O (..., n_q, d_v), computed over blocks of ``block_size`` keys.

    Same inputs and result as ``attention(Q, K, V, mask, scaled).O``; only O is returned (A is never
    built). ``q_block_size`` also tiles the queries (default: all queries at once); with both set,
    the working memory is one q_block_size × block_size block of scores plus the n_q × d_v output.
    ``mask`` (boolean, broadcastable to (n_q, n_k), True = may attend) and ``causal=True`` (query i
    sees keys 0..i) may be combined; ``scaled=False`` skips the division by √d_k.
    """
    Q, K, V = v.as_matrix(Q, "Q"), v.as_matrix(K, "K"), v.as_matrix(V, "V")
    v.check_qk(Q, K)
    v.check_kv(K, V)
    block_size = v.positive_int(block_size, "block_size", "block")
    n_q, n_k = Q.shape[-2], K.shape[-2]
    q_block_size = n_q if q_block_size is None else v.positive_int(q_block_size, "q_block_size", "block")
    batch = np.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2])
    if mask is not None:
        mask = v.as_mask(mask, batch + (n_q, n_k))
        if causal:
            _check_causal_rows(mask, batch + (n_q, n_k))
        mask = np.broadcast_to(mask, batch + (n_q, n_k))  # a view: no copy

    dtype = np.result_type(Q, K, V)
    # Scaling Q once is the same as scaling every score: QKᵀ/√d_k = (Q/√d_k)·Kᵀ.
    Q = Q * dtype.type(1 / np.sqrt(Q.shape[-1])) if scaled else Q.astype(dtype, copy=False)
    O = np.empty(batch + (n_q, V.shape[-1]), dtype=dtype)
    for q0 in range(0, n_q, q_block_size):  # query blocks are independent of each other
        q1 = min(q0 + q_block_size, n_q)
        O[..., q0:q1, :] = _attend(Q[..., q0:q1, :], K, V, q0, block_size, mask, causal)
    return O


def _attend(Qb, K, V, q0, block_size, mask, causal):
    """Online softmax for the query rows q0 .. q0+len(Qb)-1, one block of keys at a time."""
    n_rows, n_k = Qb.shape[-2], K.shape[-2]
    rows = np.arange(q0, q0 + n_rows)[:, None]  # query index of each row (for causal)
    lead = np.broadcast_shapes(Qb.shape[:-2], K.shape[:-2], V.shape[:-2]) + (n_rows,)
    m = np.full(lead + (1,), -np.inf, dtype=Qb.dtype)  # running row maximum
    l = np.zeros(lead + (1,), dtype=Qb.dtype)  # running softmax denominator
    acc = np.zeros(lead + (V.shape[-1],), dtype=Qb.dtype)  # running numerator of O

    for k0 in range(0, n_k, block_size):
        k1 = min(k0 + block_size, n_k)
        if causal and k0 > rows[-1, 0]:
            break  # every later key is in the future of every query row here
        S = Qb @ np.swapaxes(K[..., k0:k1, :], -1, -2)  # this block's scores (already scaled)
        allowed = None if mask is None else mask[..., q0 : q0 + n_rows, k0:k1]
        if causal:
            future = np.arange(k0, k1)[None, :] > rows
            allowed = ~future if allowed is None else allowed & ~future
        if allowed is not None:
            S = np.where(allowed, S, -np.inf)

        m_new = np.maximum(m, S.max(axis=-1, keepdims=True))
        # A row that has seen only masked keys so far still has m_new = −∞; shift it by 0 instead,
        # so that exp(−∞ − 0) = 0 rather than exp(−∞ + ∞) = NaN.
        shift = np.where(np.isneginf(m_new), 0, m_new)
        S -= shift  # in place: S is this block's own fresh array
        P = np.exp(S, out=S)  # this block's unnormalised weights, each ≤ 1
        rescale = np.exp(m - shift)  # re-express the old sums against the new maximum
        l = l * rescale + P.sum(axis=-1, keepdims=True)
        acc = acc * rescale + P @ V[..., k0:k1, :]
        m = m_new
    return acc / l  # every row saw at least one allowed key (checked up front), so l > 0


def online_softmax_steps(scores, block_size):
    """The running quantities for one row of scores, block by block (for a table in the lesson).

    Returns a list with one dict per block: ``keys`` (the block's key range), ``block_max``,
    ``m`` (running maximum after the block), ``rescale`` (exp(m_old − m_new), the factor applied to
    what was summed before) and ``l`` (running sum of exp(score − m)). After the last block,
    exp(scores − m) / l equals softmax(scores)."""
    s = v.as_matrix(scores, "scores", min_ndim=1)
    if s.ndim != 1:
        raise ValueError(msg("one_row", shape=s.shape))
    block_size = v.positive_int(block_size, "block_size", "block")
    m, l, steps = -np.inf, 0.0, []
    for k0 in range(0, len(s), block_size):
        block = s[k0 : k0 + block_size]
        m_new = max(m, float(block.max()))
        rescale = float(np.exp(m - m_new))
        l = l * rescale + float(np.exp(block - m_new).sum())
        steps.append(dict(keys=(k0, k0 + len(block)), block_max=float(block.max()), m=m_new, rescale=rescale, l=l))
        m = m_new
    return steps


def _check_causal_rows(mask, shape):
    """Raise if ``mask`` and the causal rule together leave a query row with no key.

    Row i may see keys 0..i, so it is empty iff mask[i, 0..i] has no True. A running "any so far"
    along the keys answers that for every row without building the combined n_q × n_k mask."""
    seen = np.broadcast_to(np.logical_or.accumulate(mask, axis=-1) if mask.ndim else mask, shape)
    n_q, n_k = shape[-2:]
    i = np.arange(n_q)
    empty = ~seen[..., i, np.minimum(i, n_k - 1)]
    if empty.any():
        where = v.first_index(empty)
        raise ValueError(msg("causal_empty_row", row=where[-1], batch=v.batch_note(where), count=int(empty.sum())))


def dense_score_bytes(n_q, n_k=None, dtype=np.float32):
    """Bytes that the full score matrix S (n_q × n_k) takes in ``dtype``: what dense attention must hold
    (its weights A take as much again). ``dense_score_bytes(100_000)`` is 4·10¹⁰ (40 GB)."""
    n_k = n_q if n_k is None else n_k
    return int(n_q) * int(n_k) * np.dtype(dtype).itemsize


def blocked_score_bytes(q_block_size, block_size, dtype=np.float32):
    """Bytes of the one block of scores that blocked attention holds at a time (q_block_size × block_size),
    however long the sequence is."""
    return int(q_block_size) * int(block_size) * np.dtype(dtype).itemsize
