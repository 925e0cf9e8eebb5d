"""The homework checker: what is wrong with one step of attention, said without giving the answer away.

    diagnose("scores", QKT, Q=Q, K=K)   -> Diagnosis(ok, code, message, step)
    report("scores", QKT, Q=Q, K=K)     prints one line: "✅ …", "❌ …" or "⏳ 还没作答 …"

The right array is computed from the givens with attn_core's own functions. An answer is then tested in
this order: placeholder (``...`` / None) → type → NaN/∞ → equal to the right array → equal to what a known
mistake gives (each mistake recomputed from the givens, in its step's table order) → shape → rules (each
row sums to 1, masked weights are 0) → wrong values (where the largest difference is). Messages say what
is wrong, why, and the fix in words; never the expected numbers or solution code.

Equal means |answer − right| ≤ ATOL + RTOL·(|right| + max|right|) entry by entry, so a right answer
computed another way (loops, einsum, float32) passes, near-zero entries included.

Degenerate givens can make a mistake give the right array: d_k = 1 (scaled = unscaled), Q = K (QKᵀ is
symmetric, so KQᵀ = QKᵀ), n = 1 (all triangles of a causal mask agree), a mask that hides nothing. The
right array is tested first, so such an answer is reported correct, as it is for those givens. When two
mistakes give the same array, the first in the table is named (e.g. a strict upper triangle mask is both
"inverted" and "upper": it is reported as mask_inverted). Some other ways are simply right and pass:
softmax without subtracting the row maximum (when nothing overflows), −1e9 instead of −∞ before softmax,
and "softmax, zero the masked weights, renormalise each row" (= softmax of the masked scores).

``diagnose`` never raises and never writes into the answer or the givens. Givens that attn_core rejects
give code "bad_task" (an exercise author's bug); an error inside the checker itself "checker_error".

The parts: ``givens`` (the task's inputs, read once), ``steps`` (one table entry per step: its right
answer from ``right``, its mistakes from ``mistakes``, its wrong shapes from ``shapes``, its rules),
``compare`` (reading an answer, "equal"), ``wording`` (shapes and places in messages); every text is in
``attn_core/homework/messages.py``.
"""

import warnings
from dataclasses import dataclass

import numpy as np

from ..messages import msg
from .compare import ATOL, RTOL, close, largest_difference
from .givens import LABELS
from .steps import STEP_TABLE
from .wording import place, shape_text

__all__ = ["ATOL", "RTOL", "STEPS", "Diagnosis", "diagnose", "report"]

STEPS = tuple(STEP_TABLE)  # the names of the steps, in the table's order


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


def diagnose(step, answer, **given):
    """Check ``answer`` for ``step`` (one of STEPS), the right array being computed from ``given``."""
    name = step if isinstance(step, str) else repr(step)
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")  # a learner's overflow is a verdict, not a warning
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
    """Test the answer against the right one, the mistakes, the shape and the rules, in that order."""
    labels = {"sym": g.name or step.symbol, "w": f"W_{g.name}" if g.name else "W"}

    def verdict(code, key, **fields):
        return _verdict(code, name, key, **labels, **fields)

    def where(index, shape):
        return place(index, shape, g.tokens, step.columns_are_keys)

    if answer is None or answer is Ellipsis:
        return verdict("not_attempted", "not_attempted")
    a, got = step.answer.read(answer)
    if a is None:
        hint = msg(step.answer.type_hint) if step.answer.type_hint else ""
        return verdict("wrong_type", "wrong_type", got=got, kind=msg(step.answer.kind), hint=hint)
    if step.answer.finite:  # −∞ only where the right answer has it (masked scores)
        bad = np.isnan(a) | np.isposinf(a) | (np.isneginf(a) & ~np.isneginf(g.expected).any())
        if bad.any():
            return verdict(
                "not_finite",
                "not_finite",
                count=int(bad.sum()),
                hint=msg(step.finite_hint),
                where=where(np.argwhere(bad)[0], a.shape),
            )
    if close(a, g.expected):
        return verdict("ok", "ok", shape=shape_text(a.shape))
    for mistake in step.mistakes:
        wrong = _attempt(mistake.makes, g)
        if wrong is not None and close(a, np.asarray(wrong)):
            lead = msg("because_of_weights") if mistake.via_weights else ""
            return Diagnosis(False, mistake.code, lead + msg(mistake.message, **labels), name)
    if a.shape != g.expected.shape:
        return verdict(
            "wrong_shape",
            "wrong_shape",
            expected=shape_text(g.expected.shape),
            got=shape_text(a.shape),
            axes=msg(step.axes),
            hint=msg(_shape_hint(step, g, a), **labels),
        )
    for rule in step.rules:
        index = rule.broken_at(a, g)
        if index is not None:
            return verdict(rule.code, rule.message, where=where(index, a.shape))
    index = largest_difference(a, g.expected)
    row_and_column = dict(zip(("i", "j"), index[-2:]))  # none for a single number
    return verdict(
        "wrong_values", "wrong_values", where=where(index, a.shape), entry=msg(step.entry, **row_and_column, **labels)
    )


def _shape_hint(step, g, a):
    """The message key of the first shape hint that matches the answer's shape, else a general one."""
    for hint in step.shape_hints:
        shape = _attempt(hint.shape, g)
        if shape is not None and a.shape == tuple(shape):
            return hint.message
    expected = g.expected
    return "fewer_axes" if a.ndim < expected.ndim else "more_axes" if a.ndim > expected.ndim else "shape"


def _attempt(make, g):
    """``make(g)``, or None when it cannot be computed for these givens (e.g. a product whose shapes do
    not fit: that mistake cannot be made here)."""
    try:
        return make(g)
    except Exception:
        return None
