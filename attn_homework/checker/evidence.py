"""What an answer that no known mistake reproduces is still evidence of. Each function states the evidence
a diagnosis code needs and returns that code only when the evidence is there; otherwise the checker falls
back to a line that states facts (where the numbers differ, which row does not sum to 1) and guesses no
cause.

    integer_dtype      the learner's array has an integer dtype and the right answer has fractions; "fractions
                       cut off" only if each entry is the right one cut to a whole number
    not_finite         NaN or ∞: "overflow" only if these scores overflow exp; "empty_row" only if a whole
                       row is NaN in a masked task (a row with nothing to attend to); else "not_finite"
    almost             rounded to k decimals (each entry is the right one rounded there, however few the
                       decimals), or every number within 0.1 % of the right one: float16 (the learner's
                       dtype), the blocked scores set to a finite number instead of −∞ (the one fill value
                       every row agrees on), or just very close
    multiple           every entry the right one times one and the same number c ≠ 0, 1 (all finite): "a
                       factor too many or too few", with c, and no cause guessed
"""

import numpy as np

from ..messages import msg
from .compare import RTOL, nearly, rounded_to, tolerance
from .givens import Stage
from .mistakes import EXP_OVERFLOWS, _is_causal


def integer_dtype(reading, a, g):
    """The message key for an answer that holds integers (its dtype) where the right answer has fractions,
    or None: "int_dtype" (fractions cut off) only with its evidence, every entry the right one cut to a whole
    number (as filling a float into an integer array does); else "int_dtype_values", which names no cause."""
    if reading.dtype is None or reading.dtype.kind not in "iu" or a.shape != g.expected.shape:
        return None
    finite = np.isfinite(g.expected)
    right = g.expected[finite]
    if not (right != np.rint(right)).any():
        return None
    cut = np.array_equal(a[finite], np.trunc(right)) or np.array_equal(a[finite], np.floor(right))
    return "int_dtype" if cut else "int_dtype_values"


def _scores_of(g):
    """The scores the weights of a weights or output step come from, or None for other steps."""
    if g.stage not in (Stage.WEIGHTS, Stage.OUTPUT) or g.A is not None:  # given weights: nothing to overflow
        return None
    if g.S is not None:
        return g.S
    if g.Q is None or g.K is None:
        return None
    return g.Q @ np.swapaxes(g.K, -1, -2) / (np.sqrt(g.d_k) if g.scaled else 1.0)


def _max_down_the_columns(a, g, scores, keep):
    """Whether ``a`` is the task's masked softmax with each row's max replaced by its column's (axis -2),
    then ·V for an output step: the NaN rows then come from an all −∞ key column, not from the mask."""
    try:
        S = np.where(np.broadcast_to(keep, scores.shape), scores, -np.inf)
    except (ValueError, TypeError, AttributeError):
        return False
    return _softmax_of(a, g, S, max_axis=-2)


def _softmax_of(a, g, S, max_axis=-1):
    """Whether ``a`` is the row softmax of the scores ``S`` (the maximum along ``max_axis`` subtracted: the
    row's, or for the column-max mistake the column's), then ·V for an output step, NaN where it has NaN."""
    try:
        with np.errstate(all="ignore"):
            E = np.exp(S - S.max(axis=max_axis, keepdims=True))
            made = E / E.sum(axis=-1, keepdims=True)
            if g.stage is Stage.OUTPUT:
                made = made @ g.V
        return made.shape == a.shape and np.allclose(made, a, rtol=1e-9, atol=1e-12, equal_nan=True)
    except (ValueError, TypeError, AttributeError):
        return False


