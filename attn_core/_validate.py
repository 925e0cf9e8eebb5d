"""Input checks for the five steps: clear errors instead of wrong answers.

Kept apart from ``core.py`` so that the reference code stays short. Every
check only reads its input; nothing here writes into a learner's array.
"""

import numpy as np


def as_matrix(x, name, min_ndim=2):
    """Return ``x`` as a float array with at least ``min_ndim`` axes, or raise.

    float32 / float64 are kept; integers (and float16) become float64.
    Raises TypeError for non-numeric input and ValueError for NaN / ±inf.
    """
    try:
        arr = np.asarray(x)
    except ValueError as e:  # ragged nested lists
        raise TypeError(f"{name} is not a rectangular array of numbers ({e}).") from None
    if arr.dtype == bool or not (np.issubdtype(arr.dtype, np.integer) or np.issubdtype(arr.dtype, np.floating)):
        raise TypeError(
            f"{name} must be an array of real numbers, got dtype {arr.dtype} "
            f"(type {type(x).__name__}). Build it with np.array([...], dtype=float)."
        )
    if arr.dtype not in (np.float32, np.float64):
        arr = arr.astype(np.float64)
    if arr.ndim < min_ndim:
        raise ValueError(
            f"{name} must have at least {min_ndim} axes (rows × features), got shape {arr.shape}. "
            f"A single vector v can be written as a one-row matrix: v[None, :]."
        )
    check_finite(arr, name)
    return arr


def check_finite(arr, name, allow_neg_inf=False):
    bad = np.isnan(arr) | (np.isinf(arr) if not allow_neg_inf else np.isposinf(arr))
    if bad.any():
        where = tuple(int(i) for i in np.argwhere(bad)[0])
        raise ValueError(
            f"{name} (shape {arr.shape}) contains {int(bad.sum())} NaN/inf value(s), "
            f"the first at index {where}. Attention needs finite numbers: check how {name} was computed."
        )


def linear(X, W, x_name, w_name):
    """X (..., n, d_in) @ W (d_in, d_out), after checking that W fits X."""
    W = as_matrix(W, w_name)
    if W.ndim != 2:
        raise ValueError(f"{w_name} must be a 2-D matrix (d_in × d_out), got shape {W.shape}.")
    if X.shape[-1] != W.shape[0]:
        raise ValueError(
            f"{x_name} has shape {X.shape} but {w_name} has shape {W.shape}: {x_name} @ {w_name} needs "
            f"{w_name} to have {X.shape[-1]} rows (one per feature of {x_name}, d_model). "
            f"Is {w_name} transposed, or built for another d_model?"
        )
    return X @ W


def check_qk(Q, K):
    if Q.shape[-1] != K.shape[-1]:
        raise ValueError(
            f"Q has shape {Q.shape} and K has shape {K.shape}: Q·Kᵀ compares each query with each key, "
            f"so both need the same last axis d_k (got {Q.shape[-1]} and {K.shape[-1]}). "
            f"W_Q and W_K must project to the same width d_k."
        )
    _check_batch(Q, K, "Q", "K")


def check_av(A, V):
    if A.shape[-1] != V.shape[-2]:
        raise ValueError(
            f"A has shape {A.shape} and V has shape {V.shape}: A·V needs one value row per key, "
            f"i.e. A's columns ({A.shape[-1]}) = V's rows ({V.shape[-2]}). "
            f"K and V must come from the same sequence (same n_k)."
        )
    _check_batch(A, V, "A", "V")


def check_kv(K, V):
    if K.shape[-2] != V.shape[-2]:
        raise ValueError(
            f"K has shape {K.shape} and V has shape {V.shape}: every key needs its value, so K and V "
            f"must have the same number of rows n_k (got {K.shape[-2]} and {V.shape[-2]}). "
            f"Project K and V from the same sequence."
        )


def _check_batch(a, b, a_name, b_name):
    try:
        np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    except ValueError:
        raise ValueError(
            f"{a_name} has shape {a.shape} and {b_name} has shape {b.shape}: their leading (batch) axes "
            f"{a.shape[:-2]} and {b.shape[:-2]} do not broadcast."
        ) from None


def as_mask(mask, scores_shape):
    """Check a boolean mask (True = may attend) against the scores' shape."""
    m = np.asarray(mask)
    if m.dtype != bool:
        raise TypeError(
            f"mask must be boolean with True = may attend, got dtype {m.dtype}. "
            f"From 0/1 use mask.astype(bool); from an additive 0/−inf mask use (mask == 0)."
        )
    try:
        ok = np.broadcast_shapes(m.shape, scores_shape) == tuple(scores_shape)
    except ValueError:
        ok = False
    if not ok:
        raise ValueError(
            f"mask has shape {m.shape} but the scores have shape {tuple(scores_shape)} (n_q × n_k): "
            f"the mask must broadcast to the scores. For self-attention use causal_mask(n); "
            f"for a padding mask over keys use shape (1, n_k)."
        )
    empty = ~np.broadcast_to(m, scores_shape).any(axis=-1)
    if empty.any():
        where = tuple(int(i) for i in np.argwhere(empty)[0])
        raise ValueError(
            f"mask leaves query row {where[-1]}"
            + (f" (at batch index {where[:-1]})" if len(where) > 1 else "")
            + f" with no key to attend to ({int(empty.sum())} such row(s) in all): softmax over nothing is "
            f"undefined (−∞ everywhere gives NaN, a large negative number silently gives uniform weights). "
            f"Allow at least one key per row, e.g. the query itself."
        )
    return m
