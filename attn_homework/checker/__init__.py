"""The homework checker: what is wrong with one step, said without giving the answer away, and never
with more confidence than the answer gives evidence for.

    diagnose("scores", QKT, Q=Q, K=K)   -> Diagnosis(ok, code, message, step)
    report("scores", QKT, Q=Q, K=K)     prints one line: "✅ …", "❌ …" or "⏳ 还没作答 …"

The right answer is computed from the givens with attn_core's own functions. An answer is then tested in
this order, and each code is given only when its evidence is there:

    not_attempted     the placeholder ``...``
    is_none           the value is None (a function without ``return``, ``x = print(...)``)
    wrong_type        not an array of numbers (a mask: of booleans; a prediction: one number)
    ok                equal to the right answer (within the tolerance below)
    <mistake codes>   equal to what a known mistake makes, recomputed from the givens (``steps``: the
                      first in its step's table order); NaN in the same places counts as equal, so a
                      mask that leaves a row with nothing to see is named too
    int_dtype         the learner's dtype is an integer one and the right answer has fractions
    overflow, empty_row, not_finite    NaN or ∞ (see ``evidence.not_finite``)
    almost_right      every number within 0.1 % of the right one (rounded? float16? see ``evidence``)
    wrong_shape       another shape; a hint names a cause only if the numbers are what it makes
    <rule codes>      a rule every right answer keeps is broken, and where (masked weight not 0, a
                      negative weight, a row that does not sum to 1, a masked score that is not −∞)
    wrong_prediction  a prediction no known wrong reasoning explains: the step's explanation
    not_whole         a prediction of a count or an index that is not a whole number (a slip of form)
    wrong_values      the honest fallback: where the largest difference is, and what that entry means

Equal means |answer − right| ≤ ATOL + RTOL·(|right| + max|right|) entry by entry, so a right answer
computed another way (loops, einsum, float32) passes, near-zero entries included.

Degenerate givens can make a mistake give the right array: d_k = 1 (scaled = unscaled), Q = K (QKᵀ is
symmetric, so KQᵀ = QKᵀ), n = 1 (all triangles of a causal mask agree), a mask that hides nothing. The
right array is tested first, so such an answer is reported correct, as it is for those givens. When two
mistakes give the same array, the first in the table is named (e.g. a strict upper triangle mask is both
"inverted" and "upper": it is reported as mask_inverted). Some other ways are simply right and pass:
softmax without subtracting the row maximum (when nothing overflows), −1e9 instead of −∞ before softmax,
and "softmax, zero the masked weights, renormalise each row" (= softmax of the masked scores).

A find-the-bug step (``functions``) takes ``FunctionCalls``: what the learner's function returned on the
checker's own arguments.

``diagnose`` never raises and never writes into the answer or the givens. Givens that attn_core rejects
give code "bad_task" (an exercise author's bug); an error inside the checker itself "checker_error".

The parts: ``givens`` (the task's inputs, read once), ``steps`` (one table entry per step: its right
answer from ``right``, its mistakes from ``mistakes``, its wrong shapes from ``shapes``, its rules; the
steps of lessons 8–11 and the predictions from ``heads``, ``online``, ``backward``, ``block`` and
``predictions``), ``functions`` (find-the-bug steps), ``evidence`` (what an unexplained answer still
shows), ``compare`` (reading an answer, "equal"), ``wording`` (shapes and places in messages); every text
is in ``attn_homework/messages.py``.
"""

import warnings
from dataclasses import dataclass

import numpy as np

from ..messages import msg
from . import evidence, functions, torch_port
from .compare import ATOL, RTOL, close, largest_difference, nearly, read_numbers, rounded_within, same, same_prediction
from .functions import FUNCTION_STEPS, CallFailed, FunctionCalls
from .givens import LABELS, MATRICES
from .mistakes import Made
from .steps import STEP_TABLE
from .wording import factor_text as _factor_text
from .wording import place, shape_text

__all__ = ["ATOL", "RTOL", "STEPS", "CallFailed", "Diagnosis", "FunctionCalls", "diagnose", "report"]

FUNCTION_STEPS.update(torch_port.FUNCTION_STEPS)  # lesson 13's find-the-bug step, beside the others
STEPS = tuple(STEP_TABLE) + tuple(FUNCTION_STEPS)  # the names of the steps, in the tables' order


