"""Input checks for the math: clear errors instead of wrong answers.

Kept apart from ``core.py`` so that the reference code stays short. Every check only reads its input;
nothing here writes into a learner's array. The messages live in ``messages.py``.
"""

import numbers

import numpy as np

from .messages import msg

# ---------------------------------------------------------------- arguments


def positive_int(x, name, meaning="none"):
    """``x`` as an int if it is a positive integer (not a bool), else ValueError naming ``name``."""
    if isinstance(x, bool) or not isinstance(x, (int, np.integer)) or x < 1:
        raise ValueError(msg("positive_int", name=name, got=x, meaning=msg(f"meaning_{meaning}")))
    return int(x)


def positive_number(x, name, meaning="none"):
    """``x`` as a float if it is a finite positive real number (not a bool), else ValueError naming ``name``."""
    if isinstance(x, bool) or not isinstance(x, numbers.Real) or not 0 < x < np.inf:
        raise ValueError(msg("positive_number", name=name, got=x, meaning=msg(f"meaning_{meaning}")))
    return float(x)


def first_index(bad):
    """The index (a tuple of ints) of the first True in the boolean array ``bad``."""
    return tuple(int(i) for i in np.argwhere(bad)[0])


def batch_note(where):
    """ " (at batch index (…))" for an index with leading batch axes, "" otherwise."""
    if len(where) < 2:
        return ""
    batch = where[:-1]
    return msg("at_batch", where=batch[0] if len(batch) == 1 else batch)


# ---------------------------------------------------------------- arrays


def as_matrix(x, name, min_ndim=2):
    """Return ``x`` as a float array with at least ``min_ndim`` axes, or raise.

    float32 / float64 are kept; integers (and float16) become float64.
    Raises TypeError for non-numeric input and ValueError for NaN / ±inf.
    """
    try:
        arr = np.asarray(x)
    except ValueError as e:  # ragged nested lists
        raise TypeError(msg("not_rectangular", name=name, error=e)) from None
    if arr.dtype == bool or not (np.issubdtype(arr.dtype, np.integer) or np.issubdtype(arr.dtype, np.floating)):
        raise TypeError(msg("not_real", name=name, dtype=arr.dtype, type=type(x).__name__))
    if arr.dtype not in (np.float32, np.float64):
        arr = arr.astype(np.float64)
    if arr.ndim < min_ndim:
        raise ValueError(msg("too_few_axes", name=name, min_ndim=min_ndim, shape=arr.shape))
    check_finite(arr, name)
    return arr


def check_finite(arr, name, allow_neg_inf=False):
    bad = np.isnan(arr) | (np.isinf(arr) if not allow_neg_inf else np.isposinf(arr))
    if bad.any():
        raise ValueError(msg("not_finite", name=name, shape=arr.shape, count=int(bad.sum()), where=first_index(bad)))


def linear(X, W, x_name, w_name):
    """X (..., n, d_in) @ W (d_in, d_out), after checking that W fits X."""
    W = as_matrix(W, w_name)
    if W.ndim != 2:
        raise ValueError(msg("W_not_2d", w=w_name, shape=W.shape))
    if X.shape[-1] != W.shape[0]:
        raise ValueError(msg("W_rows", x=x_name, w=w_name, x_shape=X.shape, w_shape=W.shape, rows=X.shape[-1]))
    return X @ W


def check_qk(Q, K):
    if Q.shape[-1] != K.shape[-1]:
        raise ValueError(msg("qk_width", Q=Q.shape, K=K.shape, d_q=Q.shape[-1], d_k=K.shape[-1]))
    _check_batch(Q, K, "Q", "K")


def check_av(A, V):
    if A.shape[-1] != V.shape[-2]:
        raise ValueError(msg("av_shape", A=A.shape, V=V.shape, cols=A.shape[-1], rows=V.shape[-2]))
    _check_batch(A, V, "A", "V")


def check_kv(K, V):
    if K.shape[-2] != V.shape[-2]:
        raise ValueError(msg("kv_rows", K=K.shape, V=V.shape, n_k=K.shape[-2], n_v=V.shape[-2]))


def check_same_shape(grad, value, grad_name, value_name):
    if grad.shape != value.shape:
        raise ValueError(msg("grad_shape", value=value_name, shape=value.shape, grad=grad_name, grad_shape=grad.shape))


def _check_batch(a, b, a_name, b_name):
    try:
        np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    except ValueError:
        raise ValueError(
            msg(
                "batch_axes",
                a=a_name,
                b=b_name,
                a_shape=a.shape,
                b_shape=b.shape,
                a_batch=a.shape[:-2],
                b_batch=b.shape[:-2],
            )
        ) from None


def as_mask(mask, scores_shape):
    """Check a boolean mask (True = may attend) against the scores' shape."""
    m = np.asarray(mask)
    if m.dtype != bool:
        raise TypeError(msg("mask_dtype", dtype=m.dtype))
    try:
        ok = np.broadcast_shapes(m.shape, scores_shape) == tuple(scores_shape)
    except ValueError:
        ok = False
    if not ok:
        raise ValueError(msg("mask_shape", mask=m.shape, scores=tuple(scores_shape)))
    empty = ~np.broadcast_to(m, scores_shape).any(axis=-1)
    if empty.any():
        where = first_index(empty)
        raise ValueError(msg("mask_empty_row", row=where[-1], batch=batch_note(where), count=int(empty.sum())))
    return m
