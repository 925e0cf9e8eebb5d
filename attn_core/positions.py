"""Word order (lesson 12): self-attention cannot see it until positions enter the numbers.

Self-attention treats its input as a set: reorder the rows of X (X → PX for a permutation matrix P) and
the rows of every result are reordered the same way (O → PO), nothing else changes. Two ways to give it
positions:

    sinusoidal_positions(n, d)   absolute: one vector per position, added to X before the projections
                                 (Vaswani et al. 2017, "Attention Is All You Need", section 3.5)
    rope(X, positions)           relative: each pair of features of q and k is rotated by an angle that
                                 grows with the position, so q_i·k_j depends only on i − j
                                 (Su et al. 2021, "RoFormer", arXiv:2104.09864)

Both use the same frequencies ω_k = base^(−2k/d), k = 0 … d/2 − 1: pair k turns by ω_k radians per
position, from one radian per position (k = 0) down to very slowly. Both pair features up, so d must be
even; ``with_even_width`` widens an example of odd width (the four-word example has d_model = 3).

RoPE's pairs sit in one of two layouts in real code: "interleaved", features (0, 1), (2, 3), … as in the
RoFormer paper and GPT-J; or "half", features (k, k + d/2), the ``rotate_half`` of GPT-NeoX and of
Hugging Face's LLaMA. They are the same rotation on permuted features: ``interleaved_to_half(d)``.
"""

from dataclasses import replace

import numpy as np

from . import _validate as v
from .core import Trace, attention, project
from .examples import Example
from .messages import msg

LAYOUTS = ("interleaved", "half")
ENCODINGS = ("none", "sinusoidal", "rope")
BASE = 10000  # the base of the original Transformer and of RoFormer


# ---------------------------------------------------------------- shared: the frequencies


def _even_width(d, name):
    d = v.positive_int(d, name)
    if d % 2:
        raise ValueError(msg("odd_width", name=name, d=d, even=d + 1))
    return d


def position_frequencies(d, base=BASE):
    """ω_k = base^(−2k/d) for k = 0 … d/2 − 1: shape (d/2,), the radians per position of each pair of
    features. ω_0 = 1; the last is about 1/base. ``d`` must be even."""
    d = _even_width(d, "d")
    base = v.positive_number(base, "base", "base")
    return base ** (-np.arange(0, d, 2) / d)


# ---------------------------------------------------------------- absolute: sinusoidal encodings


def sinusoidal_positions(n, d, base=BASE, dtype=np.float64):
    """The sinusoidal position encodings of positions 0 … n − 1: shape (n, d).

    Row p is position p (counted from 0). Columns come in pairs, one pair per frequency ω_k:
    PE[p, 2k] = sin(p·ω_k) and PE[p, 2k + 1] = cos(p·ω_k), with ω_k = base^(−2k/d).
    Added to X (n × d_model, so d = d_model) before the projections. ``d`` must be even.
    """
    n = v.positive_int(n, "n", "positions")
    return _sinusoidal_at(np.arange(n), d, base).astype(dtype, copy=False)


def _sinusoidal_at(positions, d, base):
    """The sinusoidal encodings of the given positions (shape (n,)): shape (n, d), float64."""
    angles = np.asarray(positions, dtype=np.float64)[:, None] * position_frequencies(d, base)[None, :]
    PE = np.empty((angles.shape[0], angles.shape[1] * 2))
    PE[:, 0::2] = np.sin(angles)
    PE[:, 1::2] = np.cos(angles)
    return PE


# ---------------------------------------------------------------- relative: rotary embeddings (RoPE)