@dataclass(frozen=True)
class Diagnosis:
    """One checked answer: ``ok``, ``code`` ("ok", "not_attempted", "wrong_shape", "unscaled", …),
    ``message`` (learner-facing, in the current language) and the ``step`` checked."""

    ok: bool
    code: str
    message: str
    step: str

    def __str__(self):
        icon = "✅" if self.ok else "⏳" if self.code == "not_attempted" else "❌"
        return f"{icon} {self.message}"


def report(step, answer, **given):
    """Print the one-line verdict of ``diagnose`` (for a one-line check cell)."""
    print(diagnose(step, answer, **given))


def last_index(step_name, /, **given):
    """The largest index a prediction of data step ``step_name`` may name (counting from 0), or None when the
    step's answer is no index."""
    step = STEP_TABLE[step_name]
    return _last_index(step, step.givens(given))


def _last_index(step, g):
    """The largest index an index prediction may name, counting from 0: the last key for 4.5's top key, the
    query's own position for 15.2's induction key (a causal head reads keys up to itself); None for others."""
    from . import learned, predictions

    try:
        if step.right_answer is predictions.top_key:
            return int(np.shape(g.K)[-2]) - 1
        if step.right_answer is learned.induction_key:
            return int(g.query)
    except (AttributeError, TypeError, IndexError):
        return None
    return None


def diagnose(step, answer, **given):
    """Check ``answer`` for ``step`` (one of STEPS), the right answer being computed from ``given``."""
    name = step if isinstance(step, str) else repr(step)
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")  # a learner's overflow is a verdict, not a warning
            if name in FUNCTION_STEPS:
                return _judge_function(name, FUNCTION_STEPS[name], answer, given)
            return _diagnose(name, answer, given)
    except Exception as e:  # pragma: no cover - a checker bug must not break a learner's cell
        return _verdict("checker_error", name, "checker_error", e=f"{type(e).__name__}: {e}")


# ---------------------------------------------------------------- the flow, in the order the docstring gives


def _verdict(code, step, key, **fields):
    return Diagnosis(code == "ok", code, msg(key, **fields), step)


def _diagnose(name, answer, given):
    """The verdict, or "bad_task" when the step is unknown or its givens are wrong."""
    step = STEP_TABLE.get(name)
    if step is None:
        return _verdict("bad_task", name, "bad_task", e=msg("unknown_step", step=name, steps=", ".join(STEPS)))
    missing = [k for k in step.needs if k not in given]
    extra = [k for k in given if k not in step.needs + step.optional + LABELS]
    if missing or extra:
        return _verdict(
            "bad_task",
            name,
            "bad_task",
            e=msg(
                "step_givens",
                step=name,
                needs=list(step.needs),
                optional=list(step.optional),
                missing=missing,
                extra=extra,
            ),
        )
    try:
        g = step.givens(given)
    except Exception as e:  # givens attn_core rejects: the exercise author's bug
        return _verdict("bad_task", name, "bad_task", e=f"{type(e).__name__}: {e}")
    return _judge(name, step, g, answer)


