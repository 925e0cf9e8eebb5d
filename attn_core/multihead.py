"""Multi-head attention: the five steps run h times side by side on slices of the projections.

split_heads   (..., n, h·d_head) -> (..., h, n, d_head)
attention     per head (core.attention; the head axis is just another batch axis)
merge_heads   (..., h, n, d_v) -> (..., n, h·d_v), the heads side by side
· W_O         back to d_model
"""

from dataclasses import dataclass

import numpy as np

from . import _validate as v
from .core import Trace, attention
from .messages import msg


@dataclass(repr=False)
class MultiHeadTrace:
    """Multi-head attention: ``heads`` is the per-head Trace (head axis just before n_q),
    ``concat`` the heads side by side (..., n_q, n_heads·d_head) and ``O`` = concat·W_O."""

    heads: Trace
    concat: np.ndarray
    O: np.ndarray
    n_heads: int

    @property
    def A(self):
        """Per-head weights (..., n_heads, n_q, n_k)."""
        return self.heads.A

    def __repr__(self):
        head_rows = "\n".join("    " + line for line in repr(self.heads).splitlines())
        return (
            msg("heads_each", n=self.n_heads)
            + "\n"
            + head_rows
            + "\n"
            + msg("heads_concat", concat=self.concat.shape, O=self.O.shape)
        )


def split_heads(M, n_heads):
    """(..., n, n_heads·d_head) -> (..., n_heads, n, d_head): the projection cut into n_heads equal slices."""
    width = M.shape[-1]
    if width % n_heads:
        divisors = msg("list_sep").join(str(d) for d in range(1, width + 1) if width % d == 0)
        raise ValueError(msg("split_heads", width=width, shape=M.shape, n_heads=n_heads, divisors=divisors))
    return np.swapaxes(M.reshape(*M.shape[:-1], n_heads, width // n_heads), -2, -3)


def merge_heads(M):
    """(..., n_heads, n, d_head) -> (..., n, n_heads·d_head): the heads side by side."""
    M = np.swapaxes(M, -2, -3)
    return M.reshape(*M.shape[:-2], M.shape[-2] * M.shape[-1])


def multi_head_attention(X_q, X_kv, W_q, W_k, W_v, W_o, n_heads, mask=None):
    """X_q (..., n_q, d_model) asks, X_kv (..., n_k, d_model) answers (pass the same array twice
    for self-attention). W_q, W_k, W_v (d_model, n_heads·d_head), W_o (n_heads·d_v, d_model).
    Each head runs the same five steps on its slice; outputs are concatenated, then ·W_O."""
    n_heads = v.positive_int(n_heads, "n_heads")
    X_q, X_kv = v.as_matrix(X_q, "X_q"), v.as_matrix(X_kv, "X_kv")
    Q = v.linear(X_q, W_q, "X_q", "W_Q")
    K, V = v.linear(X_kv, W_k, "X_kv", "W_K"), v.linear(X_kv, W_v, "X_kv", "W_V")
    W_o = v.as_matrix(W_o, "W_O")
    if W_o.ndim != 2 or W_o.shape[0] != V.shape[-1]:
        raise ValueError(msg("W_O_rows", shape=W_o.shape, width=V.shape[-1]))
    if mask is not None and np.ndim(mask) > 2:
        mask = np.expand_dims(mask, -3)  # the same mask for every head
    heads = attention(split_heads(Q, n_heads), split_heads(K, n_heads), split_heads(V, n_heads), mask=mask)
    heads.per_head = True  # its trace names the scale √d_head
    concat = merge_heads(heads.O)
    return MultiHeadTrace(heads=heads, concat=concat, O=concat @ W_o, n_heads=n_heads)
