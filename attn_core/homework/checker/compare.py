"""The learner's answer as an array, and "equal" within a tolerance.

Equal means |answer − right| ≤ ATOL + RTOL·(|right| + max|right|) entry by entry, so a right answer
computed another way (loops, einsum, float32) passes, near-zero entries included.
"""

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..messages import msg

RTOL, ATOL = 1e-5, 1e-8


@dataclass(frozen=True)
class AnswerKind:
    """What a step takes as its answer: how it is read (``read(answer)`` -> (a copy as an array, or None
    when it is of the wrong kind; what the learner gave, for the message)) and how to say what it must be."""

    read: Callable[[object], tuple[np.ndarray | None, str]]
    kind: str  # message key: what the answer must be ("an array of numbers …")
    type_hint: str | None  # message key: how to make one, said after a wrong type
    finite: bool  # NaN and ∞ are wrong (numbers); a boolean array has none


def read_numbers(answer):
    """A float64 copy of an answer of integers or reals."""
    a, got = _as_array(answer)
    return (a.astype(np.float64) if a is not None and a.dtype.kind in "iuf" else None), got


def read_booleans(answer):
    """A copy of a boolean answer (a mask)."""
    a, got = _as_array(answer)
    return (a if a is not None and a.dtype == bool else None), got


NUMBERS = AnswerKind(read_numbers, "kind_numbers", None, finite=True)
BOOLEANS = AnswerKind(read_booleans, "kind_boolean", "mask_type", finite=False)


def _as_array(answer):
    """(a copy of the answer as a numpy array, or None; its type and dtype, as the learner gave it)."""
    got = type(answer).__name__
    if isinstance(answer, (str, bytes, dict, set, frozenset)):
        return None, got
    try:
        a = np.array(answer)  # a copy: the learner's array is never touched
    except Exception:
        return None, got + msg("ragged")
    return a, got + (f", dtype {a.dtype}" if a.dtype != object else "")


def tolerance(right):
    """ATOL + RTOL·max|right| over the finite entries: the absolute part of "equal"."""
    finite = np.abs(right[np.isfinite(right)])
    return ATOL + RTOL * (finite.max() if finite.size else 0.0)


def close(a, right):
    """``a`` equals ``right``: same shape and kind, and every entry within the tolerance (−∞ equals −∞)."""
    if a.shape != right.shape or (a.dtype == bool) != (right.dtype == bool):
        return False
    if a.dtype == bool:
        return bool(np.array_equal(a, right))
    return bool(np.isclose(a, right, rtol=RTOL, atol=tolerance(right)).all())


def largest_difference(a, right):
    """Index of the largest difference between two arrays of the same shape (the first, if tied)."""
    if a.dtype == bool:
        diff = (a != right).astype(float)
    else:
        diff = np.where(
            np.isclose(a, right, rtol=RTOL, atol=tolerance(right)),
            -1.0,
            np.nan_to_num(np.abs(a - right), nan=np.inf, posinf=np.inf),
        )
    return tuple(int(i) for i in np.unravel_index(np.argmax(diff), a.shape))