def _judge(name, step, g, answer):
    """Test the answer against the right one, the mistakes and what it is evidence of, in that order."""
    # A projection's name labels its W too: Q -> W_Q, and the fresh data's Q_new -> W_Q (the matrix it is)
    labels = {"sym": g.name or step.symbol, "w": f"W_{g.name.removesuffix('_new')}" if g.name else "W"}

    def verdict(code, key, **fields):
        return _verdict(code, name, key, **labels, **fields)

    def where(index, shape):
        return place(index, shape, g.tokens, step.columns_are_keys)

    if answer is Ellipsis:
        return verdict("not_attempted", "not_attempted")
    if answer is None:
        return verdict("is_none", "is_none", kind=msg(step.answer.kind))
    reading = step.answer.read(answer)
    a = reading.array
    if a is None:
        hint = msg(_type_hint(step, answer)) if step.answer.type_hint else ""
        kind = step.answer.kind
        if _complex(answer) and kind in ("kind_numbers", "kind_number"):  # numbers, but not the real ones asked for
            kind, hint = f"{kind}_real", msg("complex_not_real")
        return verdict("wrong_type", "wrong_type", got=reading.got, kind=msg(kind), hint=hint)
    if close(a, g.expected, whole=step.answer.whole):
        fill = None if step.answer.single else evidence.finite_fill(a, g)
        if fill is not None:  # within the tolerance, but the blocked keys keep a weight: −∞ is what a mask is
            return verdict("finite_fill", "almost_finite_mask", **evidence.fill_fields(fill))
        decimals = None if step.answer.single or step.answer.whole else rounded_within(a, g.expected)
        if decimals is not None:  # within the tolerance by luck of the numbers: rounding told wherever it shows
            return verdict("almost_right", "almost_rounded_within", decimals=decimals)
        return verdict("ok", "ok_number" if step.answer.single else "ok", shape=shape_text(a.shape))
    if step.answer.single and not np.isfinite(a).all():  # a prediction is a number worked out, not NaN or ∞
        return verdict("not_finite", "prediction_not_finite", got=str(float(a)))
    if step.answer.whole and np.isfinite(a).all() and not float(a).is_integer():
        found = _mistakes_made(step, g, a, labels)  # a reasoning whose number is not whole (√2, the root itself)
        if found:
            code, text = found[0]
            if len(found) > 1:
                text = msg("several_reasons") + msg("or_perhaps").join(text for _, text in found)
            return Diagnosis(False, code, text, name)
        return verdict("not_whole", "prediction_not_whole", got=repr(float(a)))
    last = _last_index(step, g)
    if last is not None and a.size == 1 and not 0 <= float(a) <= last:  # no key or position has that number
        causal = step.right_answer is not None and getattr(step.right_answer, "__name__", "") == "induction_key"
        key = "prediction_after_the_query" if causal and float(a) > last else "prediction_out_of_range"
        return verdict("wrong_prediction", key, last=last)
    integers = None if step.answer.single else evidence.integer_dtype(reading, a, g)
    if integers == "int_dtype":  # the right numbers cut to whole ones: that, not a mistake its zeros look like
        return verdict("int_dtype", integers, dtype=reading.dtype)
    fill = None if step.answer.single else evidence.finite_fill(a, g)
    if fill is not None:  # near or not (−5 leaves a lot of weight), the blocked scores were a finite number
        key = "almost_finite_mask" if nearly(a, g.expected) else "finite_mask_fill"
        return verdict("finite_fill", key, **evidence.fill_fields(fill))
    found = _mistakes_made(step, g, a, labels)
    if found:
        code, text = found[0]
        if len(found) > 1:  # a prediction that more than one wrong reasoning gives: say each, blame none
            text = msg("several_reasons") + msg("or_perhaps").join(text for _, text in found)
        return Diagnosis(False, code, text, name)
    if integers is not None:
        return verdict("int_dtype", integers, dtype=reading.dtype)
    if step.answer.single and not np.isfinite(a).all():  # a prediction is a number worked out, not NaN or ∞
        return verdict("not_finite", "prediction_not_finite", got=str(float(a)))
    if step.answer.finite:
        found = evidence.not_finite(a, g)
        if found is not None:
            code, key, first, row = found
            fields = {"count": int((~np.isfinite(a)).sum()), "where": where(first, a.shape)}
            if row is not None:
                fields["row"] = where(row, a.shape)
            if isinstance(key, tuple):  # every row NaN: the other causes that give these NaN too, as clauses
                key, *also = key
                fields["also"] = "".join(msg(f"{k}_also" if k.startswith("mask_") else k) for k in also)
            return verdict(code, key, hint=msg(step.finite_hint), **fields)
    shift = None if step.answer.single else evidence.offset(a, g)
    if shift is not None and not any(rule.broken_at(a, g) is not None for rule in step.rules):  # a rule says more
        return verdict("an_offset", "an_offset", shift=msg("offset_above" if shift > 0 else "offset_below"))
    if not step.answer.single and a.dtype != bool:
        near = evidence.almost(reading, a, g)
        if near is not None:
            key, fields = near
            return verdict("almost_right", key, **fields)
    if a.shape != g.expected.shape:
        return verdict(
            "wrong_shape",
            "wrong_shape",
            expected=shape_text(g.expected.shape),
            got=shape_text(a.shape),
            axes=_axes_text(step, g.expected.ndim),
            hint=msg(_shape_hint(step, g, a), **labels, want=g.expected.ndim, have=a.ndim, **_lengths(g, a)),
        )
    for rule in step.rules:
        index = rule.broken_at(a, g)
        if index is not None:
            return verdict(rule.code, rule.message, where=where(index, a.shape))
    if step.answer.single:
        return verdict("wrong_prediction", "wrong_prediction", explain=msg(step.entry, **labels))
    factor = evidence.multiple(a, g)
    if factor is not None:
        named = _factor_text(factor)
        if named is None:
            return verdict("a_multiple", "a_multiple_plain")
        return verdict("a_multiple", "a_multiple", factor=named)
    index = largest_difference(a, g.expected)
    row_and_column = dict(zip(("i", "j"), index[-2:]))  # none for a single number
    return verdict(
        "wrong_values", "wrong_values", where=where(index, a.shape), entry=msg(step.entry, **row_and_column, **labels)
    )