def rope(X, positions, base=BASE, layout="interleaved"):
    """Rotary position embedding: X (..., n, d) at ``positions`` (n,) -> the rotated X, same shape.

    Pair k of row r is turned by the angle positions[r]·ω_k, ω_k = base^(−2k/d):
    (x, y) -> (x·cos − y·sin, x·sin + y·cos). ``layout`` says which features form pair k:
    "interleaved" = features (2k, 2k + 1) (RoFormer, GPT-J); "half" = features (k, k + d/2)
    (``rotate_half``: GPT-NeoX, Hugging Face's LLaMA). A single vector (d,) takes one position (a number).
    Apply it to Q and K (never to V): then q_i·k_j depends only on i − j. float32 stays float32.
    """
    X = v.as_matrix(X, "X", min_ndim=1)
    d = _even_width(X.shape[-1], "d")
    if layout not in LAYOUTS:
        raise ValueError(msg("rope_layout", layout=layout))
    angles = _positions(positions, X.shape)[..., None] * position_frequencies(d, base)  # (..., n, d/2)
    cos, sin = np.cos(angles).astype(X.dtype), np.sin(angles).astype(X.dtype)
    if layout == "interleaved":
        x, y = X[..., 0::2], X[..., 1::2]
        out = np.empty_like(X)
        out[..., 0::2] = x * cos - y * sin
        out[..., 1::2] = x * sin + y * cos
        return out
    x, y = X[..., : d // 2], X[..., d // 2 :]
    return np.concatenate([x * cos - y * sin, x * sin + y * cos], axis=-1)


def _positions(positions, x_shape):
    """One position per row of X, as float64: shape x_shape[:-1] (or x_shape[-2:-1], shared by a batch)."""
    p = np.asarray(positions)
    if p.dtype == bool or p.dtype.kind not in "iuf":
        raise TypeError(msg("positions_not_real", dtype=p.dtype, type=type(positions).__name__))
    rows = x_shape[:-1]
    if not rows and p.shape != ():
        raise ValueError(msg("positions_one_vector", shape=p.shape, x_shape=x_shape))
    if p.shape not in (rows, rows[-1:]):
        raise ValueError(msg("positions_shape", shape=p.shape, x_shape=x_shape, want=rows[-1:], n=rows[-1]))
    p = p.astype(np.float64)
    v.check_finite(p, "positions")
    return p


def interleaved_to_half(d):
    """The feature order that turns the interleaved layout into the half one: shape (d,), the even features
    then the odd ones. ``rope(X[..., order], p, layout="half") == rope(X, p)[..., order]``."""
    d = _even_width(d, "d")
    return np.concatenate([np.arange(0, d, 2), np.arange(1, d, 2)])


# ---------------------------------------------------------------- attention with positions


def with_even_width(example: Example) -> Example:
    """``example`` with a feature of zeros appended to X, and a row of zeros to W_Q, W_K and W_V, when d_model
    is odd: sinusoidal encodings pair features up. Q, K, V (so the attention without positions) do not
    change: the new feature is 0 and nothing reads it."""
    X, W_q, W_k, W_v = (np.asarray(a, dtype=float) for a in (example.X, example.W_q, example.W_k, example.W_v))
    extra = X.shape[1] % 2
    X = np.pad(X, ((0, 0), (0, extra)))
    W_q, W_k, W_v = (np.pad(W, ((0, extra), (0, 0))) for W in (W_q, W_k, W_v))
    for a in (X, W_q, W_k, W_v):
        a.flags.writeable = False
    features = example.features + ("0",) * extra if example.features else ()
    return replace(example, X=X, W_q=W_q, W_k=W_k, W_v=W_v, features=features)


def rotated_width(d_k):
    """How many features of q and k RoPE turns: all of them when d_k is even, all but the last when it is
    odd (the last is left as it is, as GPT-J and GPT-NeoX leave part of each head unrotated)."""
    return d_k - d_k % 2


def positioned_qkv(X, W_q, W_k, W_v, positions, encoding="sinusoidal", base=BASE):
    """Q (n × d_k), K (n × d_k), V (n × d_v) of the rows of X (n × d_model), row r at ``positions[r]``.

    ``encoding``: "none" (positions ignored: the plain projections), "sinusoidal" (the sinusoidal
    encoding of each row's position added to X before the projections; d_model must be even) or "rope"
    (the first ``rotated_width(d_k)`` features of Q and K rotated with ``rope`` after the projections;
    V is never rotated)."""
    if encoding not in ENCODINGS:
        raise ValueError(msg("unknown_encoding", encoding=encoding, encodings=", ".join(ENCODINGS)))
    X = v.as_matrix(X, "X")
    p = _positions(positions, X.shape)
    if encoding == "sinusoidal":
        X = X + _sinusoidal_at(p, X.shape[-1], base).astype(X.dtype, copy=False)
    Q, K, V = project(X, W_q, W_k, W_v)
    if encoding == "rope":
        r = rotated_width(Q.shape[-1])
        if r == 0:
            raise ValueError(msg("odd_width", name="d_k", d=Q.shape[-1], even=2))
        Q, K = (np.concatenate([rope(M[..., :r], p, base), M[..., r:]], axis=-1) for M in (Q, K))
    return Q, K, V


def attention_with_positions(X, W_q, W_k, W_v, encoding="sinusoidal", base=BASE):
    """Self-attention of the rows of X (n × d_model) at positions 0 … n − 1, row r at position r:
    ``positioned_qkv`` then steps 2–5. Returns the Trace (with X as given)."""
    X = v.as_matrix(X, "X")
    trace: Trace = attention(*positioned_qkv(X, W_q, W_k, W_v, np.arange(X.shape[-2]), encoding, base))
    trace.X = X
    return trace