def _nan_in_the_mask(a, g, scores, keep):
    """The message key when ``a`` is the task's masked softmax with NaN where the mask is: the blocked scores
    filled with +∞ or np.nan ("mask_inf_or_nan_fill"), or a mask of 0/1 multiplied by −∞, whose 0·(−∞) = NaN
    lands on the kept scores ("mask_zero_times_inf"); None otherwise."""
    keep = np.broadcast_to(keep, scores.shape)
    if keep.all():
        return None
    if _softmax_of(a, g, np.where(keep, scores, np.nan)):
        # +∞ gives these NaN too (the blocked score the row's largest, ∞ − ∞): the message names both
        return "mask_inf_or_nan_fill"
    if _softmax_of(a, g, scores + np.where(keep, np.nan, -np.inf)):
        return "mask_zero_times_inf"
    return None


def not_finite(a, g):
    """(code, message key, the first bad index, the row that is NaN throughout or None) for an answer with
    NaN or ∞ where the right answer has none; None if it has none."""
    bad = np.isnan(a) | np.isposinf(a) | (np.isneginf(a) & ~np.isneginf(g.expected).any())
    if not bad.any():
        return None
    first = tuple(np.argwhere(bad)[0])
    scores = _scores_of(g)
    if scores is not None and (scores > EXP_OVERFLOWS).any():
        return "overflow", "overflow_unexplained", first, None
    masked = g.mask is not None or (g.S is not None and np.isneginf(g.S).any())
    if masked and a.ndim >= 2 and scores is not None:
        empty = np.isnan(a).all(axis=-1)
        if empty.any():
            keep = g.mask if g.mask is not None else ~np.isneginf(g.S)
            row = tuple(np.argwhere(empty)[0])
            sees = np.broadcast_to(keep, scores.shape).any(axis=-1).all()
            if np.isnan(a).all() and sees:
                # every row NaN though the task's mask lets each see a key: a +∞ fill and a mask that blocks every
                # key give exactly this, and so may a maximum taken down the columns (a key column blocked
                # throughout), a NaN fill or 0·(−∞): each of those is said only when it too gives these NaN
                also = [_nan_in_the_mask(a, g, scores, keep)]
                also.append("empty_every_row_column_max" if _max_down_the_columns(a, g, scores, keep) else None)
                return "empty_row", ("empty_every_row", *(k for k in also if k)), first, row
            filled = _nan_in_the_mask(a, g, scores, keep)
            if filled is not None:
                return "not_finite", filled, first, row
            if _max_down_the_columns(a, g, scores, keep):
                # the task's mask lets the row see keys; the answer is what a max taken down the columns makes
                # when it meets a key column that is all −∞ (a padding key): the mask is not the cause
                return "empty_row", "empty_row_column_max", first, row
            key = "empty_row" if _is_causal(keep) else "empty_row_any_mask"  # the diagonal: causal masks only
            return "empty_row", key, first, row
    return "not_finite", "not_finite", first, None


def almost(reading, a, g):
    """(message key, fields) when every number of ``a`` is within 0.1 % of the right one, naming the
    evidence: rounded to ``decimals`` places, a float16 array, or neither; None otherwise."""
    decimals = rounded_to(a, g.expected)  # its own evidence, however few the decimals (0.12 for 0.1234)
    if decimals is not None:
        key = {0: "almost_rounded_whole", 1: "almost_rounded_one"}.get(decimals, "almost_rounded")  # "2 decimals"
        allowed = tolerance(g.expected) + RTOL * float(np.abs(g.expected[np.isfinite(g.expected)]).max(initial=0.0))
        return key, {"decimals": decimals, "tolerance": f"{allowed:.1g}", "change": f"{0.5 * 10.0**-decimals:g}"}
    if not nearly(a, g.expected):
        return None
    fill = finite_mask_fill(a, g)
    if fill is not None:
        return "almost_finite_mask", fill_fields(fill)
    leak = blocked_weight(a, g)
    if leak is not None:  # blocked weights not 0: a finite mask added, or weights set by hand; not rounding
        return "almost_blocked_not_zero", leak
    fill = finite_fill(a, g)
    if fill is not None:
        return "almost_finite_mask", fill_fields(fill)
    if reading.dtype is not None and reading.dtype == np.float16:
        return "almost_float16", {}
    if rows_scaled(a, g.expected):
        return ("almost_rows_low_precision" if rows_at_lower_precision(a, g) else "almost_rows_scaled"), {}
    if g.mask is not None and g.stage in (Stage.WEIGHTS, Stage.OUTPUT):
        return "almost_near_masked", {}
    return "almost_near", {}