def _complex(answer):
    """``answer`` is complex numbers (an array or list of them, or one): numbers, but not real ones."""
    if isinstance(answer, complex):
        return True
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return isinstance(answer, (np.ndarray, np.generic, list, tuple)) and np.asarray(answer).dtype.kind == "c"
    except Exception:
        return False


def _type_hint(step, answer):
    """The message key of the hint after a wrong type, right for what was handed in: a mask of 0 and −∞ (or
    a large negative number) is additive (``M == 0``, never ``.astype(bool)``, which inverts it); a 0/1
    array may be cast."""
    if step.answer.type_hint != "mask_type":
        return step.answer.type_hint
    a = read_numbers(answer).array
    if a is None or a.size == 0:
        return "mask_type"
    values = set(np.unique(a).tolist())
    if 0.0 in values and len(values) == 2 and min(values) <= -1e4:
        return "mask_type_additive"
    if values <= {0.0, 1.0}:
        return "mask_type_01"
    return "mask_type"


def _mistakes_made(step, g, a, labels):
    """(code, message) of the known mistakes whose answer ``a`` is: the first one for an array; for a
    prediction (one number, which different reasonings can share) every one with a message of its own."""
    single = step.answer.single
    found = []
    for mistake in step.mistakes:
        for made in _made(mistake.makes, g):
            if (same_prediction if single else same)(a, np.asarray(made.answer)):
                lead = msg("because_of_weights", **labels) if mistake.via_weights else ""
                text = lead + msg(mistake.message, **labels, **made.fields)
                if not single:
                    return [(mistake.code, text)]
                if text not in (said for _, said in found):
                    found.append((mistake.code, text))
    return found


# The steps whose axes words describe a matrix (rows, columns): with one more axis in front (heads, a batch)
# the words say so.
MATRIX_AXES = {"axes_XW", "axes_S", "axes_O", "axes_mask", "axes_dV", "axes_dQ", "axes_dK"}


def _axes_text(step, ndim):
    """What the axes of the right answer are, in words: a matrix's, or a stack of them (8.3's heads)."""
    if step.axes in MATRIX_AXES and ndim == 3:
        return msg("axes_stacked", axes=msg(step.axes))
    return msg(step.axes)


def _shape_hint(step, g, a):
    """The message key of the first shape hint that matches the answer's shape (and, for a hint that names
    a cause, its numbers), else a general one. Three or more axes in the reverse order: ``.T``, which on such
    an array reverses every axis, not only the last two."""
    expected = g.expected
    if a.ndim >= 3 and a.shape == expected.shape[::-1] and a.shape != expected.shape:
        return "hint_reversed_axes"
    for hint in step.shape_hints:
        shape = _attempt(hint.shape, g)
        if shape is None or a.shape != tuple(shape):
            continue
        if hint.made is None or any(same(a, np.asarray(made.answer)) for made in _made(hint.made, g)):
            return hint.message
    if a.ndim != expected.ndim:
        return "fewer_axes" if a.ndim < expected.ndim else "more_axes"
    shorter = [axis for axis, (n, want) in enumerate(zip(a.shape, expected.shape)) if n != want]
    if len(shorter) == 1 and a.shape[shorter[0]] < expected.shape[shorter[0]]:
        axis = shorter[0] - a.ndim
        if _cut_from(a, expected, shorter[0]):  # X[:3]: rows of the right answer left out, no product
            return {-1: "hint_fewer_columns" if a.ndim > 1 else "hint_fewer_entries", -2: "hint_fewer_rows"}.get(
                axis, "hint_shorter_axis"
            )
        if step.shape_hint != "shape":  # a step without a matrix product (softmax, a table): its own words
            return step.shape_hint
        if a.ndim >= 2 and axis == -1:  # A @ Q: a product by another matrix, perhaps, or a slice
            return "hint_fewer_columns_as_wide" if _as_wide(g, a.shape[-1]) else "hint_fewer_columns_unsliced"
        if a.ndim >= 2 and axis == -2:
            return "hint_fewer_rows_unsliced"
        return step.shape_hint
    if a.ndim >= 3 and sorted(a.shape) == sorted(expected.shape):  # .transpose(1, 0, 2): the axes in another order
        return "hint_axes_permuted"
    return step.shape_hint


