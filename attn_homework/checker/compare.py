"""The learner's answer as an array, and "equal" within a tolerance.

Equal means |answer − right| ≤ ATOL + RTOL·(|right| + max|right|) entry by entry, so a right answer
computed another way (loops, einsum, float32) passes, near-zero entries included. A mistake is
recognised with ``same``: equal, with NaN matching NaN (a mistake that divides 0 by 0 in a row hands in
NaN there, and the learner's array must have it in the same places).
"""

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..messages import msg

RTOL, ATOL = 1e-5, 1e-8
# numpy's own comparisons, kept at import: "equal" must not be what the kernel's numpy says after a notebook
# rebinds ``np.isclose`` or ``np.allclose`` (``np.allclose = lambda *a, **k: True``); the learner's cells and
# the checker share one numpy module in a notebook
_ISCLOSE, _ARRAY_EQUAL, _RINT = np.isclose, np.array_equal, np.rint
ALMOST = 1e-3  # "very close": within 0.1 % (relative to the answer's largest entry) everywhere


@dataclass(frozen=True)
class Reading:
    """An answer as the checker reads it: a float64 (or boolean) copy, or None when it is of the wrong
    kind; what the learner gave (type and dtype, for the message); the learner's own dtype, if any."""

    array: np.ndarray | None
    got: str
    dtype: np.dtype | None = None


@dataclass(frozen=True)
class AnswerKind:
    """What a step takes as its answer: how it is read (``read(answer) -> Reading``) and how to say what
    it must be."""

    read: Callable[[object], Reading]
    kind: str  # message key: what the answer must be ("an array of numbers …")
    type_hint: str | None  # message key: how to make one, said after a wrong type
    finite: bool  # NaN and ∞ are wrong (numbers); a boolean array has none
    single: bool = False  # one number (a prediction), not an array
    whole: bool = False  # a count or an index: only the whole number itself is right, no tolerance


def read_numbers(answer):
    """A float64 copy of an answer of integers or reals."""
    a, got = _as_array(answer)
    if a is None or a.dtype.kind not in "iuf":
        return Reading(None, got)
    return Reading(a.astype(np.float64), got, a.dtype)


def read_booleans(answer):
    """A copy of a boolean answer (a mask)."""
    a, got = _as_array(answer)
    return Reading(a if a is not None and a.dtype == bool else None, got, None if a is None else a.dtype)


def read_number(answer):
    """One number (an int, a float, a numpy scalar or a 0-d array) as a 0-d float64 array. ``True``/``False``
    are not numbers here (``True == 1`` would hide a wrong kind of answer), nor is a list or an array of one
    number (``[5]``, ``np.array([2])``): a prediction is the number itself."""
    if isinstance(answer, (bool, np.bool_)):
        return Reading(None, type(answer).__name__)
    a, got = _as_array(answer)
    if a is None or a.dtype.kind not in "iuf" or a.ndim != 0:
        return Reading(None, got + (f", shape {a.shape}" if a is not None and a.ndim != 0 else ""))
    return Reading(a.astype(np.float64).reshape(()), got, a.dtype)


NUMBERS = AnswerKind(read_numbers, "kind_numbers", None, finite=True)
BOOLEANS = AnswerKind(read_booleans, "kind_boolean", "mask_type", finite=False)
NUMBER = AnswerKind(read_number, "kind_number", "number_type", finite=True, single=True)
COUNT = AnswerKind(read_number, "kind_number", "number_type", finite=True, single=True, whole=True)  # a count
INDEX = AnswerKind(read_number, "kind_number", "index_type", finite=True, single=True, whole=True)  # from 0


def _as_array(answer):
    """(a copy of the answer as a numpy array, or None; its type and dtype, as the learner gave it)."""
    got = type(answer).__name__
    if isinstance(answer, (str, bytes, dict, set, frozenset)) or callable(answer):
        return None, got
    try:
        a = np.array(answer)  # a copy: the learner's array is never touched
    except Exception:
        a = _detached(answer)
        if a is None:  # rows of different lengths, or a type numpy cannot read
            return None, got + (msg("ragged") if isinstance(answer, (list, tuple)) else "")
    if a.dtype == object and a.size and all(_plain_real(x) for x in a.flat):
        a = a.astype(np.float64)  # Fraction(1), Decimal("0.5"): numbers, only of a kind numpy keeps as objects
    return a, got + (f", dtype {a.dtype}" if a.dtype != object else "")