# the finite numbers a learner fills blocked scores with (−10, −20 …) whose weights can still be told from 0
# at the checker's precision (exp(−27) ≈ 2e-12; from about −28 on a fill gives the right numbers)
FINITE_FILLS = range(0, -28, -1)


def finite_fill(a, g):
    """The finite fill (−1 … −27) of the blocked scores whose masked softmax (·V for an output step) ``a`` is,
    where the −∞ fill is not: a weights or output step's evidence that the mask was filled with a finite
    number, when the weights themselves cannot be seen (7.3's O, 7.5's function) or are within the
    tolerance (−20 leaves a weight of about 1e-9). NaN when several fills make ``a`` (every allowed score far
    below them: the blocked keys take all the weight, whatever the fill): a finite fill, of no known value.
    None when none does, or only 0 (the mask-with-0 mistake says that one in its own words)."""
    scores = _scores_of(g)
    if g.mask is None or scores is None or (g.stage is Stage.OUTPUT and g.V is None):
        return None
    try:
        keep = np.broadcast_to(g.mask, scores.shape)
    except ValueError:
        return None
    if keep.all() or not keep.any(axis=-1).all() or _softmax_of(a, g, np.where(keep, scores, -np.inf)):
        return None
    fills = [float(c) for c in FINITE_FILLS if _softmax_of(a, g, np.where(keep, scores, float(c)))]
    if not fills or fills == [0.0]:
        return None
    return fills[0] if len(fills) == 1 else float("nan")


def fill_fields(fill):
    """The message fields of a finite fill: "(about −10)" when its value is known, nothing otherwise."""
    return {"about": "" if np.isnan(fill) else msg("fill_about", value=f"{fill:.3g}")}


def rows_scaled(a, expected):
    """Whether each row of ``a`` (last axis) is the right row times a number of its own, not all 1 and not all
    equal (a softmax divided by its row sum plus something, ``E / (E.sum(...) + 1e-3)``)."""
    if a.shape != expected.shape or a.ndim < 1 or not (np.isfinite(a).all() and np.isfinite(expected).all()):
        return False
    den = (expected * expected).sum(axis=-1)
    with np.errstate(all="ignore"):
        c = np.where(den > 0, (a * expected).sum(axis=-1) / np.where(den > 0, den, 1.0), 1.0)
    if not np.allclose(a, c[..., None] * expected, rtol=1e-9, atol=1e-12):
        return False
    return not np.allclose(c, 1.0, rtol=0, atol=1e-12) and float(np.ptp(c)) > 1e-12


def rows_at_lower_precision(a, g):
    """Whether each row of ``a`` (``rows_scaled``) is the right row of exps divided by its sum held in float16 or
    float32 (``E / E.sum(…).astype(np.float16)``), the maximum subtracted or not: every row's denominator is then
    a number that type holds exactly. An ε added to the sum gives no such numbers."""
    scores = _scores_of(g)
    if scores is None:
        return False
    expected = g.expected
    with np.errstate(all="ignore"):
        c = (a * expected).sum(axis=-1) / (expected * expected).sum(axis=-1)  # the right row times c
        S = np.asarray(scores, dtype=np.float64)
        for E in (np.exp(S - S.max(axis=-1, keepdims=True)), np.exp(S)):
            denominators = E.sum(axis=-1) / c
            if not np.isfinite(denominators).all():
                continue
            for low in (np.float16, np.float32):
                held = denominators.astype(low).astype(np.float64)
                if np.all(np.abs(held - denominators) <= 1e-9 * np.abs(denominators)):
                    return True
    return False


