"""Scaled dot-product attention in five steps: the reference a learner can read.

Arrays are numpy arrays whose last two axes are (positions, features); any
leading axes (batch, heads) are carried along unchanged. Shapes below use
n_q (queries), n_k (keys), d_model (input width), d_k (query/key width) and
d_v (value width).

    1. project       Q = X·W_Q,  K = X·W_K,  V = X·W_V
    2. scores        QKᵀ                 (n_q × n_k: row = who asks, column = who is asked)
    3. scale         S = QKᵀ / √d_k
    4. softmax       A = softmax(S) along each row
    5. weighted_sum  O = A·V
"""

import math
from dataclasses import dataclass

import numpy as np

from . import _validate as v
from .lang import display_width
from .messages import msg

# ---------------------------------------------------------------- the five steps


def project(X, W_q, W_k, W_v):
    """Step 1. X (..., n, d_model) with W_q, W_k (d_model, d_k) and W_v (d_model, d_v)
    -> Q (..., n, d_k), K (..., n, d_k), V (..., n, d_v)."""
    X = v.as_matrix(X, "X")
    Q, K, V = (v.linear(X, W, "X", name) for W, name in ((W_q, "W_Q"), (W_k, "W_K"), (W_v, "W_V")))
    v.check_qk(Q, K)
    return Q, K, V


def scores(Q, K):
    """Step 2. Q (..., n_q, d_k) and K (..., n_k, d_k) -> QKᵀ (..., n_q, n_k).
    Entry [i, j] is the dot product of query i with key j."""
    Q, K = v.as_matrix(Q, "Q"), v.as_matrix(K, "K")
    v.check_qk(Q, K)
    return Q @ np.swapaxes(K, -1, -2)


def scale(S, d_k):
    """Step 3. Raw scores (..., n_q, n_k) -> the same scores divided by √d_k."""
    d_k = v.positive_number(d_k, "d_k", "d_k")
    return v.as_matrix(S, "scores") / math.sqrt(d_k)  # a Python float keeps float32 as float32


def softmax(S, axis=-1):
    """Step 4. Scores (..., n_q, n_k) -> weights of the same shape, each row (``axis``)
    non-negative and summing to 1. −∞ (a masked score) gets weight exactly 0.
    Stable: the row maximum is subtracted first, so exp never overflows."""
    S = np.asarray(S)
    if not np.issubdtype(S.dtype, np.floating):
        S = v.as_matrix(S, "scores", min_ndim=1)
    v.check_finite(S, "scores", allow_neg_inf=True)
    if np.isneginf(S).all(axis=axis).any():
        raise ValueError(msg("softmax_empty_row"))
    E = np.exp(S - S.max(axis=axis, keepdims=True))
    return E / E.sum(axis=axis, keepdims=True)


def weighted_sum(A, V):
    """Step 5. Weights A (..., n_q, n_k) and values V (..., n_k, d_v) -> O = A·V (..., n_q, d_v).
    Row i of O is the mix of value rows given by row i of A."""
    A, V = v.as_matrix(A, "A"), v.as_matrix(V, "V")
    v.check_av(A, V)
    return A @ V


def apply_mask(S, mask):
    """Between steps 3 and 4: scores where ``mask`` is False become −∞ (True = may attend)."""
    mask = v.as_mask(mask, np.shape(S))
    return np.where(mask, S, -np.inf).astype(np.result_type(S), copy=False)


def causal_mask(n):
    """(n, n) boolean lower triangle: position i may attend to positions 0..i, never the future."""
    return np.tril(np.ones((n, n), dtype=bool))


# ---------------------------------------------------------------- composed


@dataclass(repr=False)
class Trace:
    """Every intermediate of one attention call, under the course's symbols.
    ``QKT`` is the raw QKᵀ (Python also accepts ``trace.QKᵀ``); ``S`` the scaled scores."""

    Q: np.ndarray
    K: np.ndarray
    V: np.ndarray
    QKT: np.ndarray
    S: np.ndarray
    A: np.ndarray
    O: np.ndarray
    mask: np.ndarray | None = None
    scaled: bool = True
    X: np.ndarray | None = None
    per_head: bool = False  # one head of multi-head attention: its d_k is d_head

    @property
    def d_k(self):
        return self.Q.shape[-1]

    def rows(self):
        """(step, symbol, shape, meaning) for every intermediate that is present."""
        s_meaning = msg(("trace_S_head" if self.per_head else "trace_S") if self.scaled else "trace_S_unscaled")
        if self.mask is not None:
            s_meaning += msg("trace_masked")
        table = [
            ("0", "X", self.X, msg("trace_X")),
            ("1", "Q", self.Q, msg("trace_Q")),
            ("1", "K", self.K, msg("trace_K")),
            ("1", "V", self.V, msg("trace_V")),
            ("2", "QKᵀ", self.QKT, msg("trace_QKT")),
            ("3", "S", self.S, s_meaning),
            ("4", "A", self.A, msg("trace_A")),
            ("5", "O", self.O, msg("trace_O")),
        ]
        return [(step, sym, arr.shape, meaning) for step, sym, arr, meaning in table if arr is not None]

    def __repr__(self):
        rows = [tuple(msg("trace_header").split("|"))]
        rows += [(step, sym, " × ".join(map(str, shape)), m) for step, sym, shape, m in self.rows()]
        widths = [max(display_width(r[c]) for r in rows) for c in range(3)]
        return "\n".join(
            "  ".join(r[c] + " " * (widths[c] - display_width(r[c])) for c in range(3)) + "  " + r[3] for r in rows
        )


def attention(Q, K, V, mask=None, scaled=True):
    """Steps 2–5. Q (..., n_q, d_k), K (..., n_k, d_k), V (..., n_k, d_v) -> Trace with O (..., n_q, d_v).
    ``mask`` (boolean, broadcastable to (n_q, n_k), True = may attend) is applied after scaling.
    ``scaled=False`` skips step 3 (for comparison only)."""
    Q, K, V = v.as_matrix(Q, "Q"), v.as_matrix(K, "K"), v.as_matrix(V, "V")
    v.check_kv(K, V)
    QKT = scores(Q, K)
    S = scale(QKT, Q.shape[-1]) if scaled else QKT
    if mask is not None:
        S = apply_mask(S, mask)
    A = softmax(S)
    return Trace(
        Q=Q,
        K=K,
        V=V,
        QKT=QKT,
        S=S,
        A=A,
        O=weighted_sum(A, V),
        mask=None if mask is None else np.asarray(mask),
        scaled=scaled,
    )


def self_attention(X, W_q, W_k, W_v, mask=None, scaled=True):
    """All five steps. X (..., n, d_model) -> Trace with O (..., n, d_v); the trace keeps X."""
    Q, K, V = project(X, W_q, W_k, W_v)
    trace = attention(Q, K, V, mask=mask, scaled=scaled)
    trace.X = v.as_matrix(X, "X")
    return trace