def _detached(answer):
    """A copy of a tensor numpy cannot read directly (torch's ``requires_grad``: ``.detach()`` first), as a
    numpy array; None for anything else. torch itself is never imported here."""
    detach = getattr(answer, "detach", None)
    if not callable(detach):
        return None
    try:
        value = detach()
        value = value.cpu() if callable(getattr(value, "cpu", None)) else value
        return np.array(value)
    except Exception:
        return None


def _plain_real(x):
    """A real number of a kind numpy stores as an object (``fractions.Fraction``, ``decimal.Decimal``); not
    True/False, not a complex number, not text."""
    import decimal
    import numbers

    if isinstance(x, (bool, np.bool_)):
        return False
    return isinstance(x, (numbers.Rational, decimal.Decimal)) and not isinstance(x, (int, np.integer))


def tolerance(right):
    """ATOL + RTOL·max|right| over the finite entries: the absolute part of "equal"."""
    finite = np.abs(right[np.isfinite(right)])
    return ATOL + RTOL * (finite.max() if finite.size else 0.0)


def close(a, right, whole=False):
    """``a`` equals ``right``: same shape and kind, and every entry within the tolerance (−∞ equals −∞).
    ``whole``: ``right`` is a count or an index, and only that whole number itself is equal to it."""
    if a.shape != right.shape or (a.dtype == bool) != (right.dtype == bool):
        return False
    if whole:
        return bool(_ARRAY_EQUAL(a, _RINT(right)))
    if a.dtype == bool:
        return bool(_ARRAY_EQUAL(a, right))
    return bool(_ISCLOSE(a, right, rtol=RTOL, atol=tolerance(right)).all())


def same(a, made):
    """``a`` is what a mistake ``made``: equal as in ``close``, NaN where it has NaN (0/0 in a row)."""
    if a.shape != made.shape or (a.dtype == bool) != (made.dtype == bool):
        return False
    if a.dtype == bool:
        return bool(_ARRAY_EQUAL(a, made))
    return bool(_ISCLOSE(a, made, rtol=RTOL, atol=tolerance(made), equal_nan=True).all())


def same_prediction(a, made):
    """A prediction ``a`` is the number a wrong reasoning ``made``, to the two or three decimals a learner
    would type (0.45 for 0.4502)."""
    return a.shape == made.shape and bool(_ISCLOSE(a, made, rtol=1e-3, atol=5e-3).all())


def nearly(a, right, within=ALMOST):
    """Every entry of ``a`` within ``within`` of the right one, relative to the right answer's largest
    entry (so a weight of 0.0001 counts against the row's 1, not against itself); same shape, finite."""
    if a.shape != right.shape or not np.isfinite(a).all() or not np.isfinite(right).all():
        return False
    scale = np.abs(right).max() if right.size else 0.0
    return bool((np.abs(a - right) <= within * (np.abs(right) + scale) + ATOL).all())


def rounded_to(a, right):
    """The number of decimals (0–6) ``a`` is ``right`` rounded to, or None: the evidence that an answer was
    rounded (every entry has at most that many decimals and lies within half a unit of that place of the
    right value). All zeros are no such evidence (a zero is on every grid); another constant is, where the
    right answer is near that constant everywhere (lesson 12's shifted scores are one number repeated)."""
    if a.shape != right.shape or not np.isfinite(a).all() or not np.isfinite(right).all():
        return None
    if a.size < 2 or not a.any():
        return None
    for decimals in range(6, -1, -1):  # the most decimals that fit (1.0 may be 0.99 rounded to 1 decimal); 0: whole
        unit = 10.0**-decimals
        on_grid = np.abs(a / unit - np.rint(a / unit)) < 1e-6
        if decimals == 0 and np.abs(right).max() < 2:  # weights of 0.5 "rounded" to 0 and 1: no evidence
            return None
        if on_grid.all() and (np.abs(a - right) <= unit / 2 + 1e-9 * (1 + np.abs(right))).all():
            return decimals
    return None


def rounded_within(a, right):
    """The decimals (2–4) ``a`` was rounded to when it is right within the tolerance only so: ``right``
    rounded (``rounded_to``) and moved by it somewhere, by more than a tenth of that place. None for an
    answer that is the right numbers as computed: exact, or a right answer that has few decimals itself
    (whole numbers, 0.5), which rounding does not move; or rounded to other than 2–4 decimals, or one number."""
    a, right = np.asarray(a), np.asarray(right)
    if a.dtype.kind not in "fiu" or right.dtype.kind not in "fiu":
        return None
    decimals = rounded_to(a, right)
    if decimals is None or not 2 <= decimals <= 4:
        return None
    return decimals if np.abs(a - right).max() > 0.1 * 10.0**-decimals else None


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