def blocked_weight(a, g):
    """Fields naming the first weight the mask blocks that is not 0 in ``a`` (weights; the right one is 0
    there), as "[i, j]" and its value; None when the task has no mask or every blocked weight is 0."""
    if g.stage is not Stage.WEIGHTS or g.mask is None or a.shape != g.expected.shape:
        return None
    blocked = ~np.broadcast_to(g.mask, a.shape) & (g.expected == 0)
    leaking = np.argwhere(blocked & (a != 0))
    if not len(leaking):
        return None
    index = tuple(int(i) for i in leaking[0])
    return {"where": "[" + ", ".join(map(str, index)) + "]", "value": f"{float(a[index]):.2g}"}


def finite_mask_fill(a, g):
    """The finite number the blocked scores were set to instead of −∞, when ``a`` (weights) is the masked
    softmax with that fill: its evidence, every blocked weight small but not 0, and the one fill value
    c = s_ij + log(a_blocked / a_ij) that every row's blocked and allowed weights agree on. None otherwise."""
    scores = _scores_of(g)
    if g.stage is not Stage.WEIGHTS or g.mask is None or scores is None or a.shape != scores.shape:
        return None
    keep = np.broadcast_to(g.mask, a.shape)
    blocked = ~keep
    if not blocked.any() or not (a[blocked] > 0).all() or not np.isfinite(a).all():
        return None
    estimates = []
    for index in np.ndindex(a.shape[:-1]):
        row, allowed, shut = a[index], keep[index], blocked[index]
        if not shut.any() or not allowed.any():
            continue
        if not np.allclose(row[shut], row[shut][0], rtol=1e-6, atol=0):  # one fill: equal blocked weights
            return None
        with np.errstate(all="ignore"):
            estimates.append(scores[index][allowed] + np.log(row[shut][0] / row[allowed]))
    if not estimates:
        return None
    values = np.concatenate(estimates)
    if not np.isfinite(values).all() or np.ptp(values) > 1e-3 * max(1.0, abs(values.mean())):
        return None
    return float(values.mean())


def multiple(a, g):
    """The one factor c (≠ 0, ≠ 1) with ``a`` = c × the right answer in every entry, or None: the evidence of a
    number multiplied or divided in that was not asked for. Only where every right entry is finite and two
    different numbers other than 0 are among them (one number, or a constant, is a multiple of any other)."""
    right = g.expected
    if a.shape != right.shape or a.dtype == bool or not (np.isfinite(a).all() and np.isfinite(right).all()):
        return None
    nonzero = right[right != 0]  # one number, or one repeated (up to rounding), is a multiple of any other
    if nonzero.size < 2 or np.ptp(nonzero) <= 1e-6 * np.abs(nonzero).max():
        return None
    scale = float(np.abs(right).max())
    c = float((a * right).sum() / (right * right).sum())
    if abs(c) < 1e-6 or abs(c - 1) < 1e-3:
        return None
    return c if np.allclose(a, c * right, rtol=1e-6, atol=1e-9 * scale) else None


def offset(a, g):
    """The one number c ≠ 0 with ``a`` = the right answer + c in every entry, or None: the evidence of a
    number added or subtracted everywhere. Only where every entry is finite and the right answer is not one
    number repeated (then any constant is an offset of it)."""
    right = g.expected
    if a.shape != right.shape or a.dtype == bool or a.size < 2:
        return None
    if not (np.isfinite(a).all() and np.isfinite(right).all()) or np.ptp(right) <= 1e-9 * (1 + np.abs(right).max()):
        return None
    if np.ptp(a) < 0.5 * np.ptp(right):  # the answer's own spread gone (1e300 everywhere): not right + c
        return None
    shift = a - right
    c = float(np.median(shift))
    scale = 1e-9 * (1 + float(np.abs(right).max()))
    if abs(c) <= max(scale, 1e-12) or np.abs(shift - c).max() > scale:
        return None
    return c