def _lengths(g, a):
    """The one axis where ``a`` is shorter than the right answer: its number from 0 and both lengths (and the
    given matrices as wide as ``a``, ``names``)."""
    shorter = [axis for axis, (n, want) in enumerate(zip(a.shape, g.expected.shape)) if n != want]
    if a.ndim != g.expected.ndim or len(shorter) != 1:
        return {}
    names = msg("list_separator").join(_as_wide(g, a.shape[-1])) if a.ndim >= 2 else ""
    return {"axis": shorter[0], "length": a.shape[shorter[0]], "wanted": g.expected.shape[shorter[0]], "names": names}


def _cut_from(a, right, axis):
    """Every slice of ``a`` along ``axis`` is one of the right answer's (``X_new @ W[:, :1]``, a range that
    stops early): the evidence of a slice, not of a product by another matrix."""
    parts = list(np.moveaxis(right, axis, 0))
    return all(any(same(x, y) for y in parts) for x in np.moveaxis(a, axis, 0))


def _as_wide(g, width):
    """The names of the given matrices ``width`` columns wide (``A @ Q`` has Q's width)."""
    given = {name: getattr(g, name, None) for name in MATRICES}
    return [name for name, m in given.items() if isinstance(m, np.ndarray) and m.ndim == 2 and m.shape[-1] == width]


def _made(make, g):
    """What ``make(g)`` hands in, as a list of ``Made`` (none when it cannot be made for these givens)."""
    result = _attempt(make, g)
    if result is None:
        return []
    items = result if isinstance(result, list) else [result]
    return [item if isinstance(item, Made) else Made(item) for item in items if item is not None]


def _attempt(make, g):
    """``make(g)``, or None when it cannot be computed for these givens (e.g. a product whose shapes do
    not fit: that mistake cannot be made here)."""
    try:
        return make(g)
    except Exception:
        return None


# ---------------------------------------------------------------- find the bug: a function's answers


def _judge_function(name, step, answer, given):
    """The verdict on a fixed function, from what it returned on the checker's arguments."""
    extra = [k for k in given if k not in LABELS]
    if extra:
        return _verdict(
            "bad_task",
            name,
            "bad_task",
            e=msg("step_givens", step=name, needs=[], optional=[], missing=[], extra=extra),
        )
    labels = {"sym": given.get("name") or name}
    if answer is Ellipsis:
        return _verdict("not_attempted", name, "not_attempted", **labels)
    if answer is None:
        return _verdict("is_none", name, "is_none", kind=msg("kind_function"), **labels)
    if not isinstance(answer, FunctionCalls):
        got = getattr(answer, "type_name", type(answer).__name__)  # the grader's stand-in names what it was
        return _verdict("wrong_type", name, "fn_not_function", got=got, **labels)
    code, key, fields = functions.judge(
        step, answer, lambda s, value, g: _diagnose(s, value, g), lambda s, value, g: _codes_made(s, value, g)
    )
    fields = {k: v.text(**labels) if isinstance(v, functions.Said) else v for k, v in fields.items()}
    return _verdict(code, name, key, **labels, **fields)


def _codes_made(name, answer, given):
    """The codes of every known mistake of data step ``name`` that makes ``answer`` from ``given`` (a value
    two mistakes make alike, QKᵀ/d_k where d_k² = d_v, has both): a function's calls then name the mistake
    they all share."""
    step = STEP_TABLE[name]
    g = step.givens(given)
    a = np.asarray(answer, dtype=float)
    return {
        mistake.code
        for mistake in step.mistakes
        if any(same(a, np.asarray(made.answer)) for made in _made(mistake.makes, g))
    }
