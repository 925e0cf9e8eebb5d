"""The givens of one check: the task's arrays and settings, read and validated once, plus what the step
derives from them (the right answer, where it is masked). Every mistake, shape hint and rule reads them
from here; nothing is written back."""

from dataclasses import dataclass
from enum import Enum

import numpy as np

from ... import _validate as v
from ..messages import msg

MATRICES = ("X", "W", "Q", "K", "V", "A", "S")
LABELS = ("name", "tokens")  # taken by every step: they only label the messages


class Stage(Enum):
    """How far along scaled dot-product attention a step's answer is. A mistake made on the way to the
    scores or the weights is carried on to it (softmax, then ·V): see ``mistakes``."""

    SCORES = "scores"
    WEIGHTS = "weights"
    OUTPUT = "output"


@dataclass(frozen=True, eq=False)
class Givens:
    """The task's inputs (float64 copies; None when the step does not take them) and what is derived.

    ``d_k`` defaults to the width of Q (1 without Q), ``scaled`` to True (the scores steps fix it),
    ``tokens`` to ``()``: given, they name the rows and columns in the messages."""

    X: np.ndarray | None = None
    W: np.ndarray | None = None
    Q: np.ndarray | None = None
    K: np.ndarray | None = None
    V: np.ndarray | None = None
    A: np.ndarray | None = None
    S: np.ndarray | None = None  # scores; −∞ marks a masked one
    mask: np.ndarray | None = None  # boolean, True = may attend
    d_k: float = 1.0
    scaled: bool = True
    n: int | None = None  # the number of positions of a causal mask
    name: str | None = None  # the learner's variable, e.g. "QKT_new" ("Q" also labels W_Q)
    tokens: tuple[str, ...] = ()
    # derived by the step (Step.givens)
    stage: Stage | None = None  # None: the step is not one of scores → weights → output
    expected: np.ndarray | None = None  # the right answer, computed with attn_core
    unmasked: np.ndarray | None = None  # True where the answer is not masked out (a score that is not −∞,
    #                                     a weight that may be non-zero); None: no masked entry to check


def read_givens(given):
    """The ``Givens`` of a ``diagnose(step, answer, **given)`` call. Raises TypeError / ValueError (with a
    message from the catalog) for givens that attn_core would reject: the check reports "bad_task"."""
    arrays = {key: _matrix(x, key) for key, x in given.items() if key in MATRICES}
    mask = _mask(given.get("mask"))
    d_k = given.get("d_k", arrays["Q"].shape[-1] if "Q" in arrays else 1)
    scaled, n, name, tokens = given.get("scaled", True), given.get("n"), given.get("name"), given.get("tokens")
    if isinstance(d_k, bool) or not isinstance(d_k, (int, float, np.integer, np.floating)) or not 0 < d_k < np.inf:
        raise ValueError(msg("given_d_k", got=d_k))
    if not isinstance(scaled, (bool, np.bool_)):
        raise TypeError(msg("given_scaled", got=scaled))
    if "n" in given and (isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1):
        raise ValueError(msg("given_n", got=n))
    if name is not None and not isinstance(name, str):
        raise TypeError(msg("given_name", got=name))
    return Givens(
        **arrays,
        mask=mask,
        d_k=float(d_k),
        scaled=bool(scaled),
        n=n,
        name=name,
        tokens=() if tokens is None else tuple(str(t) for t in tokens),
    )


def _matrix(x, name):
    """A float64 copy of a given array of real numbers with rows × features; S may hold −∞ (masked)."""
    a = np.array(x)  # a copy: the task's arrays are never touched
    if a.dtype.kind not in "iuf":
        raise TypeError(msg("given_not_real", name=name, type=type(x).__name__, dtype=a.dtype))
    if a.ndim < 2:
        raise ValueError(msg("given_few_axes", name=name, shape=a.shape))
    a = a.astype(np.float64)
    v.check_finite(a, name, allow_neg_inf=name == "S")
    return a


def _mask(mask):
    """A copy of a given boolean mask, or None."""
    if mask is None:
        return None
    mask = np.array(mask)
    if mask.dtype != bool:
        raise TypeError(msg("given_mask", dtype=mask.dtype))
    return mask
